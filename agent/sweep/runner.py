"""``passagent sweep``: every model on every task (and seed), in parallel, resumable, within budgets.

Layout: ``<out>/<sweep_id>/`` holds ``sweep.json`` (the plan: models, tasks, seeds, budgets,
solve and harness options), one run folder per (task, model, seed) exactly as ``solve`` writes
it (``<task_id>/<model>/`` for seed 0, ``<task_id>/<model>+sK/`` for seed K), ``locks/<host>/``
(device leases, and ``leases.jsonl``: one record per evaluation's lease), ``logs/`` (each run's
output) and ``failures/`` (runs that raised).

Parallelism: up to ``workers`` runs at once, each in its own process
(:mod:`.worker`), so model calls overlap; every evaluation leases one device of
``devices`` (:mod:`passagent.tools.process.device_lease`), so at most one evaluation times on each GPU
(or on the CPU) at a time.

State lives in the folders, not in memory: a rerun with the same ``--sweep-id`` skips runs
with a ``result.json``, resumes runs with only a ``config.json`` from their checkpoints, and
recomputes the spend from every run's ``events.jsonl``. Global budgets: US dollars and model
calls count everything recorded in the sweep folder; wall time counts this invocation. When
one is reached no run is started, running ones are stopped (they stay resumable; ``drain``
lets them finish instead) and :func:`run_sweep` returns ``stop_reason``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, Field

from ...tools.errors import PassagentError
from ...tools.evaluation.evaluate import EvalOptions
from ..run.archive import safe_name
from ..exit_codes import MODEL_SIDE_REASONS
from ..run.loop import SolveConfig
from ..numbers import result_words
from ..run.runstate import EventTallies, Tally, load_run
from .selectors import TaskRef
from .worker import UNFINISHED_RC, Executor, LocalExecutor, failure_path, seeded_name

SWEEP_FILE = "sweep.json"
#: Offset between the harness input seeds of consecutive sweep seeds, so their draws never overlap.
EVAL_SEED_STRIDE = 1000


class SweepBudgets(BaseModel):
    """Global limits of a sweep (None: no limit)."""

    budget_usd: float | None = Field(None, gt=0, description="US dollars, summed over every run in the sweep folder")
    max_calls: int | None = Field(None, gt=0, description="model calls, summed over every run in the sweep folder")
    max_wall_s: float | None = Field(None, gt=0, description="seconds of wall-clock time of this invocation")


class SweepSpec(BaseModel):
    """The plan of a sweep, recorded in ``sweep.json`` so a rerun continues the same sweep."""

    sweep_id: str = Field(description="folder name under the output root")
    models: list[str] = Field(min_length=1, description="model specs, as for `passagent solve --model`")
    tasks: list[dict[str, str]] = Field(min_length=1, description="selected tasks: {'spec': ..., 'id': ...}")
    seeds: int = Field(1, ge=1, description="runs per (model, task), seeds 0..K-1")
    devices: list[str] = Field(default_factory=lambda: ["cpu"], description="device pool the evaluations lease")
    solve: dict[str, Any] = Field(default_factory=dict, description="SolveConfig of every run (per-run budgets)")
    eval_options: dict[str, Any] = Field(default_factory=dict, description="EvalOptions of every run (JSON form)")
    budgets: SweepBudgets = Field(default_factory=SweepBudgets)
    models_file: str | None = Field(None, description="models.toml with short names and prices")


@dataclass
class PlannedRun:
    """One (model, task, seed) of the plan and where its folder is."""

    model_spec: str
    model_name: str
    task: TaskRef
    seed: int
    key: str
    dir: Path


@dataclass
class SweepOutcome:
    """What :func:`run_sweep` did.

    Attributes:
        sweep_dir: the sweep's folder.
        total: planned runs. finished: runs with a result (including earlier invocations').
        skipped: runs already finished before this invocation. failed: keys of runs that raised.
        interrupted: runs stopped before finishing (resumable). not_started: runs never launched.
        stop_reason: ``budget_usd``, ``max_calls``, ``wall_time``, ``interrupted`` or None.
        spend: calls, US dollars and tokens over the sweep folder.
        model_failures: keys of finished runs that ended on a model error, repeated format errors
            or a refusal (``agent.exit_codes.MODEL_SIDE_REASONS``).
    """

    sweep_dir: Path
    total: int
    finished: int
    skipped: int
    failed: list[str]
    interrupted: int
    not_started: int
    stop_reason: str | None
    spend: Tally
    wall_s: float
    model_failures: list[str] = field(default_factory=list)


def parse_devices(text: str | None) -> list[str]:
    """``"0,1"`` -> ``["cuda:0", "cuda:1"]``; ``"cpu"`` or None -> ``["cpu"]``; ``cuda:N`` kept.

    ``cpu:N`` entries are stand-in slots of the CPU, each its own lease (a pool of several
    "devices" on a machine without GPUs, for tests and dry runs; see
    :func:`passagent.tools.process.device_lease.leased_device`).

    Raises:
        PassagentError: an entry is neither ``cpu``, ``cpu:N``, a GPU index nor ``cuda[:N]``.
    """
    if not text:
        return ["cpu"]
    out = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        if part.isdigit():
            out.append(f"cuda:{part}")
        elif part in ("cpu", "cuda") or (part.partition(":")[0] in ("cpu", "cuda") and part.partition(":")[2].isdigit()):
            out.append(part)
        else:
            raise PassagentError(f"--devices: {part!r} is not cpu, cpu:N, a GPU index or cuda:N")
    return out


def new_sweep_id() -> str:
    return "sweep-" + time.strftime("%Y%m%d-%H%M%S", time.localtime())


def options_json(options: EvalOptions) -> dict[str, Any]:
    from ..run.solve import _options_to_json

    return _options_to_json(options)


def prepare(out: Path, sweep_id: str | None, models: list[str] | None, tasks: list[TaskRef] | None,
            seeds: int | None = None, devices: list[str] | None = None, solve_config: SolveConfig | None = None,
            eval_options: EvalOptions | None = None, budgets: SweepBudgets | None = None,
            models_file: Path | None = None, write: bool = True) -> SweepSpec:
    """The sweep's plan: a new one, or the recorded one of ``sweep_id`` updated with what is given.

    On a rerun, models, tasks, seeds, devices and budgets given here replace the recorded ones
    (runs already in the folder are still skipped or resumed); per-run solve and harness options
    stay as recorded, so every run of a sweep is comparable. The plan is written to ``sweep.json``
    (with ``write=False`` the caller writes it, :func:`write_spec`, once the models are checked).

    Raises:
        PassagentError: a new sweep without models or tasks, or an unreadable ``sweep.json``.
    """
    sweep_id = sweep_id or new_sweep_id()
    path = Path(out) / safe_name(sweep_id) / SWEEP_FILE
    if path.exists():
        try:
            spec = SweepSpec.model_validate_json(path.read_text())
        except (OSError, ValueError) as exc:
            raise PassagentError(f"{path}: cannot read the recorded sweep ({str(exc).splitlines()[0]})") from None
        update: dict[str, Any] = {}
        if models:
            update["models"] = models
        if tasks:
            update["tasks"] = [{"spec": t.spec, "id": t.id} for t in tasks]
        if seeds:
            update["seeds"] = seeds
        if devices:
            update["devices"] = devices
        if budgets is not None:
            update["budgets"] = budgets
        spec = spec.model_copy(update=update)
    else:
        if not models or not tasks:
            raise PassagentError(f"sweep {sweep_id!r} does not exist yet: give --models and --tasks")
        spec = SweepSpec(
            sweep_id=sweep_id, models=models, tasks=[{"spec": t.spec, "id": t.id} for t in tasks], seeds=seeds or 1,
            devices=devices or ["cpu"], solve=(solve_config or SolveConfig()).model_dump(),
            eval_options=options_json(eval_options or EvalOptions()), budgets=budgets or SweepBudgets(),
            models_file=str(models_file) if models_file else None,
        )
    if write:
        write_spec(out, spec)
    return spec


def write_spec(out: Path, spec: SweepSpec) -> None:
    """Write the plan to ``OUT/SWEEP_ID/sweep.json`` (atomically)."""
    path = Path(out) / safe_name(spec.sweep_id) / SWEEP_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(spec.model_dump_json(indent=2))
    os.replace(tmp, path)


def plan_runs(spec: SweepSpec, out: Path, model_names: dict[str, str]) -> list[PlannedRun]:
    """Every (model, task, seed) of ``spec``: seed-major, then task, then model, so the models
    advance together and a budget stop leaves them comparable."""
    sweep_dir = Path(out) / safe_name(spec.sweep_id)
    runs = []
    for seed in range(spec.seeds):
        for t in spec.tasks:
            for m in spec.models:
                folder = f"{safe_name(t['id'])}/{safe_name(seeded_name(model_names[m], seed))}"
                runs.append(PlannedRun(m, model_names[m], TaskRef(t["spec"], t["id"]), seed, folder, sweep_dir / folder))
    return runs


def run_spec(spec: SweepSpec, out: Path, run: PlannedRun, resume: bool) -> dict[str, Any]:
    """The JSON a worker needs for ``run`` (see :func:`.worker.run_one`)."""
    sweep_dir = Path(out) / safe_name(spec.sweep_id)
    options = dict(spec.eval_options)
    options["seed"] = int(options.get("seed", 0)) + EVAL_SEED_STRIDE * run.seed
    options["device_pool"] = list(spec.devices)
    # Devices are per machine: on a Ray cluster sharing this folder, cuda:0 of each host is its own lock.
    options["lock_dir"] = str(sweep_dir / "locks" / socket.gethostname())
    return {
        "key": run.key, "sweep_dir": str(sweep_dir), "out": str(Path(out)), "sweep_id": spec.sweep_id,
        "task_spec": run.task.spec, "model_spec": run.model_spec, "models_file": spec.models_file,
        "seed": run.seed, "seeds": spec.seeds, "resume": resume, "solve": spec.solve, "eval_options": options,
    }


def resolve_model_names(spec: SweepSpec, check_reachable: bool = True) -> dict[str, str]:
    """Each model spec's client name (it names the run folders), checking each model once.

    Raises:
        ModelConfigError: unknown model, missing key or unreachable server (before any run).
    """
    from ..run.solve import resolve_client

    models_file = Path(spec.models_file) if spec.models_file else None
    return {m: resolve_client(m, models_file, check_reachable).name for m in spec.models}


@dataclass
class SweepState:
    """What the progress view shows; rebuilt by the scheduler from the folders each second."""

    spec: SweepSpec
    runs: list[PlannedRun]
    status: dict[str, str] = field(default_factory=dict)  # key -> pending/running/finished/failed/interrupted
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    tallies: dict[str, Tally] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    stop_reason: str | None = None

    def spend(self) -> Tally:
        total = Tally()
        for t in self.tallies.values():
            for f in dataclasses.fields(Tally):
                setattr(total, f.name, getattr(total, f.name) + getattr(t, f.name))
        return total


def _budget_reached(b: SweepBudgets, spend: Tally, elapsed: float) -> str | None:
    if b.budget_usd is not None and spend.cost_usd >= b.budget_usd:
        return "budget_usd"
    if b.max_calls is not None and spend.calls >= b.max_calls:
        return "max_calls"
    if b.max_wall_s is not None and elapsed >= b.max_wall_s:
        return "wall_time"
    return None


def _set_aside(folder: Path) -> Path:
    k = 1
    while (target := folder.with_name(f"{folder.name}.corrupt-{k}")).exists():
        k += 1
    folder.rename(target)
    return target


def run_sweep(spec: SweepSpec, out: Path, *, workers: int = 2, executor: Executor | None = None,
              on_update: Callable[[SweepState], None] | None = None, drain: bool = False,
              poll_s: float = 0.5, model_names: dict[str, str] | None = None,
              log: Callable[[str], None] | None = None) -> SweepOutcome:
    """Run every unfinished run of ``spec`` with at most ``workers`` at a time.

    Args:
        spec: the plan (from :func:`prepare`).
        out: the output root; the sweep lives in ``out/<sweep_id>``.
        workers: runs at once (model calls overlap; evaluations still take turns per device).
        executor: where runs execute (default: local processes).
        on_update: called with the state about twice a second (the progress view).
        drain: when a global budget is reached, let running runs finish instead of stopping them.
        model_names: spec -> client name, if already resolved (else resolved and checked here).
        log: called with one line per notable event (finished, failed, stopped runs).

    Raises:
        ModelConfigError: a model cannot be used (before any run starts).
    """
    executor = executor or LocalExecutor()
    log = log or (lambda _line: None)
    sweep_dir = Path(out) / safe_name(spec.sweep_id)
    names = model_names or resolve_model_names(spec)
    runs = plan_runs(spec, out, names)
    state = SweepState(spec, runs)
    tallies = EventTallies()
    skipped = 0
    todo: list[tuple[PlannedRun, bool]] = []
    for run in runs:
        info = load_run(run.dir) if run.dir.exists() else None
        if info is not None and info.status == "finished":
            state.status[run.key], state.results[run.key] = "finished", info.result  # type: ignore[assignment]
            skipped += 1
        elif info is not None and info.config is None and (run.dir / "config.json").exists():
            log(f"{run.key}: unreadable config.json, moved to {_set_aside(run.dir).name}; starting it again")
            state.status[run.key] = "pending"
            todo.append((run, False))
        else:
            state.status[run.key] = "pending"
            todo.append((run, info is not None and info.config is not None))
    running: dict[str, tuple[PlannedRun, Any]] = {}
    failed: list[str] = []
    interrupted = 0

    def refresh() -> None:
        for run in runs:
            if run.dir.exists():
                state.tallies[run.key] = tallies.tally(run.dir)

    def stop_all() -> int:
        n = 0
        for key, (run, handle) in list(running.items()):
            executor.stop(handle)
            state.status[key] = "interrupted"
            log(f"{key}: stopped (resumable)")
            n += 1
        running.clear()
        return n

    try:
        while True:
            refresh()
            if state.stop_reason is None:
                state.stop_reason = _budget_reached(spec.budgets, state.spend(), time.monotonic() - state.started)
                if state.stop_reason is not None:
                    log(f"global budget reached ({state.stop_reason}): starting no more runs")
                    if not drain:
                        interrupted += stop_all()
            while state.stop_reason is None and todo and len(running) < workers:
                run, resume = todo.pop(0)
                handle = executor.start(run_spec(spec, out, run, resume), sweep_dir / "logs" / (run.key.replace("/", "__") + ".log"))
                running[run.key] = (run, handle)
                state.status[run.key] = "running"
            for key, (run, handle) in list(running.items()):
                rc = executor.poll(handle)
                if rc is None:
                    continue
                del running[key]
                info = load_run(run.dir) if run.dir.exists() else None
                if info is not None and info.status == "finished":
                    state.status[key], state.results[key] = "finished", info.result  # type: ignore[assignment]
                    log(f"{key}: {info.result.get('exit_reason')}, {result_words(info.result)}")  # type: ignore[arg-type]
                elif rc == UNFINISHED_RC and info is not None and info.status == "partial":
                    # The model service stayed overloaded: not the run's failure. It keeps its
                    # checkpoint and is resumed by the next invocation; it is never scored.
                    state.status[key] = "interrupted"
                    interrupted += 1
                    log(f"{key}: stopped, model unavailable (resumable; rerun the sweep to continue it)")
                else:
                    state.status[key] = "failed"
                    failed.append(key)
                    log(f"{key}: failed (exit {rc}): {_failure_message(sweep_dir, key)}")
            if on_update:
                on_update(state)
            if not running and (not todo or state.stop_reason is not None):
                break
            time.sleep(poll_s)
    except KeyboardInterrupt:
        state.stop_reason = "interrupted"
        interrupted += stop_all()
    finally:
        executor.close()
    refresh()
    if on_update:
        on_update(state)
    finished = sum(1 for s in state.status.values() if s == "finished")
    model_failures = [k for k, r in state.results.items() if r and r.get("exit_reason") in MODEL_SIDE_REASONS]
    outcome = SweepOutcome(sweep_dir, len(runs), finished, skipped, failed, interrupted,
                           sum(1 for s in state.status.values() if s == "pending"), state.stop_reason, state.spend(),
                           time.monotonic() - state.started, model_failures)
    _write_status(sweep_dir, outcome, state)
    return outcome


def _failure_message(sweep_dir: Path, key: str) -> str:
    try:
        return json.loads(failure_path(sweep_dir, key).read_text())["error"]
    except (OSError, ValueError, KeyError):
        return "no error recorded (see its log in logs/)"


def _write_status(sweep_dir: Path, outcome: SweepOutcome, state: SweepState) -> None:
    """``sweep_status.json``: a summary for people; the folders stay the source of truth."""
    data = {k: (str(v) if isinstance(v, Path) else v) for k, v in dataclasses.asdict(outcome).items()}
    data["runs"] = state.status
    data["written_at"] = time.time()
    tmp = sweep_dir / ".sweep_status.json.tmp"
    tmp.write_text(json.dumps(data, indent=2, default=str))
    os.replace(tmp, sweep_dir / "sweep_status.json")
