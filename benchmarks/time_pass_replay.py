"""Evaluations saved by ``time_pass``: a scripted replay of "is this faster?", with and without it.

The episode (``benchmarks/episodes/task004_speed/``) is the sequence of drafts a model writes on
task_004's first subgraph once it has a correct fused pass: the fused pass, then two "ideas" that
keep it correct and cost time (the arithmetic in float64; the pool from a channels-last copy). The
drafts are fixed files, not a model's output: the replay measures the tools, not a model.

- **without time_pass**: every draft goes to ``evaluate_pass`` (each is a pass version and, when
  it does not improve AS, a patience slot);
- **with time_pass**: every draft is timed first (``time_pass``: the evaluation's rounds, no
  held-out shape, not a score), and evaluated only when its paired speedup against default
  Inductor (geometric mean over subgraphs, every subgraph correct) beats the best timed so far.

Every draft is evaluated once and timed once, and each policy is scored from those calls: the
evaluations each spends, its wall time (the sum of the calls it makes) and the best AS and AS /
AS(Inductor) it ends with (AS against eager moves with each evaluation's eager timing; the ratio
to Inductor's AS from the same timings is the steadier comparison). Prints one row per draft and the totals; ``--json`` writes them.

    python benchmarks/time_pass_replay.py [--device cpu] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from passagent.agent.run.toolbox import quick_timing_options
from passagent.tools.evaluation.evaluate import EvalOptions, device_name, evaluate_pass
from passagent.tools.tasks.loader import load_task

REPO = Path(__file__).resolve().parent.parent
TASK = REPO / "bench" / "tasks" / "task_004" / "graphs" / "0"
DRAFTS = REPO / "benchmarks" / "episodes" / "task004_speed"


def quick_ratio(result) -> float | None:
    """Geometric mean of the paired speedups against default Inductor; None unless every subgraph
    is correct and timed."""
    ratios = [s.speedup_vs_inductor for s in result.subgraphs]
    if not ratios or any(s.status != "correct" or r is None or r <= 0 for s, r in zip(result.subgraphs, ratios)):
        return None
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios))


def _num(x: float | None, digits: int) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    task = load_task(TASK)
    drafts = sorted(DRAFTS.glob("draft*.py"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="passagent-replay-") as tmp:
        options = EvalOptions(device=a.device, cache_root=Path(tmp))
        for d in drafts:
            t0 = time.perf_counter()
            quick = evaluate_pass(task, d, quick_timing_options(options))
            quick_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            full = evaluate_pass(task, d, options)
            eval_s = time.perf_counter() - t0
            rows.append({"draft": d.name, "quick_ratio": quick_ratio(quick), "quick_s": round(quick_s, 1),
                         "as": full.as_vs_eager(), "as_ratio": full.ratio_to_inductor(), "eval_s": round(eval_s, 1)})
    best_quick, chosen = -math.inf, []
    for r in rows:
        q = r["quick_ratio"]
        r["evaluated_with_time_pass"] = q is not None and q > best_quick
        if r["evaluated_with_time_pass"]:
            best_quick = q
            chosen.append(r)
    without = {"evaluations": len(rows), "wall_s": round(sum(r["eval_s"] for r in rows), 1),
               "best_as": max((r["as"] for r in rows if r["as"] is not None), default=None),
               "best_ratio": max((r["as_ratio"] for r in rows if r["as_ratio"] is not None), default=None)}
    with_ = {"evaluations": len(chosen), "wall_s": round(sum(r["quick_s"] for r in rows) + sum(r["eval_s"] for r in chosen), 1),
             "best_as": max((r["as"] for r in chosen if r["as"] is not None), default=None),
             "best_ratio": max((r["as_ratio"] for r in chosen if r["as_ratio"] is not None), default=None)}
    print("| draft | time_pass vs Inductor | time_pass s | AS | AS / AS(Inductor) | eval s | evaluated with time_pass |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        q = "-" if r["quick_ratio"] is None else f"{r['quick_ratio']:.3f}x"
        print(f"| {r['draft']} | {q} | {r['quick_s']} | {_num(r['as'], 4)} | {_num(r['as_ratio'], 3)} | {r['eval_s']} | "
              f"{'yes' if r['evaluated_with_time_pass'] else 'no'} |")
    print(f"\nwithout time_pass: {without['evaluations']} evaluations, {without['wall_s']} s, best AS {_num(without['best_as'], 4)}, "
          f"best AS / AS(Inductor) {_num(without['best_ratio'], 3)}")
    print(f"with time_pass:    {with_['evaluations']} evaluations, {with_['wall_s']} s, best AS {_num(with_['best_as'], 4)}, "
          f"best AS / AS(Inductor) {_num(with_['best_ratio'], 3)}")
    if a.json:
        a.json.write_text(json.dumps({"rows": rows, "without": without, "with": with_, "device": device_name(a.device),
                                      "host": platform.node(), "date": datetime.now(timezone.utc).isoformat()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
