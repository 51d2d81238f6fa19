"""The CUDA path: the same evaluations on a GPU (skipped without CUDA; run on the H200 by
``benchmarks/gpu_check.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EXAMPLES, GRAPHNET, TEST_PASSES, passbench_task

from passagent.tools.evaluate import EvalOptions, evaluate_pass
from passagent.tools.tasks import load_task

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize(
    "task_prefix, pass_file",
    [("b511", "b511_pooler_dir"), ("623d", "623d_drop_dead_rand.py")],
)
def test_example_pass_on_shared_task_on_cuda(task_prefix: str, pass_file: str, cache_root: Path) -> None:
    result = evaluate_pass(load_task(passbench_task(task_prefix)), EXAMPLES / pass_file, EvalOptions(device="cuda", cache_root=cache_root))
    assert result.device_name.startswith("NVIDIA")
    for s in result.subgraphs:
        # On the H200, default Inductor itself differs from eager beyond t=-5 on the half-precision
        # 623d subgraphs (seen 2026-11-29: correct only from t=-3/-2); the pass must be no worse.
        assert s.status == "correct" or (
            s.status == "accuracy" and s.candidate_error.min_correct_t <= s.inductor_error.min_correct_t
        ), s.message
        assert s.matches >= 1
        assert s.inductor_error is not None
        for name in ("eager", "candidate"):
            assert s.times[name].kernel_median_us is not None and s.times[name].kernel_median_us > 0
            assert s.times[name].median_us >= s.times[name].kernel_median_us * 0.5


def test_wrong_maths_is_caught_on_cuda(cache_root: Path) -> None:
    task = load_task(passbench_task("b511") / "graphs" / "1")
    result = evaluate_pass(task, TEST_PASSES / "wrong_maths.py", EvalOptions(device="cuda", cache_root=cache_root))
    assert result.subgraphs[0].status == "accuracy"


def test_cpu_captured_literals_run_on_cuda(cache_root: Path) -> None:
    # tapas hard-codes device(type="cpu"); on CUDA the literals are rewritten.
    result = evaluate_pass(load_task(GRAPHNET / "hf__google__tapas-base-masklm"), TEST_PASSES / "no_match.py",
                           EvalOptions(device="cuda", cache_root=cache_root))
    assert result.subgraphs[0].status == "compile"  # the pass does not match; the task ran
