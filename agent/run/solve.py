"""``passagent solve``: set up a run (model, task, tools, archive), run the loop, write the result.

A run lives in ``<out>/<run_id>/<task_id>/<model>/``. Its ``config.json`` is written first;
``--resume`` reads it back, so a resumed run continues with exactly the settings it started with.
"""

from __future__ import annotations

import dataclasses
import platform
import socket
import sys
import time
from pathlib import Path
from typing import Any

import torch

from ... import __version__
from ...tools.errors import PassagentError
from ...tools.evaluation.evaluate import EvalOptions
from ...tools.evaluation.schema import EvalResult
from ...tools.measure.scoring import ScoringConfig
from ...tools.tasks.loader import Task, load_task
from ...tools.measure.timing import TimingConfig
from .archive import RunArchive, safe_name
from .condense import describe_task
from .confirm import evaluation_of, step_as_of
from ..exit_codes import MODEL_SIDE_REASONS, ExitCode
from .loop import EventCallback, LoopState, RunPaused, SolveConfig, SolveLoop
from ..numbers import ratio_of_evaluation
from .prompting import prompts_digest, render
from ..protocols import Message, ModelClient, ModelConfigError, ToolSpec
from .toolbox import TOOL_PARAMETERS, PassWorkspace, Toolbox
from .events import EventKind

RESULT_VERSION = "1.0"

UNAVAILABLE = "model_unavailable"
INTERRUPTED = "interrupted"


def exit_code(result: dict[str, Any]) -> ExitCode:
    """``passagent solve``'s exit code for a :func:`solve` result (``docs/cli.md``): TEMPFAIL (75)
    stopped resumable; MODEL (4) ended on a model error, format errors or a refusal; FAILED (1)
    no evaluated version was correct at t = -5 on any subgraph (or none was evaluated); else OK."""
    if result.get("resumable"):
        return ExitCode.TEMPFAIL
    if result.get("exit_reason") in MODEL_SIDE_REASONS:
        return ExitCode.MODEL
    correct = result.get("versions_correct")
    if correct is None:  # a result.json written before the field existed: its best version tells
        correct = any(s.get("status") == "correct" for s in result.get("best_subgraphs") or [])
    return ExitCode.OK if correct else ExitCode.FAILED


def prompt_device(options: EvalOptions) -> str:
    """The device the evaluations really run on, as the model is told it.

    With a ``device_pool`` (sweeps) each evaluation leases one of the pool: ``cpu:N`` slots run
    on ``cpu`` (:func:`passagent.tools.process.device_lease.leased_device`), GPUs on themselves.
    """
    if not options.device_pool:
        return options.device
    from ...tools.process.device_lease import leased_device

    names = list(dict.fromkeys(leased_device(d) for d in options.device_pool))
    return names[0] if len(names) == 1 else "one of " + ", ".join(names) + " (whichever is free)"


def resolve_client(spec: str, models_file: Path | None = None, check_reachable: bool = True) -> ModelClient:
    """The model client for ``spec`` (``builtin``, a models-file name, ``openai:...``...).

    Raises:
        ModelConfigError: unknown model, missing API key, or (with ``check_reachable``) an
            unreachable server: one line, before any work starts.
    """
    if spec == "builtin":
        from ..builtin.policy import BuiltinPolicy

        return BuiltinPolicy()
    from ..providers import preflight, resolve_model

    client = resolve_model(spec, models_file)
    if check_reachable:
        preflight(client)
    return client


def new_run_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.localtime()) + f"-{int(time.time() * 1000) % 1000:03d}"


def run_dir(out: Path, run_id: str, task_id: str, model_name: str) -> Path:
    return Path(out) / safe_name(run_id) / safe_name(task_id) / safe_name(model_name)


def check_run_folder(out: Path, run_id: str | None, task_id: str, model_name: str, resume: bool) -> None:
    """Fail before anything is written (or any live view is drawn) where the run folder does not
    fit the request: ``--resume`` of a run that is not there, a new run over an existing one.

    Raises:
        PassagentError: one line naming the folder and what to do.
    """
    if resume:
        if not run_id:
            raise PassagentError("--resume needs --run-id naming the run to resume")
        root = run_dir(out, run_id, task_id, model_name)
        if not (root / "config.json").is_file():
            runs = sorted(p.name for p in Path(out).iterdir() if p.is_dir()) if Path(out).is_dir() else []
            known = f"; the run ids under {out} are {', '.join(runs[-5:])}" + (" ..." if len(runs) > 5 else "") if runs else ""
            raise PassagentError(f"no run {run_id!r} of {task_id} with {model_name} to resume "
                                 f"({root / 'config.json'} is missing){known}")
    elif run_id and (run_dir(out, run_id, task_id, model_name) / "config.json").exists():
        raise PassagentError(f"{run_dir(out, run_id, task_id, model_name)} already holds a run; "
                             "use --resume or another --run-id")


def _options_to_json(options: EvalOptions) -> dict[str, Any]:
    data = dataclasses.asdict(options)
    data["cache_root"] = str(options.cache_root) if options.cache_root else None
    data["lock_dir"] = str(options.lock_dir) if options.lock_dir else None
    return data


def _options_from_json(data: dict[str, Any]) -> EvalOptions:
    data = dict(data)
    data["scoring"] = ScoringConfig(**data["scoring"])
    data["timing"] = TimingConfig(**data["timing"]) if data.get("timing") else None
    data["cache_root"] = Path(data["cache_root"]) if data.get("cache_root") else None
    data["lock_dir"] = Path(data["lock_dir"]) if data.get("lock_dir") else None
    return EvalOptions(**data)


def solve(
    task_spec: str | Task,
    model_spec: str = "builtin",
    *,
    out: Path = Path("runs"),
    run_id: str | None = None,
    resume: bool = False,
    config: SolveConfig | None = None,
    eval_options: EvalOptions | None = None,
    models_file: Path | None = None,
    client: ModelClient | None = None,
    on_event: EventCallback | None = None,
    check_reachable: bool = True,
) -> dict[str, Any]:
    """Run ``passagent solve`` and return its ``result.json`` contents.

    Args:
        task_spec: built-in task id or task folder (or the task, already loaded).
        model_spec: model to drive (``builtin`` by default).
        out: archive root (``runs/``).
        run_id: the run's id (default: a timestamp); with ``resume`` it names the run to resume.
        resume: continue the run ``run_id`` from its checkpoint with its recorded settings.
        config: stopping rule and budgets (ignored on resume: the recorded ones are used).
        eval_options: harness options (likewise); default: CPU; the profile_pass tool profiles on demand.
        models_file: where short model names are defined.
        client: use this client instead of resolving ``model_spec`` (tests, embedding).
        on_event: live-view callback ``(node, state)``.
        check_reachable: check the model's server (preflight, and for a new run a probe with the
            run's tools) before anything is written; the CLI does both before its live view.

    Returns:
        the ``result.json`` contents; or, when the model service stayed overloaded for its whole
        retry budget, ``{"exit_reason": "model_unavailable", "resumable": True, ...}`` and no
        ``result.json`` is written (resume the run later with ``resume=True``).

    Raises:
        TaskError / PassagentError: bad task or options, before any work starts; nothing is written.
        ModelConfigError: unknown model, missing key, unreachable server.
        KeyboardInterrupt: SIGINT (or SIGTERM, through the CLI's handler): the interruption is
            recorded, the archive closed with every event kept, and the run stays resumable.
    """
    task = task_spec if isinstance(task_spec, Task) else load_task(task_spec)
    if resume:
        if client is None:
            client = resolve_client(model_spec, models_file, check_reachable)
        check_run_folder(out, run_id, task.id, client.name, resume=True)
        archive = RunArchive(run_dir(out, run_id, task.id, client.name))  # type: ignore[arg-type]
        recorded = archive.read_json("config.json")
        config = SolveConfig.model_validate(recorded["solve"])
        eval_options = _options_from_json(recorded["eval_options"])
    else:
        client = client or resolve_client(model_spec, models_file, check_reachable)
        if check_reachable:
            probe_tools(client, eval_options or EvalOptions())  # before anything is written
        run_id = run_id or new_run_id()
        check_run_folder(out, run_id, task.id, client.name, resume=False)
        archive = RunArchive(run_dir(out, run_id, task.id, client.name))
        config = config or SolveConfig()
        eval_options = eval_options or EvalOptions()
    try:
        return _run(task, model_spec, client, archive, run_id, config, eval_options, resume, on_event)
    except KeyboardInterrupt as exc:
        if not (archive.root / "config.json").is_file():  # stopped before the run began: leave nothing
            archive.close()
            _remove_empty_run_folder(archive.root, Path(out))
            raise
        # Everything recorded is on disk already (each event is fsync'ed); the stop is recorded
        # too, and a later --resume continues from the last checkpoint.
        n = sum(1 for e in archive.events if e.get("kind") == EventKind.RUN_STOPPED)
        archive.record(f"stopped:{n}", EventKind.RUN_STOPPED, reason=INTERRUPTED, error=str(exc) or "SIGINT")
        raise
    finally:
        archive.close()


def _remove_empty_run_folder(root: Path, out: Path) -> None:
    """Remove a run folder that holds nothing recorded, and its parents up to ``out`` once empty."""
    import shutil

    if any(f.stat().st_size for f in root.rglob("*") if f.is_file()):
        return
    shutil.rmtree(root, ignore_errors=True)
    for parent in root.parents:
        if parent == out or not parent.is_relative_to(out):
            break
        try:
            parent.rmdir()
        except OSError:
            break


def _run(task: Task, model_spec: str, client: ModelClient, archive: RunArchive, run_id: str, config: SolveConfig,
         eval_options: EvalOptions, resume: bool, on_event: EventCallback | None) -> dict[str, Any]:
    """The run itself, once its folder is open: tools, prompts, the loop, the result."""
    toolbox = Toolbox(task, PassWorkspace(archive.root / "workspace"), eval_options)
    if resume:  # profile_pass reuses the latest evaluation, as it would have without the restart
        toolbox.last_evaluation = _latest_evaluation(archive)
    else:  # the tools offered are recorded so exports carry their exact schemas
        record = _config_record(run_id, task, model_spec, client, config, eval_options)
        archive.write_json("config.json", {**record, "tools": [s.model_dump() for s in toolbox.specs()]})
    loop = SolveLoop(client, toolbox, archive, config, on_event)
    device = prompt_device(eval_options)
    system = render("system.md.j2", device=device, baseline=eval_options.baseline,
                    failure_penalty=eval_options.scoring.failure_penalty, patience=config.patience,
                    max_steps=config.max_steps, budget_usd=config.budget_usd,
                    discard_regressions=config.discard_regressions)
    user = render("task.md.j2", task_id=task.id, n_subgraphs=len(task.subgraphs), device=device,
                  baseline=eval_options.baseline, subgraph_listing=describe_task(task))
    try:
        state = loop.run([Message(role="system", content=system), Message(role="user", content=user)],
                         resume=resume)
    except RunPaused as exc:
        # No result.json: the folder stays "partial", which --resume and sweeps continue.
        n = sum(1 for e in archive.events if e.get("kind") == EventKind.RUN_STOPPED)
        archive.record(f"stopped:{n}", EventKind.RUN_STOPPED, reason=UNAVAILABLE, error=str(exc))
        return {"run_id": run_id, "task_id": task.id, "model": client.name, "exit_reason": UNAVAILABLE,
                "resumable": True, "error": str(exc), "run_dir": str(archive.root)}
    result = _result_record(run_id, task, client, state, archive)  # type: ignore[arg-type]
    archive.record("end", EventKind.RUN_END, exit_reason=result["exit_reason"], best_as=result["best_as"])
    archive.write_json("result.json", result)
    return result


def probe_tools(client: ModelClient, options: EvalOptions) -> None:
    """Ask the model's server once, with the run's real tools, whether it serves them (clients
    without a ``probe`` pass at once).

    Raises:
        ModelConfigError: the server cannot serve them (one line).
    """
    client.probe(_tool_specs(options))


def _tool_specs(options: EvalOptions) -> list[ToolSpec]:
    # The specs Toolbox.specs() offers, without a workspace (for the server probe).
    return [ToolSpec(name=name, description=render(f"tools/{name}.md.j2", draws=options.draws), parameters=params)
            for name, params in TOOL_PARAMETERS.items()]


def _latest_evaluation(archive: RunArchive) -> EvalResult | None:
    latest = None
    for e in archive.events:
        if "evaluation" in e:
            latest = e["evaluation"]
    try:
        return EvalResult.model_validate(latest) if latest is not None else None
    except ValueError:  # recorded by another schema version: profile_pass evaluates again
        return None


def _config_record(run_id: str, task: Task, model_spec: str, client: ModelClient, config: SolveConfig,
                   eval_options: EvalOptions) -> dict[str, Any]:
    model_config = client.config()
    return {
        "run_id": run_id,
        "task_id": task.id,
        "task_path": str(task.path),
        "model_spec": model_spec,
        "model": model_config,
        "solve": config.model_dump(),
        "eval_options": _options_to_json(eval_options),
        "versions": {"passagent": __version__, "torch": torch.__version__, "python": sys.version.split()[0]},
        "prompts_sha256": prompts_digest(),
        "host": socket.gethostname(),
        "platform": platform.platform(),
        "created_at": time.time(),
    }


def _result_record(run_id: str, task: Task, client: ModelClient, state: LoopState, archive: RunArchive) -> dict[str, Any]:
    # The evaluation best_as came from (a confirmed version has two; its score is the lower).
    best_eval = evaluation_of(archive.events, state.get("best_version"), state.get("best_as"))
    return {
        "schema_version": RESULT_VERSION,
        "run_id": run_id,
        "task_id": task.id,
        "model": client.name,
        "exit_reason": state.get("exit_reason"),
        "summary": state.get("summary"),
        "error": state.get("error"),
        "best_as": state.get("best_as"),
        "best_version": state.get("best_version"),
        # The AS the best version's own step measured (higher than best_as where a re-evaluation
        # confirmed it lower, agent/run/confirm.py), and AS / AS(Inductor) of best_as's evaluation.
        "best_step_as": step_as_of(archive.events, state.get("best_version")),
        "best_ratio_to_inductor": ratio_of_evaluation(best_eval),
        "versions_correct": sum(1 for e in archive.events if e.get("kind") == EventKind.TOOL_RESULT and any(
            s.get("status") == "correct" for s in (e.get("evaluation") or {}).get("subgraphs") or [])),
        "best_scores": best_eval["scores"] if best_eval else None,
        "best_other_scores": best_eval.get("other_scores") if best_eval else None,
        "best_subgraphs": [
            {k: s[k] for k in ("name", "status", "matches", "speedup_vs_eager", "speedup_vs_inductor")}
            for s in best_eval["subgraphs"]
        ] if best_eval else None,
        "evaluations": state.get("evaluations", 0),
        "steps": state.get("step", 0),
        "input_tokens": state.get("input_tokens", 0),
        "output_tokens": state.get("output_tokens", 0),
        "cost_usd": state.get("cost_usd", 0.0),
        "wall_s": state.get("wall_s", 0.0),
        "finished_at": time.time(),
    }


__all__ = ["solve", "resolve_client", "exit_code", "check_run_folder", "prompt_device", "ModelConfigError"]
