"""Helper modules in a PassNet ``pass_dir/`` (``from pass_dir.shared_kernel import ...``): loaded,
statically checked like rules, covered by the pass digest; and the static check's treatment of a
pattern graph the pass builds by hand."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
import torch

from helpers import REPO, TEST_PASSES
from passagent.tools.passes.backend import PassBackend
from passagent.tools.tasks.inputs import clone_inputs, synthesize_inputs
from passagent.tools.passes.rules import helper_files, helper_module_names, load_rules, pass_digest
from passagent.tools.integrity.static_checks import check_pass, check_source
from passagent.tools.tasks.loader import load_task
from passagent.tools.evaluation.steps import build_module

HELPER_PASS = TEST_PASSES / "passnet" / "shared_helper_pad"


@pytest.fixture
def pass_dir(tmp_path: Path) -> Path:
    """A copy of the helper pass under a folder not called ``pass_dir`` (the workspace's case)."""
    return Path(shutil.copytree(HELPER_PASS, tmp_path / "workspace_pass"))


def test_helper_files_are_every_non_rule_source(pass_dir: Path) -> None:
    (pass_dir / "kernels").mkdir()
    (pass_dir / "kernels" / "rms.py").write_text("import torch\n")
    assert [f.name for f in helper_files(pass_dir)] == ["rms.py", "shared_kernel.py"]
    assert helper_module_names(pass_dir) == {"kernels", "kernels.rms", "shared_kernel", "pad_rule"}
    assert helper_files(pass_dir / "pad_rule.py") == []


def test_helper_import_is_allowed_and_the_helper_is_checked(pass_dir: Path) -> None:
    assert check_pass(pass_dir) == []
    (pass_dir / "shared_kernel.py").write_text((pass_dir / "shared_kernel.py").read_text() + "\nimport os\n")
    [v] = check_pass(pass_dir)
    assert (v.rule, Path(v.path).name) == ("forbidden_import", "shared_kernel.py")


def test_pass_dir_import_of_a_file_that_is_not_in_the_folder_is_refused(pass_dir: Path) -> None:
    rule = pass_dir / "pad_rule.py"
    rule.write_text(rule.read_text().replace("pass_dir.shared_kernel", "pass_dir.elsewhere"))
    [v] = check_pass(pass_dir)
    assert v.rule == "forbidden_import" and "names no file in it" in v.message
    # a single-file pass has no folder of its own: nothing is importable as pass_dir
    assert [x.rule for x in check_source("from pass_dir.shared_kernel import f\n")] == ["forbidden_import"]


def test_editing_a_helper_changes_the_pass_digest(pass_dir: Path) -> None:
    before = pass_digest(pass_dir)
    helper = pass_dir / "shared_kernel.py"
    helper.write_text(helper.read_text().replace("value)", "value + 0.0)"))
    assert pass_digest(pass_dir) != before


def test_rule_importing_a_helper_loads_matches_and_computes_the_same(pass_dir: Path) -> None:
    """task_110's graph reads torch._C._nn.pad; the rule says F.pad and pads with the helper."""
    sg = load_task(REPO / "bench" / "tasks" / "task_110").subgraphs[0]
    rules = load_rules(pass_dir)
    assert rules[0].module.constant_pad_hw.__module__ == "pass_dir.shared_kernel"
    backend = PassBackend(rules, use_inductor=False, check_no_change=False)
    args = synthesize_inputs(sg, 0)
    torch._dynamo.reset()
    with torch.no_grad():
        got = torch.compile(build_module(sg, torch.device("cpu"), "c"), backend=backend)(*clone_inputs(args))
        want = build_module(sg, torch.device("cpu"), "e")(*clone_inputs(args))
    assert backend.total_matches == 1
    torch.testing.assert_close(got[0], want[0])


def test_a_second_pass_does_not_see_the_first_ones_helpers(pass_dir: Path, tmp_path: Path) -> None:
    other = Path(shutil.copytree(HELPER_PASS, tmp_path / "other"))
    (other / "shared_kernel.py").write_text("import torch\n\n\ndef constant_pad_hw(x, pad, value):\n    return x\n")
    load_rules(pass_dir)
    rules = load_rules(other)
    assert rules[0].module.constant_pad_hw(torch.ones(1), (1,), 0.0).shape == (1,)  # the other pass's helper


# --- a pattern graph built by hand (static checks) --------------------------------------------

RETARGET_TRACED = """
import operator
import torch

def _traced(a, b):
    return a + b

pattern = torch.fx.symbolic_trace(_traced)
for node in pattern.graph.nodes:
    if node.target is operator.add:
        node.target = operator.iadd
pattern.recompile()
"""

RETARGET_BUILT = """
import operator
import torch

g = torch.fx.Graph()
a, b = g.placeholder("a"), g.placeholder("b")
n = g.call_function(operator.add, (a, b))
n.target = operator.iadd
g.output(n)
"""


@pytest.mark.parametrize("source", [RETARGET_TRACED, RETARGET_BUILT])
def test_retargeting_a_node_of_a_graph_the_pass_built_is_not_monkeypatching(source: str) -> None:
    assert check_source(source) == []


@pytest.mark.parametrize("source", [
    "import torch\nT = torch.nn.functional\nfor node in [T]:\n    node.target = 1\n",
    "import torch\nclass G:\n    nodes = [torch.nn]\nfor n in G.nodes:\n    n.target = print\n",
    "import torch\nn = torch.fx.Graph().call_function(print, ())\nn = torch.nn\nn.target = 1\n",
    "import torch\ng = torch.fx.Graph()\nn = g.call_function(print, ())\nn.forward = 1\n",
])
def test_other_import_time_attribute_stores_are_still_monkeypatching(source: str) -> None:
    assert "monkeypatch" in {v.rule for v in check_source(textwrap.dedent(source))}


# --- one Triton kernel shared by several rules (PassNet's layout) -----------------------------

RMS_SHARED = TEST_PASSES / "passnet" / "rms_norm_shared_kernel"
RMS_TASK = REPO / "bench" / "tasks" / "task_035"


@pytest.mark.parametrize("index, rule", [(0, "rms_norm_f32"), (1, "rms_norm_f16"), (2, "rms_norm_bf16")])
def test_rules_launching_a_helpers_triton_kernel_become_custom_ops(index: int, rule: str) -> None:
    """The rules import the kernel from pass_dir.shared_kernel; each still becomes one registered
    Triton op (fake CUDA tensors: no GPU needed to rewrite and register)."""
    pytest.importorskip("triton")
    from torch._subclasses.fake_tensor import FakeTensorMode

    from passagent.tools.passes.rewrite import apply_rules
    from passagent.tools.passes.triton_ops import register_triton_replacements

    assert check_pass(RMS_SHARED) == []
    sg = load_task(RMS_TASK).subgraphs[index]
    gm = torch.fx.symbolic_trace(build_module(sg, torch.device("cpu"), "t"))
    applications = apply_rules(gm, load_rules(RMS_SHARED))
    with FakeTensorMode():
        inputs = [torch.empty(a.meta.shape, dtype=a.meta.dtype, device="cuda") for a in sg.args]
    ops = register_triton_replacements(gm, inputs)
    assert {a.rule: a.matches for a in applications}[rule] == 1
    assert len(ops) == 1 and ops[0].endswith(f".{rule}.default")


@pytest.mark.gpu
def test_shared_kernel_pass_is_correct_on_every_subgraph(tmp_path: Path) -> None:
    from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass

    result = evaluate_pass(load_task(RMS_TASK), RMS_SHARED, EvalOptions(device="cuda", cache_root=tmp_path))
    assert [s.status for s in result.subgraphs] == ["correct"] * len(result.subgraphs)
    assert all(s.matches == 1 for s in result.subgraphs)


def test_a_graph_name_rebound_to_something_else_is_not_the_pass_own_graph() -> None:
    source = textwrap.dedent("""
    import torch
    g = torch.fx.Graph()
    for g in [torch.nn]:
        pass
    for n in g.nodes:
        n.target = print
    """)
    assert "monkeypatch" in {v.rule for v in check_source(source)}


def test_naming_an_in_place_operator_as_a_target_is_allowed_calling_it_is_not() -> None:
    called = "import operator\n_S = []\n\ndef replacement(x):\n    operator.iadd(_S, [x])\n    return x\n"
    assert [v.rule for v in check_source(called)] == ["global_state"]
    passed_on = "import functools, operator\n_S = []\n\ndef replacement(x):\n    functools.reduce(operator.iadd, [_S, [x]])\n    return x\n"
    assert "global_state" in {v.rule for v in check_source(passed_on)}
    assert check_source(RETARGET_BUILT) == []
