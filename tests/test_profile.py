"""Profiler feedback: kernel tables of default Inductor and the candidate, and the agent's ``profile_pass``.

Real worker processes, real Inductor compiles on the CPU, real torch.profiler runs. What is
asserted is structure (which kernels appear, in which variant, with positive times), never a
speed.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from helpers import EXAMPLES, TEST_PASSES, passbench_task

from passagent.agent.run.archive import RunArchive
from passagent.agent.run.loop import SolveConfig
from passagent.agent.protocols import ToolCall
from passagent.agent.providers import ScriptedModel
from passagent.agent.run.solve import _latest_evaluation, solve
from passagent.agent.run.toolbox import PassWorkspace, Toolbox
from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
from passagent.tools.evaluation.schema import EvalResult, VariantProfile
from passagent.tools.tasks.loader import load_task
from passagent.tools.measure.timing import TimingConfig

FAST_TIMING = TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1)
SMALL_TASK = str(passbench_task("b511") / "graphs" / "1")  # BGE pooler tail, float16 [1, 10, 768]
GOOD = (EXAMPLES / "b511_skip_single_cat.py").read_text()
FAILS_TO_COMPILE = (TEST_PASSES / "raises_in_replacement.py").read_text()


def options(cache_root: Path, **kw) -> EvalOptions:
    return EvalOptions(cache_root=cache_root, timing=FAST_TIMING, timeout_s=180, **kw)


def names(p: VariantProfile) -> list[str]:
    return [k.name for k in p.kernels]


def generated_kernels(p: VariantProfile) -> list[tuple[str, float]]:
    return [(k.name, k.us_per_run) for k in p.kernels if k.kind == "kernel"]


def test_profiled_evaluation_lists_the_kernels_of_inductor_and_of_the_candidate(cache_root: Path) -> None:
    # 623d graphs/1 (bfloat16): the pass replaces an unused torch.rand([]) by an empty tensor.
    task = load_task(passbench_task("623d") / "graphs" / "1")
    result = evaluate_pass(task, EXAMPLES / "623d_drop_dead_rand.py", options(cache_root, profile=True))
    (s,) = result.subgraphs
    assert s.status == "correct", s.message
    assert result.config.profile and s.profile is not None and s.profile.time == "self_cpu"
    assert s.profile.error is None, s.profile.error
    for variant in (s.profile.inductor, s.profile.candidate):
        assert variant is not None and variant.runs == 5
        assert variant.kernels and all(k.us_per_run > 0 and k.calls_per_run > 0 for k in variant.kernels)
        # Inductor's C++ kernels show up by name only when compiled with cpp.enable_kernel_profile.
        kernels = generated_kernels(variant)
        assert any("cpp_fused" in n for n, _ in kernels), names(variant)
        assert all(us > 0 for _, us in kernels)
        assert 0 < variant.kernel_us <= variant.total_us
        assert variant.total_us >= sum(k.us_per_run for k in variant.kernels) - 1e-6
        assert variant.events >= len(variant.kernels)
        assert "aten::addmm" in names(variant)  # the linear layer, an extern call in both
    # What the pass removes is in Inductor's profile and not in the candidate's.
    assert "aten::rand" in names(s.profile.inductor)
    assert "aten::rand" not in names(s.profile.candidate)
    assert EvalResult.model_validate_json(result.model_dump_json()) == result


def test_profile_pass_tool_shows_both_tables_and_reuses_the_latest_evaluation(tmp_path: Path, cache_root: Path) -> None:
    def call(name: str, **arguments) -> dict:
        return {"name": name, "arguments": arguments}

    model = ScriptedModel([
        {"text": "", "tool_calls": [call("profile_pass", subgraph=0)]},                 # no rules yet
        {"text": "", "tool_calls": [call("write_pass", source=GOOD), call("evaluate_pass")]},  # v1, profiled
        {"text": "", "tool_calls": [call("profile_pass", subgraph=0)]},                 # reuses v1's profile
        {"text": "", "tool_calls": [call("write_pass", source=FAILS_TO_COMPILE), call("profile_pass")]},  # runs v2
        {"text": "", "tool_calls": [call("profile_pass", subgraph=7)]},                 # bad index
        {"text": "", "tool_calls": [call("finish", summary="done")]},
    ])
    result = solve(SMALL_TASK, out=tmp_path, run_id="p1", client=model, config=SolveConfig(patience=5),
                   eval_options=options(cache_root, profile=True))
    assert result["exit_reason"] == "finished" and result["evaluations"] == 2 and result["best_version"] == 1
    run = tmp_path / "p1" / "1" / "scripted"
    evs = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    profiles = [e for e in evs if e["kind"] == "tool_result" and e["call"]["name"] == "profile_pass"]
    assert len(profiles) == 4

    empty, reused, failing, bad_index = profiles
    assert empty["is_error"] and "no rules yet" in empty["result"]

    assert not reused["is_error"] and reused.get("version") is None, "the latest evaluation's profile is reused"
    text = reused["result"]
    assert "from the latest evaluation of this pass" in text
    header = next(line for line in text.splitlines() if line.strip().startswith("event"))
    assert "Inductor" in header and "candidate" in header
    # A generated kernel with a time in both columns, and the totals of both variants.
    row = next(line for line in text.splitlines() if "cpp_fused" in line)
    assert len(re.findall(r"\d+\.\d", row)) == 2, row
    total = next(line for line in text.splitlines() if "TOTAL per call" in line)
    assert all(float(v) > 0 for v in re.findall(r"\d+\.\d+", total)), total

    assert failing["is_error"] and failing["version"] == 2, "no profile of this source existed: it was evaluated"
    assert failing["result"].startswith("error: no candidate profile")
    assert "compile" in failing["result"] and "ZeroDivisionError" in failing["result"]
    assert "Inductor" in failing["result"] and "cpp_fused" in failing["result"], "the baseline's table is still shown"
    assert failing["evaluation"]["subgraphs"][0]["profile"]["candidate"] is None

    assert bad_index["is_error"] and "subgraph must be an integer" in bad_index["result"]

    # A resumed run starts from the latest recorded evaluation, as the uninterrupted run would.
    archive = RunArchive(run)
    try:
        assert _latest_evaluation(archive).pass_sha256 == failing["evaluation"]["pass_sha256"]
    finally:
        archive.close()


def test_profile_pass_runs_a_profiled_evaluation_when_evaluations_are_not_profiled(tmp_path: Path, cache_root: Path) -> None:
    seen: list[EvalOptions] = []

    def evaluator(task, path, opts):
        seen.append(opts)
        return evaluate_pass(task, path, opts)

    toolbox = Toolbox(load_task(SMALL_TASK), PassWorkspace(tmp_path / "ws"), options(cache_root), evaluator=evaluator)
    toolbox.execute(ToolCall(id="1", name="write_pass", arguments={"source": GOOD}, raw_arguments=""))
    plain = toolbox.execute(ToolCall(id="2", name="evaluate_pass", arguments={}, raw_arguments=""))
    assert plain.evaluation.subgraphs[0].profile is None
    out = toolbox.execute(ToolCall(id="3", name="profile_pass", arguments={}, raw_arguments=""))
    assert not out.is_error, out.text
    assert [o.profile for o in seen] == [False, True]
    assert out.evaluation is not None and out.evaluation.subgraphs[0].profile.candidate is not None
    assert "recorded as a pass version" in out.text


def test_a_crash_while_profiling_loses_only_the_profile(cache_root: Path, tmp_path: Path) -> None:
    # Two copies of the small subgraph; the pass is correct but crashes under the profiler (it
    # uses ctypes, so the static checks are off). Both results survive, nobody is blamed.
    root = tmp_path / "task"
    for i in range(2):
        shutil.copytree(passbench_task("b511") / "graphs" / "1", root / "graphs" / str(i))
    (root / "graph_list.txt").write_text("graphs/0\ngraphs/1\n")
    result = evaluate_pass(load_task(root), TEST_PASSES / "segfault_when_profiled.py",
                           options(cache_root, profile=True, static_checks=False))
    assert [s.status for s in result.subgraphs] == ["correct", "correct"], [s.message for s in result.subgraphs]
    for s in result.subgraphs:
        assert "candidate" in s.times
        assert s.profile is not None and s.profile.candidate is None
        assert "profiling the candidate: its process died" in s.profile.error and "SIGSEGV" in s.profile.error, s.profile.error
