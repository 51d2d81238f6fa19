"""Unit tests of rules the roles share: the reference's precision, the physics floor, the custom-op
see-through of ``no_change`` and ``precision_downgrade``, and the baseline-cache policy."""

from __future__ import annotations

import torch
import pytest

from passagent.tools.measure.correctness import reference_precision
from passagent.tools.evaluation.evaluate import baselines_polluted
from passagent.tools.integrity.rules import aten_signature, precision_downgrades
from passagent.tools.measure.physics_floor import DeviceFloor, below_floor, written_bytes


def test_reference_precision_turns_tf32_off_and_restores_it() -> None:
    torch.backends.cudnn.allow_tf32 = True
    with reference_precision():
        assert not torch.backends.cudnn.allow_tf32 and not torch.backends.cuda.matmul.allow_tf32
    assert torch.backends.cudnn.allow_tf32


# -- physics floor -----------------------------------------------------------------------------------


def test_physics_floor() -> None:
    floor = DeviceFloor(launch_us=10.0, bandwidth_gbs=1000.0)  # 1000 GB/s = 1e6 bytes per µs... /1e3 -> µs
    out = (torch.empty(1000, 1000),)  # 4 MB written: 4 µs at 1000 GB/s
    nbytes = written_bytes(out, [frozenset()])
    assert nbytes == 4_000_000
    assert floor.floor_us(nbytes) == pytest.approx(10.0)
    assert below_floor(4.0, floor, nbytes, writes_fresh_output=True) is not None
    assert below_floor(6.0, floor, nbytes, writes_fresh_output=True) is None
    assert written_bytes(out, [frozenset({0})]) == 0, "an output that is a view of an input writes nothing"
    big = 400_000_000  # 400 µs at 1000 GB/s
    assert below_floor(90.0, floor, big, writes_fresh_output=True) is not None
    assert below_floor(150.0, floor, big, writes_fresh_output=True) is None, "within the bandwidth margin"
    assert below_floor(1.0, floor, 0, writes_fresh_output=False) is None, "views only: no launch floor"


# -- custom ops are seen through --------------------------------------------------------------------


@torch.library.custom_op("test_guard::wrapped_normalize", mutates_args=())
def _wrapped_normalize(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.normalize(x, p=2, dim=1)


@_wrapped_normalize.register_fake
def _(x):
    return torch.empty_like(x)


@torch.library.custom_op("test_guard::half_normalize", mutates_args=())
def _half_normalize(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.normalize(x.half(), p=2, dim=1).float()


@_half_normalize.register_fake
def _(x):
    return torch.empty_like(x)


def _gm(fn) -> torch.fx.GraphModule:
    return torch.fx.symbolic_trace(fn)


def test_a_custom_op_running_the_original_ops_has_the_original_signature() -> None:
    x = [torch.randn(8, 16)]
    original = aten_signature(_gm(lambda x: torch.nn.functional.normalize(x, p=2, dim=1)), x)
    wrapped = aten_signature(_gm(lambda x: torch.ops.test_guard.wrapped_normalize(x)), x)
    assert original is not None and wrapped == original
    opaque = aten_signature(_gm(lambda x: torch.ops.test_guard.wrapped_normalize(x)), x,
                            opaque={"test_guard.wrapped_normalize.default"})
    assert opaque != original, "an op named opaque stays one node"


def test_a_precision_downgrade_inside_a_custom_op_is_seen() -> None:
    x = [torch.randn(8, 16)]
    before = aten_signature(_gm(lambda x: torch.nn.functional.normalize(x, p=2, dim=1)), x)
    after = aten_signature(_gm(lambda x: torch.ops.test_guard.half_normalize(x)), x)
    assert precision_downgrades(before, after, {"torch.float32"}) == ["torch.float16"]


# -- baseline cache -----------------------------------------------------------------------------------


def test_no_baseline_is_cached_from_an_evaluation_in_which_a_rule_fired() -> None:
    clean = {"failure_class": None, "times": {"eager": {}}}
    assert not baselines_polluted([clean, {"failure_class": "accuracy"}])
    assert baselines_polluted([clean, {"failure_class": "integrity", "integrity_rule": "work_outside_window"}])
