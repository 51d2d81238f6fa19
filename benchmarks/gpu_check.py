"""One GPU check in one call: GPU tests, example passes on the shared tasks, the built-in policy
solving tasks, and result tables.

    PYTHONUNBUFFERED=1 python benchmarks/gpu_check.py [--out DIR] [--solve-tasks N] [--solve-budget S]

Run on a CUDA machine (the device tool's H200). Prints, last, Markdown tables: per subgraph of
the shared tasks, eager, Inductor and example-pass times (median end-to-end and kernel time)
with speedups; per solved task, the geometric-mean eager, Inductor and best-pass times and AS
against eager and against Inductor. Full JSON results and logs go to --out (default $OUT).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PASSAGENT_SHARED", REPO.parent / "shared"))
PASSBENCH = SHARED / "data" / "passbench" / "typical"
EXAMPLE_RUNS = [("b511", "b511_pooler_dir"), ("623d", "623d_drop_dead_rand.py")]


def run_gpu_tests(out: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(REPO / "tests" / "test_gpu.py"), "-q", "-p", "no:cacheprovider"],
        capture_output=True, text=True, cwd=REPO,
    )
    (out / "gpu_tests.log").write_text(proc.stdout + proc.stderr)
    last = [ln for ln in proc.stdout.strip().splitlines() if ln.strip()][-1:] or ["(no output)"]
    return f"GPU tests: {last[0]} (exit {proc.returncode})"


def eval_table(out: Path) -> list[str]:
    from passagent.tools.evaluate import EvalOptions, evaluate_pass
    from passagent.tools.tasks import load_task

    lines = [
        "| task | subgraph | dtype | status | eager e2e / kernel (us) | Inductor e2e / kernel (us) | pass e2e / kernel (us) | vs eager | vs Inductor |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    summary = []
    for prefix, pass_name in EXAMPLE_RUNS:
        task_dir = next(PASSBENCH.glob(f"{prefix}*"))
        result = evaluate_pass(load_task(task_dir), REPO / "examples" / "passes" / pass_name,
                               EvalOptions(device="cuda", baseline="inductor", cache_root=out / "cache"))
        (out / f"eval_{prefix}.json").write_text(result.model_dump_json(indent=1))
        for s in result.subgraphs:
            def t(name: str) -> str:
                x = s.times.get(name)
                return "-" if x is None else f"{x.median_us:.1f} / {x.kernel_median_us or 0:.1f}"
            lines.append(
                f"| {prefix} | {s.name} | {','.join(s.dtypes)} | {s.status} | {t('eager')} | {t('inductor')} | {t('candidate')} | "
                f"{s.speedup_vs_eager or 0:.3f} | {s.speedup_vs_inductor or 0:.3f} |"
            )
        vs_eager = result.other_scores.aggregated if result.other_scores else float("nan")
        summary.append(f"{prefix} ({pass_name}): AS vs Inductor {result.scores.aggregated:.3f}, AS vs eager {vs_eager:.3f}, "
                       f"{result.device_name}, torch {result.torch_version}, {result.wall_s:.0f} s")
    return lines + [""] + summary


def _geomean(xs: list[float]) -> float:
    import math

    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def solve_table(out: Path, n_builtin: int, budget_s: float) -> list[str]:
    """The built-in policy on the shared tasks and the first ``n_builtin`` long-tail built-in tasks."""
    from passagent.agent.loop import SolveConfig
    from passagent.agent.solve import solve
    from passagent.tools.builtin_tasks import load_manifest
    from passagent.tools.evaluate import EvalOptions

    tasks = [str(next(PASSBENCH.glob(f"{p}*"))) for p, _ in EXAMPLE_RUNS]
    tasks += [row["id"] for row in load_manifest() if row.get("long_tail")][:n_builtin]
    lines = [
        "| task | subgraphs | exit | eager (us) | Inductor (us) | best pass (us) | AS vs eager | AS vs Inductor | correct@-5 |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    start = time.time()
    for task in tasks:
        if time.time() - start > budget_s:
            lines.append(f"| {Path(task).name[:12]} | - | not run (time budget) | | | | | | |")
            continue
        try:
            r = solve(task, "builtin", out=out / "runs", eval_options=EvalOptions(device="cuda", cache_root=out / "cache"),
                      config=SolveConfig(max_steps=30))
        except Exception as exc:  # report and go on: one task must not end the check
            lines.append(f"| {Path(task).name[:12]} | - | error: {type(exc).__name__}: {str(exc)[:80]} | | | | | | |")
            continue
        name = Path(task).name[:12]
        if r["best_version"] is None:
            lines.append(f"| {name} | - | {r['exit_reason']}: no pass evaluated | | | | | | |")
            continue
        run = next((out / "runs").glob(f"{r['run_id']}/*/builtin"))
        best = next(json.loads(l) for l in (run / "events.jsonl").read_text().splitlines()
                    if json.loads(l).get("version") == r["best_version"])["evaluation"]
        times = {k: _geomean([s["times"][k]["median_us"] for s in best["subgraphs"] if k in s["times"]])
                 for k in ("eager", "inductor", "candidate")}
        other = r["best_other_scores"]["aggregated"] if r["best_other_scores"] else float("nan")
        lines.append(f"| {name} | {len(best['subgraphs'])} | {r['exit_reason']} | {times['eager']:.1f} | {times['inductor']:.1f} | "
                     f"{times['candidate']:.1f} | {r['best_as']:.3f} | {other:.3f} | {r['best_scores']['correct_at_minus5']:.0%} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "gpu_check_out")))
    ap.add_argument("--solve-tasks", type=int, default=10, help="built-in long-tail tasks to solve besides the shared ones")
    ap.add_argument("--solve-budget", type=float, default=300.0, help="seconds after which no new solve starts")
    ap.add_argument("--skip-tests", action="store_true")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    import torch

    assert torch.cuda.is_available(), "gpu_check needs a CUDA device"
    t0 = time.time()
    report = [f"# gpu_check {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {torch.cuda.get_device_name()}, torch {torch.__version__}"]
    if not args.skip_tests:
        report.append(run_gpu_tests(args.out))
    report += eval_table(args.out)
    report += ["", "Built-in policy, `passagent solve --device cuda` (geometric means over the subgraphs of the best pass version):", ""]
    report += solve_table(args.out, args.solve_tasks, args.solve_budget)
    report.append(f"total {time.time() - t0:.0f} s")
    text = "\n".join(report)
    (args.out / "gpu_check.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
