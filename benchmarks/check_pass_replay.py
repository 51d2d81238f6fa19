"""Evaluations saved by ``check_pass``: a scripted replay of a realistic episode, with and without it.

The episode is the sequence of drafts a model writes on task_004's first subgraph (batch_norm,
``in_5 += tmp_0``, relu, adaptive_avg_pool2d), each with a mistake seen in real agent runs
(``benchmarks/episodes/task004_residual/``): an import the static checks refuse, the residual
written out of place so the pattern never matches, a replacement that returns one value for a
two-output pattern, wrong maths, and finally the correct fused pass. The drafts are fixed
files, not a model's output: the replay measures the tools, not a model.

- **without check**: every draft goes to ``evaluate_pass`` (each is a pass version and, when it
  does not improve AS, a patience slot);
- **with check**: every draft goes to ``check_pass`` first; only a draft that checks clean (every
  subgraph matched, no error, correct at t=-5 on the checked draw, no static finding) is evaluated.

Prints one row per draft (what each call said, its wall time) and the totals: evaluations, wall
time, and where a patience of 3 would have ended the run without the check. ``--json`` writes the
rows and totals.

    python benchmarks/check_pass_replay.py                 # CPU
    python benchmarks/check_pass_replay.py --device cuda --json benchmarks/results/check_pass_replay_cuda.json
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from passagent.tools.inspection.check import check_pass_on_task
from passagent.tools.evaluation.evaluate import EvalOptions, device_name, evaluate_pass
from passagent.tools.tasks.loader import load_task

REPO = Path(__file__).resolve().parent.parent
TASK = REPO / "bench" / "tasks" / "task_004" / "graphs" / "0"
DRAFTS = REPO / "benchmarks" / "episodes" / "task004_residual"
PATIENCE = 3  # SolveConfig's default


def clean(report) -> bool:
    """Whether a check says the draft is worth an evaluation."""
    return (not report.findings and not report.load_error and not report.error and bool(report.subgraphs)
            and all(s.matches and not s.error and not s.no_change and s.outputs
                    and all(o.problem is None and o.min_correct_t is not None and o.min_correct_t <= -5 for o in s.outputs)
                    for s in report.subgraphs))


def check_summary(report) -> str:
    if report.findings:
        return f"static: {report.findings[0].rule}"
    if report.load_error:
        return "load error"
    s = report.subgraphs[0] if report.subgraphs else None
    if s is None:
        return report.error or "?"
    if s.error:
        return "error: " + s.error.split(":")[0]
    if not s.matches:
        return "no match"
    levels = [o.min_correct_t for o in s.outputs]
    return f"matched; correct from t={max(levels)}" if None not in levels else "matched; wrong values"


def eval_summary(result) -> str:
    s = result.subgraphs[0]
    return f"{s.status} (AS {result.scores.aggregated:.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--task", type=Path, default=TASK)
    ap.add_argument("--drafts", type=Path, default=DRAFTS)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    task = load_task(args.task)
    drafts = sorted(args.drafts.glob("draft*.py"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="passagent-replay-") as cache:
        options = EvalOptions(device=args.device, cache_root=Path(cache))
        for d in drafts:
            t0 = time.perf_counter()
            report = check_pass_on_task(task, d, device=args.device, timeout_s=600)
            check_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            result = evaluate_pass(task, d, options)
            eval_s = time.perf_counter() - t0
            rows.append({"draft": d.name, "check": check_summary(report), "check_clean": clean(report), "check_s": check_s,
                         "evaluation": eval_summary(result), "aggregated": result.scores.aggregated, "eval_s": eval_s})
            print(f"{d.name}: check {check_s:.1f} s -> {rows[-1]['check']}; evaluate {eval_s:.1f} s -> {rows[-1]['evaluation']}", flush=True)
    # Without check: every draft is evaluated, in order; patience counts evaluations without improvement.
    best, since, stopped_after = None, 0, None
    for i, r in enumerate(rows, 1):
        if best is None or r["aggregated"] > best * 1.01:
            best, since = r["aggregated"], 0
        else:
            since += 1
        if since >= PATIENCE and stopped_after is None:
            stopped_after = i
    without = {"evaluations": len(rows), "wall_s": sum(r["eval_s"] for r in rows)}
    with_ = {"evaluations": sum(r["check_clean"] for r in rows), "checks": len(rows),
             "wall_s": sum(r["check_s"] for r in rows) + sum(r["eval_s"] for r in rows if r["check_clean"])}
    totals = {"without_check": without, "with_check": with_, "evaluations_saved": without["evaluations"] - with_["evaluations"],
              "patience_stop_without_check_after_draft": stopped_after, "patience": PATIENCE}
    print("\n| draft | check_pass (s) | check says | evaluate_pass (s) | evaluation says |")
    print("|---|---:|---|---:|---|")
    for r in rows:
        print(f"| {r['draft']} | {r['check_s']:.1f} | {r['check']} | {r['eval_s']:.1f} | {r['evaluation']} |")
    print(f"\nwithout check: {without['evaluations']} evaluations, {without['wall_s']:.0f} s; "
          f"with check: {with_['checks']} checks + {with_['evaluations']} evaluation(s), {with_['wall_s']:.0f} s; "
          f"evaluations saved: {totals['evaluations_saved']}")
    if stopped_after:
        print(f"without check, patience {PATIENCE} ends the run after draft {stopped_after}, before the correct draft")
    machine = f"{device_name(args.device)}, {platform.node()}"
    print(f"machine: {machine}; date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"rows": rows, "totals": totals, "machine": machine, "device": args.device,
                                         "date": datetime.now(timezone.utc).isoformat()}, indent=2))


if __name__ == "__main__":
    main()
