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
  multi-device sweep is. On the H200 host the speed drifts between sweeps minutes apart (at
  2026-11-30 01:45 UTC the same evaluations held their leases 16.5% less time in the 2-device
  sweep than in the 1-device sweep just before it, on a host with a second GPU's evaluations to
  serve as well), so the control's disagreement and throughput ratio, how far two sweeps
  differ with no second GPU involved, are what the multi-device figures must be read against. The multi-device sweep is also compared with the
  control (rows "against the control instead"), and each sweep's lease seconds for the
  evaluations it shares with another are compared (:func:`matched_lease_time`; host drift plus,
  in a multi-device sweep, the cost of sharing the host): at 2026-11-30 04:07 UTC they were
  equal within 0.6% in the 2-device sweep and the control run right after it, and 11% shorter in
  the first 1-device sweep;
* ``--report FILE`` runs nothing and prints all of this for a saved result (``state.json``, the
  ``--out`` JSON, or a gzipped copy such as ``benchmarks/results/*.json.gz``);
* the environment of the processes the sweep started (sampled from ``/proc``): the NVLink
  multicast switches (``NCCL_NVLS_ENABLE``, ``TORCH_SYMM_MEM_DISABLE_MULTICAST``,
  ``NVSHMEM_DISABLE_NVLS``) must reach every child as they are here (this script never sets
  or clears them), and each evaluation worker must see its one GPU (``CUDA_VISIBLE_DEVICES``).

The analysis and the Markdown report are in ``multi_gpu_analysis.py`` beside this script (pure
functions of the recorded phases; ``--report`` runs them alone).

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
(``prewarm``, ``warmup``, ``single``, ``multi``, ``single-again``) can be split over several invocations on the same
machine when one call of a rented machine is too short: ``--phases prewarm,warmup`` first, then
``--resume <the work folder it printed> --phases single``, then ``--phases multi`` (each reads the
first's ``state.json`` and caches, checks that tasks, seeds, workers and devices are the same, and
reports all phases together). On two H200s (2026-11-29/30) a cold warm-up evaluation held its
lease a median 33-37 s and a warm one 24-32 s; with the ten default tasks the warm-up took
277-291 s, the 1-device sweeps 344-499 s and the 2-device sweeps 204-241 s, so each measured sweep
needs a call of its own. Markdown tables
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the analysis lives beside this script
from multi_gpu_analysis import (MULTICAST_VARS, SWEEPS, count_noun, analyse, choose_task_order,  # noqa: E402
                                lease_time_by_purpose, load_state, markdown, recorded_task_order)

#: Long-tail built-in tasks where the built-in policy's catalogue proposes a rule that changes the
#: ATen graph, so it evaluates passes (1 evaluation per run, 2 for task_033, 3 for task_035: 13 in
#: all, seen on two H200s 2026-11-29). Found with
#: ``benchmarks/policy_coverage.py`` (2026-11-29, 19 recipes); every other long-tail task finishes
#: without evaluating. Ordered so a short sweep first meets the tasks whose passes are correct on
#: every subgraph.
EVALUATING = ["task_082", "task_032", "task_033", "task_003", "task_092", "task_004", "task_072", "task_035",
              "task_050", "task_020"]
PHASES = ("prewarm", "warmup", "single", "multi", "single-again")
#: Phases run unless ``--phases`` says otherwise; ``single-again`` (the control) is asked for by name.
DEFAULT_PHASES = PHASES[:4]
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
    from passagent.tools.provenance import source_identity

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
    code_at_start = source_identity(REPO)
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
        # The code at the phase's start and end: each evaluation starts a fresh worker, so an edit
        # during a phase, or between the invocations of a resumed one, changes what it measures.
        "sources": [code_at_start, source_identity(REPO)],
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
                             "graph_replays": t.get("graph_replays"), "graph_dropped": t.get("graph_dropped"),
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
    except FileNotFoundError:
        print(f"--report {path}: no such file", file=sys.stderr)
        return 2
    # gzip's errors are OSError or EOFError; a record missing a field, KeyError and the like.
    except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError) as e:
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
                    "state.json, the multi_gpu_sweep.json of --out, or a gzipped copy, *.json.gz) and print its "
                    "Markdown, e.g. on another machine; exit 0 all checks pass, 1 one fails, 2 not a result")
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
    print(f"multi_gpu_sweep: {machine}; multi {multi_pool}, single {single_pool}; {count_noun(len(tasks), 'task')} x {args.seeds} seed(s); "
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
            earlier_code = (result["phases"].get(key) or {}).get("sources") or []  # a stopped phase resumed
            result["phases"][key] = run_sweep_phase(key, pool, n, seeds, task_order["tasks"] if task_order else tasks,
                                                    cache, runs_root, log, args, max_wall, extra, task_order)
            result["phases"][key]["sources"] = earlier_code + result["phases"][key]["sources"]
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
