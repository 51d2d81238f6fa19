"""Page weight and load time of ``passagent report --html`` on a large synthetic sweep.

Writes a synthetic sweep (default 200 tasks x 6 models, 12 steps per run, 4 subgraphs per task,
an evaluation every second step), builds the report's site from it, and measures in headless
Chromium (the system's, via Playwright: ``passagent.agent.report.html.browser``) the load time
(Navigation Timing ``loadEventEnd``) of the leaderboard, the largest task page and the largest
trajectory page, several times each. Prints a Markdown table.

The sweep is synthetic: its models are named ``synthetic-N`` and their numbers are drawn from a
seeded generator; it measures the site, never a model. Run::

    python benchmarks/report_html_load.py --tasks 200 --models 6 --out /tmp/report-load
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

LEVELS = range(-10, 5)
PASS_TEMPLATE = '''import torch


def pattern(x, w):
    y = torch.nn.functional.silu(x)
    return y * w


def replacement_args(x, w):
    return (x, w)


def fused(x, w):
    return torch.nn.functional.silu(x) * w{suffix}


def replacement_func():
    return fused
'''


def _scores(baseline: str, es: float, correct: float) -> dict[str, Any]:
    return {"baseline": baseline, "es": {str(t): es for t in LEVELS}, "s": {str(t): es for t in LEVELS}, "aggregated": es,
            "correct_at_minus5": correct, "geomean_speedup_correct": es, "fast_1": correct}


def _timing(us: float) -> dict[str, Any]:
    return {"median_us": us, "q1_us": us * 0.98, "q3_us": us * 1.02, "n": 50, "p10_us": us * 0.97}


def _evaluation(task: str, rng: random.Random, n_sub: int, version: int, integrity: bool) -> dict[str, Any]:
    subs, speedups = [], []
    for i in range(n_sub):
        eager = rng.uniform(40, 400)
        ind = eager / rng.uniform(0.6, 1.6)
        s = rng.uniform(0.7, 2.0)
        status = "integrity" if integrity and i == 0 else ("correct" if rng.random() < 0.85 else "accuracy")
        times = {"eager": _timing(eager), "inductor": _timing(ind)}
        if status != "integrity":
            times["candidate"] = _timing(eager / s)
            speedups.append(s)
        subs.append({
            "index": i, "name": f"graphs/{i}", "source": f"model{i}", "dtypes": ["float16"], "status": status,
            "failure_class": None if status == "correct" else status,
            "message": "synthetic: the candidate read a timer" if status == "integrity" else None,
            "integrity_rule": "timer_access" if status == "integrity" else None,
            "matches": 1, "rules": [{"rule": "main", "matches": 1}],
            "candidate_error": {"min_correct_t": -6 if status == "correct" else -2, "max_abs": 1e-6, "max_rel": 1e-6},
            "inductor_error": {"min_correct_t": rng.choice([-7, -6, -5, -3]), "max_abs": 1e-6, "max_rel": 1e-6},
            "times": times, "speedup_vs_eager": s if status != "integrity" else None,
            "speedup_vs_inductor": s * ind / eager if status != "integrity" else None, "wall_s": 1.0,
        })
    correct = sum(1 for x in subs if x["status"] == "correct") / n_sub
    as_ = math.exp(sum(math.log(x) for x in speedups) / len(speedups)) * correct if speedups else 0.1
    return {"schema_version": "1.0", "task_id": task, "task_path": f"/nonexistent/{task}", "pass_path": "pass",
            "pass_sha256": "0" * 64, "config": {"device": "cuda:0"}, "torch_version": "2.13.0", "device_name": "synthetic",
            "subgraphs": subs, "scores": _scores("eager", max(as_, 0.1), correct), "wall_s": 10.0, "warnings": []}


def synthetic_run(folder: Path, task: str, model: str, rng: random.Random, steps: int, n_sub: int,
                  integrity_step: int | None = None) -> Path:
    """One finished synthetic run folder (``config.json``, ``events.jsonl``, ``result.json``) in the
    format :mod:`passagent.agent.run.loop` and :mod:`passagent.agent.run.solve` write."""
    folder.mkdir(parents=True, exist_ok=True)
    seq = 0
    events: list[dict[str, Any]] = []

    def rec(eid: str, kind: str, **payload: Any) -> None:
        nonlocal seq
        seq += 1
        events.append({"id": eid, "seq": seq, "kind": kind, "time": 1.0e9 + seq, **payload})

    rec("s0:init:0", "message", message={"role": "system", "content": "You write graph-compiler passes. " * 60})
    rec("s0:init:1", "message", message={"role": "user", "content": f"Task `{task}`: {n_sub} subgraphs."})
    version, best, best_version, cost, tokens = 0, None, None, 0.0, 0
    for step in range(steps):
        usage = {"input_tokens": 3000 + 400 * step, "output_tokens": 400, "cached_input_tokens": 0, "cost_usd": 0.004}
        cost += usage["cost_usd"]
        tokens += usage["input_tokens"] + usage["output_tokens"]
        evaluate = step % 2 == 1
        calls = [{"id": f"c{step}", "name": "evaluate_pass" if evaluate else "write_pass", "arguments":
                  {} if evaluate else {"source": PASS_TEMPLATE.format(suffix=" * 1.0" * (step % 3))}}]
        rec(f"s{step}:model", "model_response", step=step, usage=usage, latency_s=2.5, model=model,
            response={"message": {"role": "assistant", "content": f"Step {step}: " + "reasoning about the graph. " * 20,
                                  "tool_calls": calls}, "usage": usage})
        if evaluate:
            version += 1
            ev = _evaluation(task, rng, n_sub, version, integrity=step == integrity_step)
            agg = ev["scores"]["aggregated"]
            if best is None or agg > best:
                best, best_version = agg, version
            rec(f"s{step}:tool:0", "tool_result", step=step, call=calls[0], result="task AS ... (per-subgraph table)\n" * 12,
                is_error=False, format_error=False, finished=False, summary=None, version=version, aggregated=agg,
                pass_sources={"main": PASS_TEMPLATE.format(suffix=" * 1.0" * ((step - 1) % 3))}, evaluation=ev)
        else:
            rec(f"s{step}:tool:0", "tool_result", step=step, call=calls[0], result="wrote main.py (20 lines)",
                is_error=False, format_error=False, finished=False, summary=None)
    rec("end", "run_end", exit_reason="patience", best_as=best)
    best_ev = next(e["evaluation"] for e in events if e.get("version") == best_version)
    result = {"schema_version": "1.0", "run_id": "synthetic", "task_id": task, "model": model, "exit_reason": "patience",
              "best_as": best, "best_version": best_version, "best_scores": best_ev["scores"], "best_other_scores": None,
              "best_subgraphs": [{k: s[k] for k in ("name", "status", "matches", "speedup_vs_eager", "speedup_vs_inductor")}
                                 for s in best_ev["subgraphs"]],
              "evaluations": version, "steps": steps, "input_tokens": tokens - 400 * steps, "output_tokens": 400 * steps,
              "cost_usd": cost, "wall_s": 100.0}
    config = {"run_id": "synthetic", "task_id": task, "task_path": f"/nonexistent/{task}",
              "model": {"name": model, "base_name": model, "sweep_seed": 0},
              "eval_options": {"scoring": {"failure_penalty": 0.1, "slowdown_penalty": 0.0}}}
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "result.json").write_text(json.dumps(result))
    return folder


def synthetic_sweep(root: Path, tasks: int, models: int, steps: int = 12, subgraphs: int = 4, seed: int = 0) -> Path:
    """A sweep folder ``root`` of ``tasks`` x ``models`` synthetic finished runs; the first run
    of the first task has an integrity failure at its second evaluation."""
    rng = random.Random(seed)
    for t in range(tasks):
        for m in range(models):
            synthetic_run(root / f"task_{t:03d}" / f"synthetic-{m}", f"task_{t:03d}", f"synthetic-{m}", rng, steps, subgraphs,
                          integrity_step=3 if t == m == 0 else None)
    return root


def _largest(folder: Path) -> Path:
    return max(folder.rglob("*.html"), key=lambda p: p.stat().st_size)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=int, default=200)
    ap.add_argument("--models", type=int, default=6)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--repeats", type=int, default=5, help="loads per page (the table shows the median and the worst)")
    ap.add_argument("--out", type=Path, required=True, help="an empty or missing folder for the sweep and its site")
    args = ap.parse_args(argv)

    from passagent.agent.report.build import write_report
    from passagent.agent.report.html.browser import chromium, load_time_ms, unavailable

    sweep = args.out / "sweep"
    if not sweep.exists():
        t0 = time.perf_counter()
        synthetic_sweep(sweep, args.tasks, args.models, args.steps)
        print(f"synthetic sweep: {args.tasks} tasks x {args.models} models in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    t0 = time.perf_counter()
    written = write_report(sweep, args.out / "report", n_boot=1000, plots=False, html=True)
    build_s = time.perf_counter() - t0
    site = written.html_index.parent
    pages = {"leaderboard (index.html)": site / "index.html", "largest task page": _largest(site / "tasks"),
             "largest trajectory page": _largest(site / "runs")}
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    print(f"site: {sum(1 for _ in site.rglob('*.html'))} pages, {total / 1e6:.1f} MB, built in {build_s:.1f} s", file=sys.stderr)
    reason = unavailable()
    rows = []
    if reason:
        print(f"no load times: {reason}", file=sys.stderr)
    else:
        with chromium() as ctx:
            page = ctx.new_page()
            for label, path in pages.items():
                times = [load_time_ms(page, path.as_uri()) for _ in range(args.repeats)]
                rows.append((label, path.stat().st_size, statistics.median(times), max(times)))
    print("| page | size (KB) | load, median (ms) | load, worst (ms) |\n|---|---|---|---|")
    for label, size, med, worst in rows:
        print(f"| {label} | {size / 1024:.0f} | {med:.0f} | {worst:.0f} |")
    print(f"\n{args.tasks} tasks x {args.models} models, {args.steps} steps per run; site {total / 1e6:.1f} MB, "
          f"built in {build_s:.1f} s; {args.repeats} loads per page.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
