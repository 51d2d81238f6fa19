"""One sweep on one GPU against the same sweep on every GPU: throughput and timing agreement.

    python3 benchmarks/multi_gpu_sweep.py --devices 0,1 --work /tmp/mgs --phases prewarm,warmup
    python3 benchmarks/multi_gpu_sweep.py --resume /tmp/mgs/multi-gpu-sweep-XXXX --phases single
    python3 benchmarks/multi_gpu_sweep.py --resume /tmp/mgs/multi-gpu-sweep-XXXX --phases multi
    python3 benchmarks/multi_gpu_sweep.py --resume /tmp/mgs/multi-gpu-sweep-XXXX --phases single-again
    python benchmarks/multi_gpu_sweep.py --devices cpu --tasks task_032 --phases prewarm,warmup --work /tmp/mgs-dry
    python benchmarks/multi_gpu_sweep.py --report benchmarks/results/multi_gpu_sweep-2026-11-30-0743.json.gz

The built-in policy (deterministic) sweeps the same tasks with ``passagent sweep``, each phase in a
fresh runs folder with the same workers (default two per device of the multi-device sweep, so the
one-device sweep runs as many at once; its evaluations queue on its one device lease). Phases:
``prewarm`` (every subgraph's IR inspection into the cache template), ``warmup`` (every device;
compiles every candidate once into the template), ``single`` (the first device) and ``multi``
(every device), each from its own copy of the template with the tasks longest first by the
warm-up's evaluation-lease seconds, and, only when named, ``single-again``: the control, the
one-device sweep again after the multi-device one, whose difference from the first is the host's
drift between sweeps.

A device machine's call is short (ten minutes), so the phases run over several calls on one
machine: ``--resume`` continues the work folder the first printed (its ``state.json`` holds every
phase so far; the settings must match). ``--time-budget`` bounds one invocation; each phase gets a
share as the sweep's ``--max-wall`` (a sweep it stops is reported incomplete). Every child gets
NVLink multicast off (:data:`MULTICAST_OFF`) and no shared compiler cache, and the environment it
started with is sampled from ``/proc`` and recorded. The figures and checks are in
``multi_gpu_analysis.py``; JSON and Markdown go to ``--out`` (default ``$OUT``). Exit code: 0
every check passes, 1 one fails, 2 (``--report``) the file is not a result.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from unittest.mock import patch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the analysis lives beside this script
from multi_gpu_analysis import (MULTICAST_OFF, SWEEPS, analyse, count_noun, load_state, longest_first,  # noqa: E402
                                markdown, report)

#: Long-tail built-in tasks on which the built-in policy evaluates passes (13 evaluations in all;
#: found with ``benchmarks/policy_coverage.py``); every other long-tail task finishes after
#: inspecting. Those whose passes are correct on every subgraph come first.
EVALUATING = ["task_082", "task_032", "task_033", "task_003", "task_092", "task_004", "task_072", "task_035",
              "task_050", "task_020"]
PHASES = ("prewarm", "warmup", "single", "multi", "single-again")
DEFAULT_PHASES = PHASES[:4]
SHARED_CACHE_VARS = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")
#: Settings an invocation with ``--resume`` must share with the one it continues.
RESUMED_SETTINGS = ("tasks", "seeds", "workers", "multi_pool", "single_pool")


def ensure_importable() -> None:
    """Make ``import passagent`` resolve to this checkout here and in every child: unless the
    installed passagent is this checkout, a folder holding a ``passagent`` link to it goes first
    on ``sys.path`` and ``PYTHONPATH``."""
    try:
        import passagent

        if Path(passagent.__file__).resolve().parent == REPO:
            return
    except ImportError:
        pass
    shim = Path(tempfile.mkdtemp(prefix="passagent-import-"))
    (shim / "passagent").symlink_to(REPO, target_is_directory=True)
    sys.path.insert(0, str(shim))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(shim), os.environ.get("PYTHONPATH")) if p)
    for name in [m for m in sys.modules if m == "passagent" or m.startswith("passagent.")]:
        del sys.modules[name]


def pools(devices: str) -> tuple[list[str], list[str]]:
    """(the multi-device pool, the one-device pool: its first device) for ``--devices``: GPU
    indices or ``cuda:N``, or ``cpu[:N]`` for N (default 2) stand-in slots of the CPU (dry runs).
    Raises SystemExit with fewer than two devices."""
    from passagent.agent.sweep.runner import parse_devices

    kind, _, n = devices.partition(":")
    multi = [f"cpu:{i}" for i in range(int(n) if n.isdigit() else 2)] if kind == "cpu" else parse_devices(devices)
    if len(multi) < 2:
        raise SystemExit(f"--devices {devices}: give at least two devices")
    return multi, multi[:1]


def default_tasks(n: int) -> list[str]:
    """The first ``n`` long-tail tasks: those the built-in policy evaluates passes on first."""
    from passagent.tools.tasks.builtin import load_manifest

    long_tail = [row["id"] for row in load_manifest() if row.get("long_tail")]
    first = [t for t in EVALUATING if t in long_tail]
    return (first + [t for t in long_tail if t not in first])[: max(n, 1)]


def error_summary(message: str, width: int = 300) -> str:
    """A multi-line error in one line: its first line and, where there are more, its last
    non-empty one (a worker's traceback says what failed first and why last), each cut to ``width``."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    if not lines:
        return "(no message)"
    return lines[0][:width] if len(lines) == 1 else f"{lines[0][:width]} ... {lines[-1][:width]}"


def prewarm_ir(task_ids: list[str], cache_root: Path, parallel: int, deadline: float, devices: list[str]) -> dict[str, Any]:
    """Every subgraph's IR inspection (what a sweep's ``inspect_ir`` computes, cached by device
    type) into ``cache_root``: one process per task, ``parallel`` at a time, spread over
    ``devices``; none started after ``deadline`` (``time.monotonic()``). Returns ``subgraphs``,
    ``parallel``, ``wall_s``, ``errors`` (one line each) and ``not_started`` (subgraphs)."""
    from passagent.agent.builtin.policy import MAX_INSPECTED
    from passagent.tools.process.device_lease import leased_device
    from passagent.tools.inspection.ir import inspect_isolated
    from passagent.tools.tasks.loader import load_task

    jobs = []
    for k, tid in enumerate(task_ids):
        task = load_task(tid)
        jobs.append((task.path, [(i, sg.digest) for i, sg in enumerate(task.subgraphs[:MAX_INSPECTED])],
                     leased_device(devices[k % len(devices)])))
    errors: list[str] = []
    skipped = [0]

    def one(job: tuple[Path, list[tuple[int, str]], str]) -> None:
        path, subgraphs, device = job
        if time.monotonic() > deadline:
            skipped[0] += len(subgraphs)
            return
        try:
            inspect_isolated(path, subgraphs[0][0], subgraphs[0][1], device=device, cache_root=cache_root, also=subgraphs[1:])
        except Exception as exc:  # noqa: BLE001 - the sweep inspects it again and reports
            errors.append(f"{path.name}: {error_summary(str(exc))}")

    t0 = time.monotonic()
    # Many inspection processes at once: no compile or OpenMP pool in each (patch.dict restores the environment).
    with patch.dict(os.environ, TORCHINDUCTOR_COMPILE_THREADS="1", OMP_NUM_THREADS="2"), ThreadPoolExecutor(parallel) as pool:
        list(pool.map(one, jobs))
    return {"subgraphs": sum(len(j[1]) for j in jobs), "parallel": parallel, "wall_s": time.monotonic() - t0,
            "errors": errors, "not_started": skipped[0]}


class EnvSampler(threading.Thread):
    """Every ``period_s``, the environment each new process at or below ``root_pid`` started with
    (``/proc/<pid>/environ``, Linux): the multicast switches and ``CUDA_VISIBLE_DEVICES``, per role."""

    ROLES = {"passagent.agent.sweep.worker": "solve run", "passagent.tools.inspection.match_entry": "evaluation worker",
             "passagent.tools.inspection.ir": "IR inspection", "passagent.agent.cli.app": "sweep command"}

    def __init__(self, root_pid: int, period_s: float = 0.5):
        super().__init__(daemon=True)
        self.root_pid, self.period_s = root_pid, period_s
        self.seen: dict[int, dict[str, Any]] = {}
        self._stop_event = threading.Event()

    def run(self) -> None:
        from passagent.tools.process.children import descendants

        while not self._stop_event.is_set():
            for pid in [self.root_pid, *descendants(self.root_pid)]:
                if pid not in self.seen:
                    self._read(pid)
            self._stop_event.wait(self.period_s)

    def _read(self, pid: int) -> None:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            raw = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            return  # ended before it was read
        role = next((r for mod, r in self.ROLES.items() if mod in cmdline), None)
        if role is not None:  # not compiler subprocesses and the like
            env = dict(kv.split("=", 1) for kv in raw.decode(errors="replace").split("\0") if "=" in kv)
            self.seen[pid] = {"role": role, "multicast": {k: env.get(k) for k in MULTICAST_OFF},
                              "CUDA_VISIBLE_DEVICES": env.get("CUDA_VISIBLE_DEVICES")}

    def stop(self) -> dict[str, Any]:
        """Stop sampling; per role: ``processes``, ``multicast_off`` (how many had
        :data:`MULTICAST_OFF`) and the ``cuda_visible_devices`` values seen."""
        self._stop_event.set()
        self.join(timeout=5)
        roles: dict[str, dict[str, Any]] = {}
        for info in self.seen.values():
            r = roles.setdefault(info["role"], {"processes": 0, "multicast_off": 0, "cuda_visible_devices": set()})
            r["processes"] += 1
            r["multicast_off"] += info["multicast"] == MULTICAST_OFF
            r["cuda_visible_devices"].add(str(info["CUDA_VISIBLE_DEVICES"]))
        return {k: {**r, "cuda_visible_devices": sorted(r["cuda_visible_devices"])} for k, r in roles.items()}


def sweep_env() -> dict[str, str]:
    """This process's environment for a sweep: multicast off, no shared compiler cache, unbuffered."""
    env = {k: v for k, v in os.environ.items() if k not in SHARED_CACHE_VARS}
    return env | MULTICAST_OFF | {"PYTHONUNBUFFERED": "1"}


def run_sweep_phase(label: str, devices: list[str], tasks: list[str], cache: Path, runs_root: Path, log: Path,
                    args: argparse.Namespace, max_wall: float) -> dict[str, Any]:
    """``passagent sweep`` as a user runs it over ``tasks`` (started in that order), timed, with the
    environment of its processes sampled; then its lease log and run archives, read back. A rerun
    with the same ``label`` resumes that sweep (its finished runs are skipped)."""
    from passagent.tools.process.device_lease import busy_profile, read_leases
    from passagent.tools.evaluation.provenance import source_identity

    cmd = [sys.executable, "-m", "passagent.agent.cli.app", "sweep", "--models", "builtin", "--tasks", ",".join(tasks),
           "--workers", str(args.workers), "--devices", ",".join(devices), "--seeds", str(args.seeds),
           "--out", str(runs_root), "--sweep-id", label, "--max-steps", str(args.max_steps), "--patience", str(args.patience),
           "--cache-dir", str(cache), "--max-wall", f"{max(max_wall, 1.0):.0f}", "--quiet"]
    cmd += (["--timing-budget", str(args.timing_budget)] if args.timing_budget else []) + (args.sweep_arg or [])
    code = source_identity(REPO)  # each evaluation starts a fresh worker: this is the code it measures
    print(f"[{label}] {' '.join(cmd[3:])}", flush=True)
    with open(log, "ab") as fh:
        fh.write(f"\n===== {label}: {' '.join(cmd)}\n".encode())
        fh.flush()
        t0, t0_wall = time.monotonic(), time.time()
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=sweep_env(), cwd=REPO)
        sampler = EnvSampler(proc.pid)
        sampler.start()
        try:
            rc = proc.wait(timeout=max_wall + 120)
        except subprocess.TimeoutExpired:  # the sweep's own --max-wall did not stop it
            proc.terminate()
            rc = proc.wait()
        wall = time.monotonic() - t0
        processes = sampler.stop()
    sweep_dir = runs_root / label
    leases = read_leases(sweep_dir / "locks") if (sweep_dir / "locks").exists() else []
    runs, records = collect(sweep_dir, leases)
    finished, planned = sum(r["status"] == "finished" for r in runs), len(tasks) * args.seeds
    phase = {"devices": devices, "workers": args.workers, "tasks": tasks, "task_order": {"tasks": tasks}, "exit_code": rc,
             "code": code, "started_at": t0_wall, "wall_s": wall, "planned_runs": planned, "finished_runs": finished,
             "complete": finished == planned and rc == 0, "solves_per_hour": finished / wall * 3600 if wall > 0 else 0.0,
             "evaluations": len(records), "leases": leases, "busy": busy_profile(leases, window=(t0, t0 + wall)),
             "runs": runs, "evaluation_records": records, "processes": processes}
    b = phase["busy"]
    print(f"[{label}] exit {rc}, {finished}/{planned} runs, {len(records)} evaluations, {wall:.0f} s, most leases "
          f"per device {max(b['max_per_device'].values(), default=0)}, at once {b['max_overall']}", flush=True)
    return phase


def collect(sweep_dir: Path, leases: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(runs, evaluations) of a sweep folder: each run's task, seed, status and best AS; each
    evaluation's task, seed, pass digest, the device its lease named (the lease of the same task
    and pass digest released closest to when its result was logged) and per subgraph the score's
    speedup vs eager and the median times (us) of each variant."""
    from passagent.agent.run.runstate import find_runs, load_run, read_events

    runs, records, unclaimed = [], [], list(leases)
    for path in find_runs(sweep_dir) if sweep_dir.exists() else []:
        info = load_run(path)
        events, _problems = read_events(path)
        runs.append({"run": str(path.relative_to(sweep_dir)), "task": info.task_id, "seed": info.seed,
                     "status": info.status, "best_as": (info.result or {}).get("best_as")})
        for e in events:
            ev = e.get("evaluation") if e.get("kind") == "tool_result" else None
            if not ev:
                continue
            mine = [r for r in unclaimed if r.get("task") == ev.get("task_id") and r.get("pass_sha256") == ev.get("pass_sha256")]
            lease = min(mine, key=lambda r: abs(float(r["end"]) - float(e["time"])), default=None)
            if lease is not None:
                unclaimed.remove(lease)
            subgraphs = [{"index": s["index"], "status": s.get("status"), "speedup_vs_eager": s.get("speedup_vs_eager"),
                          "paired_speedup_vs_eager": s.get("paired_speedup_vs_eager"),
                          "times": {k: {f: t.get(f) for f in ("median_us", "graph_median_us", "n")}
                                    for k, t in (s.get("times") or {}).items()}} for s in ev.get("subgraphs", [])]
            records.append({"task": ev.get("task_id"), "seed": info.seed, "version": e.get("version"),
                            "pass_sha256": ev.get("pass_sha256"), "device_name": ev.get("device_name"),
                            "device": lease["device"] if lease else (ev.get("config") or {}).get("device"),
                            "subgraphs": subgraphs})
    return runs, records


def merge_resumed(earlier: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    """The result of an invocation with ``--resume``: the earlier one's phases and settings, with
    this one's environment records. Raises SystemExit where a :data:`RESUMED_SETTINGS` differs."""
    for key in RESUMED_SETTINGS:
        if earlier.get(key) != now[key]:
            raise SystemExit(f"--resume: {key} differs from the earlier invocation's ({earlier.get(key)} vs {now[key]})")
    return {**earlier, **{k: v for k, v in now.items() if k not in ("started_at", "phases")}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devices", default=None, help="GPUs of the multi-device sweep (0,1; default: every visible GPU, "
                    "or cpu without two), or cpu[:N] for N stand-in slots of the CPU (a dry run)")
    ap.add_argument("--tasks", default=None, help="comma-separated task ids (default: --n-tasks long-tail tasks)")
    ap.add_argument("--n-tasks", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=None, help="runs per task in each sweep (default 1)")
    ap.add_argument("--workers", type=int, default=None, help="runs at once in every sweep (default: 2 per device)")
    ap.add_argument("--max-steps", type=int, default=40, help="per run: model calls at most")
    ap.add_argument("--patience", type=int, default=3, help="per run: evaluations without improvement")
    ap.add_argument("--timing-budget", type=float, default=None, help="seconds of timed calls per subgraph (default: the harness's)")
    ap.add_argument("--sweep-arg", action="append", help="extra argument for every `passagent sweep` (repeatable)")
    ap.add_argument("--order", choices=("warmup-cost", "given"), default="warmup-cost", help="measured sweeps' task order")
    ap.add_argument("--time-budget", type=float, default=520.0, help="seconds for this invocation")
    ap.add_argument("--tolerance", type=float, default=0.03, help="agreement tolerance, a fraction")
    ap.add_argument("--min-ratio", type=float, default=1.8, help="throughput ratio the check asks for")
    ap.add_argument("--work", type=Path, default=None, help="a new work folder is made in this one (default: the "
                    "system's temporary folder)")
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT") or "multi_gpu_sweep_out"))
    ap.add_argument("--phases", default=",".join(DEFAULT_PHASES), help=f"which of {','.join(PHASES)} to run now")
    ap.add_argument("--resume", type=Path, default=None, help="the work folder an earlier invocation on this machine printed: "
                    "its caches and phases are kept and --phases continues it")
    ap.add_argument("--report", type=Path, default=None, help="run nothing: print the report of a saved result (state.json, "
                    "multi_gpu_sweep.json or *.json.gz); exit 0 all checks pass, 1 one fails, 2 not a result")
    args = ap.parse_args()
    if args.report is not None:
        return report(args.report, args.tolerance, args.min_ratio)
    wanted = [p.strip() for p in args.phases.split(",") if p.strip()]
    if unknown := sorted(set(wanted) - set(PHASES)):
        raise SystemExit(f"--phases: unknown {unknown}; choose from {','.join(PHASES)}")
    t_start = time.monotonic()
    ensure_importable()
    import torch

    from passagent.tools.evaluation.evaluate import device_name

    earlier = None
    if args.resume:
        if not (args.resume / "state.json").is_file():
            raise SystemExit(f"--resume {args.resume}: no state.json there (not a work folder of this script on this machine)")
        earlier = load_state(args.resume / "state.json")
        args.devices = args.devices or earlier["devices"]
        args.tasks = args.tasks or ",".join(earlier["tasks"])
        args.seeds, args.workers = args.seeds or earlier["seeds"], args.workers or earlier["workers"]
        args.timing_budget = args.timing_budget or earlier.get("timing_budget")
    n_gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    devices = args.devices or (",".join(str(i) for i in range(n_gpus)) if n_gpus >= 2 else "cpu")
    multi_pool, single_pool = pools(devices)
    args.seeds, args.workers = args.seeds or 1, args.workers or 2 * len(multi_pool)
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else default_tasks(args.n_tasks)
    if args.work:
        args.work.mkdir(parents=True, exist_ok=True)
    work = args.resume or Path(tempfile.mkdtemp(prefix="multi-gpu-sweep-", dir=args.work))
    args.out.mkdir(parents=True, exist_ok=True)
    machine = f"{len(multi_pool)} GPUs" if multi_pool[0].startswith("cuda") else f"{device_name('cpu')}, {len(multi_pool)} stand-in slots"
    result: dict[str, Any] = {
        "started_at": time.time(), "machine": machine, "host": socket.gethostname(), "torch": torch.__version__,
        "devices": devices, "tasks": tasks, "seeds": args.seeds, "workers": args.workers, "multi_pool": multi_pool,
        "single_pool": single_pool, "timing_budget": args.timing_budget, "max_steps": args.max_steps,
        "patience": args.patience, "multicast_env": dict(MULTICAST_OFF), "work": str(work), "phases": {}}
    if earlier is not None:
        result = merge_resumed(earlier, result)
    print(f"multi_gpu_sweep: {machine}; multi {multi_pool}, single {single_pool}; {count_noun(len(tasks), 'task')} x "
          f"{args.seeds} seed(s); {args.workers} workers; work {work}", flush=True)

    template, runs_root, log = work / "cache-template", work / "runs", args.out / "sweeps.log"
    template.mkdir(exist_ok=True)
    deadline = t_start + args.time_budget - 20.0  # 20 s kept for reading the sweeps back and the report
    # Each sweep's share of the time left: about what it needs (evaluations per device).
    weights = {"warmup": 0.8, "single": 1.0, "multi": 1.0 / len(multi_pool) + 0.1, "single-again": 1.0}

    def save() -> None:
        text = json.dumps(result, default=str)
        (work / "state.json").write_text(text)
        (args.out / "multi_gpu_sweep.json").write_text(text)

    if "prewarm" in wanted:
        parallel = max(1, min(16, (os.cpu_count() or 2) // 2))
        budget = 0.25 * (deadline - time.monotonic())
        result["prewarm_ir"] = prewarm_ir(tasks, template, parallel, time.monotonic() + budget, multi_pool)
        print(f"[prewarm] {result['prewarm_ir']}", flush=True)
    save()
    order = tasks
    if measured := [k for k in SWEEPS[1:] if k in wanted]:
        ran = [result["phases"][k] for k in SWEEPS[1:] if k in result["phases"] and k not in measured]
        if ran:  # every measured sweep gets the order the first one ran with
            order = ran[0]["task_order"]["tasks"]
        elif args.order == "warmup-cost":
            order = longest_first(tasks, (result["phases"].get("warmup") or {}).get("leases") or [])
        print(f"task order of the measured sweeps: {', '.join(order)}", flush=True)
    for key in [k for k in SWEEPS if k in wanted]:
        todo = [k for k in SWEEPS if k == key or (k in wanted and k not in result["phases"])]
        max_wall = weights[key] / sum(weights[k] for k in todo) * (deadline - time.monotonic())
        cache = work / f"cache-{key}"
        if key != "warmup":  # a stopped warm-up resumes on its own cache
            shutil.rmtree(cache, ignore_errors=True)
        if not cache.exists():
            shutil.copytree(template, cache)
        try:
            result["phases"][key] = run_sweep_phase(key, multi_pool if key in ("warmup", "multi") else single_pool,
                                                    tasks if key == "warmup" else order, cache, runs_root, log, args, max_wall)
        except Exception:  # noqa: BLE001 - keep and report what was measured so far
            result.setdefault("errors", []).append(f"{key}: {traceback.format_exc()[-3000:]}")
            print(result["errors"][-1], flush=True)
        if key == "warmup":
            shutil.rmtree(template)
            shutil.copytree(cache, template)
        save()

    names = {ev.get("device_name") for ph in result["phases"].values() for ev in ph["evaluation_records"]} - {None}
    if multi_pool[0].startswith("cuda") and names:  # asked of the evaluations: CUDA is never started here
        result["machine"] = f"{len(multi_pool)} x {', '.join(sorted(names))}"
    result["analysis"] = analyse(result, args.tolerance, args.min_ratio)
    text = markdown(result, args.tolerance)
    save()
    (args.out / "multi_gpu_sweep.md").write_text(text + "\n")
    if missing := [k for k in ("single", "multi") if k not in result["phases"]]:
        script = Path(__file__).relative_to(REPO)
        print("\nnot run yet: " + ", ".join(missing) + "; continue on this machine with\n"
              + "\n".join(f"  python {script} --resume {work} --phases {k}" for k in missing), flush=True)
    print(f"\n{text}\n\nthis invocation {time.monotonic() - t_start:.0f} s; JSON: {args.out / 'multi_gpu_sweep.json'}", flush=True)
    return 0 if all(c["ok"] for c in result["analysis"]["checks"]) else 1


if __name__ == "__main__":
    sys.exit(main())
