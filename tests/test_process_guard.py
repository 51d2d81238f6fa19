"""Unit tests of the harness's self-verification: the process guard, in-place writes, held-out
shapes, the physics floor, the custom-op see-through and the baseline-cache policy."""

from __future__ import annotations

import torch
import pytest

from passagent.tools import timing
from passagent.tools.correctness import HEADLINE_LEVEL, reference_precision
from passagent.tools.evaluate import baselines_polluted
from passagent.tools.heldout import grown_subgraph, heldout_inputs
from passagent.tools.integrity import aten_signature, check_input_writes, precision_downgrades, written_inputs
from passagent.tools.physics_floor import DeviceFloor, below_floor, written_bytes
from passagent.tools.process_guard import ProcessGuard


@pytest.fixture
def guard() -> ProcessGuard:
    return ProcessGuard()


def test_a_harness_modules_clock_reference_swapped_is_patched_function(guard: ProcessGuard, monkeypatch: pytest.MonkeyPatch) -> None:
    assert guard.check_call() is None
    monkeypatch.setattr(timing, "time", object())  # timing's own `time`, not time.perf_counter
    breach = guard.check_call()
    assert breach is not None and breach.rule == "patched_function"
    assert "passagent.tools.timing.time" in breach.message


def test_a_tensor_method_replaced_is_patched_function(guard: ProcessGuard, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.Tensor, "clone", lambda self: self)
    breach = guard.check_call()
    assert breach is not None and breach.rule == "patched_function"


@pytest.mark.parametrize("flip, name", [
    (lambda: torch.backends.mkldnn.set_flags(not torch.backends.mkldnn.enabled), "torch.backends.mkldnn.enabled"),
    (lambda: torch.set_num_threads(max(1, torch.get_num_threads() + 1)), "torch.num_threads"),
    (lambda: setattr(torch.backends.cudnn, "benchmark", not torch.backends.cudnn.benchmark), "torch.backends.cudnn.benchmark"),
    (lambda: setattr(torch.backends.cuda.matmul, "allow_tf32", not torch.backends.cuda.matmul.allow_tf32),
     "torch.backends.cuda.matmul.allow_tf32"),
    (lambda: torch.use_deterministic_algorithms(not torch.are_deterministic_algorithms_enabled()), "torch.deterministic_algorithms"),
    (lambda: torch.set_default_dtype(torch.float64), "torch.default_dtype"),
], ids=["mkldnn", "threads", "cudnn_benchmark", "tf32", "deterministic", "default_dtype"])
def test_a_flipped_process_flag_is_reported_and_remembered(guard: ProcessGuard, flip, name: str) -> None:
    saved = (torch.backends.mkldnn.enabled, torch.get_num_threads(), torch.backends.cudnn.benchmark,
             torch.backends.cuda.matmul.allow_tf32, torch.are_deterministic_algorithms_enabled(), torch.get_default_dtype())
    try:
        flip()
        breach = guard.check_call()
        assert breach is not None and breach.rule == "process_flag" and name in breach.message
    finally:
        torch.backends.mkldnn.set_flags(saved[0])
        torch.set_num_threads(saved[1])
        torch.backends.cudnn.benchmark = saved[2]
        torch.backends.cuda.matmul.allow_tf32 = saved[3]
        torch.use_deterministic_algorithms(saved[4])
        torch.set_default_dtype(saved[5])
    assert guard.check_call() is None, "restored"
    assert name in guard.changed_flags, "a change once seen is remembered (no baseline from this process is cached)"


def test_grad_mode_is_checked_against_the_callers_scope(guard: ProcessGuard) -> None:
    with torch.no_grad():
        assert guard.check_call(grad_enabled=False) is None
        torch.set_grad_enabled(True)  # what a replacement could do inside the timed no_grad block
        breach = guard.check_call(grad_enabled=False)
    assert breach is not None and "torch.grad_enabled" in breach.message


def test_an_aten_kernel_override_is_operator_override(guard: ProcessGuard) -> None:
    assert guard.check() is None
    lib = torch.library.Library("aten", "IMPL")
    lib.impl("sinc", lambda x: x, "CPU")
    try:
        breach = guard.check()
        assert breach is not None and breach.rule == "operator_override"
    finally:
        lib._destroy()
    assert guard.check() is None


def test_reference_precision_turns_tf32_off_and_restores_it() -> None:
    torch.backends.cudnn.allow_tf32 = True
    with reference_precision():
        assert not torch.backends.cudnn.allow_tf32 and not torch.backends.cuda.matmul.allow_tf32
    assert torch.backends.cudnn.allow_tf32


# -- in-place writes ----------------------------------------------------------------------------------


def test_dropped_and_extra_input_writes() -> None:
    draw = [torch.arange(4.0), torch.ones(3)]
    eager_args = [t.clone() for t in draw]
    eager_args[0].add_(1.0)
    ref = written_inputs(draw, eager_args)
    assert list(ref) == [0]
    # Same write: exact at the tightest level.
    breach, cmp = check_input_writes(draw, [draw[0] + 1.0, draw[1].clone()], ref)
    assert breach is None and cmp is not None and cmp.min_correct_t == -10
    # Dropped write: wrong values at every level.
    breach, cmp = check_input_writes(draw, [draw[0].clone(), draw[1].clone()], ref)
    assert breach is None and cmp is not None and (cmp.min_correct_t is None or cmp.min_correct_t > HEADLINE_LEVEL)
    assert cmp.max_abs == 1.0
    # A write eager does not make.
    breach, _ = check_input_writes(draw, [draw[0] + 1.0, torch.zeros(3)], ref)
    assert breach is not None and breach.rule == "input_mutated"


def test_an_input_holding_nan_is_not_a_write() -> None:
    # Compared by value, NaN != NaN made every call look like it wrote an input holding NaN
    # (eager's too); compared by bits it is unchanged. A half-precision write is still seen.
    draw = [torch.tensor([float("nan"), 1.0, -0.0], dtype=torch.float16), torch.ones(2)]
    assert written_inputs(draw, [t.clone() for t in draw]) == {}
    assert check_input_writes(draw, [t.clone() for t in draw], {}) == (None, None)
    zeroed = draw[0].clone()
    zeroed[2] = 0.0  # -0.0 -> 0.0: the same value, other bits, a write
    breach, _ = check_input_writes(draw, [zeroed, draw[1].clone()], {})
    assert breach is not None and breach.rule == "input_mutated"


# -- held-out shapes ------------------------------------------------------------------------------------


def test_heldout_grows_every_size_eager_accepts(tmp_path) -> None:
    from passagent.tools.redteam.samples import write_sample
    from passagent.tools.tasks import load_task

    sg = load_task(write_sample(tmp_path, "silu")).subgraphs[0]  # x: [64, 256]
    inputs, sizes = heldout_inputs(sg, 123, torch.device("cpu"), 1.0, accepts=lambda xs: True)
    assert sizes == [64, 256] and list(inputs[0].shape) == [65, 257]
    # A graph that fixes the last size (a reshape to a literal, say): only the other grows.
    inputs, sizes = heldout_inputs(sg, 123, torch.device("cpu"), 1.0, accepts=lambda xs: xs[0].shape[1] == 256)
    assert sizes == [64] and list(inputs[0].shape) == [65, 256]
    assert heldout_inputs(sg, 123, torch.device("cpu"), 1.0, accepts=lambda xs: False) is None
    assert [a.shape for a in grown_subgraph(sg, {256}).args] == [(64, 257)]


def test_heldout_draws_depend_on_the_secret_seed(tmp_path) -> None:
    from passagent.tools.redteam.samples import write_sample
    from passagent.tools.tasks import load_task

    sg = load_task(write_sample(tmp_path, "silu")).subgraphs[0]
    a, _ = heldout_inputs(sg, 1, torch.device("cpu"), 1.0, accepts=lambda xs: True)
    b, _ = heldout_inputs(sg, 2, torch.device("cpu"), 1.0, accepts=lambda xs: True)
    assert not torch.equal(a[0], b[0])


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


def test_no_baseline_is_cached_from_a_polluted_evaluation() -> None:
    clean = {"failure_class": None, "times": {"eager": {}}}
    assert not baselines_polluted([clean, {"failure_class": "accuracy"}])
    assert baselines_polluted([clean, {"failure_class": "integrity", "integrity_rule": "process_flag"}])
    assert baselines_polluted([clean, {"failure_class": None, "process_flags_changed": ["torch.num_threads"]}])
