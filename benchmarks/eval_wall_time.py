"""Wall time and worker peak memory of one ``passagent eval``, cold and with warm caches.

Cold: an empty cache root (no Inductor artifacts, no cached baselines). Warm: the same
evaluation again on that cache root, as an agent re-evaluating a pass sees it.

    python benchmarks/eval_wall_time.py                      # shared PassBench task 623d (5 subgraphs)
    python benchmarks/eval_wall_time.py --task PATH --pass FILE --repeat 3

Prints a Markdown table (the README records its output) and the machine it ran on.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from passagent.tools.evaluate import EvalOptions, device_name, evaluate_pass
from passagent.tools.tasks import load_task

REPO = Path(__file__).resolve().parent.parent
DEFAULT_TASK = next((REPO.parent / "shared" / "data" / "passbench" / "typical").glob("623d*"), None)
DEFAULT_PASS = REPO / "examples" / "passes" / "623d_drop_dead_rand.py"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", type=Path, default=DEFAULT_TASK)
    ap.add_argument("--pass", dest="pass_path", type=Path, default=DEFAULT_PASS)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeat", type=int, default=2, help="warm evaluations after the cold one")
    ap.add_argument("--cpu-threads", type=int, default=1, help="threads for CPU evaluations (0: torch's default)")
    args = ap.parse_args()

    task = load_task(args.task)
    rows = []
    with tempfile.TemporaryDirectory(prefix="passagent-bench-") as cache:
        opts = EvalOptions(device=args.device, cache_root=Path(cache), cpu_threads=args.cpu_threads or None)
        for i in range(1 + args.repeat):
            t0 = time.perf_counter()
            result = evaluate_pass(task, args.pass_path, opts)
            wall = time.perf_counter() - t0
            statuses = ",".join(sorted({s.status for s in result.subgraphs}))
            rows.append(("cold" if i == 0 else "warm", wall, result.worker_peak_rss_mb or 0.0, statuses, result.scores.aggregated))
    print(f"task {task.id[:12]} ({len(task.subgraphs)} subgraphs), pass {args.pass_path.name}, "
          f"device {args.device}: {device_name(args.device)}, cpu threads {args.cpu_threads or 'default'}\n")
    print("| run | wall time (s) | worker peak RSS (MiB) | statuses | AS |")
    print("|---|---:|---:|---|---:|")
    for kind, wall, rss, statuses, score in rows:
        print(f"| {kind} | {wall:.1f} | {rss:.0f} | {statuses} | {score:.3f} |")
    warm = [r[1] for r in rows if r[0] == "warm"]
    if warm:
        print(f"\nwarm median {statistics.median(warm):.1f} s over {len(warm)} run(s)")


if __name__ == "__main__":
    main()
