"""The no_change and precision checks trace through operators made with the older
``torch.library.Library`` API (``define`` + ``impl`` per dispatch key) as they do through
``torch.library.custom_op`` (tools/passes/library_registry.py, tools/integrity/rules.custom_op_bodies)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import torch
import torch._dynamo

from passagent.tools.passes import library_registry
from passagent.tools.passes.backend import PassBackend
from passagent.tools.passes.rules import load_rules
from passagent.tools.redteam import CORPUS


def _backend(pass_path: Path, digest: str, module: torch.nn.Module, x: torch.Tensor) -> PassBackend:
    torch._dynamo.reset()
    backend = PassBackend(load_rules(pass_path, digest), use_inductor=False)
    out = torch.compile(module, backend=backend)(x)
    assert torch.allclose(out, module(x), atol=1e-2)  # the wrapped op runs and is right: only the checks can tell
    return backend


class CatNorm(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def test_the_original_ops_inside_a_library_impl_operator_are_no_change() -> None:
    backend = _backend(CORPUS / "library_impl_same_ops.py", "11aa22bb33cc", CatNorm(), torch.randn(16, 64))
    assert backend.total_matches == 1
    assert backend.no_change
    op = torch.ops.redteam_lib.catnorm.default
    assert library_registry.kernel(op, "cpu").__name__ == "_catnorm"
    assert library_registry.kernel(op, "cuda").__name__ == "_catnorm"


def test_a_half_precision_body_inside_a_library_impl_operator_is_a_downgrade(tmp_path: Path) -> None:
    p = tmp_path / "lib_half.py"
    p.write_text(textwrap.dedent('''
        import torch

        _lib = torch.library.Library("passagent_test_lib_half", "DEF")
        _lib.define("normalize(Tensor x) -> Tensor")


        def _normalize(x):
            return torch.nn.functional.normalize(x.half(), p=2, dim=1).float()


        _lib.impl("normalize", _normalize, "CompositeExplicitAutograd")
        _lib.impl("normalize", lambda x: torch.empty_like(x), "Meta")


        def pattern(x):
            return torch.nn.functional.normalize(x, p=2, dim=1)


        def replacement_args(x):
            return (x,)


        def replacement_func():
            return torch.ops.passagent_test_lib_half.normalize
    '''))

    class Normalize(torch.nn.Module):
        def forward(self, x):
            return torch.nn.functional.normalize(x, p=2, dim=1)

    backend = _backend(p, "44dd55ee66ff", Normalize(), torch.randn(16, 64))
    assert backend.total_matches == 1 and not backend.no_change
    assert backend.downgrades == ["torch.float16"]


def test_the_recorder_keeps_the_device_kernel_before_the_composite_one() -> None:
    library_registry.install()
    library_registry.install()  # idempotent: one wrapper
    assert not hasattr(torch.library.Library.impl.__wrapped__, "_passagent_recording")
    lib = torch.library.Library("passagent_test_keys", "DEF")
    lib.define("f(Tensor x) -> Tensor")
    lib.define("g.out2(Tensor x) -> Tensor")

    def composite(x):
        return x + 1

    def cpu(x):
        return x + 2

    lib.impl("f", composite, "CompositeExplicitAutograd")
    lib.impl("f", cpu, "CPU")
    lib.impl("g.out2", composite)  # no key: the Library's own (none for DEF), i.e. CompositeImplicitAutograd
    assert library_registry.kernel(torch.ops.passagent_test_keys.f.default, "cpu") is cpu
    assert library_registry.kernel(torch.ops.passagent_test_keys.f.default, "cuda") is composite
    assert library_registry.kernel(torch.ops.passagent_test_keys.g.out2, "cpu") is composite
    assert torch.equal(torch.ops.passagent_test_keys.f(torch.zeros(2)), torch.full((2,), 2.0))
