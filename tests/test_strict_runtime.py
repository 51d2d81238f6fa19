"""Strict mode at run time (tools/integrity/strict_runtime.py): a matched replacement is run once, its
Triton launches counted and its ATen compute recorded, on the CPU through Triton's interpreter
(``TRITON_INTERPRET=1``, read when a kernel is decorated, so pass modules are loaded after the
variable is set; the kernels call Triton builtins only, since ``triton.language``'s own ``@jit``
helpers such as ``tl.sigmoid`` were decorated when Triton was first imported in this process)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import torch
import torch._dynamo

pytest.importorskip("triton")

from passagent.tools.passes.backend import PassBackend
from passagent.tools.passes.rules import load_rules
from passagent.tools.redteam import CORPUS
from passagent.tools.passes.rewrite import REPLACEMENT_META, apply_rules
from passagent.tools.integrity.strict_runtime import LaunchCounter, StrictViolation, run_replacements, strict_breach, verdict


class Silu(torch.nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x) + 1.0


@pytest.fixture(autouse=True)
def _interpreter(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _runs(pass_path: Path, digest: str, x: torch.Tensor | None = None):
    """The rewritten Dynamo graph of :class:`Silu`, its replacements run as strict mode runs them."""
    rules = load_rules(pass_path, digest)
    seen = {}

    def backend(gm, example_inputs):
        apply_rules(gm, rules)
        seen["tags"] = [n.meta.get(REPLACEMENT_META) for n in gm.graph.nodes]
        seen["runs"] = run_replacements(gm, example_inputs)
        seen["inputs"] = [t.clone() for t in example_inputs]
        return lambda *args: (torch.zeros(1),)  # never compiled: the test reads the runs only

    x = torch.randn(8, 32) if x is None else x
    torch.compile(Silu(), backend=backend)(x)
    return seen


def test_an_honest_triton_replacement_launches_once_and_computes_nothing_else() -> None:
    seen = _runs(CORPUS / "honest" / "triton_silu_strict.py", "a1b2c3d4e5f6")
    run = seen["runs"]["triton_silu_strict"]
    assert (run.triton, run.launches, run.compute) == (True, 1, [])
    assert verdict(seen["runs"]) is None


def test_a_ghost_kernel_beside_an_operator_fallback_is_strict_no_triton_launch() -> None:
    seen = _runs(CORPUS / "ghost_kernel.py", "b1b2c3d4e5f6")
    run = seen["runs"]["ghost_kernel"]
    assert run.triton and run.launches == 0 and {"neg", "pow", "div"} <= set(run.compute)
    breach = verdict(seen["runs"])
    assert breach.rule == "strict_no_triton_launch" and "aten.pow" in breach.message


def test_a_token_launch_beside_operator_compute_is_strict_other_compute() -> None:
    seen = _runs(CORPUS / "operator_escape.py", "c1b2c3d4e5f6")
    run = seen["runs"]["operator_escape"]
    assert run.launches == 1 and "mul" in run.compute
    assert verdict(seen["runs"]).rule == "strict_other_compute"


def test_a_torch_replacement_without_triton_fails_strict_mode() -> None:
    seen = _runs(CORPUS / "honest" / "fused_silu.py", "d1b2c3d4e5f6")
    assert seen["runs"]["fused_silu"].compute == ["silu"]
    assert verdict(seen["runs"]).rule == "strict_no_triton_launch"


def test_only_the_replacement_func_nodes_are_tagged_and_the_inputs_are_not_written(tmp_path: Path) -> None:
    # replacement_args may compute (strict mode's static rule allows it there): not counted.
    p = tmp_path / "args_compute.py"
    p.write_text((CORPUS / "honest" / "triton_silu_strict.py").read_text().replace(
        "def replacement_args(x):\n    return (x,)", "def replacement_args(x):\n    return (x.contiguous() * 1.0,)"))
    x = torch.randn(8, 32)
    seen = _runs(p, "e1b2c3d4e5f6", x)
    assert verdict(seen["runs"]) is None and seen["runs"]["args_compute"].launches == 1
    assert seen["tags"].count("args_compute") == 1  # the Triton leaf; not the mul of replacement_args
    assert torch.equal(seen["inputs"][0], x)


def test_a_replacement_that_computes_nothing_passes(tmp_path: Path) -> None:
    p = tmp_path / "drop_add.py"
    p.write_text(textwrap.dedent('''
        import torch

        def pattern(x, y):
            return torch.sigmoid(x) + y

        def replacement_args(x, y):
            return (x, y)

        def replacement_func():
            return lambda x, y: y.view(y.shape)
    '''))
    rules = load_rules(p, "f1b2c3d4e5f6")
    seen = {}

    def backend(gm, example_inputs):
        apply_rules(gm, rules)
        seen["runs"] = run_replacements(gm, example_inputs)
        return gm.forward

    torch.compile(lambda a, b: torch.sigmoid(a) + b, backend=backend)(torch.randn(4), torch.randn(4))
    assert seen["runs"]["drop_add"].compute == [] and verdict(seen["runs"]) is None


def test_the_backend_raises_a_strict_violation_before_compiling() -> None:
    rules = load_rules(CORPUS / "ghost_kernel.py", "a2b2c3d4e5f6")
    phases = []
    backend = PassBackend(rules, use_inductor=False, strict=True, on_phase=phases.append)
    with pytest.raises(Exception) as info:
        torch.compile(Silu(), backend=backend)(torch.randn(8, 32))
    breach = strict_breach(info.value)
    assert breach is not None and breach.rule == "strict_no_triton_launch"
    assert "candidate_strict" in phases and "candidate_inductor" not in phases
    assert strict_breach(ValueError("x")) is None
    assert isinstance(StrictViolation(breach), Exception)


def test_permissive_mode_runs_no_strict_check() -> None:
    rules = load_rules(CORPUS / "honest" / "fused_silu.py", "a3b2c3d4e5f6")
    phases = []
    out = torch.compile(Silu(), backend=PassBackend(rules, use_inductor=False, on_phase=phases.append))(torch.ones(2, 2))
    assert "candidate_strict" not in phases
    assert torch.allclose(out, torch.nn.functional.silu(torch.ones(2, 2)) + 1.0)


def test_the_launch_counter_restores_triton_and_skips_warmups() -> None:
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction

    before = (JITFunction.run, InterpretedFunction.run)
    with LaunchCounter() as counter:
        assert JITFunction.run is not before[0]
        InterpretedFunction.run(object(), grid=(1,), warmup=True)  # returns before launching
        assert counter.launches == 0
    assert (JITFunction.run, InterpretedFunction.run) == before
