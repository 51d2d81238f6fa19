"""The built-in policy's generated-kernel pass against default Inductor, through the real harness.

    python benchmarks/policy_kernels.py [--tasks task_035,task_028,task_031,task_037] [--timing-budget 0.3] [--out DIR]

For each task, on CUDA: the generated-kernel drafts the policy proposes from every subgraph's FX
graph (:func:`passagent.agent.builtin.recipes.propose_rules`, deduplicated by source as the
policy does), its first generated-kernel candidate (:func:`~passagent.agent.builtin.triton_gen.
dtype_variant_groups`: one rule file per dtype variant) written as a pass folder, and one
``tools.evaluation.evaluate.evaluate_pass`` of that folder against eager. One row per task: Inductor AS
against eager (from the same evaluation's rounds, as ``benchmarks/policy_bench.py`` computes it),
the pass's AS against eager, their ratio, correct@-5, and the geometric-mean end-to-end times of
eager, Inductor and the pass; then one row per subgraph (status, dtypes, end-to-end and kernel
microseconds). Skips with a message, exit status 0, without a CUDA device. ``gpu_check.py
--parts kernels`` runs it; the JSON results go to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

import torch

from passagent.agent.builtin.recipes import generated_kernel_candidate as kernel_candidate

REPO = Path(__file__).resolve().parent.parent
DEFAULT_TASKS = ("task_035", "task_028", "task_031", "task_037")


def _geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def run(tasks: list[str], timing_budget_s: float, out: Path, device: str = "cuda") -> list[str]:
    """Evaluate each task's generated-kernel pass; the Markdown table lines."""
    from passagent.agent.sweep.policy_bench import inductor_as
    from passagent.tools.tasks.builtin import builtin_tasks_dir
    from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
    from passagent.tools.tasks.loader import load_task

    cache = Path(os.environ.get("PASSAGENT_GPU_CACHE", "/tmp/passagent_gpu_cache"))
    head = ["| task | rule files | Inductor AS | pass AS | ratio | correct@-5 | eager / Inductor / pass e2e (us) | wall s |",
            "|---|---:|---:|---:|---:|---:|---|---:|"]
    rows: list[str] = []
    per_subgraph = ["", "| task | subgraph | dtypes | status | eager e2e / kernel (us) | Inductor e2e / kernel (us) | "
                        "pass e2e / kernel (us) | pass vs Inductor |", "|---|---|---|---|---:|---:|---:|---:|"]
    ratios: list[float] = []
    for name in tasks:
        t0 = time.time()
        task = load_task(str(builtin_tasks_dir() / name))
        drafts = kernel_candidate(task)
        if not drafts:
            rows.append(f"| {name} | 0 | | | | | no fusible region | {time.time() - t0:.0f} |")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            for d in drafts:
                (Path(tmp) / f"{d.rule_name}.py").write_text(d.source)
            (Path(tmp) / "sorted_output_pass_rule_names.json").write_text(json.dumps([d.rule_name for d in drafts]))
            result = evaluate_pass(task, tmp, EvalOptions(device=device, baseline="eager", cache_root=cache,
                                                          timing_budget_s=timing_budget_s))
        (out / f"kernels_{name}.json").write_text(result.model_dump_json(indent=1))
        ind = inductor_as(result)
        mine = result.scores.aggregated
        ratio = mine / ind if ind else float("nan")
        if ind:
            ratios.append(ratio)
        times = {k: _geomean([s.times[k].median_us for s in result.subgraphs if k in s.times])
                 for k in ("eager", "inductor", "candidate")}
        rows.append(f"| {name} | {len(drafts)} | {ind or float('nan'):.3f} | {mine:.3f} | {ratio:.3f} | "
                    f"{result.scores.correct_at_minus5:.0%} | {times['eager']:.1f} / {times['inductor']:.1f} / "
                    f"{times['candidate']:.1f} | {time.time() - t0:.0f} |")
        for s in result.subgraphs:
            def t(key: str) -> str:
                x = s.times.get(key)
                return "-" if x is None else f"{x.median_us:.1f} / {x.kernel_median_us or 0:.1f}"
            per_subgraph.append(f"| {name} | {s.name} | {','.join(s.dtypes)} | {s.status} | {t('eager')} | "
                                f"{t('inductor')} | {t('candidate')} | {s.speedup_vs_inductor or 0:.3f} |")
    summary = f"geometric mean of pass AS / Inductor AS over {len(ratios)} task(s): {_geomean(ratios):.3f}"
    return ["Generated-kernel passes of the built-in policy vs default Inductor (AS against eager):", "",
            *head, *rows, "", summary, *per_subgraph]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", default=",".join(DEFAULT_TASKS), help="comma-separated built-in task ids")
    ap.add_argument("--timing-budget", type=float, default=0.3, help="seconds of timed calls per subgraph")
    ap.add_argument("--device", default="cuda", help="cpu only checks the plumbing: Triton kernels fail there (runtime)")
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "policy_kernels_out")))
    args = ap.parse_args(argv)
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("policy_kernels: skipped, no CUDA device (generated Triton kernels run on CUDA only)")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    print("\n".join(run([t.strip() for t in args.tasks.split(",") if t.strip()], args.timing_budget, args.out, args.device)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
