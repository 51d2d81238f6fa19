"""Input synthesis follows GraphNet's rules, is seeded, and never degenerates to all-constant."""

from __future__ import annotations

import torch
from helpers import passbench_task

from passagent.tools.tasks.inputs import DEGENERATE_STD_FALLBACK, SPREAD_FACTOR, is_degenerate, synthesize_arg, synthesize_inputs
from passagent.tools.tasks.meta import TensorMeta
from passagent.tools.tasks.loader import ArgSpec, load_task


def spec(shape=(4096,), dtype=torch.float32, mean=0.5, std=2.0, min_val=None, max_val=None, data=None, symint=False) -> ArgSpec:
    meta = TensorMeta("x", tuple(shape), dtype, "cpu", mean, std, min_val, max_val, data)
    return ArgSpec("x", symint, meta)


def gen(seed: int = 0) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed(seed)
    return g


def test_float_uses_mean_and_std_times_spread_factor() -> None:
    x = synthesize_arg(spec(shape=(200_000,)), gen())
    assert x.dtype == torch.float32 and x.shape == (200_000,)
    assert abs(float(x.mean()) - 0.5) < 0.01
    assert abs(float(x.std()) - 2.0 * SPREAD_FACTOR) < 0.01


def test_float16_is_drawn_then_scaled_in_its_dtype() -> None:
    x = synthesize_arg(spec(dtype=torch.float16, mean=0.0, std=1.0), gen())
    assert x.dtype == torch.float16


def test_integers_with_bounds_are_uniform_in_the_closed_range() -> None:
    x = synthesize_arg(spec(shape=(10_000,), dtype=torch.int64, mean=None, std=None, min_val=3, max_val=5), gen())
    assert set(x.unique().tolist()) == {3, 4, 5}


def test_integer_bounds_take_precedence_over_literal_data_like_graphnet() -> None:
    x = synthesize_arg(spec(shape=(2,), dtype=torch.int64, min_val=7, max_val=7, data=(1, 2)), gen())
    assert x.tolist() == [7, 7]


def test_literal_data_is_used_exactly() -> None:
    x = synthesize_arg(spec(shape=(2, 2), dtype=torch.int64, data=(1, 2, 3, 4)), gen())
    assert x.tolist() == [[1, 2], [3, 4]]


def test_floats_are_clamped_to_bounds_and_to_100() -> None:
    x = synthesize_arg(spec(shape=(10_000,), mean=0.0, std=10.0, min_val=-0.5, max_val=0.25), gen())
    assert float(x.min()) >= -0.5 and float(x.max()) <= 0.25
    y = synthesize_arg(spec(shape=(10_000,), mean=1e4, std=1.0), gen())
    assert float(y.max()) == 100.0


def test_bool_follows_graphnet_randn_gt_half() -> None:
    x = synthesize_arg(spec(shape=(100_000,), dtype=torch.bool), gen())
    assert x.dtype == torch.bool
    assert 0.28 < float(x.float().mean()) < 0.34  # P(N(0,1) > 0.5) = 0.3085


def test_zero_std_multi_element_gets_the_documented_fallback() -> None:
    s = spec(shape=(100_000,), mean=0.0, std=0.0)
    assert is_degenerate(s)
    x = synthesize_arg(s, gen())
    assert float(x.std()) > 0.9 * DEGENERATE_STD_FALLBACK * SPREAD_FACTOR
    assert len(x.unique()) > 1000


def test_zero_std_scalar_keeps_its_value() -> None:
    s = spec(shape=(), dtype=torch.float64, mean=2.0, std=0.0)
    assert not is_degenerate(s)
    assert float(synthesize_arg(s, gen())) == 2.0


def test_symint_from_literal_data() -> None:
    assert synthesize_arg(spec(shape=(), dtype=torch.int64, data=(4,), symint=True), gen()) == 4


def test_draws_are_seeded_and_distinct() -> None:
    sg = load_task(passbench_task("623d")).subgraphs[1]
    a0, a0_again, a1 = synthesize_inputs(sg, 0), synthesize_inputs(sg, 0), synthesize_inputs(sg, 1)
    for x, y, z in zip(a0, a0_again, a1):
        assert torch.equal(x, y)
        assert not torch.equal(x, z)


def test_drawing_on_the_device_is_the_default_draw_on_the_cpu() -> None:
    """``on_device`` makes each tensor on the generator's device; on the CPU that is the CPU
    generator of the default, so the draws are bit for bit the same (every rule of synthesize_arg:
    bounded integers, literal data, bool, clamped and degenerate floats, SymInts)."""
    sg = load_task(passbench_task("623d")).subgraphs[0]
    for x, y in zip(synthesize_inputs(sg, 2, seed=7), synthesize_inputs(sg, 2, seed=7, device="cpu", on_device=True)):
        assert type(x) is type(y)
        assert (x == y) if not isinstance(x, torch.Tensor) else (torch.equal(x, y) and x.dtype == y.dtype)
    specs = [spec(dtype=torch.int64, min_val=3, max_val=9), spec(shape=(3,), data=[1.0, 2.0, 3.0]),
             spec(dtype=torch.bool), spec(min_val=0.0, max_val=0.6), spec(std=0.0), spec(dtype=torch.int32)]
    for s in specs:
        assert torch.equal(synthesize_arg(s, gen(5)), synthesize_arg(s, gen(5)))


def test_real_passbench_task_has_degenerate_metadata_and_non_degenerate_inputs() -> None:
    sg = load_task(passbench_task("623d")).subgraphs[0]
    degenerate = [a.name for a in sg.args if is_degenerate(a)]
    assert degenerate == ["w_0", "w_2", "w_3"]  # bias/LayerNorm params recorded as std 0.000
    values = dict(zip([a.name for a in sg.args], synthesize_inputs(sg, 0)))
    for name in degenerate:
        assert len(values[name].unique()) > 10
