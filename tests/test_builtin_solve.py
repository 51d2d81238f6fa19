"""`passagent solve` with the built-in policy, end to end on real tasks (real compiles, CPU).

What is asserted is behaviour (a correct, matching pass is found and archived; an honest finish
when nothing matches), never a timing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import GRAPHNET, passbench_task

from passagent.agent.run.loop import SolveConfig
from passagent.agent.run.solve import solve
from passagent.tools.evaluation.evaluate import EvalOptions
from passagent.tools.measure.timing import TimingConfig

pytestmark = pytest.mark.slow


def options(cache_root: Path) -> EvalOptions:
    return EvalOptions(cache_root=cache_root, timing=TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1))


def run_dir(out: Path, result: dict) -> Path:
    return next(out.glob(f"{result['run_id']}/*/builtin"))


@pytest.mark.parametrize(
    "task, expected_fragment",
    [
        (passbench_task("b511"), "torch.cat("),    # single_cat: the one-tensor cat before normalize
        (passbench_task("623d"), "torch.rand"),    # dead_random: the unused torch.rand([])
        (GRAPHNET / "hf__hf-tiny-model-private_tiny-random-BigBirdForSequenceClassification", None),
    ],
    ids=["passbench-b511", "passbench-623d", "graphnet-tiny-bigbird"],
)
def test_builtin_policy_finds_a_correct_matching_pass(task: Path, expected_fragment: str | None, tmp_path: Path,
                                                      cache_root: Path) -> None:
    result = solve(str(task), "builtin", out=tmp_path, config=SolveConfig(max_steps=40), eval_options=options(cache_root))
    assert result["exit_reason"] in ("finished", "patience"), result
    assert result["best_version"] is not None, result["summary"]
    for s in result["best_subgraphs"]:
        assert s["status"] == "correct" and s["matches"] >= 1, s
    run = run_dir(tmp_path, result)
    for name in ("events.jsonl", "config.json", "result.json", "best_pass", "checkpoints.sqlite"):
        assert (run / name).exists(), name
    rules = json.loads((run / "best_pass" / "sorted_output_pass_rule_names.json").read_text())
    assert rules and all((run / "best_pass" / f"{r}.py").is_file() for r in rules)
    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    calls = [e["call"]["name"] for e in events if e["kind"] == "tool_result"]
    assert calls[:2] == ["list_subgraphs", "inspect_ir"] and "evaluate_pass" in calls
    assert (calls[-1] == "finish") == (result["exit_reason"] == "finished")
    if expected_fragment:
        # The rule was written and evaluated; whether it is in the best version is the timing's call
        # (on 623d its versions are within 1% of each other, which the confirmation re-times).
        sources = [src for e in events if e["kind"] == "tool_result" and e.get("version")
                   for src in e["pass_sources"].values()]
        assert any(expected_fragment in src for src in sources), sources


def test_builtin_policy_says_per_family_why_nothing_was_kept(tmp_path: Path, cache_root: Path) -> None:
    result = solve(str(GRAPHNET / "hf__ibm-research_MoLFormer-XL-both-10pct"), "builtin", out=tmp_path,
                   eval_options=options(cache_root))
    summary = result["summary"] or ""
    assert result["exit_reason"] == "finished"
    # Never silent: every family is accounted for, and the CPU run says why kernels were not generated.
    assert "generated kernel: not tried: generated Triton kernels run on CUDA devices only" in summary
    assert "library form:" in summary and "simplification:" in summary and "Kept by family:" in summary
    assert (result["evaluations"] == 0) == ("nothing was evaluated" in summary)
