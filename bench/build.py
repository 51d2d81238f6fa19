"""``passagent bench build``: the whole pipeline, seeded and resumable.

Stages, each resumable from the work folder (default ``~/.cache/passagent/bench``):

1. **capture + cut** one worker process per architecture (``jobs`` at a time); its
   ``candidates/<arch>.json`` summary, written last, marks it done;
2. **plan** dedupe, group, and choose the groups to measure (``plan.json``);
3. **measure** eager vs default Inductor for every planned subgraph (``measurements.*.jsonl``,
   appended per subgraph; ``jobs`` single-threaded workers in parallel);
4. **ship** choose the long-tail mix and write ``tasks/`` and ``manifest.json``.

``state.json`` records the settings that decide what is built (seed, architectures, plan
sizes); a resumed build with other settings is refused unless started fresh. Everything but
the timings is a function of the seed and the torch/transformers versions.

Run one architecture alone with ``python -m passagent.bench.build harvest NAME WORK_DIR SEED``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from .architectures import architecture_names, get_architecture
from .cut import Candidate
from .group import dedupe, group
from .plan import PlannedTask, choose_tasks, plan_measurement
from .sample import write_sample
from .select import FAST_TIMING, LONG_TAIL_SPEEDUP, measure_all, read_results


def default_work_dir() -> Path:
    """``$PASSAGENT_CACHE_DIR/bench`` or ``~/.cache/passagent/bench``."""
    from passagent.tools.evaluation.baseline_cache import default_cache_root

    return default_cache_root() / "bench"


@dataclass
class BuildConfig:
    """Settings of a build.

    Attributes:
        architectures: names to capture (default: every registered one).
        seed: seed of weights, inputs, planning and selection.
        work_dir: intermediate files (captures, candidates, measurements, Inductor cache).
        out_dir: where ``tasks/`` and ``manifest.json`` are written (default: the package).
        jobs: parallel worker processes (each single-threaded when > 1).
        measure_tasks: task candidates measured.
        ship_tasks: tasks shipped.
        max_members: subgraphs per task (3..8).
        control_fraction: share of shipped tasks where Inductor is clearly faster.
        arch_timeout_s: a capture worker is killed after this long.
    """

    architectures: list[str] = field(default_factory=architecture_names)
    seed: int = 0
    work_dir: Path = field(default_factory=default_work_dir)
    out_dir: Path = field(default_factory=lambda: Path(__file__).resolve().parent)
    jobs: int = 2
    measure_tasks: int = 200
    ship_tasks: int = 120
    max_members: int = 6
    control_fraction: float = 0.15
    arch_timeout_s: float = 1200.0

    def identity(self) -> dict[str, Any]:
        """What decides the plan: a resumed build must match it."""
        return {"architectures": self.architectures, "seed": self.seed, "measure_tasks": self.measure_tasks,
                "max_members": self.max_members}


def _worker_env(cfg: BuildConfig) -> dict[str, str]:
    env = dict(os.environ)
    env["TORCHINDUCTOR_CACHE_DIR"] = str(cfg.work_dir / "inductor-cache")
    env["HF_HUB_OFFLINE"] = "1"
    env["TRANSFORMERS_OFFLINE"] = "1"
    env["PYTHONWARNINGS"] = "ignore"
    # One thread per worker: parallel workers do not fight over cores, and a timing is not at
    # the mercy of an OpenMP barrier waiting on a descheduled thread of a busy machine.
    env["OMP_NUM_THREADS"] = "1"
    return env


def _state(cfg: BuildConfig, fresh: bool) -> dict[str, Any]:
    path = cfg.work_dir / "state.json"
    if fresh and cfg.work_dir.exists():
        shutil.rmtree(cfg.work_dir)
    cfg.work_dir.mkdir(parents=True, exist_ok=True)
    if path.is_file():
        state = json.loads(path.read_text())
        if state.get("identity") != cfg.identity():
            raise ValueError(f"{cfg.work_dir} holds a build with other settings ({state.get('identity')}); "
                             "use --fresh or another --work-dir")
        return state
    state = {"identity": cfg.identity(), "stages": {}, "seconds": {}}
    _save_state(cfg, state)
    return state


def _save_state(cfg: BuildConfig, state: dict[str, Any]) -> None:
    tmp = cfg.work_dir / "state.json.tmp"
    tmp.write_text(json.dumps(state, indent=1))
    tmp.replace(cfg.work_dir / "state.json")


# --- stage 1 ----------------------------------------------------------------------------------


def _harvest_one(name: str, cfg: BuildConfig, env: dict[str, str]) -> dict[str, Any]:
    summary = cfg.work_dir / "candidates" / f"{name}.json"
    if summary.is_file():
        return json.loads(summary.read_text())
    log = cfg.work_dir / "logs" / f"{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "passagent.bench.build", "harvest", name, str(cfg.work_dir), str(cfg.seed)]
    with open(log, "w") as f:
        proc = subprocess.Popen(cmd, env=env, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = proc.wait(timeout=cfg.arch_timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            rc = "timeout"
    if summary.is_file():
        return json.loads(summary.read_text())
    arch = get_architecture(name)
    record = {"arch": name, "domain": arch.domain, "source": arch.source, "status": "failed", "stage": "worker",
              "reason": f"capture worker exited ({rc}) without a result; see {log}", "candidates": 0}
    summary.parent.mkdir(parents=True, exist_ok=True)
    (cfg.work_dir / "candidates" / f"{name}.jsonl").write_text("")
    summary.write_text(json.dumps(record, indent=1))
    return record


def capture_stage(cfg: BuildConfig, progress: Progress, env: dict[str, str]) -> list[dict[str, Any]]:
    """Capture and cut every architecture; returns the capture-log records in build order."""
    bar = progress.add_task("capture + cut", total=len(cfg.architectures))
    records: dict[str, dict[str, Any]] = {}

    def one(name: str) -> None:
        records[name] = _harvest_one(name, cfg, env)
        r = records[name]
        where = f"{r['stage']}: " if r.get("stage") else ""
        progress.console.log(f"{name}: {r['status']}" + (f" ({where}{r['reason']})" if r.get("reason") else "")
                             + f", {r.get('candidates', 0)} candidates")
        progress.advance(bar)

    with ThreadPoolExecutor(max_workers=max(1, cfg.jobs)) as pool:
        list(pool.map(one, cfg.architectures))
    ordered = [records[n] for n in cfg.architectures]
    with open(cfg.work_dir / "capture_log.jsonl", "w") as f:
        for r in ordered:
            f.write(json.dumps(r) + "\n")
    return ordered


# --- stage 2 ----------------------------------------------------------------------------------


def load_candidates(cfg: BuildConfig) -> list[Candidate]:
    """Every candidate of every architecture, in build order."""
    out = []
    for name in cfg.architectures:
        path = cfg.work_dir / "candidates" / f"{name}.jsonl"
        if path.is_file():
            out += [Candidate.from_json(json.loads(line)) for line in path.read_text().splitlines() if line]
    return out


def plan_stage(cfg: BuildConfig, captured: list[str]) -> tuple[list[PlannedTask], dict[str, Any]]:
    """Dedupe, group and plan; write the planned members to ``pool/`` as sample folders."""
    cands = load_candidates(cfg)
    unique, total = dedupe(cands)
    groups = group(unique)
    planned = plan_measurement(groups, captured, n_tasks=cfg.measure_tasks, seed=cfg.seed, max_members=cfg.max_members)
    pool = cfg.work_dir / "pool"
    for p in planned:
        for c in p.members:
            folder = pool / c.hash[:24]
            if not (folder / "weight_meta.py").is_file():
                write_sample(folder, c.code, c.metas)
    stats = {
        "subgraphs_cut": total, "candidates": len(cands), "unique_subgraphs": len(unique),
        "dedup_ratio": round(total / max(len(unique), 1), 3),
        "groups": len(groups), "task_candidates": sum(g.is_task() for g in groups),
        "task_candidates_by_category": {c: sum(g.is_task() and g.category == c for g in groups)
                                        for c in ("fusible", "typical", "sole")},
        "planned_tasks": len(planned), "planned_subgraphs": sum(len(p.members) for p in planned),
    }
    digest = hashlib.sha256(json.dumps([[c.hash for c in p.members] for p in planned]).encode()).hexdigest()
    (cfg.work_dir / "plan.json").write_text(json.dumps({"digest": digest, "stats": stats,
                                                        "tasks": [[c.hash for c in p.members] for p in planned]}))
    return planned, stats


# --- stage 3 ----------------------------------------------------------------------------------


def measure_stage(cfg: BuildConfig, planned: list[PlannedTask], progress: Progress,
                  env: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Measure every planned subgraph (resumable); returns rows by subgraph hash."""
    items = sorted({c.hash: cfg.work_dir / "pool" / c.hash[:24] for p in planned for c in p.members}.items())
    done = all_results(cfg)
    bar = progress.add_task("measure eager vs Inductor", total=len(items), completed=sum(i in done for i, _ in items))
    jobs = max(1, cfg.jobs)
    # Shard what is left (a changed plan must not remeasure what another shard's file holds).
    todo = [(i, f) for i, f in items if i not in done]
    shards = [todo[k::jobs] for k in range(jobs)]

    def run(k: int) -> None:
        measure_all(shards[k], cfg.work_dir / f"measurements.{k}.jsonl", env=env,
                    on_progress=lambda n: progress.advance(bar, n) if n else None)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(run, range(jobs)))
    return all_results(cfg)


def all_results(cfg: BuildConfig) -> dict[str, dict[str, Any]]:
    """Every measurement row in the work folder, by subgraph hash."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(cfg.work_dir.glob("measurements.*.jsonl")):
        out.update(read_results(path))
    return out


# --- orchestration ----------------------------------------------------------------------------


def build(cfg: BuildConfig, *, fresh: bool = False, console: Console | None = None) -> dict[str, Any]:
    """Run (or resume) the whole pipeline and write the shipped tasks and manifest.

    Args:
        cfg: the settings.
        fresh: delete the work folder first.
        console: where progress goes (default: stderr).

    Returns:
        The manifest written.

    Raises:
        ValueError: the work folder holds a build with other settings (and ``fresh`` is False),
            or no architecture was captured.
    """
    from .manifest import machine_info, write_tasks

    console = console or Console(stderr=True)
    state = _state(cfg, fresh)
    env = _worker_env(cfg)
    t_start = time.perf_counter()
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        t0 = time.perf_counter()
        records = capture_stage(cfg, progress, env)
        _add_seconds(state, "capture", t0)
        state["stages"]["capture"] = "done"
        _save_state(cfg, state)
        captured = [r["arch"] for r in records if r["status"] in ("ok", "partial")]
        if not captured:
            raise ValueError("no architecture was captured; see the capture log in " + str(cfg.work_dir))
        t0 = time.perf_counter()
        planned, stats = plan_stage(cfg, captured)
        _add_seconds(state, "plan", t0)
        state["stages"]["plan"] = "done"
        _save_state(cfg, state)
        t0 = time.perf_counter()
        results = measure_stage(cfg, planned, progress, env)
        _add_seconds(state, "measure", t0)
        state["stages"]["measure"] = "done"
        _save_state(cfg, state)
    shipped, chosen_stats = choose_tasks(planned, results, captured, n_ship=cfg.ship_tasks,
                                         control_fraction=cfg.control_fraction, seed=cfg.seed)
    planned_hashes = {c.hash for p in planned for c in p.members}
    measured = [r for h, r in results.items() if r.get("ok") and h in planned_hashes]
    shipped_rows = [r for p in shipped for r in p.rows]
    header = _header(cfg, records, captured, stats, chosen_stats, measured, shipped, shipped_rows, state)
    header["machine"] = machine_info(threads=1)
    manifest = write_tasks(shipped, cfg.out_dir, header)
    state["stages"]["ship"] = "done"
    state.setdefault("runs_seconds", []).append(round(time.perf_counter() - t_start, 1))
    _save_state(cfg, state)
    return manifest


def _add_seconds(state: dict[str, Any], stage: str, t0: float) -> None:
    """Stage wall time summed over every run of this build (a resumed run adds what it did)."""
    state["seconds"][stage] = round(state["seconds"].get(stage, 0.0) + time.perf_counter() - t0, 1)


def _header(cfg: BuildConfig, records: list[dict[str, Any]], captured: list[str], stats: dict[str, Any],
            chosen: dict[str, Any], measured: list[dict[str, Any]], shipped: list[PlannedTask],
            shipped_rows: list[dict[str, Any]], state: dict[str, Any]) -> dict[str, Any]:
    import torch

    try:
        import transformers

        tf_version = transformers.__version__
    except ImportError:
        tf_version = None
    failed = [r for r in records if r["status"] in ("failed", "skipped")]
    graphs = sum(v.get("graphs", 0) for r in records for v in r.get("variants", []) if v.get("status") == "ok")
    capture_s = sum(v.get("seconds", 0) for r in records for v in r.get("variants", []))
    slower = sum(1 for r in shipped_rows if r["inductor_us"] > r["eager_us"])
    return {
        "torch_version": torch.__version__,
        "transformers_version": tf_version,
        "seed": cfg.seed,
        "timing": {**asdict(FAST_TIMING), "threads": 1, "statistic": "median", "unit": "us"},
        "long_tail_speedup": LONG_TAIL_SPEEDUP,
        "stats": {
            "architectures": len(records),
            "captured": len(captured),
            "failed_or_skipped": len(failed),
            "captured_by_domain": {d: sum(1 for r in records if r["arch"] in captured and r["domain"] == d)
                                   for d in ("vision", "language", "audio")},
            "graphs_captured": graphs,
            "capture_seconds": round(capture_s, 1),
            "graphs_per_minute": round(60 * graphs / capture_s, 2) if capture_s else None,
            **stats,
            "measured_subgraphs": len(measured),
            "measured_inductor_slower_fraction": round(
                sum(r["inductor_us"] > r["eager_us"] for r in measured) / max(len(measured), 1), 4),
            **chosen,
            "shipped_tasks": len(shipped),
            "shipped_by_category": {c: sum(p.category == c for p in shipped) for c in ("fusible", "typical", "sole")},
            "shipped_subgraphs": len(shipped_rows),
            "shipped_inductor_slower_fraction": round(slower / max(len(shipped_rows), 1), 4),
            "shipped_source_models": len({m for p in shipped for m in p.models}),
            "stage_seconds": state.get("seconds", {}),
            "runs_seconds": state.get("runs_seconds", []),
        },
        "architectures": [{k: r.get(k) for k in ("arch", "domain", "source", "like", "status", "stage", "reason",
                                                 "candidates", "seconds")} for r in records],
    }


def _harvest_main(argv: list[str]) -> int:
    from .harvest import harvest_to_files

    name, work_dir, seed = argv[0], Path(argv[1]), int(argv[2])
    import torch

    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    record = harvest_to_files(get_architecture(name), work_dir, seed)
    print(json.dumps({k: record.get(k) for k in ("arch", "status", "stage", "reason", "candidates", "seconds")}))
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "harvest":
        sys.exit(_harvest_main(sys.argv[2:]))
    sys.exit("usage: python -m passagent.bench.build harvest NAME WORK_DIR SEED")
