"""Two GPUs, one sweep: ``passagent sweep --devices 0,1`` against the same sweep on one GPU.

    PYTHONUNBUFFERED=1 python3 benchmarks/multi_gpu_sweep.py [--devices 0,1] [--n-tasks 10] [--seeds 1]
        [--workers 4] [--time-budget 520] [--out DIR] [--phases P,...] [--resume WORK_DIR]
        [--order warmup-cost|given] [--sweep-order single-first|multi-first]
    python benchmarks/multi_gpu_sweep.py --devices cpu --tasks task_072,task_050 --seeds 1 --workers 2 \\
        --timing-budget 0.05 --time-budget 1200          # dry run without GPUs (cpu:0, cpu:1 stand in)
    python benchmarks/multi_gpu_sweep.py --report benchmarks/results/multi_gpu_sweep-2026-11-30-0407.json.gz

The built-in policy (deterministic) sweeps the same built-in long-tail tasks twice with the
``passagent sweep`` command, each time in a fresh runs folder: once with the first GPU alone
(``--devices 0``) and once with all of them (``--devices 0,1``), with the same number of
workers (by default two per GPU of the larger sweep: the single GPU gets as many runs at once as
it can use, so it is not handicapped; its evaluations queue on the one device lease). Then it
reads:

* the lease log (``<sweep>/locks/<host>/leases.jsonl``: device, start, end, pid, task and pass
  digest of every evaluation): most evaluations at once per device (must be 1) and over all
  devices (should reach the number of GPUs), and the share of the sweep's wall time with every
  GPU busy;
* the run archives (``events.jsonl``): every evaluated candidate's median end-to-end time per
  subgraph, matched across the two sweeps by task, sweep seed, pass digest and subgraph, and the
  GPU it ran on (from its lease); per GPU, how far the multi-GPU sweep's medians are from the
  single-GPU sweep's (eager times of the same evaluations are shown as a control, and CUDA
  kernel times where measured);
* throughput in task-solves (finished runs) per hour of each sweep, and their ratio;
* with ``--phases ... single-again`` (not run by default), a control: the 1-device sweep again,
  from its own copy of the same cache, compared with the first 1-device sweep exactly as the
  multi-device sweep is. On the H200 host the speed drifts between sweeps minutes apart (on
  2026-11-30 the same evaluations held their leases 17% less time in the 2-device sweep than in
  the 1-device sweep just before it, on a host with a second GPU's evaluations to serve as
  well), so the control's disagreement and throughput ratio are the floor that the
  multi-device figures must be read against. The multi-device sweep is also compared with the
  control (rows "against the control instead"), and the host's speed in each sweep is read from
  the lease seconds of the evaluations both made (:func:`matched_lease_time`): on 2026-11-30 the
  control ran at the 2-device sweep's host speed (ratio 1.006) and the first 1-device sweep 12%
  faster, so the control was the reference the drift did not enter;
* ``--report FILE`` runs nothing and prints all of this for a saved result (``state.json``, the
  ``--out`` JSON, or a gzipped copy such as ``benchmarks/results/*.json.gz``);
* the environment of the processes the sweep started (sampled from ``/proc``): the NVLink
  multicast switches (``NCCL_NVLS_ENABLE``, ``TORCH_SYMM_MEM_DISABLE_MULTICAST``,
  ``NVSHMEM_DISABLE_NVLS``) must reach every child as they are here (this script never sets
  or clears them), and each evaluation worker must see its one GPU (``CUDA_VISIBLE_DEVICES``).

Caches, so both measured sweeps start alike: the IR inspections of every subgraph are computed
first, one process per task, spread over the devices as a sweep's first ``inspect_ir`` does
(``--no-prewarm-ir`` skips this); then
(``--cache warm``, the default) a warm-up sweep with all devices and one seed
compiles every candidate once (a warm-up stopped by the time budget resumes with ``--resume DIR
--phases warmup``); each measured sweep starts from its own copy of that cache (with
``--cache cold``, from the IR cache alone). The warm-up's timings are reported too, as a second
comparison. ``TORCHINDUCTOR_CACHE_DIR``/``TRITON_CACHE_DIR`` are removed from the sweeps'
environment so each sweep's compiler caches live in its own cache folder.

Ten of the 102 long-tail tasks make the built-in policy evaluate passes (the rest match only
clean-up recipes, or nothing, and finish after inspecting): the default task list is those ten,
one seed each (``--seeds``; with the policy's three recipes of 2026-11-29 it needed two seeds to
keep two GPUs busy, and now gets 13 evaluations from one).

``--time-budget`` bounds the whole script: each phase gets a share of what is left, passed to
the sweep as ``--max-wall`` (a sweep stopped by it is reported as incomplete). The phases
(``prewarm``, ``warmup``, ``single``, ``multi``) can be split over several invocations on the same
machine when one call of a rented machine is too short: ``--phases prewarm,warmup`` first, then
``--resume <the work folder it printed> --phases single``, then ``--phases multi`` (each reads the
first's ``state.json`` and caches, checks that tasks, seeds, workers and devices are the same, and
reports all phases together). On two H200s a cold warm-up evaluation took 150-210 s and a warm one
24-50 s; with the ten default tasks the warm-up took ~280-290 s, the 1-device sweeps 344-499 s and the
2-device sweep 204-241 s, so the measured sweeps need a call each. Markdown tables
are printed last; the JSON (and the Markdown, and the sweeps' console output) go to ``--out``
(default ``$OUT``).

Task order (``--order``, default ``warmup-cost``): both measured sweeps pass their tasks to
``passagent sweep --tasks`` longest first, by the warm-up's evaluation-lease seconds per task
(ties and tasks the warm-up did not lease keep their given order, the latter at the end; IR
inspection leases are left out, as the measured sweeps find those cached); ``passagent sweep``
starts runs in that order (seed-major, then task), so this is longest-processing-time-first list
scheduling. Why (2026-11-29, two H200s, the default ten tasks in the given order): the 2-device
sweep reached 1.67x the 1-device throughput where 1.8x was the target, and its lease log said
why: 348 s of device leases (cuda:0 188 s, cuda:1 160 s) in a 223 s wall, but for the last 50 s
only one GPU was busy: task_035, whose run evaluates 3 passes one after another (~23 s each),
was 8th in the order, and its three sequential evaluations were the tail (the first ~11 s had no
lease at all: runs starting up). It started late for two reasons: its run started 8th, and it
asked for a GPU at 91 s but got one at 149 s, after runs that asked at 100 s and 115 s (waiters
polled, and whoever polled first after a release won; leases are now first come, first served,
``tools/device_lease.py``). Both measured sweeps get the same order, so
the comparison stays fair; the order is recorded in each phase's JSON (``task_order``) and in
the report's header. ``--order given`` keeps ``--tasks``/the default list's order. With
``--resume``, a measured sweep uses the order its counterpart already ran with.

The analysis adds, under the throughput ratio, a model (not a measurement): greedy list
scheduling of the 1-device sweep's lease seconds per task on N devices in the order used, plus
the 1-device sweep's measured start-up offset (first lease start minus the sweep's start), and
the throughput ratio that would give against the 1-device sweep's measured wall. And besides the
candidate's and eager's own times it compares what the score uses, the candidate's speedup over
eager (eager / candidate median end-to-end time of one evaluation, timed interleaved), and, in
data that records it (``p10_us``), the candidate's 10th-percentile time and the speedup from it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MULTICAST_VARS = ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS")
#: Long-tail built-in tasks where the built-in policy's catalogue proposes a rule that changes the
#: ATen graph, so it evaluates passes (1 evaluation per run, 2 for task_033, 3 for task_035: 13 in
#: all, seen on two H200s 2026-11-29). Found with
#: ``benchmarks/policy_coverage.py`` (2026-11-29, 19 recipes); every other long-tail task finishes
#: without evaluating. Ordered so a short sweep first meets the tasks whose passes are correct on
#: every subgraph.
EVALUATING = ["task_082", "task_032", "task_033", "task_003", "task_092", "task_004", "task_072", "task_035",
              "task_050", "task_020"]
#: (variant, timing field) pairs compared between sweeps: end-to-end, CUDA-event ("kernel") and
#: CUDA-graph replay ("graph": device time with no host in the loop) medians of the candidate,
#: and eager's as a control (the same eager graph, timed again in every evaluation). The variant
#: ``speedup`` is eager's time over the candidate's in the same evaluation (what the score uses).
COMPARED_LABELS = (("candidate", "graph_median_us", "candidate, CUDA-graph replay"),
                   ("eager", "graph_median_us", "eager (control), CUDA-graph replay"),
                   ("candidate", "median_us", "candidate, end-to-end"),
                   ("eager", "median_us", "eager (control), end-to-end"),
                   ("candidate", "kernel_median_us", "candidate, kernel (CUDA events)"),
                   ("speedup", "median_us", "speedup vs eager (what the score uses)"),
                   # Only in data with the 10th percentile of the end-to-end samples (else no rows).
                   ("candidate", "p10_us", "candidate, end-to-end p10"),
                   ("speedup", "p10_us", "speedup vs eager from p10 (eager p10 / candidate p10)"),
                   # Only in data with the harness's paired_speedup_vs_eager (recorded since 2026-11-30).
                   ("paired", "paired_speedup_vs_eager", "speedup vs eager, median of per-round ratios (not scored)"))
COMPARED = tuple((v, f) for v, f, _t in COMPARED_LABELS)
PHASES = ("prewarm", "warmup", "single", "multi", "single-again")
#: Phases run unless ``--phases`` says otherwise; ``single-again`` (the control) is asked for by name.
DEFAULT_PHASES = PHASES[:4]
#: The sweeps, in the order they are reported; ``single-again`` repeats the 1-device sweep as a control.
SWEEPS = ("warmup", "single", "multi", "single-again")
#: Compiler-cache locations that would make every sweep share one cache.
SHARED_CACHE_VARS = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")


# --- setup ----------------------------------------------------------------------------------------


def ensure_importable() -> str:
    """Make ``import passagent`` resolve to this checkout, here and in every child process.

    An installed passagent (``pip install -e .``) that is this checkout is used as it is;
    otherwise a folder holding a ``passagent`` link to the checkout goes first on ``sys.path``
    and ``PYTHONPATH``.
    """
    try:
        import passagent

        if Path(passagent.__file__).resolve().parent == REPO:
            return "installed"
    except ImportError:
        pass
    shim = Path(tempfile.mkdtemp(prefix="passagent-import-"))
    (shim / "passagent").symlink_to(REPO, target_is_directory=True)
    sys.path.insert(0, str(shim))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(shim), os.environ.get("PYTHONPATH")) if p)
    for name in [m for m in sys.modules if m == "passagent" or m.startswith("passagent.")]:
        del sys.modules[name]
    return f"linked from {shim}"


def pools(devices: str) -> tuple[list[str], list[str]]:
    """(the multi-device pool, the single-device pool) for ``--devices``.

    ``cpu`` (or ``cpu:2``) gives stand-in slots ``cpu:0``, ``cpu:1`` of the CPU; GPU indices or
    ``cuda:N`` give those GPUs. The single-device pool is the first device of the other.
    """
    from passagent.agent.sweep import parse_devices

    kind, _, n = devices.partition(":")
    if kind == "cpu":
        multi = [f"cpu:{i}" for i in range(int(n) if n.isdigit() else 2)]
    else:
        multi = parse_devices(devices)
    if len(multi) < 2:
        raise SystemExit(f"--devices {devices}: give at least two devices")
    return multi, multi[:1]


def long_tail_ids() -> list[str]:
    from passagent.tools.builtin_tasks import load_manifest

    return [row["id"] for row in load_manifest() if row.get("long_tail")]


def default_tasks(n: int) -> list[str]:
    """The long-tail tasks the built-in policy evaluates passes on, then other long-tail tasks."""
    long_tail = long_tail_ids()
    first = [t for t in EVALUATING if t in long_tail]
    return (first + [t for t in long_tail if t not in first])[: max(n, 1)]


def error_summary(message: str, width: int = 300) -> str:
    """One line for a multi-line error: its first line and, where there are more, its last
    non-empty one (a failed inspection says what failed first and why last: the worker's
    traceback tail), each cut to ``width`` characters."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    if not lines:
        return "(no message)"
    first = lines[0][:width]
    return first if len(lines) == 1 else f"{first} ... {lines[-1][:width]}"


def prewarm_ir(task_ids: list[str], cache_root: Path, parallel: int, deadline: float, devices: list[str]) -> dict[str, Any]:
    """Every subgraph's IR inspection (what ``inspect_ir`` computes in a sweep: on the leased
    device, cached by device type) into ``cache_root``: one process per task (as a sweep's first
    ``inspect_ir`` does), ``parallel`` at a time, spread over ``devices``; none is started after
    ``deadline``."""
    from passagent.agent.builtin.policy import MAX_INSPECTED
    from passagent.tools.device_lease import leased_device
    from passagent.tools.ir import inspect_isolated
    from passagent.tools.tasks import load_task

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
        except Exception as exc:  # noqa: BLE001 - the sweep will inspect it again and report
            errors.append(f"{path.name}: {error_summary(str(exc))}")

    t0 = time.monotonic()
    saved = {k: os.environ.get(k) for k in ("TORCHINDUCTOR_COMPILE_THREADS", "OMP_NUM_THREADS")}
    os.environ.update(TORCHINDUCTOR_COMPILE_THREADS="1", OMP_NUM_THREADS="2")  # many at once: no pools each
    try:
        with ThreadPoolExecutor(max_workers=parallel) as pool:
            list(pool.map(one, jobs))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return {"subgraphs": sum(len(j[1]) for j in jobs), "parallel": parallel, "wall_s": time.monotonic() - t0, "errors": errors,
            "not_started": skipped[0]}


# --- watching the sweep's processes ---------------------------------------------------------------


class EnvSampler(threading.Thread):
    """Reads, every ``period_s``, the environment each process below ``root_pid`` started with
    (``/proc/<pid>/environ``): the multicast switches and ``CUDA_VISIBLE_DEVICES``, per role."""

    ROLES = {"passagent.agent.sweep_worker": "solve run", "passagent.tools.worker_entry": "evaluation worker",
             "passagent.tools.ir": "IR inspection", "passagent.agent.cli": "sweep command"}

    def __init__(self, root_pid: int, period_s: float = 0.5):
        super().__init__(daemon=True)
        self.root_pid, self.period_s = root_pid, period_s
        self.seen: dict[int, dict[str, Any]] = {}
        self.unreadable = 0
        self._stop_event = threading.Event()

    def run(self) -> None:
        from passagent.agent.sweep_worker import _descendants

        while not self._stop_event.is_set():
            for pid in [self.root_pid, *_descendants(self.root_pid)]:
                if pid not in self.seen:
                    self._read(pid)
            self._stop_event.wait(self.period_s)

    def _read(self, pid: int) -> None:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            raw = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            self.unreadable += 1
            return
        role = next((r for mod, r in self.ROLES.items() if mod in cmdline), None)
        if role is None:
            return  # compiler subprocesses and the like
        env = dict(kv.split("=", 1) for kv in raw.decode(errors="replace").split("\0") if "=" in kv)
        self.seen[pid] = {"role": role, "multicast": {k: env.get(k) for k in MULTICAST_VARS},
                          "CUDA_VISIBLE_DEVICES": env.get("CUDA_VISIBLE_DEVICES")}

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=5)

    def summary(self, expected: dict[str, str | None]) -> dict[str, Any]:
        roles: dict[str, dict[str, Any]] = {}
        for info in self.seen.values():
            r = roles.setdefault(info["role"], {"processes": 0, "multicast_as_parent": 0, "cuda_visible_devices": set()})
            r["processes"] += 1
            r["multicast_as_parent"] += info["multicast"] == expected
            r["cuda_visible_devices"].add(str(info["CUDA_VISIBLE_DEVICES"]))
        for r in roles.values():
            r["cuda_visible_devices"] = sorted(r["cuda_visible_devices"])
        return roles


# --- one sweep --------------------------------------------------------------------------------------


def sweep_env() -> tuple[dict[str, str], list[str]]:
    env = dict(os.environ)
    removed = [k for k in SHARED_CACHE_VARS if env.pop(k, None) is not None]
    env["PYTHONUNBUFFERED"] = "1"
    return env, removed


def run_sweep_phase(label: str, devices: list[str], workers: int, seeds: int, tasks: list[str], cache: Path,
                    runs_root: Path, log: Path, args: argparse.Namespace, max_wall: float,
                    extra: list[str] | None = None, task_order: dict[str, Any] | None = None) -> dict[str, Any]:
    """``passagent sweep`` as a user runs it, timed; then its lease log and run archives, read back.

    ``tasks`` go to ``--tasks`` in their order (the sweep starts runs in it); ``task_order``
    (see :func:`choose_task_order`) is recorded with the phase (default: as given).
    A rerun with the same ``label`` resumes that sweep (finished runs are skipped)."""
    from passagent.tools.device_lease import busy_profile, read_leases

    cmd = [sys.executable, "-m", "passagent.agent.cli", "sweep", "--models", "builtin", "--tasks", ",".join(tasks),
           "--workers", str(workers), "--devices", ",".join(devices), "--seeds", str(seeds), "--out", str(runs_root),
           "--sweep-id", label, "--max-steps", str(args.max_steps), "--patience", str(args.patience),
           "--cache-dir", str(cache), "--max-wall", f"{max(max_wall, 1.0):.0f}", "--quiet"]
    if args.timing_budget:
        cmd += ["--timing-budget", str(args.timing_budget)]
    if args.run_max_wall:
        cmd += ["--run-max-wall", str(args.run_max_wall)]
    if args.profile is not None:
        cmd.append("--profile" if args.profile else "--no-profile")
    cmd += (extra or []) + (args.sweep_arg or [])
    env, _removed = sweep_env()
    print(f"[{label}] {' '.join(cmd[3:])}", flush=True)
    with open(log, "ab") as fh:
        fh.write(f"\n===== {label}: {' '.join(cmd)}\n".encode())
        fh.flush()
        t0, t0_wall = time.monotonic(), time.time()
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=REPO)
        sampler = EnvSampler(proc.pid)
        sampler.start()
        try:
            rc = proc.wait(timeout=max_wall + 120)
        except subprocess.TimeoutExpired:  # the sweep's own --max-wall did not stop it
            proc.terminate()
            rc = proc.wait()
        wall = time.monotonic() - t0
        sampler.stop()
    sweep_dir = runs_root / label
    leases = read_leases(sweep_dir / "locks") if (sweep_dir / "locks").exists() else []
    runs = collect_runs(sweep_dir)
    finished = sum(1 for r in runs if r["status"] == "finished")
    planned = len(tasks) * seeds
    phase = {
        "label": label, "devices": devices, "workers": workers, "seeds": seeds, "tasks": tasks, "exit_code": rc,
        "task_order": task_order or {"mode": "given", "tasks": list(tasks)},
        "wall_s": wall, "started_at": t0_wall, "planned_runs": planned, "finished_runs": finished,
        "complete": finished == planned and rc == 0,
        "solves_per_hour": finished / wall * 3600 if wall > 0 else 0.0,
        "evaluations": sum(r["evaluations"] for r in runs),
        "leases": leases, "busy": busy_profile(leases, window=(t0, t0 + wall)), "runs": runs,
        "failures": [json.loads(p.read_text()) for p in sorted((sweep_dir / "failures").glob("*.json"))]
        if (sweep_dir / "failures").exists() else [],
        "processes": sampler.summary({k: os.environ.get(k) for k in MULTICAST_VARS}),
        "unreadable_processes": sampler.unreadable,
    }
    phase["evaluation_records"] = collect_evaluations(sweep_dir, leases)
    phase["lease_time"] = lease_time_by_purpose(leases)
    b = phase["busy"]
    print(f"[{label}] exit {rc}, {finished}/{planned} runs, {phase['evaluations']} evaluations, {wall:.0f} s, "
          f"max leases per device {max(b['max_per_device'].values(), default=0)}, at once {b['max_overall']}", flush=True)
    return phase


def collect_runs(sweep_dir: Path) -> list[dict[str, Any]]:
    from passagent.agent.runstate import find_runs, load_run, read_events

    out = []
    for path in find_runs(sweep_dir) if sweep_dir.exists() else []:
        info = load_run(path)
        events, _problems = read_events(path)
        out.append({"run": str(path.relative_to(sweep_dir)), "task": info.task_id, "seed": info.seed, "status": info.status,
                    "exit_reason": (info.result or {}).get("exit_reason"), "best_as": (info.result or {}).get("best_as"),
                    "evaluations": sum(1 for e in events if e.get("kind") == "tool_result" and e.get("evaluation")),
                    "wall_s": (info.result or {}).get("wall_s")})
    return out


def _n(count: int, noun: str) -> str:
    """``1 task``, ``2 tasks``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def lease_time_by_purpose(leases: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Device-lease seconds per purpose (``evaluation``, ``inspect_ir``): count, total, median."""
    by: dict[str, list[float]] = {}
    for r in leases:
        if r.get("start") is not None and r.get("end") is not None:
            by.setdefault(r.get("purpose") or "evaluation", []).append(float(r["end"]) - float(r["start"]))
    return {k: {"leases": len(v), "total_s": sum(v), "median_s": statistics.median(v)} for k, v in sorted(by.items())}


def evaluation_steps(records: list[dict[str, Any]]) -> dict[str, float]:
    """Worker seconds per step (``phase_s``), summed over every subgraph of these evaluations."""
    out: dict[str, float] = {}
    for r in records:
        for s in r.get("subgraphs", []):
            for k, v in (s.get("phase_s") or {}).items():
                out[k] = out.get(k, 0.0) + float(v)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def collect_evaluations(sweep_dir: Path, leases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every evaluation of the sweep: task, seed, version, pass digest, its lease (device, times)
    and per subgraph the status and median times (us) of eager, Inductor and the candidate."""
    from passagent.agent.runstate import find_runs, load_run, read_events

    records = []
    unclaimed = list(leases)
    for path in find_runs(sweep_dir) if sweep_dir.exists() else []:
        info = load_run(path)
        events, _problems = read_events(path)
        for e in events:
            ev = e.get("evaluation") if e.get("kind") == "tool_result" else None
            if not ev:
                continue
            digest = ev.get("pass_sha256")
            # Its lease: same task and pass digest, the one released closest to when the result was logged.
            mine = [r for r in unclaimed if r.get("task") == ev.get("task_id") and r.get("pass_sha256") == digest]
            lease = min(mine, key=lambda r: abs(float(r["end"]) - float(e["time"])), default=None)
            if lease is not None:
                unclaimed.remove(lease)
            subgraphs = []
            for s in ev.get("subgraphs", []):
                times = {k: {"median_us": t.get("median_us"), "kernel_median_us": t.get("kernel_median_us"),
                             "graph_median_us": t.get("graph_median_us"), "p10_us": t.get("p10_us"), "n": t.get("n"),
                             "source": t.get("source")} for k, t in (s.get("times") or {}).items()}
                subgraphs.append({"index": s["index"], "name": s.get("name"), "dtypes": s.get("dtypes"),
                                  "status": s.get("status"), "times": times, "phase_s": s.get("phase_s") or {},
                                  "paired_speedup_vs_eager": s.get("paired_speedup_vs_eager")})
            records.append({
                "run": str(path.relative_to(sweep_dir)), "task": ev.get("task_id"), "seed": info.seed,
                "version": e.get("version"), "pass_sha256": digest, "aggregated": (ev.get("scores") or {}).get("aggregated"),
                "config_device": (ev.get("config") or {}).get("device"), "device_name": ev.get("device_name"),
                "device": lease["device"] if lease else (ev.get("config") or {}).get("device"),
                "lease": {k: lease.get(k) for k in ("device", "pid", "start", "end", "wait_s")} if lease else None,
                "wall_s": ev.get("wall_s"), "subgraphs": subgraphs,
            })
    return records


# --- task order and the schedule model -------------------------------------------------------------------

#: Lease purposes that count towards a task's cost in the warm-up: its evaluations. IR inspections
#: are left out: uncached in a warm-up without ``prewarm``, they are cached for the measured sweeps.
ORDER_PURPOSES = ("evaluation",)


def lease_seconds_by_task(leases: list[dict[str, Any]], purposes: tuple[str, ...] | None = None) -> dict[Any, float]:
    """Device-lease seconds (end - start) summed per task, tasks in the order of their first lease.

    ``purposes``: count only leases with one of these purposes (a lease without one is an
    ``evaluation``); None counts every lease. A lease without a task counts under None."""
    out: dict[Any, float] = {}
    for r in sorted(leases, key=lambda r: float(r["start"])):
        if r.get("start") is None or r.get("end") is None:
            continue
        if purposes is not None and (r.get("purpose") or "evaluation") not in purposes:
            continue
        out[r.get("task")] = out.get(r.get("task"), 0.0) + float(r["end"]) - float(r["start"])
    return out


def longest_first(tasks: list[str], cost: dict[Any, float]) -> list[str]:
    """``tasks`` by ``cost`` descending (ties keep their order in ``tasks``); tasks without a cost
    follow, in their order in ``tasks``. Costs of tasks not in ``tasks`` are ignored."""
    known = [t for t in tasks if t in cost]
    return sorted(known, key=lambda t: -cost[t]) + [t for t in tasks if t not in cost]


def choose_task_order(tasks: list[str], mode: str, warmup: dict[str, Any] | None) -> dict[str, Any]:
    """The order the measured sweeps pass ``tasks`` to ``passagent sweep --tasks``.

    ``mode`` ``warmup-cost``: longest first by the warm-up's evaluation-lease seconds per task
    (:func:`longest_first`); without a warm-up's leases, or with ``given``, ``tasks`` as they are.
    Returns ``mode`` (what was done), ``tasks``, ``warmup_lease_s`` (the costs used, per task, or
    None), ``not_in_warmup`` (tasks the warm-up did not lease, kept at the end) and ``note``."""
    if mode == "given":
        return {"mode": "given", "tasks": list(tasks), "warmup_lease_s": None, "not_in_warmup": [], "note": "as given"}
    if mode != "warmup-cost":
        raise ValueError(f"unknown task order {mode!r}")
    leases = (warmup or {}).get("leases") or []
    cost = {t: c for t, c in lease_seconds_by_task(leases, ORDER_PURPOSES).items() if t in tasks}
    if not cost:
        why = "no warm-up" if not warmup else "the warm-up leased no device for these tasks"
        return {"mode": "given", "tasks": list(tasks), "warmup_lease_s": None, "not_in_warmup": list(tasks),
                "note": f"as given ({why}, so no warm-up cost)"}
    return {"mode": "warmup-cost", "tasks": longest_first(tasks, cost), "warmup_lease_s": cost,
            "not_in_warmup": [t for t in tasks if t not in cost],
            "note": "longest first by the warm-up's evaluation-lease seconds per task"}


def recorded_task_order(phase: dict[str, Any]) -> dict[str, Any]:
    """The task order a measured phase ran with (a phase recorded before orders were: as given)."""
    return phase.get("task_order") or {"mode": "given", "tasks": list(phase.get("tasks") or []), "warmup_lease_s": None,
                                       "not_in_warmup": [], "note": "as given (recorded before task orders were)"}


def list_schedule_makespan(durations: list[float], n_devices: int) -> float:
    """When the last job ends if ``durations`` are started in this order, each on the device that
    is free first (ties: the lowest-numbered), with ``n_devices`` devices free at 0: greedy list
    scheduling (longest first, this is the LPT heuristic)."""
    free = [0.0] * max(n_devices, 1)
    for d in durations:
        i = min(range(len(free)), key=lambda k: free[k])
        free[i] += float(d)
    return max(free)


def predict_makespan(single: dict[str, Any], order: list[str], n_devices: int,
                     given: list[str] | None = None) -> dict[str, Any] | None:
    """A model of the N-device sweep (not a measurement): the 1-device sweep's lease seconds per
    task (every lease: in the N-device sweep they hold a device too), one job per task and seed
    (seed-major, then task in ``order``, as ``passagent sweep`` plans runs; a task's seconds are
    split evenly over its seeds), list-scheduled on ``n_devices`` (:func:`list_schedule_makespan`),
    plus the 1-device sweep's start-up offset (its first lease's start minus the sweep's start;
    0 where the start was not recorded). ``ratio``: the 1-device sweep's measured wall over the
    predicted wall (the throughput ratio if both finish the same runs). ``given_makespan_s``: the
    same schedule in the ``given`` order, where that differs from ``order``. None without leases."""
    leases = [r for r in single.get("leases") or [] if r.get("start") is not None and r.get("end") is not None]
    if not leases:
        return None
    per_task = lease_seconds_by_task(leases)
    seeds = max(int(single.get("seeds") or 1), 1)

    def jobs(tasks: list[str]) -> list[float]:
        ordered = [t for t in tasks if t in per_task] + [t for t in per_task if t not in tasks]
        return [per_task[t] / seeds for _seed in range(seeds) for t in ordered]

    makespan = list_schedule_makespan(jobs(order), n_devices)
    started = single.get("started_at")
    offset = min(float(r["start"]) for r in leases) - float(started) if started is not None else 0.0
    wall = offset + makespan
    out = {"n_devices": n_devices, "order": list(order), "lease_s_by_task": per_task, "total_lease_s": sum(per_task.values()),
           "makespan_s": makespan, "startup_offset_s": offset, "offset_measured": started is not None,
           "predicted_wall_s": wall,
           "ratio": float(single["wall_s"]) / wall if wall > 0 and single.get("wall_s") else None}
    if given is not None and list(given) != list(order):
        out["given_makespan_s"] = list_schedule_makespan(jobs(list(given)), n_devices)
    return out


# --- analysis -------------------------------------------------------------------------------------------


def _value(sub: dict[str, Any], variant: str, field: str) -> float | None:
    """``field`` of ``variant`` in one subgraph record's ``times``; variant ``speedup``: eager's over
    the candidate's (both from this evaluation); variant ``paired``: the record's ``field`` itself
    (``paired_speedup_vs_eager``, the median of per-round ratios the harness records). None where
    missing or zero."""
    if variant == "paired":
        v = sub.get(field)
        return float(v) if v else None
    times = sub["times"]
    if variant == "speedup":
        e, c = (times.get("eager") or {}).get(field), (times.get("candidate") or {}).get(field)
        return float(e) / float(c) if e and c else None
    t = (times.get(variant) or {}).get(field)
    return float(t) if t else None


def compare(base: list[dict[str, Any]], other: list[dict[str, Any]], variant: str = "candidate",
            field: str = "median_us") -> list[dict[str, Any]]:
    """Pairs of the same candidate's timing in two sweeps: one row per subgraph of each
    evaluation of ``other`` whose (task, seed, pass digest, subgraph) was also timed in ``base``.

    ``diff`` is ``other / base - 1`` with each side the median time (``field``) of ``variant``;
    a candidate evaluated more than once in ``base`` is compared with the median of its medians.
    Variant ``speedup``: each side is eager's ``field`` over the candidate's in one evaluation
    (a ratio, though the row's keys still say ``_us``). Subgraphs without the field give no row.
    """
    ref: dict[tuple[Any, ...], list[float]] = {}
    for ev in base:
        for s in ev["subgraphs"]:
            t = _value(s, variant, field)
            if t:
                ref.setdefault((ev["task"], ev["seed"], ev["pass_sha256"], s["index"]), []).append(t)
    rows = []
    for ev in other:
        for s in ev["subgraphs"]:
            t = _value(s, variant, field)
            key = (ev["task"], ev["seed"], ev["pass_sha256"], s["index"])
            if not t or key not in ref:
                continue
            b = statistics.median(ref[key])
            rows.append({"task": ev["task"], "seed": ev["seed"], "version": ev["version"], "pass": (ev["pass_sha256"] or "")[:10],
                         "subgraph": s["index"], "dtypes": ",".join(s.get("dtypes") or []), "device": ev["device"],
                         "base_us": b, "other_us": float(t), "diff": float(t) / b - 1.0})
    return rows


def agreement(rows: list[dict[str, Any]], tolerance: float) -> dict[str, dict[str, Any]]:
    """Per device: pairs, median and worst |diff|, mean diff (bias), and how many are within ``tolerance``."""
    out = {}
    for dev in sorted({r["device"] for r in rows}):
        d = [r["diff"] for r in rows if r["device"] == dev]
        out[dev] = {"pairs": len(d), "median_abs": statistics.median(abs(x) for x in d), "mean": statistics.fmean(d),
                    "worst_abs": max(abs(x) for x in d), "within": sum(abs(x) <= tolerance for x in d)}
    return out


def _add_comparisons(a: dict[str, Any], name: str, single: dict[str, Any], other: dict[str, Any], tolerance: float) -> None:
    """``a["comparisons"]["{name}:{variant}:{field}"]``: every :data:`COMPARED` timing of the sweep
    ``other`` against the 1-device sweep ``single`` (rows and per-device agreement), where any pair."""
    for variant, field in COMPARED:
        rows = compare(single["evaluation_records"], other["evaluation_records"], variant, field)
        if rows:
            a["comparisons"][f"{name}:{variant}:{field}"] = {"rows": rows, "by_device": agreement(rows, tolerance)}


def matched_lease_time(base: list[dict[str, Any]], other: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Lease seconds of the evaluations both sweeps made (same task, seed and pass digest; repeats
    paired in the order they ran): ``{"evaluations", "base_s", "other_s", "ratio"}`` (other / base),
    or None with none in common. The same work on the same kind of GPU, so the ratio is how much
    faster (< 1) or slower the host ran it in ``other``: drift between sweeps, plus, in a
    multi-device sweep, whatever sharing the host with the other devices' evaluations costs."""
    def by_key(records: list[dict[str, Any]]) -> dict[tuple, list[float]]:
        out: dict[tuple, list[tuple[float, float]]] = {}
        for r in records:
            lease = r.get("lease") or {}
            if lease.get("start") is not None and lease.get("end") is not None:
                out.setdefault((r["task"], r["seed"], r["pass_sha256"]), []).append(
                    (float(lease["start"]), float(lease["end"]) - float(lease["start"])))
        return {k: [d for _, d in sorted(v)] for k, v in out.items()}

    b, o = by_key(base), by_key(other)
    pairs = [(x, y) for k in b.keys() & o.keys() for x, y in zip(b[k], o[k])]
    if not pairs:
        return None
    base_s, other_s = sum(x for x, _ in pairs), sum(y for _, y in pairs)
    return {"evaluations": len(pairs), "base_s": base_s, "other_s": other_s, "ratio": other_s / base_s if base_s else None}


def analyse(result: dict[str, Any], tolerance: float, min_ratio: float) -> dict[str, Any]:
    phases = result["phases"]
    single, multi, warm = phases.get("single"), phases.get("multi"), phases.get("warmup")
    again = phases.get("single-again")
    a: dict[str, Any] = {"comparisons": {}, "checks": []}
    if single and multi:
        for name, other in (("multi", multi), ("warmup", warm)):
            if other:
                _add_comparisons(a, name, single, other, tolerance)
        s_rate, m_rate = single["solves_per_hour"], multi["solves_per_hour"]
        a["throughput_ratio"] = m_rate / s_rate if s_rate else None
        order = recorded_task_order(multi)["tasks"] or recorded_task_order(single)["tasks"]
        a["prediction"] = predict_makespan(single, order, len(multi["devices"]), given=result.get("tasks"))
    if single and again:
        # The control: the same 1-device sweep twice. Its disagreement is how far two sweeps differ
        # with no second GPU involved (the host's drift between them), the floor under the
        # multi-device comparison above; its throughput ratio is 1 with no drift.
        _add_comparisons(a, "single-again", single, again, tolerance)
        # A throughput ratio only between whole sweeps: a sweep stopped early ran its longest
        # tasks (they start first) and not its short tail.
        if single["complete"] and again["complete"]:
            s_rate, r_rate = single["solves_per_hour"], again["solves_per_hour"]
            a["control_throughput_ratio"] = r_rate / s_rate if s_rate else None
            if multi and multi["complete"] and again["solves_per_hour"]:
                a["throughput_ratio_vs_control"] = multi["solves_per_hour"] / again["solves_per_hour"]
            if multi and multi["complete"] and single["finished_runs"] == again["finished_runs"]:
                # 1-device, multi-device, 1-device again: the two 1-device sweeps bracket the other,
                # so a drift that is steady over the three cancels in their pooled throughput.
                pooled = (single["finished_runs"] + again["finished_runs"]) / (single["wall_s"] + again["wall_s"]) * 3600
                a["throughput_ratio_vs_both_single"] = multi["solves_per_hour"] / pooled
    if again and multi:
        # The multi-device sweep against the control as well: where the host ran the control at the
        # multi-device sweep's speed and the first 1-device sweep at another (see "lease_ratio"),
        # this is the comparison the drift does not enter.
        _add_comparisons(a, "multi-vs-control", again, multi, tolerance)
    # Host speed: the same evaluations' lease time in each later sweep against the 1-device sweep.
    if single:
        a["lease_ratio"] = {name: m for name, base, p in (("multi", single, multi), ("single-again", single, again),
                                                          ("multi-vs-control", again, multi))
                            if base and p and (m := matched_lease_time(base["evaluation_records"], p["evaluation_records"]))}
    checks = a["checks"]
    measured = [p for p in (warm, single, multi, again) if p]
    worst = max((max(p["busy"]["max_per_device"].values(), default=0) for p in measured), default=0)
    n_leases = sum(len(p["leases"]) for p in measured)
    checks.append(("at most one evaluation per device at a time (every sweep)", n_leases > 0 and worst <= 1,
                   f"most at once on one device: {worst} ({n_leases} leases)"))
    if multi:
        b = multi["busy"]
        n_dev = len(multi["devices"])
        all_busy = b["fraction_with_devices_busy"].get(n_dev, 0.0)
        checks.append((f"{n_dev} evaluations at once, one per device, in the {n_dev}-device sweep",
                       b["seconds_with_devices_busy"].get(n_dev, 0.0) > 0,
                       f"most leases at once: {b['max_overall']}; all {n_dev} devices busy {all_busy:.0%} of its wall time"))
    for field, what in (("graph_median_us", "device time (CUDA-graph replay)"), ("median_us", "end-to-end time")):
        main = a["comparisons"].get(f"multi:candidate:{field}")
        if not main:
            continue
        ok = all(v["within"] == v["pairs"] for v in main["by_device"].values())
        detail = "; ".join(f"{d}: {v['within']}/{v['pairs']} within, worst {v['worst_abs']:.1%}, median {v['median_abs']:.1%}"
                           for d, v in main["by_device"].items())
        checks.append((f"each candidate's median {what} within {tolerance:.0%} of its single-device median, on every device",
                       ok, detail))
        if len(main["by_device"]) < len(multi["devices"]):
            checks.append((f"candidates compared on every device ({what})", False,
                           f"compared on {', '.join(main['by_device'])} only"))
    if speedup := a["comparisons"].get("multi:speedup:median_us"):  # what the score uses
        checks.append((f"each candidate's speedup vs eager within {tolerance:.0%} of its single-device value",
                       all(v["within"] == v["pairs"] for v in speedup["by_device"].values()),
                       "; ".join(f"{d}: {v['within']}/{v['pairs']} within, worst {v['worst_abs']:.1%}, median {v['median_abs']:.1%}"
                                 for d, v in speedup["by_device"].items())))
    if single and multi and not a["comparisons"].get("multi:candidate:median_us"):
        checks.append(("candidates timed in both sweeps", False, "no candidate was timed in both sweeps"))
    if a.get("throughput_ratio") is not None:
        comparable = single["complete"] and multi["complete"]
        checks.append((f"throughput at least {min_ratio}x the single-device sweep's", a["throughput_ratio"] >= min_ratio and comparable,
                       f"{a['throughput_ratio']:.2f}x" + ("" if comparable else " (a sweep did not finish: not comparable)")))
    expected = {k: os.environ.get(k) for k in MULTICAST_VARS}
    procs = [r for p in measured for r in p["processes"].values()]
    seen = sum(r["processes"] for r in procs)
    same = sum(r["multicast_as_parent"] for r in procs)
    checks.append(("multicast switches reach every child process unchanged", seen > 0 and same == seen,
                   f"{same}/{seen} sampled processes; here: " + ", ".join(f"{k}={v}" for k, v in expected.items())))
    a["checks"] = [{"check": c, "ok": bool(ok), "value": v} for c, ok, v in checks]
    return a


# --- output -------------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{x:+.1%}"


def task_order_text(result: dict[str, Any]) -> str | None:
    """The report header's sentence on the order the measured sweeps got their tasks in."""
    phases = result.get("phases", {})
    recorded = {k: recorded_task_order(phases[k]) for k in ("single", "multi", "single-again") if phases.get(k)}
    if len({tuple(o["tasks"]) for o in recorded.values()}) > 1:
        return ("Task order differs between the measured sweeps (their throughputs are not comparable): "
                + "; ".join(f"{k}: {', '.join(o['tasks'])} ({o['note']})" for k, o in recorded.items()) + ".")
    o = next(iter(recorded.values()), None) or result.get("task_order")
    if not o:
        return None
    if o["mode"] == "warmup-cost":
        cost = o.get("warmup_lease_s") or {}
        text = (f"Task order of the measured sweeps (`--order warmup-cost`): {o['note']}: "
                + ", ".join(f"{t} ({cost[t]:.0f} s)" if t in cost else t for t in o["tasks"] if t in cost))
        if o.get("not_in_warmup"):
            text += f"; then, not leased in the warm-up, as given: {', '.join(o['not_in_warmup'])}"
        return text + "."
    return f"Task order of the measured sweeps: {o['note']}: {', '.join(o['tasks'])}."


def prediction_text(pred: dict[str, Any], n_devices: int) -> str:
    """One sentence on :func:`predict_makespan`'s model, labelled as one."""
    given = f" (in the given order: {pred['given_makespan_s']:.0f} s)" if pred.get("given_makespan_s") is not None else ""
    offset = (f"the 1-device sweep's measured start-up offset of {pred['startup_offset_s']:.0f} s (its first lease after its start)"
              if pred["offset_measured"] else "no start-up offset (the sweep's start was not recorded)")
    ratio = (f" and a throughput ratio of {pred['ratio']:.2f}x (the 1-device sweep's measured wall / the predicted wall)"
             if pred.get("ratio") is not None else "")
    return (f"Model, not a measurement: greedy list scheduling of the 1-device sweep's device-lease seconds per task "
            f"({pred['total_lease_s']:.0f} s over {_n(len(pred['lease_s_by_task']), 'task')}) on {n_devices} devices in the "
            f"order used ends after {pred['makespan_s']:.0f} s{given}; with {offset}, that predicts a "
            f"{pred['predicted_wall_s']:.0f} s {n_devices}-device sweep{ratio}.")


def markdown(result: dict[str, Any], tolerance: float, detail_rows: int) -> str:
    phases, a = result["phases"], result.get("analysis", {})
    lines = [f"# multi_gpu_sweep {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(result['started_at']))} "
             f"on {result['machine']}", ""]
    lines.append(f"Built-in policy over {_n(len(result['tasks']), 'task')} ({', '.join(result['tasks'])}; "
                 f"{len(result['long_tail_tasks'])} of them built-in long-tail), "
                 f"{result['seeds']} seed(s) each; "
                 + (f"{result['workers']} workers in both sweeps (the 1-device sweep gets as many runs at once as the other; "
                    "its evaluations queue on its one lease); " if result["workers"] == result["single_workers"] else
                    f"{result['workers']} workers in the multi-device sweep, {result['single_workers']} in the 1-device one; ")
                 + f"cache: {result['cache_mode']}; timing budget {result['timing_budget'] or 'default'}; "
                 f"per-run limits: max steps {result['max_steps']}, patience {result['patience']}, "
                 f"max wall {result['run_max_wall'] or 'none'}.")
    if order_line := task_order_text(result):
        lines.append(order_line)
    if result.get("prewarm_ir"):
        p = result["prewarm_ir"]
        lines.append(f"IR inspections computed first: {p['subgraphs']} subgraphs, {p['parallel']} at a time, {p['wall_s']:.0f} s"
                     + (f", {len(p['errors'])} failed" if p["errors"] else "") + (f", {p['not_started']} not started" if p["not_started"] else "") + ".")
    lines.append("")
    # Per-candidate detail (largest disagreements first), before the summaries.
    comps = a.get("comparisons", {})
    main = comps.get("multi:candidate:median_us")
    if main:
        key = ("task", "seed", "version", "pass", "subgraph", "device")
        graph = {tuple(r[k] for k in key): r for r in (comps.get("multi:candidate:graph_median_us") or {}).get("rows", [])}
        rows = sorted(main["rows"], key=lambda r: -abs(graph.get(tuple(r[k] for k in key), r)["diff"]))
        lines += [f"Per candidate and subgraph, median times (us) in the 1-device and the multi-device sweep, "
                  f"largest disagreements first (of CUDA-graph replay times where measured, else end-to-end; "
                  f"v: the pass version in its run) ({min(len(rows), detail_rows)} of {len(rows)}):", "",
                  "| task | seed | v | pass | subgraph | dtype | device (multi) | end-to-end 1-dev | end-to-end multi | diff "
                  "| graph replay 1-dev | graph replay multi | diff |",
                  "|---|---:|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in rows[:detail_rows]:
            g = graph.get(tuple(r[k] for k in key))
            gcols = f"{g['base_us']:.1f} | {g['other_us']:.1f} | {_pct(g['diff'])}" if g else "- | - | -"
            lines.append(f"| {r['task']} | {r['seed']} | {r['version']} | {r['pass']} | {r['subgraph']} | {r['dtypes']} | "
                         f"{r['device']} | {r['base_us']:.1f} | {r['other_us']:.1f} | {_pct(r['diff'])} | {gcols} |")
        lines.append("")
    lines += ["| sweep | devices | workers | runs finished | evaluations | wall (s) | solves per hour | "
              "device busy (s) | most leases on one device | most leases at once | all devices busy |",
              "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    names = {"warmup": "warm-up (not timed for throughput)", "single": "1 device", "multi": f"{len(result['multi_pool'])} devices",
             "single-again": "1 device, again (control)",
             "multi-vs-control": f"{len(result['multi_pool'])} devices, against the control instead"}
    for key in SWEEPS:
        p = phases.get(key)
        if not p:
            continue
        b = p["busy"]
        busy = ", ".join(f"{d} {s:.0f}" for d, s in b["busy_s"].items()) or "-"
        lines.append(f"| {names[key]} | {','.join(p['devices'])} | {p['workers']} | {p['finished_runs']}/{p['planned_runs']}"
                     f"{'' if p['complete'] else ' (incomplete)'} | {p['evaluations']} | {p['wall_s']:.0f} | "
                     f"{p['solves_per_hour']:.0f} | {busy} | {max(b['max_per_device'].values(), default=0)} | "
                     f"{b['max_overall']} | {b['fraction_with_devices_busy'].get(len(p['devices']), 0.0):.0%} |")
    lease_rows = [(names[k], purpose, v) for k in SWEEPS if phases.get(k)
                  for purpose, v in (phases[k].get("lease_time") or {}).items()]
    if lease_rows:
        lines += ["", "Where the device leases went (an IR inspection that is not cached holds a lease too):", "",
                  "| sweep | purpose | leases | total (s) | median (s) | evaluation worker time by step (s) |",
                  "|---|---|---:|---:|---:|---|"]
        for name, purpose, v in lease_rows:
            key = next(k for k in names if names[k] == name)
            steps = evaluation_steps(phases[key]["evaluation_records"]) if purpose == "evaluation" else {}
            top = ", ".join(f"{k} {sec:.0f}" for k, sec in list(steps.items())[:5]) or "-"
            lines.append(f"| {name} | {purpose} | {v['leases']} | {v['total_s']:.0f} | {v['median_s']:.1f} | {top} |")
    if a.get("throughput_ratio") is not None:
        lines.append("")
        lines.append(f"Throughput ratio (solves per hour, {len(result['multi_pool'])} devices / 1 device): "
                     f"**{a['throughput_ratio']:.2f}x**")
        if a.get("prediction"):
            lines += ["", prediction_text(a["prediction"], len(result["multi_pool"]))]
    if again := phases.get("single-again"):
        ratio = a.get("control_throughput_ratio")
        lines += ["", "Control (the 1-device sweep run again, `--phases single-again`): "
                  + (f"throughput ratio {ratio:.2f}x the first 1-device sweep's (1.00 with no drift between sweeps)"
                     if ratio is not None else "no throughput ratio (a 1-device sweep did not finish; "
                     f"the control finished {again['finished_runs']}/{again['planned_runs']} runs)")
                  + "; its rows in the agreement table below are the floor the other sweeps' disagreement is read against."]
        if a.get("throughput_ratio_vs_control") is not None:
            lines += ["", f"Throughput ratio against the control instead ({len(result['multi_pool'])} devices / "
                      f"1 device, again): **{a['throughput_ratio_vs_control']:.2f}x**"]
        if a.get("throughput_ratio_vs_both_single") is not None:
            lines += ["", f"Throughput ratio against both 1-device sweeps pooled (they ran before and after the "
                      f"multi-device one, so a steady drift cancels): **{a['throughput_ratio_vs_both_single']:.2f}x**"]
    if a.get("lease_ratio"):
        lines += ["", "Host speed: lease seconds of the evaluations both sweeps made, other sweep / 1-device sweep "
                  "(below 1: the host ran the same work faster; drift between sweeps, plus in a multi-device sweep "
                  "the cost of sharing the host):", "",
                  "| sweep | evaluations | 1-device (s) | other (s) | ratio |", "|---|---:|---:|---:|---:|"]
        for key, m in a["lease_ratio"].items():
            ratio = f"{m['ratio']:.3f}" if m["ratio"] is not None else "-"
            lines.append(f"| {names[key]} | {m['evaluations']} | {m['base_s']:.0f} | {m['other_s']:.0f} | {ratio} |")
    if comps:
        lines += ["", "Timing agreement with the 1-device sweep, per device of the other sweep (diff = other / 1-device - 1; "
                  "pairs: same task, seed, pass digest and subgraph):", "",
                  f"| sweep | timing | device | pairs | median abs diff | mean diff | worst abs diff | within {tolerance:.0%} |",
                  "|---|---|---|---:|---:|---:|---:|---:|"]
        label = {f"{v}:{f}": t for v, f, t in COMPARED_LABELS}
        for key, c in comps.items():
            sweep, rest = key.split(":", 1)
            for dev, v in c["by_device"].items():
                lines.append(f"| {names[sweep]} | {label[rest]} | {dev} | {v['pairs']} | {v['median_abs']:.2%} | "
                             f"{_pct(v['mean'])} | {v['worst_abs']:.2%} | {v['within']}/{v['pairs']} |")
    procs: dict[str, dict[str, Any]] = {}
    for key in SWEEPS:
        for role, r in (phases.get(key) or {}).get("processes", {}).items():
            q = procs.setdefault(role, {"processes": 0, "multicast_as_parent": 0, "cuda": set()})
            q["processes"] += r["processes"]
            q["multicast_as_parent"] += r["multicast_as_parent"]
            q["cuda"].update(r["cuda_visible_devices"])
    if procs:
        lines += ["", "Processes the sweeps started (sampled from /proc):", "",
                  "| role | processes | multicast switches as here | CUDA_VISIBLE_DEVICES seen |", "|---|---:|---:|---|"]
        for role, q in sorted(procs.items()):
            lines.append(f"| {role} | {q['processes']} | {q['multicast_as_parent']} | {', '.join(sorted(q['cuda']))} |")
    if a.get("checks"):
        lines += ["", "| check | result | value |", "|---|---|---|"]
        if result["multi_pool"][0].startswith("cpu"):
            lines[-2:-2] = ["", "CPU dry run: the stand-in slots share the CPU's cores, so timing agreement and throughput "
                            "are not meaningful here, and with fewer evaluations than slots two cannot run at once; "
                            "these checks are for GPUs."]
        for c in a["checks"]:
            lines.append(f"| {c['check']} | {'PASS' if c['ok'] else 'FAIL'} | {c['value']} |")
    return "\n".join(lines)


def load_state(path: Path) -> dict[str, Any]:
    """An earlier invocation's ``state.json``, with the busy profiles' integer keys (numbers of
    devices busy at once) restored: JSON turns them into strings. A ``.gz`` path is read through gzip
    (the measurements kept under ``benchmarks/results/``)."""
    state = json.loads(gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_text())
    for phase in state.get("phases", {}).values():
        busy = phase.get("busy") or {}
        for key in ("fraction_with_devices_busy", "seconds_with_devices_busy"):
            if isinstance(busy.get(key), dict):
                busy[key] = {int(k): v for k, v in busy[key].items()}
    return state


def write_outputs(out: Path, result: dict[str, Any], text: str | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / ".multi_gpu_sweep.json.tmp"
    tmp.write_text(json.dumps(result, indent=1, default=str))
    os.replace(tmp, out / "multi_gpu_sweep.json")
    if text is not None:
        (out / "multi_gpu_sweep.md").write_text(text + "\n")


# --- main -----------------------------------------------------------------------------------------------


def report(path: Path, tolerance: float, min_ratio: float, detail_rows: int) -> int:
    """``--report``: the analysis and Markdown of a saved result, recomputed by this version of the
    script; exit 0 when every check passes, 1 when one fails, 2 when the file is not a result."""
    try:
        result = load_state(path)
        result["analysis"] = analyse(result, tolerance, min_ratio)
        text = markdown(result, tolerance, detail_rows)
    except (OSError, ValueError, KeyError, TypeError, EOFError) as e:  # gzip's errors are OSError or EOFError
        print(f"--report {path}: not a multi_gpu_sweep result ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    print(text)
    return 0 if all(c["ok"] for c in result["analysis"]["checks"]) else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devices", default=None, help="GPUs of the multi-device sweep (0,1; default: every visible GPU, "
                    "or cpu when there is none), or cpu[:N] for N stand-in slots of the CPU (dry runs)")
    ap.add_argument("--tasks", default=None, help="comma-separated task ids (default: --n-tasks long-tail tasks, "
                    "those the built-in policy evaluates first)")
    ap.add_argument("--n-tasks", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=None, help="runs per task in each measured sweep (default 1)")
    ap.add_argument("--workers", type=int, default=None, help="runs at once in both measured sweeps (default: 2 per device)")
    ap.add_argument("--single-workers", type=int, default=None, help="runs at once in the 1-device sweep (default: --workers)")
    ap.add_argument("--max-steps", type=int, default=40, help="per run: model calls at most")
    ap.add_argument("--patience", type=int, default=3, help="per run: evaluations without improvement")
    ap.add_argument("--run-max-wall", type=float, default=None, help="per run: seconds")
    ap.add_argument("--timing-budget", type=float, default=None, help="seconds of timed calls per subgraph (default: the harness's)")
    ap.add_argument("--profile", action=argparse.BooleanOptionalAction, default=None,
                    help="profile every evaluation (default: the sweep command's)")
    ap.add_argument("--sweep-arg", action="append", help="extra argument for every `passagent sweep` (repeatable)")
    ap.add_argument("--cache", choices=("warm", "cold"), default="warm", help="start each measured sweep from a copy of "
                    "a warm-up sweep's cache (warm) or from the IR cache alone (cold)")
    ap.add_argument("--prewarm-ir", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--prewarm-parallel", type=int, default=None, help="IR inspections at once (default: cores / 2, at most 16)")
    ap.add_argument("--order", choices=("warmup-cost", "given"), default="warmup-cost", help="task order of both "
                    "measured sweeps: longest first by the warm-up's lease seconds per task (default; as given without a "
                    "warm-up), or as given")
    ap.add_argument("--sweep-order", choices=("single-first", "multi-first"), default="single-first",
                    help="which measured sweep runs first")
    ap.add_argument("--time-budget", type=float, default=520.0, help="seconds for the whole script")
    ap.add_argument("--tolerance", type=float, default=0.03)
    ap.add_argument("--min-ratio", type=float, default=1.8)
    ap.add_argument("--detail-rows", type=int, default=30)
    ap.add_argument("--work", type=Path, default=None, help="a new folder for the runs and caches is made in this one "
                    "(default: the system's temporary folder)")
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT") or "multi_gpu_sweep_out"))
    ap.add_argument("--phases", default=",".join(DEFAULT_PHASES), help="which of prewarm,warmup,single,multi to run in "
                    "this invocation (the rest in another, with --resume); single-again (not run unless named) repeats the "
                    "1-device sweep as a control for how far two sweeps disagree with no second GPU involved")
    ap.add_argument("--resume", type=Path, default=None, help="the work folder of an earlier invocation on this machine "
                    "(printed by it): its caches and results are reused, and --phases continues it")
    ap.add_argument("--report", type=Path, default=None, help="run nothing: analyse a saved result (a work folder's "
                    "state.json, or the multi_gpu_sweep.json of --out) and print its Markdown, e.g. on another machine")
    args = ap.parse_args()
    if args.report is not None:
        return report(args.report, args.tolerance, args.min_ratio, args.detail_rows)
    wanted = [p.strip() for p in args.phases.split(",") if p.strip()]
    if unknown := set(wanted) - set(PHASES):
        raise SystemExit(f"--phases: unknown {sorted(unknown)}; choose from {','.join(PHASES)}")
    started, t_start = time.time(), time.monotonic()
    deadline = t_start + args.time_budget
    imported = ensure_importable()

    import torch

    from passagent.tools.evaluate import device_name

    earlier: dict[str, Any] | None = None
    if args.resume:
        if not (args.resume / "state.json").is_file():
            raise SystemExit(f"--resume {args.resume}: no state.json there (not a work folder of this script, or on another machine)")
        earlier = load_state(args.resume / "state.json")
        # The earlier invocation's settings, unless given again here (then they must agree).
        if args.devices is None:
            args.devices = earlier.get("devices") or ",".join(earlier["multi_pool"])
        if args.tasks is None:
            args.tasks = ",".join(earlier["tasks"])
        for key in ("seeds", "workers", "single_workers"):
            if getattr(args, key) is None:
                setattr(args, key, earlier[key])
    args.seeds = 1 if args.seeds is None else args.seeds
    n_gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    devices = args.devices or (",".join(str(i) for i in range(n_gpus)) if n_gpus >= 2 else "cpu")
    multi_pool, single_pool = pools(devices)
    workers = args.workers or 2 * len(multi_pool)
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else default_tasks(args.n_tasks)
    if args.resume:
        work = args.resume
    else:
        if args.work:
            args.work.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="multi-gpu-sweep-", dir=args.work))  # fresh: no sweep is resumed
    args.out.mkdir(parents=True, exist_ok=True)
    log = args.out / "sweeps.log"
    # The GPUs' name comes from the evaluations (asking CUDA here would start it in this process).
    machine = f"{len(multi_pool)} GPUs" if multi_pool[0].startswith("cuda") else \
        f"{device_name('cpu')}, {len(multi_pool)} stand-in slots"
    _env, removed = sweep_env()
    result: dict[str, Any] = {
        "started_at": started, "machine": machine, "host": socket.gethostname(), "torch": torch.__version__,
        "passagent_import": imported, "devices": devices, "tasks": tasks, "seeds": args.seeds, "workers": workers,
        "single_workers": args.single_workers or workers, "multi_pool": multi_pool, "single_pool": single_pool,
        "cache_mode": args.cache + (" (IR prewarmed)" if args.prewarm_ir else ""), "timing_budget": args.timing_budget,
        "max_steps": args.max_steps, "patience": args.patience, "run_max_wall": args.run_max_wall,
        "long_tail_tasks": [t for t in tasks if t in long_tail_ids()],
        "multicast_env": {k: os.environ.get(k) for k in MULTICAST_VARS}, "removed_from_sweep_env": removed,
        "work": str(work), "phases": {},
    }
    if earlier is not None:  # the earlier invocation's settings and phases; this one's environment checks are added
        for key in ("tasks", "seeds", "workers", "single_workers", "multi_pool", "single_pool"):
            if earlier.get(key) != result[key]:
                raise SystemExit(f"--resume: {key} differs from the earlier invocation's ({earlier.get(key)} vs {result[key]})")
        earlier["phases"].update(result.pop("phases"))
        result = {**earlier, **{k: v for k, v in result.items() if k not in ("started_at", "prewarm_ir")}}
        result["resumed_at"] = started
    print(f"multi_gpu_sweep: {machine}; multi {multi_pool}, single {single_pool}; {_n(len(tasks), 'task')} x {args.seeds} seed(s); "
          f"{workers} workers; multicast env {result['multicast_env']}; work {work}", flush=True)

    template = work / "cache-template"
    template.mkdir(exist_ok=True)
    reserve = 20.0

    def left() -> float:
        return deadline - time.monotonic() - reserve

    def save() -> None:
        write_outputs(args.out, result, None)
        (work / "state.json").write_text(json.dumps(result, default=str))

    # Each phase's share of the time left: about what it needs (evaluations per device).
    weights = {"warmup": 0.8, "single": 1.0, "multi": 1.0 / len(multi_pool) + 0.1, "single-again": 1.0}

    def share(key: str) -> float:
        todo = [k for k in SWEEPS if k == key or (k in wanted and k not in result["phases"])]
        return weights[key] / sum(weights[k] for k in todo)

    if args.prewarm_ir and "prewarm" in wanted:
        parallel = args.prewarm_parallel or max(1, min(16, (os.cpu_count() or 2) // 2))
        result["prewarm_ir"] = prewarm_ir(tasks, template, parallel, time.monotonic() + 0.25 * left(), multi_pool)
        print(f"[prewarm] {result['prewarm_ir']}", flush=True)
    save()
    runs_root = work / "runs"

    def phase(key: str, pool: list[str], n: int, seeds: int, cache: Path, max_wall: float,
              extra: list[str] | None = None, task_order: dict[str, Any] | None = None) -> None:
        try:
            result["phases"][key] = run_sweep_phase(key, pool, n, seeds, task_order["tasks"] if task_order else tasks,
                                                    cache, runs_root, log, args, max_wall, extra, task_order)
        except Exception:  # noqa: BLE001 - report what was measured so far
            result.setdefault("errors", []).append(f"{key}: {traceback.format_exc()[-3000:]}")
            print(result["errors"][-1], flush=True)
        save()

    if args.cache == "warm" and "warmup" in wanted:
        cache = work / "cache-warmup"
        if not cache.exists():  # else an earlier invocation's warm-up was stopped: its sweep resumes
            shutil.copytree(template, cache)
        phase("warmup", multi_pool, workers, 1, cache, share("warmup") * left())
        shutil.rmtree(template)
        shutil.copytree(cache, template)
    order = ["single", "multi"] if args.sweep_order == "single-first" else ["multi", "single"]
    measured_now = [k for k in order + ["single-again"] if k in wanted]
    if measured_now:
        # Both measured sweeps get one order: the one a measured sweep run earlier (and not again now) used, if any.
        earlier_run = [k for k in ("single", "multi", "single-again") if k in result["phases"] and k not in measured_now]
        if earlier_run:
            task_order = recorded_task_order(result["phases"][earlier_run[0]])
            if task_order["mode"] != args.order:
                print(f"--order {args.order}: the {earlier_run[0]} sweep ran with {task_order['note']}; "
                      "keeping its order so both sweeps are alike", flush=True)
        else:
            task_order = choose_task_order(tasks, args.order, result["phases"].get("warmup"))
        result["task_order"] = task_order
        print(f"task order of the measured sweeps ({task_order['note']}): {', '.join(task_order['tasks'])}", flush=True)
    for key in measured_now:
        cache = work / f"cache-{key}"
        shutil.rmtree(cache, ignore_errors=True)
        shutil.copytree(template, cache)
        pool, n = (single_pool, args.single_workers or workers) if key in ("single", "single-again") else (multi_pool, workers)
        phase(key, pool, n, args.seeds, cache, share(key) * left(), task_order=task_order)

    names = {ev.get("device_name") for ph in result["phases"].values() for ev in ph["evaluation_records"]} - {None}
    if multi_pool[0].startswith("cuda") and names:
        result["machine"] = f"{len(multi_pool)} x {', '.join(sorted(names))}"
    result["analysis"] = analyse(result, args.tolerance, args.min_ratio)
    result["total_wall_s"] = time.monotonic() - t_start  # this invocation's
    text = markdown(result, args.tolerance, args.detail_rows)
    write_outputs(args.out, result, text)
    (work / "state.json").write_text(json.dumps(result, default=str))
    if missing := [k for k in ("single", "multi") if k not in result["phases"]]:
        # One phase per command: on two H200s each measured sweep of the ten default tasks took
        # 220-500 s, so two rarely fit one 10-minute call.
        commands = "\n".join(f"  python {Path(__file__).relative_to(REPO)} --resume {work} --phases {k}" for k in missing)
        print(f"\nnot run yet: {', '.join(missing)}; continue on this machine with\n{commands}\n"
              f"(tasks, seeds, workers and devices are taken from {work / 'state.json'})", flush=True)
    print("\n" + text + f"\n\nthis invocation {result['total_wall_s']:.0f} s; JSON: {args.out / 'multi_gpu_sweep.json'}", flush=True)
    return 0 if all(c["ok"] for c in result["analysis"]["checks"]) else 1


if __name__ == "__main__":
    sys.exit(main())
