"""Wall time and candidate-process peak memory of one ``passagent eval``, cold and with warm caches.

Cold: an empty cache root (no Inductor artifacts, no cached baselines). Warm: the same
evaluation again on that cache root, as an agent re-evaluating a pass sees it. Each row also
splits the evaluation's time by step (``SubgraphResult.phase_s`` summed over the subgraphs), so it
shows where an evaluation's time goes (compiling, timing, the held-out-shape recompile).

    python benchmarks/eval_wall_time.py                      # shared PassBench task 623d (5 subgraphs)
    python benchmarks/eval_wall_time.py --task PATH --pass FILE --repeat 3
    python benchmarks/eval_wall_time.py --device cuda --task .../b511.../graphs/1 \\
        --pass examples/passes/b511_skip_single_cat.py --modes sandbox,no-sandbox

``--modes``: ``sandbox`` (the default evaluation) and ``no-sandbox`` (``EvalOptions(sandbox=False)``:
no write confinement, resource limits or network namespace), to measure what the sandbox costs;
``standby`` (``EvalOptions(standby=True)``: each evaluation is served by a candidate process
pre-started after the previous one, ``STANDBY_POOL`` in :mod:`passagent.tools.evaluation.child`;
every run waits until that process is ready, as an agent's turn would cover its start-up; the cold
run has none). Every mode starts from its own
empty cache root.

``--pool``: each evaluation leases its device from a one-device pool, as in a sweep or the agent's
loop (:mod:`passagent.tools.process.lease_gate`), and the table adds the seconds the lease was held and the
seconds of compiling before it (on a GPU the compiles happen before the lease,
:mod:`passagent.tools.process.compile_ahead`), from the pool's lease log.

Prints a Markdown table (the README records its output) and the machine it ran on. Its last column
splits the timing step, summed over the subgraphs: the secret draws and their eager reference,
warm-up, the rounds, the check rounds' checks (inside the rounds), CUDA-graph replays, and the
checks after timing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from passagent.agent.run.render import step_times
from passagent.tools.process.device_lease import read_leases
from passagent.tools.evaluation.evaluate import EvalOptions, device_name, evaluate_pass
from passagent.tools.evaluation.schema import EvalResult
from passagent.tools.tasks.loader import load_task

REPO = Path(__file__).resolve().parent.parent
DEFAULT_TASK = next((REPO.parent / "shared" / "data" / "passbench" / "typical").glob("623d*"), None)
DEFAULT_PASS = REPO / "examples" / "passes" / "623d_drop_dead_rand.py"
MODES = ("sandbox", "no-sandbox", "standby")

TIMING_PARTS = ("inputs_s", "warmup_s", "seconds", "checks_s", "graph_s", "after_s")


def timing_split(result: EvalResult) -> dict[str, float]:
    """Where the timing step's seconds went, summed over the subgraphs (``SubgraphResult.timing_stop``:
    secret draws and their reference, warm-up, rounds (check rounds' checks inside them), CUDA-graph
    replays, the checks after timing), in seconds rounded to 10 ms; a subgraph that was not timed
    adds nothing."""
    total = dict.fromkeys(TIMING_PARTS, 0.0)
    for sg in result.subgraphs:
        for k in TIMING_PARTS:
            total[k] += float((sg.timing_stop or {}).get(k) or 0.0)
    return {k: round(v, 2) for k, v in total.items()}


def wait_for_standby() -> None:
    """Block until the pre-started processes of the next evaluation are ready (whichever harness
    version is imported: the clean-room one's pool, or the single worker's of earlier versions,
    which ``benchmarks/eval_cost_compare.py`` runs side by side)."""
    try:
        from passagent.tools.evaluation.child import STANDBY_POOL

        STANDBY_POOL.wait_ready()
    except ImportError:
        from passagent.tools.standby import POOL  # the single-worker harness

        POOL.wait_ready()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", type=Path, default=DEFAULT_TASK)
    ap.add_argument("--pass", dest="pass_path", type=Path, default=DEFAULT_PASS)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeat", type=int, default=2, help="warm evaluations after the cold one")
    ap.add_argument("--cpu-threads", type=int, default=1, help="threads for CPU evaluations (0: torch's default)")
    ap.add_argument("--pool", action="store_true", help="lease the device from a one-device pool; report the lease")
    ap.add_argument("--modes", default="sandbox", help=f"comma-separated, each from a fresh cache: {', '.join(MODES)}")
    args = ap.parse_args()

    task = load_task(args.task)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if bad := [m for m in modes if m not in MODES]:
        raise SystemExit(f"unknown --modes {bad}; choose from {', '.join(MODES)}")
    rows = []
    for mode in modes:
        with tempfile.TemporaryDirectory(prefix="passagent-bench-") as cache:
            locks = Path(cache) / "locks"
            opts = EvalOptions(device=args.device, cache_root=Path(cache), cpu_threads=args.cpu_threads or None,
                               sandbox=mode != "no-sandbox", standby=mode == "standby",
                               device_pool=[args.device] if args.pool else None, lock_dir=locks if args.pool else None)
            for i in range(1 + args.repeat):
                if mode == "standby":
                    # As in an agent loop, where the model's turn covers the next worker's start-up.
                    wait_for_standby()
                t0 = time.perf_counter()
                result = evaluate_pass(task, args.pass_path, opts)
                wall = time.perf_counter() - t0
                statuses = ",".join(sorted({s.status for s in result.subgraphs}))
                lease = read_leases(locks)[-1] if args.pool else {}
                held = lease["end"] - lease["start"] if lease else None
                ahead = (lease.get("before_lease_s") or {}).get("compile", 0.0) if lease else None
                rows.append((mode, "cold" if i == 0 else "warm", wall, result.worker_peak_rss_mb or 0.0, statuses,
                             result.scores.aggregated, dict(step_times(result)), held, ahead, timing_split(result)))
                print(f"[{mode} {'cold' if i == 0 else 'warm'}] {wall:.1f} s (lease {held}): {step_times(result)}", flush=True)
    print(f"\ntask {task.id[:12]} ({len(task.subgraphs)} subgraphs), pass {args.pass_path.name}, "
          f"device {args.device}: {device_name(args.device)}, cpu threads {args.cpu_threads or 'default'}\n")
    steps = ["references and Inductor (clean processes)", "candidate compile", "candidate run", "held-out shape", "timing"]
    pool = ["lease held (s)", "compiled before the lease (s)"] if args.pool else []
    print("| mode | run | wall time (s) | " + "".join(f"{k} | " for k in pool) + "candidate peak RSS (MiB) | statuses | AS | "
          + " | ".join(f"{k} (s)" for k in steps) + " | other steps (s) | timing: " + " / ".join(TIMING_PARTS) + " |")
    print("|---|---|---:|" + "---:|" * len(pool) + "---:|---|---:|" + "---:|" * (len(steps) + 1) + "---|")
    for mode, kind, wall, rss, statuses, score, by_step, held, ahead, split in rows:
        other = sum(v for k, v in by_step.items() if k not in steps)
        leased = f"{held:.1f} | {ahead:.1f} | " if args.pool else ""
        print(f"| {mode} | {kind} | {wall:.1f} | {leased}{rss:.0f} | {statuses} | {score:.3f} | "
              + " | ".join(f"{by_step.get(k, 0.0):.1f}" for k in steps) + f" | {other:.1f} | "
              + " / ".join(f"{split[k]:.2f}" for k in TIMING_PARTS) + " |")
    for mode in modes:
        warm = [r[2] for r in rows if r[0] == mode and r[1] == "warm"]
        if warm:
            print(f"\n{mode}: warm median {statistics.median(warm):.1f} s over {len(warm)} run(s)")

if __name__ == "__main__":
    main()
