"""Triton replacements registered as custom ops (tools/passes/triton_ops.py), on the CPU.

Triton kernels cannot run here, but everything the harness does before a launch can: finding
the kernels a replacement launches, tracing it as one call, inferring the operator schema from
fake tensors, registering a ``triton_op`` per pass digest and rewriting the graph to call it.
The GPU tests (tests/test_gpu.py) run the same passes to completion on CUDA.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
import torch
import torch._dynamo
from torch._subclasses.fake_tensor import FakeTensorMode
from helpers import EXAMPLES, REPO

pytest.importorskip("triton")

from passagent.tools.passes.backend import PassBackend
from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
from passagent.tools.tasks.inputs import synthesize_inputs
from passagent.tools.passes.rules import load_rules
from passagent.tools.passes.rewrite import apply_rules
from passagent.tools.tasks.loader import load_task
from passagent.tools.passes.triton_ops import (
    TritonReplacement,
    TritonReplacementError,
    infer_schema,
    launches_triton,
    register_triton_replacements,
)
from passagent.tools.evaluation.steps import build_module

RMS_PASS = EXAMPLES / "task035_rms_norm_triton"
RMS_TASK = REPO / "bench" / "tasks" / "task_035"

KERNELS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


def direct(x):
    out = torch.empty_like(x)
    scale_kernel[(triton.cdiv(x.numel(), 256),)](x, out, x.numel(), BLOCK=256)
    return out


def _launch(x, out):
    scale_kernel[lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)](x, out, x.numel(), BLOCK=256)


def through_helper(x):
    out = torch.empty_like(x)
    _launch(x, out)
    return out


def make_closure():
    kernel = scale_kernel

    def closure(x):
        out = torch.empty_like(x)
        kernel[(1,)](x, out, x.numel(), BLOCK=256)
        return out

    return closure


def plain_torch(x):
    return x * 2
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> dict:
    path = tmp_path_factory.mktemp("kernels") / "kernels.py"
    path.write_text(KERNELS)
    namespace: dict = {"__name__": "kernels_fixture"}
    exec(compile(path.read_text(), str(path), "exec"), namespace)  # noqa: S102 - triton.jit needs a source file
    return namespace


def test_finds_kernel_launches_directly_through_helpers_and_closures(kernels: dict) -> None:
    assert launches_triton(kernels["direct"])
    assert launches_triton(kernels["through_helper"])  # the launch is in another module function
    assert launches_triton(kernels["make_closure"]())
    assert not launches_triton(kernels["plain_torch"])
    assert not launches_triton(torch.nn.functional.rms_norm)  # not a Python function of the pass


def test_schema_is_inferred_from_fake_arguments_and_result() -> None:
    info = TritonReplacement("rule", "passagent_x", "op", lambda *a: a)
    t = torch.empty(2, 3)
    assert infer_schema(info, (t, t, 1e-6, 4, True), t) == "(Tensor arg0, Tensor arg1, float arg2, SymInt arg3, bool arg4) -> Tensor"
    assert infer_schema(info, (t, [1, 2]), (t, t)) == "(Tensor arg0, SymInt[] arg1) -> (Tensor, Tensor)"
    with pytest.raises(TritonReplacementError, match="must return a tensor"):
        infer_schema(info, (t,), 3)
    with pytest.raises(TritonReplacementError, match="argument 1 is a dict"):
        infer_schema(info, (t, {"a": 1}), t)


def _rewrite(subgraph_index: int, pass_path: Path) -> tuple[torch.fx.GraphModule, dict[str, int], list[str]]:
    """Apply the pass to a task_035 subgraph as the backend does, with fake CUDA inputs (fake
    tensors need no GPU) standing in for the real ones Dynamo would pass on a GPU machine."""
    sg = load_task(RMS_TASK).subgraphs[subgraph_index]
    gm = torch.fx.symbolic_trace(build_module(sg, torch.device("cpu"), "t"))
    applications = apply_rules(gm, load_rules(pass_path))
    with FakeTensorMode():
        inputs = [torch.empty(a.meta.shape, dtype=a.meta.dtype, device="cuda") for a in sg.args]
    ops = register_triton_replacements(gm, inputs)
    return gm, {a.rule: a.matches for a in applications}, ops


@pytest.mark.parametrize("index, rule", [(0, "rms_norm_f32"), (1, "rms_norm_f16"), (2, "rms_norm_bf16")])
def test_example_pass_becomes_one_custom_op_per_dtype(index: int, rule: str) -> None:
    gm, matches, ops = _rewrite(index, RMS_PASS)
    assert matches[rule] == 1 and sum(matches.values()) == 1
    # The eight-op RMSNorm chain is gone; the graph calls the registered Triton op.
    targets = [n.target for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
    assert len(targets) == 1 and isinstance(targets[0], torch._ops.OpOverload)
    assert len(ops) == 1 and ops[0].endswith(f".{rule}.default") and str(targets[0]) == ops[0]
    assert "fx.wrap" not in gm.code  # the leaf's FX wrapping does not leak into the code
    schema = str(targets[0]._schema)
    assert "(Tensor arg0, Tensor arg1) -> Tensor" in schema


def test_edited_kernel_gets_a_new_operator(tmp_path: Path) -> None:
    # The operator's namespace is the pass digest: an edit under the same names is a new op,
    # so neither PyTorch's operator registry nor Inductor's cache can serve the old kernel.
    edited = tmp_path / "edited"
    shutil.copytree(RMS_PASS, edited)
    f32 = edited / "rms_norm_f32.py"
    source = f32.read_text()
    doubled = source.replace("out = w.to(tl.float32) * (x * inv_rms)", "out = 2.0 * w.to(tl.float32) * (x * inv_rms)")
    assert doubled != source, "the kernel line this test edits has changed"
    f32.write_text(doubled)
    first, second = _rewrite(0, RMS_PASS)[2][0], _rewrite(0, edited)[2][0]
    assert first != second
    assert first.split(".")[1:] == second.split(".")[1:]  # same op name, different namespace


def test_unsupported_result_is_a_clear_compile_failure(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(textwrap.dedent('''
        import torch
        import triton
        import triton.language as tl


        def pattern(x, w):
            x32 = x.to(torch.float32)
            variance = x32.pow(2).mean(-1, keepdim=True)
            y = x32 * torch.rsqrt(variance + 1e-06)
            return w * y.to(torch.float32)


        def replacement_args(x, w):
            return (x, w)


        @triton.jit
        def noop_kernel(x_ptr):
            pass


        def returns_a_dict(x, w):
            noop_kernel[(1,)](x)
            return {"out": x}


        def replacement_func():
            return returns_a_dict
    '''))
    with pytest.raises(TritonReplacementError, match="must return a tensor or a tuple of tensors"):
        _rewrite(0, bad)


def test_non_triton_replacements_are_untouched(tmp_path: Path) -> None:
    plain = tmp_path / "plain.py"
    plain.write_text((RMS_PASS / "rms_norm_f32.py").read_text().split("@triton.jit")[0] + textwrap.dedent('''
        def rms_norm_f32(x, w):
            return torch.nn.functional.rms_norm(x.float(), (x.shape[-1],), w, 1e-06)


        def replacement_func():
            return rms_norm_f32
    '''))
    torch._dynamo.reset()
    sg = load_task(RMS_TASK).subgraphs[0]
    backend = PassBackend(load_rules(plain), use_inductor=False)
    args = synthesize_inputs(sg, seed=0)
    out = torch.compile(build_module(sg, torch.device("cpu"), "t"), backend=backend)(*args)
    assert backend.triton_ops == [] and "rms_norm" in backend.graphs_after[-1]
    assert torch.allclose(out[0], build_module(sg, torch.device("cpu"), "ref")(*args)[0], atol=1e-6)


def test_cpu_evaluation_reports_cuda_only(tmp_path: Path) -> None:
    task = load_task(RMS_TASK / "graphs" / "0")
    result = evaluate_pass(task, RMS_PASS, EvalOptions(device="cpu", cache_root=tmp_path))
    s = result.subgraphs[0]
    assert s.status == "compile" and "CUDA devices only" in s.message and "--device cuda" in s.message
