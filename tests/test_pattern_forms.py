"""Patterns written exactly as a graph's code reads match it: in-place operators (``+=``,
``.relu_()``, ``inplace=True``), public aliases of the names Dynamo records (``F.pad`` for
``torch._C._nn.pad``), and replacements returning several outputs in any traceable form.

Each test captures a real built-in task's graph with Dynamo, applies a pass through the
``torch.compile`` backend without Inductor (fast, CPU) and compares the rewritten graph's
outputs with eager's. task_004 reads ``in_5 += tmp_0`` (a graph input written in place),
task_027 ``in_0 += in_1``, task_110 ``torch._C._nn.pad``; the ``relu_``/``inplace=True`` forms
are task_004's own graph with its relu spelled those ways (no built-in task spells them).
"""

from __future__ import annotations

import operator
import textwrap
from pathlib import Path

import pytest
import torch

from helpers import REPO, TEST_PASSES
from passagent.tools.passes.backend import PassBackend
from passagent.tools.passes.inplace import external_writes, mutated_operand, trace_pattern
from passagent.tools.tasks.inputs import clone_inputs, synthesize_inputs
from passagent.tools.passes.rules import load_rules
from passagent.tools.passes.rewrite import RuleApplyError, apply_rules
from passagent.tools.tasks.loader import load_task
from passagent.tools.evaluation.steps import build_module

TASKS = REPO / "bench" / "tasks"


def write_pass(tmp_path: Path, source: str, name: str = "rule") -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return path


def rewrite(task_dir: Path, pass_path: Path, index: int = 0, model_code: str | None = None):
    """(backend, outputs of the rewritten graph, eager outputs, the inputs after each ran)."""
    sg = load_task(task_dir).subgraphs[index]
    if model_code is not None:
        sg = _with_code(sg, model_code)
    dev = torch.device("cpu")
    args = synthesize_inputs(sg, 0, device=dev)
    backend = PassBackend(load_rules(pass_path), use_inductor=False, check_no_change=False)
    torch._dynamo.reset()
    cand_args, eager_args = clone_inputs(args), clone_inputs(args)
    with torch.no_grad():
        got = torch.compile(build_module(sg, dev, "cand"), backend=backend)(*cand_args)
        want = build_module(sg, dev, "eager")(*eager_args)
    return backend, got, want, cand_args, eager_args


def _with_code(sg, code: str):
    import dataclasses

    return dataclasses.replace(sg, code=code)


def assert_same(got, want) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        torch.testing.assert_close(g, w)


# --- in-place operators ------------------------------------------------------------------------


def test_augmented_assignment_in_a_pattern_traces_to_the_in_place_op() -> None:
    def pattern(a, b):
        a += b
        return a

    gm = trace_pattern(pattern)
    calls = [n for n in gm.graph.nodes if n.op == "call_function"]
    assert [n.target for n in calls] == [operator.iadd]  # not operator.add, as symbolic_trace records
    assert mutated_operand(calls[0]).name == "a"
    [w] = external_writes(gm.graph)
    assert w.placeholder.name == "a" and w.output_index == 0


TASK_004_AS_READ = """
import torch

def pattern(in_0, in_1, in_2, in_3, in_4, in_5):
    tmp_0 = torch.nn.functional.batch_norm(in_0, in_1, in_2, in_3, in_4, False, 0.1, 1e-05)
    in_5 += tmp_0
    tmp_1 = in_5
    tmp_2 = torch.nn.functional.relu(tmp_1, inplace = False)
    return tmp_2

def replacement_args(in_0, in_1, in_2, in_3, in_4, in_5):
    return (in_0, in_1, in_2, in_3, in_4, in_5)

def fused(x, mean, var, weight, bias, residual):
    scale = weight * torch.rsqrt(var + 1e-05)
    shift = bias - mean * scale
    return torch.relu(x * scale[None, :, None, None] + shift[None, :, None, None] + residual)

def replacement_func():
    return fused
"""


def test_pattern_copied_from_task_004_with_its_plus_equals_matches_and_computes_the_same(tmp_path: Path) -> None:
    backend, got, want, cand_args, eager_args = rewrite(TASKS / "task_004", write_pass(tmp_path, TASK_004_AS_READ))
    assert backend.total_matches == 1
    assert_same(got, want)
    # in_5 is a graph input written in place and returned by nothing: the write is dropped, and said so
    [note] = backend.notes()["rule"]
    assert "graph input" in note and "dropped" in note
    assert "iadd" not in backend.graphs_after[0] and "+=" not in backend.graphs_after[0]


def test_in_place_result_returned_by_the_pattern_keeps_the_write_into_a_graph_input(tmp_path: Path) -> None:
    source = TASK_004_AS_READ.replace("    tmp_2 = torch.nn.functional.relu(tmp_1, inplace = False)\n    return tmp_2",
                                      "    return in_5")
    source = source.replace("return torch.relu(x * scale", "return (x * scale").replace("+ residual)", "+ residual)")
    backend, got, want, cand_args, eager_args = rewrite(TASKS / "task_004", write_pass(tmp_path, source))
    assert backend.total_matches == 1
    assert_same(got, want)
    assert "copy_" in backend.graphs_after[0]  # the caller's in_5 is written as eager writes it
    torch.testing.assert_close(cand_args[5], eager_args[5])


def test_plus_equals_on_task_027_matches_and_keeps_values(tmp_path: Path) -> None:
    source = """
    import torch

    def pattern(in_0, in_1):
        in_0 += in_1
        tmp_0 = in_0
        tmp_1 = torch.nn.functional.dropout(tmp_0, p = 0.0, training = False)
        return tmp_1

    def replacement_args(in_0, in_1):
        return (in_0, in_1)

    def add(a, b):
        return a + b

    def replacement_func():
        return add
    """
    backend, got, want, *_ = rewrite(TASKS / "task_027", write_pass(tmp_path, source))
    assert backend.total_matches == 1
    assert_same(got, want)


@pytest.mark.parametrize("spelling, pattern_line", [
    ("tmp_2 = tmp_1.relu_();  tmp_1 = None", "tmp_2 = tmp_1.relu_()"),
    ("tmp_2 = torch.nn.functional.relu(tmp_1, inplace = True);  tmp_1 = None",
     "tmp_2 = torch.nn.functional.relu(tmp_1, inplace = True)"),
])
def test_relu_in_place_spellings_match_as_written(tmp_path: Path, spelling: str, pattern_line: str) -> None:
    code = (TASKS / "task_004" / "graphs" / "0" / "model.py").read_text()
    code = code.replace("tmp_2 = torch.nn.functional.relu(tmp_1, inplace = False);  tmp_1 = None", spelling)
    assert spelling in code
    source = TASK_004_AS_READ.replace("    tmp_2 = torch.nn.functional.relu(tmp_1, inplace = False)", f"    {pattern_line}")
    backend, got, want, *_ = rewrite(TASKS / "task_004", write_pass(tmp_path, source), model_code=code)
    assert backend.total_matches == 1
    assert_same(got, want)


def test_out_of_place_pattern_does_not_match_the_in_place_graph_and_says_how_to_write_it(tmp_path: Path) -> None:
    source = TASK_004_AS_READ.replace("    in_5 += tmp_0\n    tmp_1 = in_5\n", "    tmp_1 = in_5 + tmp_0\n")
    backend, *_ = rewrite(TASKS / "task_004", write_pass(tmp_path, source))
    assert backend.total_matches == 0
    diagnostic = backend.diagnostics()["rule"]
    assert "in-place `+=`" in diagnostic


def test_a_write_the_graph_reads_afterwards_is_refused_with_the_reason(tmp_path: Path) -> None:
    source = """
    def pattern(a, b):
        a += b
        return a.relu()

    def replacement_args(a, b):
        return (a, b)

    def f(a, b):
        return (a + b).relu()

    def replacement_func():
        return f
    """
    # `t - 1` reads t after `iadd(t, y)` wrote it: out of place, the reader would see stale values
    gm = _mutate_then_read()
    [app] = apply_rules(gm, load_rules(write_pass(tmp_path, source)))
    assert app.matches == 0
    assert "reads afterwards" in app.diagnostic and "`sub`" in app.diagnostic


def _mutate_then_read() -> torch.fx.GraphModule:
    """``t = x * 2; s = iadd(t, y); return s.relu(), t - 1`` (the FX graph of such code)."""
    g = torch.fx.Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    t = g.call_function(operator.mul, (x, 2))
    s = g.call_function(operator.iadd, (t, y))
    r = g.call_method("relu", (s,))
    d = g.call_function(operator.sub, (t, 1))
    g.output((r, d))
    return torch.fx.GraphModule(torch.nn.Module(), g)


# --- aliases -----------------------------------------------------------------------------------


def test_public_pad_matches_the_graphs_torch_c_nn_pad(tmp_path: Path) -> None:
    source = """
    import torch
    import torch.nn.functional as F

    def pattern(x):
        return F.pad(x, (1, 1, 1, 1), 'constant', 0.0)

    def replacement_args(x):
        return (x,)

    def pad(x):
        return torch.constant_pad_nd(x, (1, 1, 1, 1), 0.0)

    def replacement_func():
        return pad
    """
    backend, got, want, *_ = rewrite(TASKS / "task_110", write_pass(tmp_path, source))
    assert backend.total_matches == 1
    assert_same(got, want)


# --- multi-output replacements (PassNet format) --------------------------------------------------


def test_tuple_through_a_plain_wrapper_around_an_fx_wrap_launcher() -> None:
    """PassNet-format pass: the replacement is a plain function calling a ``@torch.fx.wrap``
    launcher that returns two tensors (torch.fx used to fail: "Returning nodes count mismatch")."""
    backend, got, want, *_ = rewrite(TASKS / "task_004", TEST_PASSES / "passnet" / "multi_output_wrap_launcher.py")
    assert backend.total_matches == 1
    assert_same(got, want)


def capture(task_dir: Path, index: int = 0) -> torch.fx.GraphModule:
    """The Dynamo FX graph of a task's subgraph, as the pass backend receives it."""
    sg = load_task(task_dir).subgraphs[index]
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    torch._dynamo.reset()
    torch.compile(build_module(sg, torch.device("cpu"), "capture"), backend=backend)(*synthesize_inputs(sg, 0))
    return graphs[0]


def test_wrong_output_count_is_a_clear_error_that_reports_the_match(tmp_path: Path) -> None:
    source = (TEST_PASSES / "passnet" / "multi_output_wrap_launcher.py").read_text()
    source = source.replace("return bn_add_relu_pool(x, mean, var, weight, bias, residual)",
                            "return (bn_add_relu_pool(x, mean, var, weight, bias, residual)[0],)")
    gm = capture(TASKS / "task_004")
    with pytest.raises(RuleApplyError) as info:
        apply_rules(gm, load_rules(write_pass(tmp_path, source)))
    assert info.value.applications[-1].matches == 1
    assert "after its pattern matched 1 time" in str(info.value)
    assert "pattern returns 3" in str(info.value)


def test_the_backend_reports_the_match_when_the_rewrite_fails_after_it() -> None:
    """What the evaluation reads: a compile failure after a match keeps ``matches: 1``."""
    draft = REPO / "benchmarks" / "episodes" / "task004_residual" / "draft3.py"  # one value for two outputs
    sg = load_task(TASKS / "task_004").subgraphs[0]
    backend = PassBackend(load_rules(draft), use_inductor=False, check_no_change=False)
    torch._dynamo.reset()
    with pytest.raises(Exception) as info:
        torch.compile(build_module(sg, torch.device("cpu"), "f"), backend=backend)(*synthesize_inputs(sg, 0))
    assert "pattern returns 2" in str(info.value)
    assert backend.matches_by_rule() == {"draft3": 1} and backend.total_matches == 1
