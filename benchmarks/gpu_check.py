"""One GPU check in one call: GPU tests, example passes on the shared tasks, the score's
repeatability (each example pass evaluated twice), the CUDA-graph replay guard under host load,
the built-in policy solving tasks, evaluation throughput under both device-lease scopes
(``throughput``), the red-team corpus (``redteam``), an evaluation's cost beside an earlier
checkout's (``cost``), the policy's generated-kernel passes against Inductor (``kernels``,
benchmarks/policy_kernels.py), and result tables.

    PYTHONUNBUFFERED=1 python benchmarks/gpu_check.py [--out DIR] [--parts tests,eval,repeat,guard,solve,apply,redteam,cost,throughput,kernels]
        [--kernel-tasks IDS] [--solve-tasks N] [--solve-budget S] [--repeat-budget S] [--tests-k EXPR]
        [--redteam-jobs N] [--before DIR --cost-rounds N]

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
CACHE = Path(os.environ.get("PASSAGENT_GPU_CACHE", "/tmp/passagent_gpu_cache"))  # not under $OUT: it comes back
RUNS = CACHE.parent / "passagent_gpu_runs"
EXAMPLE_RUNS = [("b511", "b511_pooler_dir"), ("623d", "623d_drop_dead_rand.py")]
TRITON_RUN = (REPO / "bench" / "tasks" / "task_035", "task035_rms_norm_triton")  # built-in task, Triton pass


def run_gpu_tests(out: Path, select: str | None = None) -> str:
    """tests/test_gpu.py (``select``: a pytest ``-k`` expression) in its own process; its summary line."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(REPO / "tests" / "test_gpu.py"), "-q", "-rA", "-p", "no:cacheprovider",
         *(["-k", select] if select else [])],
        capture_output=True, text=True, cwd=REPO,
    )
    (out / "gpu_tests.log").write_text(proc.stdout + proc.stderr)
    last = [ln for ln in proc.stdout.strip().splitlines() if ln.strip()][-1:] or ["(no output)"]
    return f"GPU tests: {last[0]} (exit {proc.returncode})"


def eval_table(out: Path) -> list[str]:
    from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from passagent.tools.tasks.loader import load_task

    lines = [
        "| task | subgraph | dtype | status | eager e2e / kernel (us) | Inductor e2e / kernel (us) | pass e2e / kernel (us) | vs eager | vs Inductor "
        "| rounds (why they ended) | timing s | inputs / warm-up / rounds (checks) / graphs / after s |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    summary = []
    runs = [(next(PASSBENCH.glob(f"{prefix}*")), pass_name) for prefix, pass_name in EXAMPLE_RUNS] + [TRITON_RUN]
    for task_dir, pass_name in runs:
        prefix = task_dir.name[:8]
        result = evaluate_pass(load_task(task_dir), REPO / "examples" / "passes" / pass_name,
                               EvalOptions(device="cuda", baseline="inductor", cache_root=CACHE))
        (out / f"eval_{prefix}.json").write_text(result.model_dump_json(indent=1))
        for s in result.subgraphs:
            def t(name: str) -> str:
                x = s.times.get(name)
                return "-" if x is None else f"{x.median_us:.1f} / {x.kernel_median_us or 0:.1f}"
            lines.append(
                f"| {prefix} | {s.name} | {','.join(s.dtypes)} | {s.status} | {t('eager')} | {t('inductor')} | {t('candidate')} | "
                f"{s.speedup_vs_eager or 0:.3f} | {s.speedup_vs_inductor or 0:.3f} | "
                f"{max((x.n for x in s.times.values()), default=0)} ({(s.timing_stop or {}).get('reason', '-')}) | "
                f"{(s.phase_s or {}).get('timing', 0.0):.2f} | {timing_split(s.timing_stop or {})} |"
            )
        vs_eager = result.other_scores.aggregated if result.other_scores else float("nan")
        summary.append(f"{prefix} ({pass_name}): AS vs Inductor {result.scores.aggregated:.3f}, AS vs eager {vs_eager:.3f}, "
                       f"{result.device_name}, torch {result.torch_version}, {result.wall_s:.0f} s")
    return lines + [""] + summary


def timing_split(stop: dict) -> str:
    """Where a subgraph's timing step went (``SubgraphResult.timing_stop``), seconds."""
    def f(key: str) -> str:
        return "-" if stop.get(key) is None else f"{stop[key]:.2f}"
    return f"{f('inputs_s')} / {f('warmup_s')} / {f('seconds')} ({f('checks_s')}) / {f('graph_s')} / {f('after_s')}"


def repeatability(out: Path, budget_s: float | None) -> list[str]:
    """benchmarks/eval_repeatability.py in its own process (each example pass evaluated twice on
    CUDA); its per-subgraph table and summary lines."""
    cmd = [sys.executable, str(REPO / "benchmarks" / "eval_repeatability.py"), "--device", "cuda", "--out", str(out)]
    if budget_s:
        cmd += ["--timing-budget", str(budget_s)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    (out / "eval_repeatability.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        return [f"evaluation repeatability failed (exit {proc.returncode}): {(proc.stderr or proc.stdout)[-800:]}"]
    lines = proc.stdout.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith("| task |")), len(lines))
    return lines[start - 2:]


def cost(out: Path, before: Path | None, rounds: int) -> list[str]:
    """benchmarks/eval_cost_compare.py: one warm evaluation's wall time and device lease on this tree
    and on ``before`` (a checkout of an earlier commit), side by side, b511 with its example pass."""
    if before is None:
        return ["cost: no --before checkout given"]
    task = next(PASSBENCH.glob("b511*"))
    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "eval_cost_compare.py"), "--before", str(before),
                           "--device", "cuda", "--pool", "--rounds", str(rounds), "--task", str(task),
                           "--pass", str(REPO / "examples" / "passes" / "b511_pooler_dir")],
                          capture_output=True, text=True, cwd=REPO)
    (out / "eval_cost_compare.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        return [f"cost comparison failed (exit {proc.returncode}): {(proc.stderr or proc.stdout)[-800:]}"]
    return proc.stdout.splitlines()


def throughput(out: Path, workers: int, n_builtin: int, arm_budget_s: float) -> list[str]:
    """benchmarks/eval_throughput.py in its own process (both lease scopes on cuda:0, warm caches, and
    the IR inspections' lease); its table."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "eval_throughput.py"), "--device", "cuda:0", "--workers", str(workers),
         "--builtin", str(n_builtin), "--arms", "before,after,warm,inspect", "--arm-budget", str(arm_budget_s),
         "--out", str(out)],
        capture_output=True, text=True, cwd=REPO,
    )
    (out / "eval_throughput.log").write_text(proc.stdout + proc.stderr)
    table = out / "eval_throughput.md"
    if proc.returncode != 0 or not table.exists():
        return [f"evaluation throughput failed (exit {proc.returncode}): {(proc.stderr or proc.stdout)[-800:]}"]
    return table.read_text().splitlines()


def replay_guard(out: Path) -> list[str]:
    """benchmarks/graph_replay_guard.py in its own process (it loads the host's CPUs); its table.
    A failing check (exit 1) still gives the table, which says FAIL."""
    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "graph_replay_guard.py"), "--out",
                           str(out / "graph_replay_guard.json")], capture_output=True, text=True, cwd=REPO)
    (out / "graph_replay_guard.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode not in (0, 1):
        return [f"graph replay guard failed (exit {proc.returncode}): {(proc.stderr or proc.stdout)[-800:]}"]
    return proc.stdout.splitlines()


def _geomean(xs: list[float]) -> float:
    import math

    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


# Built-in tasks on which the built-in policy's recipe catalogue writes a rule (found by proposing
# rules for every shipped task's FX graphs, 2026-11-29: 5 of 120); the rest are long-tail tasks
# where nothing in the catalogue matches, measured all the same (eager and Inductor, no pass).
POLICY_MATCHES = ["task_003", "task_004", "task_020", "task_031", "task_032", "task_033", "task_034", "task_035",
                  "task_038", "task_050", "task_072", "task_082", "task_092"]  # benchmarks/policy_coverage.py


def prewarm_inspections(tasks: list[str], devices: str) -> dict:
    """Every task's IR inspection into the sweep's cache, several at once before the sweep (as
    ``benchmarks/multi_gpu_sweep.py`` does): uncached, each run's first ``inspect_ir`` holds the
    GPU's lease for ~20 s, and the runs' inspections would queue one after another."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("multi_gpu_sweep", Path(__file__).with_name("multi_gpu_sweep.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    pool = [d if d.startswith(("cuda", "cpu")) else f"cuda:{d}" for d in devices.split(",")]
    parallel = max(1, min(16, (os.cpu_count() or 2) // 2))
    return module.prewarm_ir(tasks, CACHE, parallel, time.monotonic() + 240.0, pool)


def solve_table(out: Path, n_builtin: int, budget_s: float, workers: int, devices: str = "0",
                task_ids: list[str] | None = None, shared: bool = True) -> list[str]:
    """The built-in policy on the shared tasks (unless not ``shared``) and ``n_builtin`` built-in
    tasks (or exactly ``task_ids``), as one ``passagent sweep --devices 0`` (evaluations take turns
    on the GPU; inspections and policy steps overlap), then a per-task table from the run archives."""
    from passagent.agent.run.runstate import find_runs, load_run, read_events
    from passagent.tools.tasks.builtin import load_manifest

    tasks = [str(next(PASSBENCH.glob(f"{p}*"))) for p, _ in EXAMPLE_RUNS] if shared else []
    others = [row["id"] for row in load_manifest() if row.get("long_tail") and row["id"] not in POLICY_MATCHES]
    tasks += task_ids if task_ids else (POLICY_MATCHES + others)[:n_builtin]
    prewarm = prewarm_inspections(tasks, devices)
    cmd = [sys.executable, "-m", "passagent.agent.cli.app", "sweep", "--models", "builtin", "--tasks", ",".join(tasks),
           "--workers", str(workers), "--devices", devices, "--out", str(RUNS), "--sweep-id", "gpu_check",
           "--cache-dir", str(CACHE), "--max-wall", f"{budget_s:.0f}", "--max-steps", "30", "--quiet"]
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    wall = time.time() - t0
    (out / "solve_sweep.log").write_text(proc.stdout + proc.stderr)
    lines = [
        f"IR inspections computed first, {prewarm['parallel']} at a time: {prewarm['subgraphs']} subgraphs in "
        f"{prewarm['wall_s']:.0f} s{'; errors: ' + '; '.join(prewarm['errors']) if prewarm['errors'] else ''}.",
        f"`passagent sweep --models builtin --devices {devices} --workers {workers}` over {len(tasks)} tasks: exit {proc.returncode}, {wall:.0f} s.",
        "",
        "| task | subgraphs | exit | evaluations | eager (us) | Inductor (us) | best pass (us) | AS vs eager | AS vs Inductor | correct@-5 |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    by_task = {}
    for path in find_runs(RUNS / "gpu_check") if (RUNS / "gpu_check").exists() else []:
        by_task[load_run(path).task_id] = path
    summary = {}
    for task in tasks:
        tid = Path(task).name if "/" in task else task
        path = by_task.get(tid) or next((p for t, p in by_task.items() if t.startswith(tid[:12])), None)
        name = tid[:12]
        info = load_run(path) if path else None
        r = info.result if info else None
        if not r:
            lines.append(f"| {name} | - | {info.status if info else 'not run (time budget)'} | | | | | | | |")
            continue
        events, _ = read_events(path)
        evals = [e for e in events if e.get("kind") == "tool_result" and e.get("evaluation")]
        best = next((e["evaluation"] for e in evals if e.get("version") == r.get("best_version")), None)
        if best is None:
            # No pass evaluated: eager and Inductor as the baseline cache measured them for inspection.
            lines.append(f"| {name} | - | {r['exit_reason']}: no rule in the catalogue matches | 0 | | | | | | |")
            summary[tid] = {"exit": r["exit_reason"], "evaluations": 0}
            continue
        times = {k: _geomean([s["times"][k]["median_us"] for s in best["subgraphs"] if k in s["times"]])
                 for k in ("eager", "inductor", "candidate")}
        other = (r.get("best_other_scores") or {}).get("aggregated", float("nan"))
        lines.append(f"| {name} | {len(best['subgraphs'])} | {r['exit_reason']} | {len(evals)} | {times['eager']:.1f} | "
                     f"{times['inductor']:.1f} | {times['candidate']:.1f} | {r['best_as']:.3f} | {other:.3f} | "
                     f"{r['best_scores']['correct_at_minus5']:.0%} |")
        summary[tid] = {"exit": r["exit_reason"], "evaluations": len(evals), "times_us": times, "as_vs_eager": r["best_as"],
                        "as_vs_inductor": other, "summary": r.get("summary")}
    (out / "solve_table.json").write_text(json.dumps(summary, indent=1, default=str))
    return lines


def apply_tables(out: Path) -> list[str]:
    """A found pass on whole models on CUDA: the BGE-small architecture (fp32) through eager,
    default Inductor, ``passagent.compile`` and the exported Inductor pass
    (``benchmarks/apply_model.py``), and ``passagent coverage`` of the example passes over the
    shared GraphNet samples; each in its own process."""
    lines = ["", "A found pass on a whole model (benchmarks/apply_model.py, BGE-small architecture, random weights):", ""]
    rows = []
    for batch, seq in ((1, 128), (32, 128)):
        js = out / f"apply_model_b{batch}.json"
        proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "apply_model.py"), "--device", "cuda",
                               "--batch", str(batch), "--seq", str(seq), "--json", str(js)],
                              capture_output=True, text=True, cwd=REPO)
        (out / f"apply_model_b{batch}.log").write_text(proc.stdout + proc.stderr)
        if proc.returncode != 0:
            lines.append(f"apply_model batch {batch} failed (exit {proc.returncode}); see apply_model_b{batch}.log")
            continue
        rows.append(json.loads(js.read_text()))
    if rows:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from apply_model import table

        lines.append(table(rows))
    examples = REPO / "examples" / "passes"
    # With the solve part run first, the built-in policy's best passes join the example passes.
    best = sorted(p for p in RUNS.rglob("best_pass") if p.is_dir()) if RUNS.is_dir() else []
    passes = [str(p) for p in sorted(examples.iterdir())] + [str(p) for p in best]
    js = out / "coverage_graphnet.json"
    proc = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", "coverage", *passes,
                           "--graphs", str(SHARED / "data" / "graphnet"), "--device", "cuda", "--cache-dir", str(CACHE),
                           "--json", str(js)], capture_output=True, text=True, cwd=REPO)
    (out / "coverage_graphnet.log").write_text(proc.stdout + proc.stderr)
    lines += ["", f"passagent coverage of the example passes and {len(best)} best pass(es) of the built-in policy "
              "over the shared GraphNet samples (CUDA):", "", "```",
              proc.stdout.rstrip() or f"(failed, exit {proc.returncode}; see coverage_graphnet.log)", "```"]
    return lines


def redteam(out: Path, runtime_only: bool, jobs: int = 1) -> list[str]:
    """The red-team corpus on the GPU (``passagent redteam --device cuda``): its Markdown table;
    with ``runtime_only`` a second table with the static checks off (the runtime defences alone)."""
    from passagent.tools.redteam import format_table, run_corpus, summary

    lines = []
    for static in ([True, False] if runtime_only else [True]):
        t0 = time.time()
        outcomes = run_corpus("cuda", static_checks=static, jobs=jobs,
                              on_outcome=lambda o: print(f"redteam {o.entry.name}: {o.verdict} ({o.outcome})", flush=True))
        title = "static checks and runtime defences" if static else "runtime defences alone (static checks off)"
        lines += ["", f"Red-team corpus on CUDA, {title} ({time.time() - t0:.0f} s):", "", format_table(outcomes)]
        (out / f"redteam_{'full' if static else 'runtime'}.json").write_text(json.dumps(
            {"summary": summary(outcomes), "rows": [{"name": o.entry.name, "honest": o.entry.honest, "status": o.status,
                                                     "rule": o.rule, "outcome": o.outcome, "caught": o.caught,
                                                     "rewarded": o.rewarded, "flagged": o.flagged,
                                                     "speedup_vs_inductor": o.speedup_vs_inductor,
                                                     "message": o.message} for o in outcomes]}, indent=1))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "gpu_check_out")))
    ap.add_argument("--parts", default="tests,eval,repeat,guard,solve",
                    help="comma-separated: tests, eval, repeat (each example pass evaluated twice), guard, solve, apply (a "
                         "pass on whole models), redteam, cost (an evaluation's cost beside --before's), kernels (the "
                         "policy's generated-kernel passes); apply, redteam, cost and kernels are not in the default")
    ap.add_argument("--kernel-tasks", default="task_035,task_028,task_031,task_037",
                    help="kernels part: built-in tasks whose generated-kernel pass is evaluated against Inductor")
    ap.add_argument("--kernel-budget", type=float, default=0.3, help="kernels part: seconds of timed calls per subgraph")
    ap.add_argument("--redteam-runtime-only", action=argparse.BooleanOptionalAction, default=True,
                    help="redteam part: also run the corpus with the static checks off")
    ap.add_argument("--solve-tasks", type=int, default=10, help="built-in long-tail tasks to solve besides the shared ones")
    ap.add_argument("--solve-task-ids", default=None, help="comma-separated built-in task ids to solve instead of "
                    "--solve-tasks")
    ap.add_argument("--solve-shared", action=argparse.BooleanOptionalAction, default=True,
                    help="also solve the shared PassBench tasks")
    ap.add_argument("--solve-budget", type=float, default=400.0, help="the solve sweep's --max-wall (seconds)")
    ap.add_argument("--solve-workers", type=int, default=4, help="the solve sweep's --workers")
    ap.add_argument("--redteam-jobs", type=int, default=1, help="redteam part: evaluations at once")
    ap.add_argument("--before", type=Path, default=None, help="cost part: a checkout of the earlier commit to compare with")
    ap.add_argument("--cost-rounds", type=int, default=2, help="cost part: alternating runs of each")
    ap.add_argument("--throughput-tasks", type=int, default=10, help="built-in tasks in the throughput check")
    ap.add_argument("--throughput-budget", type=float, default=110.0,
                    help="seconds after which an arm of the throughput check starts no new evaluation")
    ap.add_argument("--tests-k", default=None, help="only the GPU tests matching this pytest -k expression")
    ap.add_argument("--repeat-budget", type=float, default=None, help="repeat part: --timing-budget of each evaluation")
    args = ap.parse_args()
    parts = {p.strip() for p in args.parts.split(",")}
    args.out.mkdir(parents=True, exist_ok=True)
    import torch

    assert torch.cuda.is_available(), "gpu_check needs a CUDA device"
    t0 = time.time()
    report = [f"# gpu_check {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {torch.cuda.get_device_name()}, "
              f"torch {torch.__version__}, {torch.cuda.device_count()} GPU(s)"]
    if "tests" in parts:
        report.append(run_gpu_tests(args.out, args.tests_k))
    if "eval" in parts:
        report += eval_table(args.out)
    if "repeat" in parts:
        report += ["", *repeatability(args.out, args.repeat_budget)]
    if "cost" in parts:
        report += ["", *cost(args.out, args.before, args.cost_rounds)]
    if "guard" in parts:
        report += ["", *replay_guard(args.out)]
    if "throughput" in parts:
        report += ["", *throughput(args.out, 4, args.throughput_tasks, args.throughput_budget)]
    if "solve" in parts:
        report += ["", "Built-in policy on CUDA (geometric means over the subgraphs of the best pass version):", ""]
        ids = [t.strip() for t in args.solve_task_ids.split(",") if t.strip()] if args.solve_task_ids else None
        report += solve_table(args.out, args.solve_tasks, args.solve_budget, args.solve_workers, task_ids=ids,
                              shared=args.solve_shared)
    if "apply" in parts:
        report += apply_tables(args.out)
    if "redteam" in parts:
        report += redteam(args.out, args.redteam_runtime_only, args.redteam_jobs)
    if "kernels" in parts:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from policy_kernels import run as policy_kernels

        report += ["", *policy_kernels([t for t in args.kernel_tasks.split(",") if t], args.kernel_budget, args.out)]
    report.append(f"total {time.time() - t0:.0f} s")
    text = "\n".join(report)
    (args.out / "gpu_check.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
