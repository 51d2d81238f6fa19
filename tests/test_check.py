"""The cheap check (``check_pass`` tool, ``passagent check``): static findings without running the
pass, matches and diagnostics, the rewritten graph, one draw against eager; never a pass version."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO, TEST_PASSES
from passagent.agent.run.condense import describe_check
from passagent.agent.protocols import ToolCall
from passagent.agent.run.toolbox import PassWorkspace, Toolbox
from passagent.tools.inspection.check import CheckReport, OutputCheck, RuleCheck, SubgraphCheck, check_pass_on_task
from passagent.tools.evaluation.evaluate import EvalOptions
from passagent.tools.tasks.loader import load_task

TASK_004 = REPO / "bench" / "tasks" / "task_004"
MULTI_OUTPUT = TEST_PASSES / "passnet" / "multi_output_wrap_launcher.py"


def test_a_statically_refused_pass_is_reported_and_not_run(tmp_path: Path) -> None:
    report = check_pass_on_task(load_task(TASK_004), TEST_PASSES / "exploits" / "patch_timer.py")
    assert report.findings and report.subgraphs == []  # nothing ran: no subgraph was checked
    assert {f.rule for f in report.findings} & {"timer_access", "monkeypatch"}
    text = describe_check(report)
    assert "evaluate_pass would refuse this pass" in text and "patch_timer.py:" in text


def test_matches_rewritten_graph_and_outputs_of_a_passnet_pass() -> None:
    report = check_pass_on_task(load_task(TASK_004), MULTI_OUTPUT, subgraphs=[0], timeout_s=600)
    assert report.error is None and report.load_error is None
    [s] = report.subgraphs
    assert s.matches == 1 and s.error is None
    assert "bn_add_relu_pool" in s.rewritten_fx and "batch_norm" not in s.rewritten_fx
    # Two graph outputs and the residual eager writes into input 5, all as eager has them.
    assert [o.written_input for o in s.outputs] == [None, None, 5]
    assert all(o.problem is None and o.min_correct_t <= -5 for o in s.outputs)
    assert "correct on this draw" in describe_check(report)
    assert report.cpu_threads == 1  # the evaluation's default thread setting, not torch's


def test_ir_inspection_runs_with_the_evaluations_thread_setting(tmp_path: Path) -> None:
    """The IR inspection, whose profile rows a model compares with the evaluation's times, runs
    its graphs with the threads an evaluation uses (one by default; torch's own default is every
    core), and keeps a record per thread setting."""
    import os

    from passagent.tools.inspection.ir import cached_inspection, inspect_isolated

    task = load_task(TASK_004)
    sg = task.subgraphs[0]
    ir = inspect_isolated(task.path, 0, sg.digest, device="cpu", cache_root=tmp_path)
    assert ir["cpu_threads"] == 1
    assert cached_inspection(task.path, 0, sg.digest, device="cpu", cache_root=tmp_path) == ir
    # The profile's times depend on the threads: a record made with one thread does not serve more.
    assert cached_inspection(task.path, 0, sg.digest, device="cpu", cache_root=tmp_path,
                             cpu_threads=max(2, os.cpu_count() or 2)) is None


def test_a_pattern_that_matches_nothing_says_why(tmp_path: Path) -> None:
    src = MULTI_OUTPUT.read_text().replace("in_5 += tmp_0\n    tmp_1 = in_5", "tmp_1 = in_5 + tmp_0")
    (tmp_path / "p.py").write_text(src)
    report = check_pass_on_task(load_task(TASK_004), tmp_path / "p.py", subgraphs=[0], timeout_s=600)
    [s] = report.subgraphs
    assert s.matches == 0
    assert "in-place `+=`" in s.rules[0].diagnostic
    assert "would fail (compile: the pass matched nothing here)" in describe_check(report)


def _report(**subgraph) -> CheckReport:
    return CheckReport(task_id="t", pass_path="p", pass_sha256="0" * 64, device="cpu",
                       subgraphs=[SubgraphCheck(index=0, name="g0", rules=[RuleCheck(rule="main", matches=1)], **subgraph)])


@pytest.mark.parametrize("subgraph, verdict", [
    ({"outputs": [OutputCheck(index=0, min_correct_t=-7, max_abs=1e-7)]}, "correct on this draw from t=-7"),
    ({"outputs": [OutputCheck(index=0, min_correct_t=-2, max_abs=1e-2)]}, "would fail (wrong values: correct from t=-2; t=-5 needed)"),
    ({"outputs": [OutputCheck(index=0, problem="shape (2,) vs (3,)")]}, "would fail (wrong values: correct at no level"),
    ({"no_change": True, "outputs": [OutputCheck(index=0, min_correct_t=-10)]}, "integrity no_change"),
    ({"error": "applying the pass raised TypeError: x"}, "would fail: applying the pass raised TypeError"),
])
def test_verdict_per_subgraph(subgraph: dict, verdict: str) -> None:
    assert verdict in describe_check(_report(**subgraph))


def test_check_pass_tool_is_not_an_evaluation(tmp_path: Path) -> None:
    seen = []

    def checker(task, root, **kw):
        seen.append((Path(root), kw))
        return _report(outputs=[OutputCheck(index=0, min_correct_t=-6, max_abs=0.0)])

    def evaluator(*_a):
        raise AssertionError("check_pass must not evaluate")

    ws = PassWorkspace(tmp_path / "ws")
    toolbox = Toolbox(load_task(TASK_004), ws, EvalOptions(), evaluator=evaluator, checker=checker)
    empty = toolbox.execute(ToolCall(id="0", name="check_pass", arguments={}, raw_arguments="{}"))
    assert empty.is_error and "no rules yet" in empty.text
    ws.write("main", MULTI_OUTPUT.read_text())
    out = toolbox.execute(ToolCall(id="1", name="check_pass", arguments={"subgraph": 0, "inductor": True}, raw_arguments=""))
    assert not out.is_error and out.evaluation is None  # the loop records no pass version and no patience step
    assert "correct on this draw from t=-6" in out.text
    assert seen[0][0] == ws.root and seen[0][1]["inductor_subgraph"] == 0
    assert "check_pass" in {s.name for s in toolbox.specs()}


KERNEL_SOURCE = "\n".join(f"line {i}" for i in range(1, 201))


def _inductor_report(digest: str = "0" * 64) -> CheckReport:
    r = _report(outputs=[OutputCheck(index=0, min_correct_t=-6, max_abs=0.0)],
                kernel_code={"cpp_fused_k_0": KERNEL_SOURCE, "cpp_fused_small_1": "void small() {}"})
    return r.model_copy(update={"inductor_subgraph": 0, "pass_sha256": digest})


def test_a_generated_kernels_whole_source_is_shown_a_page_at_a_time() -> None:
    first = describe_check(_inductor_report())
    assert "generated kernel cpp_fused_k_0, lines 1-80 of 200:" in first and "line 80\n" in first and "line 81" not in first
    assert 'lines 81-200 not shown: check_pass with inductor=true, subgraph=0, kernel="cpp_fused_k_0", from_line=81' in first
    assert "generated kernel cpp_fused_small_1, lines 1-1 of 1:" in first  # a short kernel whole, no hint
    last = describe_check(_inductor_report(), kernel="cpp_fused_k_0", from_line=161, for_user=True)
    assert "lines 161-200 of 200:" in last and "line 200" in last and "line 160\n" not in last
    assert "not shown" not in last and "cpp_fused_small_1, lines" not in last  # that kernel alone
    assert "no generated kernel is named 'nope'" in describe_check(_inductor_report(), kernel="nope")
    assert "the same command with --kernel cpp_fused_k_0 --from-line 81" in describe_check(_inductor_report(), for_user=True)


def test_paging_a_kernel_reuses_the_inductor_check_of_the_same_pass(tmp_path: Path) -> None:
    from passagent.tools.passes.rules import pass_digest

    calls = []
    ws = PassWorkspace(tmp_path / "ws")
    ws.write("main", MULTI_OUTPUT.read_text())

    def checker(task, root, **kw):
        calls.append(kw["inductor_subgraph"])
        return _inductor_report(pass_digest(root))

    toolbox = Toolbox(load_task(TASK_004), ws, EvalOptions(), evaluator=None, checker=checker)

    def call(**arguments):
        return toolbox.execute(ToolCall(id=str(len(calls)), name="check_pass", arguments=arguments, raw_arguments=""))

    assert "lines 1-80 of 200" in call(subgraph=0, inductor=True).text
    page = call(subgraph=0, inductor=True, kernel="cpp_fused_k_0", from_line=81)
    assert "lines 81-160 of 200" in page.text and calls == [0]  # no second compile for the next page
    ws.write("main", MULTI_OUTPUT.read_text() + "\n# edited\n")
    call(subgraph=0, inductor=True, kernel="cpp_fused_k_0", from_line=81)
    assert calls == [0, 0]  # an edited pass is checked again
    bad = call(subgraph=0, kernel="cpp_fused_k_0")
    assert bad.is_error and "only with inductor=true" in bad.text


def test_time_pass_is_the_evaluations_rounds_without_the_heldout_shape_and_no_pass_version(tmp_path: Path) -> None:
    from types import SimpleNamespace

    seen = []

    def evaluator(task, root, options):
        seen.append((task, options))
        return SimpleNamespace(pass_sha256="a" * 64, task_id=task.id, device_name="cpu", wall_s=1.0,
                               config=SimpleNamespace(time_statistic="paired"), subgraphs=[])

    ws = PassWorkspace(tmp_path / "ws")
    task = load_task(TASK_004)
    toolbox = Toolbox(task, ws, EvalOptions(), evaluator=evaluator)
    assert toolbox.execute(ToolCall(id="0", name="time_pass", arguments={}, raw_arguments="")).is_error  # no rules yet
    ws.write("main", MULTI_OUTPUT.read_text())
    out = toolbox.execute(ToolCall(id="1", name="time_pass", arguments={"subgraph": 2}, raw_arguments=""))
    assert not out.is_error and out.evaluation is None  # the loop records no pass version and no patience step
    assert "not a score and not a pass version" in out.text and "evaluate_pass scores it" in out.text
    [(timed, options)] = seen
    assert [s.name for s in timed.subgraphs] == [task.subgraphs[2].name]
    assert options.heldout_shapes is False and options.profile is False and EvalOptions().heldout_shapes is True
    assert "time_pass" in {s.name for s in toolbox.specs()}


def test_cli_check_exit_status(tmp_path: Path) -> None:
    shutil.copy(TEST_PASSES / "exploits" / "patch_timer.py", tmp_path / "bad.py")
    bad = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", "check", str(TASK_004), "--pass", str(tmp_path / "bad.py")],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 3 and "STATIC CHECKS" in bad.stdout  # the static checks refuse it (docs/cli.md)
    assert "passagent eval would refuse" in bad.stdout and "evaluate_pass" not in bad.stdout, "commands, not tool names"
    missing = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", "check", str(TASK_004), "--pass", str(tmp_path / "nope.py")],
                             capture_output=True, text=True, timeout=300)
    assert missing.returncode == 2 and missing.stderr.count("\n") <= 2


def test_the_prompt_states_the_contract_the_harness_implements() -> None:
    from passagent.agent.run.prompting import render

    text = render("system.md.j2", device="cpu", baseline="eager", failure_penalty=0.1, patience=3, max_steps=40,
                  budget_usd=None, discard_regressions=True)
    assert "Prompt version" not in text  # the version is a template comment, not model input
    assert "`x += y`" in text and "`F.pad` matches `torch._C._nn.pad`" in text
    assert "Inductor still traces" in text and "torch.library.custom_op" in text
    assert "runs once, at\n  tracing time" in text or "runs once, at tracing time" in text.replace("\n  ", " ")
    assert "`check_pass`" in text and "from pass_dir.<file> import" in text
    assert "keeps the lower of its two scores" in text
    rule = "is the best only while no version without such a regression exists"
    assert rule in " ".join(text.split())
    off = render("system.md.j2", device="cpu", baseline="eager", failure_penalty=0.1, patience=3, max_steps=40,
                 budget_usd=None, discard_regressions=False)
    assert rule not in " ".join(off.split())


def test_kernel_sources_are_read_from_inductors_output_code() -> None:
    import torch
    from torch._inductor.utils import run_and_get_code

    from passagent.tools.inspection.ir import kernel_sources, summarize_kernels

    torch._dynamo.reset()
    _, codes = run_and_get_code(torch.compile(lambda x: torch.relu(x) * 2 + 1), torch.randn(8, 8))
    launches = [k["name"] for code in codes for k in summarize_kernels(code) if k["kind"] in ("cpp", "triton")]
    sources = {n: src for code in codes for n, src in kernel_sources(code).items()}
    assert launches and set(launches) <= set(sources), (launches, list(sources))
    assert all("kernel" in src for src in sources.values())  # the C++ (or Triton) body, not the wrapper
    cut = kernel_sources(codes[0], max_lines=3)
    assert all(src.splitlines()[-1].startswith("... (") for src in cut.values())


def test_a_pooled_check_takes_the_lease_after_its_process_started_and_a_pass_that_does_not_load_takes_none(tmp_path: Path) -> None:
    """In a sweep the check's child starts, imports torch and loads the pass before the device
    lease; the lease covers its runs on the device alone (``lease_gate``)."""
    import time

    from passagent.tools.process.device_lease import read_leases
    from passagent.tools.process.lease_gate import LeaseGate

    locks = tmp_path / "locks"
    gate = LeaseGate(["cpu"], locks, {"task": "task_004", "purpose": "check_pass"})
    called = time.time()
    report = check_pass_on_task(load_task(TASK_004), MULTI_OUTPUT, subgraphs=[0], timeout_s=600, gate=gate)
    assert report.error is None and report.subgraphs[0].matches == 1
    assert all(o.problem is None and o.min_correct_t <= -5 for o in report.subgraphs[0].outputs)
    [lease] = read_leases(locks)
    assert lease["purpose"] == "check_pass" and lease["lease_scope"] == "device" and not gate.held
    started = lease["before_lease_s"]["check_start"]
    assert started > 0.5 and lease["start"] >= called + started - 0.5  # process start and imports came first
    assert 0 < lease["in_lease_s"]["check"] <= lease["end"] - lease["start"] < report.wall_s - started + 0.5

    (tmp_path / "broken.py").write_text("def pattern(x):\n    return x +\n")
    broken = check_pass_on_task(load_task(TASK_004), tmp_path / "broken.py", subgraphs=[0], timeout_s=600,
                                gate=LeaseGate(["cpu"], locks, {"purpose": "check_pass"}))
    assert broken.load_error and "broken.py" in broken.load_error
    assert len(read_leases(locks)) == 1  # it never ran on the device: no lease


@pytest.mark.parametrize("scope", ["device", "evaluation"])
def test_the_check_pass_tool_in_a_sweep_leases_as_the_evaluations_do(tmp_path: Path, scope: str) -> None:
    from passagent.tools.process.device_lease import read_leases
    from passagent.tools.process.lease_gate import LeaseGate

    seen = []

    def checker(task, root, **kw):
        seen.append(kw)
        return _report(outputs=[OutputCheck(index=0, min_correct_t=-6, max_abs=0.0)])

    ws = PassWorkspace(tmp_path / "ws")
    ws.write("main", MULTI_OUTPUT.read_text())
    opts = EvalOptions(device="cpu", device_pool=["cpu"], lock_dir=tmp_path / "locks", lease_scope=scope)
    toolbox = Toolbox(load_task(TASK_004), ws, opts, evaluator=None, checker=checker)
    out = toolbox.execute(ToolCall(id="1", name="check_pass", arguments={}, raw_arguments="{}"))
    assert not out.is_error and "correct on this draw" in out.text
    if scope == "device":  # the checker takes the lease itself, once its process is ready
        gate = seen[0]["gate"]
        assert isinstance(gate, LeaseGate) and gate.info["purpose"] == "check_pass" and read_leases(tmp_path / "locks") == []
    else:  # the lease around the whole check
        assert "gate" not in seen[0] and seen[0]["device"] == "cpu"
        [lease] = read_leases(tmp_path / "locks")
        assert lease["purpose"] == "check_pass" and lease["lease_scope"] == "evaluation"


def test_an_input_eager_writes_is_compared_like_an_output(tmp_path: Path) -> None:
    """task_004 writes its residual into a graph input (``in_5 += bn``). A pass that keeps the write
    checks clean; one that drops it is a failing verdict (exit 1), as the evaluation scores it."""
    keeps = REPO / "benchmarks" / "episodes" / "task004_residual" / "draft5.py"
    drops = tmp_path / "drops_the_write.py"
    drops.write_text(keeps.read_text().replace("    return (tmp_1, tmp_2, tmp_3)\n", "    return (tmp_2, tmp_3)\n", 1)
                     .replace("    return s, y, y.mean(dim=(2, 3), keepdim=True)", "    return y, y.mean(dim=(2, 3), keepdim=True)"))
    task = load_task(TASK_004 / "graphs" / "0")
    good, bad = check_pass_on_task(task, keeps, eager=True), check_pass_on_task(task, drops, eager=True)
    written = [o for o in good.subgraphs[0].outputs if o.written_input is not None]
    assert [o.written_input for o in written] == [5] and written[0].min_correct_t <= -5
    dropped = next(o for o in bad.subgraphs[0].outputs if o.written_input == 5)
    assert dropped.min_correct_t is None or dropped.min_correct_t > -5
    assert "input 5 (eager writes it)" in describe_check(bad, for_user=True)
    from passagent.agent.run.condense import check_exit_code

    assert check_exit_code(good) == 0 and check_exit_code(bad) == 1
