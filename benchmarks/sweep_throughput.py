"""Sweep throughput: runs per hour of ``passagent sweep`` with the built-in policy on the CPU.

Each configuration sweeps the built-in policy over the same small GraphNet samples with the
local backend, one evaluation at a time on the CPU (the device lease), ``--workers`` runs at a
time. ``cold`` starts from an empty cache (every IR inspection, baseline and Inductor compile
is new, as for a sweep over new tasks); ``warm`` sweeps the same tasks again in a new sweep with
that cache (what a second model or seed of a sweep pays). Prints a Markdown table.

    python benchmarks/sweep_throughput.py [--workers 1,2] [--tasks 4] [--timing-budget 0.1]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from passagent.agent.run.loop import SolveConfig
from passagent.agent.sweep.selectors import select_tasks
from passagent.agent.sweep.runner import prepare, run_sweep
from passagent.tools.evaluation.evaluate import EvalOptions, device_name
from passagent.tools.measure.timing import TimingConfig

REPO = Path(__file__).resolve().parent.parent
GRAPHNET = Path(os.environ.get("PASSAGENT_SHARED", REPO.parent / "shared")) / "data" / "graphnet"
#: Small samples, about half of which the built-in policy writes and evaluates a pass for.
SAMPLES = ["hf__sadhaklal_mlp-iris", "hf__UAE-Large-V1", "timm__sequencer2d_l.in1k", "torchgeometric__MetaPath2Vec",
           "hf__google__tapas-base-masklm", "hf__squeezebert_squeezebert-uncased"]


def one(out: Path, cache: Path, sweep_id: str, tasks: list[str], workers: int, timing_budget: float) -> dict:
    options = EvalOptions(cache_root=cache, timing=TimingConfig(budget_s=timing_budget))
    spec = prepare(out, sweep_id, ["builtin"], select_tasks(tasks), solve_config=SolveConfig(), eval_options=options)
    t0 = time.perf_counter()
    outcome = run_sweep(spec, out, workers=workers)
    wall = time.perf_counter() - t0
    evaluations = sum(json.loads(p.read_text())["evaluations"] for p in (out / sweep_id).rglob("result.json"))
    return {"runs": outcome.finished, "failed": len(outcome.failed), "wall_s": wall, "evaluations": evaluations,
            "runs_per_hour": outcome.finished / wall * 3600}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--tasks", type=int, default=4, help=f"how many of the {len(SAMPLES)} samples to sweep")
    ap.add_argument("--timing-budget", type=float, default=0.1, help="seconds of timed calls per subgraph")
    args = ap.parse_args()
    tasks = [str(GRAPHNET / s) for s in SAMPLES[: args.tasks]]
    rows = []
    for workers in (int(w) for w in args.workers.split(",")):
        with tempfile.TemporaryDirectory(prefix="passagent-sweep-bench-") as tmp:
            out, cache = Path(tmp) / "runs", Path(tmp) / "cache"
            for mode in ("cold", "warm"):
                r = one(out, cache, f"{mode}-w{workers}", tasks, workers, args.timing_budget)
                rows.append((workers, mode, r))
                print(f"workers {workers} {mode}: {r}", flush=True)
    print(f"\n{device_name('cpu')}; built-in policy, device pool "
          f"[cpu], {len(tasks)} GraphNet samples, timing budget {args.timing_budget} s\n")
    print("| workers | cache | runs | evaluations | wall (s) | runs per hour |")
    print("|---:|---|---:|---:|---:|---:|")
    for workers, mode, r in rows:
        print(f"| {workers} | {mode} | {r['runs']} | {r['evaluations']} | {r['wall_s']:.0f} | {r['runs_per_hour']:.0f} |")


if __name__ == "__main__":
    main()
