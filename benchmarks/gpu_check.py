"""One GPU check in one call: GPU tests, example passes on the shared tasks, a result table.

    PYTHONUNBUFFERED=1 python benchmarks/gpu_check.py [--out DIR]

Run on a CUDA machine (the device tool's H200). Prints, last, a Markdown table per task:
eager, Inductor and candidate times (median end-to-end and kernel time), speedups and AS
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "gpu_check_out")))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    import torch

    assert torch.cuda.is_available(), "gpu_check needs a CUDA device"
    t0 = time.time()
    report = [f"# gpu_check {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {torch.cuda.get_device_name()}, torch {torch.__version__}"]
    report.append(run_gpu_tests(args.out))
    report += eval_table(args.out)
    report.append(f"total {time.time() - t0:.0f} s")
    text = "\n".join(report)
    (args.out / "gpu_check.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
