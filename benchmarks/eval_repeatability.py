"""Repeatability of the score's speedups: the same pass evaluated twice, every subgraph compared.

Each (task, pass) is evaluated twice in a row with the device's default timing (the clean-room
rounds, ``tools/evaluation/rounds.py``), in one process, as an agent's confirmation re-evaluates
its best version. For every subgraph timed both times: the two speedups against eager and against
default Inductor (the score's estimator, the median of per-round ratios) and their disagreement
``|s2 - s1| / s1``; then the median and the worst disagreement over all subgraphs, against
SCORING.md's repeatability target (2% median / 10% worst against eager, 1% / 5% against Inductor).

    PYTHONUNBUFFERED=1 python benchmarks/eval_repeatability.py [--device cuda] [--timing-budget S] [--out DIR]
        [--run TASK=PASS ...]

By default: the shared tasks b511 and 623d with their example passes and, on CUDA, built-in
task_035 with its Triton example pass (``examples/passes``). Prints a Markdown table per subgraph and the summary last;
``--out DIR`` also writes the rows as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from passagent.tools.evaluation.evaluate import EvalOptions, device_name, evaluate_pass
from passagent.tools.tasks.loader import load_task

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "passbench" / "typical"
DEFAULT_RUNS = [
    (str(next(SHARED.glob("b511*"), "b511")), str(REPO / "examples" / "passes" / "b511_pooler_dir")),
    (str(next(SHARED.glob("623d*"), "623d")), str(REPO / "examples" / "passes" / "623d_drop_dead_rand.py")),
]
#: CUDA only: built-in task_035 with its Triton example pass.
CUDA_RUNS = [("task_035", str(REPO / "examples" / "passes" / "task035_rms_norm_triton"))]
#: SCORING.md's repeatability target: (median, worst) disagreement.
TARGET = {"eager": (0.02, 0.10), "inductor": (0.01, 0.05)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--timing-budget", type=float, default=None)
    ap.add_argument("--run", action="append", default=[], help="TASK=PASS (repeatable); default: the example passes")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    runs = [tuple(r.split("=", 1)) for r in args.run] or DEFAULT_RUNS + (CUDA_RUNS if args.device.startswith("cuda") else [])
    rows = []
    t0 = time.time()
    for task_spec, pass_path in runs:
        if not Path(pass_path).exists():
            print(f"skipped {task_spec}: no pass {pass_path}")
            continue
        task = load_task(task_spec)
        opts = EvalOptions(device=args.device, timing_budget_s=args.timing_budget)
        first, second = (evaluate_pass(task, pass_path, opts) for _ in range(2))
        for a, b in zip(first.subgraphs, second.subgraphs):
            row = {"task": task.id[:12], "subgraph": a.name, "status": f"{a.status}/{b.status}"}
            for base in ("eager", "inductor"):
                s1, s2 = getattr(a, f"speedup_vs_{base}"), getattr(b, f"speedup_vs_{base}")
                row[base] = (s1, s2, abs(s2 - s1) / s1 if s1 and s2 else None)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(f"\n{device_name(args.device)}, timing budget {args.timing_budget or 'default'}, {time.time() - t0:.0f} s\n")
    print("| task | subgraph | status | vs eager 1 / 2 | diff | vs Inductor 1 / 2 | diff |")
    print("|---|---|---|---:|---:|---:|---:|")
    for r in rows:
        cells = []
        for base in ("eager", "inductor"):
            s1, s2, d = r[base]
            cells += [f"{s1:.3f} / {s2:.3f}" if s1 and s2 else "-", f"{100 * d:.1f}%" if d is not None else "-"]
        print(f"| {r['task']} | {r['subgraph']} | {r['status']} | " + " | ".join(cells) + " |")
    print()
    for base in ("eager", "inductor"):
        diffs = [r[base][2] for r in rows if r[base][2] is not None]
        if diffs:
            med, worst = statistics.median(diffs), max(diffs)
            tm, tw = TARGET[base]
            print(f"against {base}: {len(diffs)} subgraphs, disagreement median {100 * med:.2f}% / worst {100 * worst:.2f}% "
                  f"(target {100 * tm:.0f}% / {100 * tw:.0f}%: {'met' if med <= tm and worst <= tw else 'not met'})")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "eval_repeatability.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
