"""Tolerance levels and output comparison (SCORING.md)."""

from __future__ import annotations

import math

import pytest
import torch

from passagent.tools.measure.correctness import TOLERANCE_LEVELS, OutputMismatch, compare_outputs, merge, tolerance


def test_tolerance_table_at_minus_five() -> None:
    atol, rtol = tolerance(torch.float32, -5)
    assert atol == pytest.approx(1e-5) and rtol == pytest.approx(1.3e-6, rel=0.05)
    atol, rtol = tolerance(torch.float16, -5)
    assert atol == pytest.approx(1e-5) and rtol == pytest.approx(1e-3)
    atol, rtol = tolerance(torch.bfloat16, -5)
    assert atol == pytest.approx(1e-5) and rtol == pytest.approx(1.6e-2, rel=0.05)
    atol, rtol = tolerance(torch.float64, -5)
    assert atol == pytest.approx(10 ** -7) and rtol == pytest.approx(10 ** -7)
    assert tolerance(torch.int64, -5) is None and tolerance(torch.bool, 0) is None


def test_exact_output_is_correct_from_the_tightest_level() -> None:
    x = torch.randn(100)
    assert compare_outputs((x.clone(),), (x,)).min_correct_t == -10


def test_level_found_is_the_smallest_passing_one() -> None:
    ref = torch.ones(1000)
    cand = ref + 3e-4  # float32: passes when atol + rtol >= 3e-4
    c = compare_outputs(cand, ref)
    t = c.min_correct_t
    a, r = tolerance(torch.float32, t)
    assert a + r >= 3e-4
    a, r = tolerance(torch.float32, t - 1)
    assert a + r < 3e-4
    assert c.max_abs == pytest.approx(3e-4, rel=1e-3)


def test_shape_dtype_and_count_mismatches_raise() -> None:
    x = torch.zeros(2, 3)
    with pytest.raises(OutputMismatch, match="shape"):
        compare_outputs((torch.zeros(3, 2),), (x,))
    with pytest.raises(OutputMismatch, match="dtype"):
        compare_outputs((x.double(),), (x,))
    with pytest.raises(OutputMismatch, match="2 outputs"):
        compare_outputs((x, x), (x,))
    with pytest.raises(OutputMismatch, match="broadcast|shape"):
        compare_outputs((torch.zeros(1, 3),), (x,))  # never broadcast away


def test_nan_where_reference_is_finite_fails_every_level() -> None:
    ref = torch.ones(4)
    cand = ref.clone()
    cand[1] = math.nan
    c = compare_outputs(cand, ref)
    assert c.min_correct_t is None and c.nonfinite


def test_matching_nan_and_inf_are_accepted() -> None:
    ref = torch.tensor([1.0, math.nan, math.inf])
    assert compare_outputs(ref.clone(), ref).min_correct_t == -10
    wrong_sign = torch.tensor([1.0, math.nan, -math.inf])
    assert compare_outputs(wrong_sign, ref).min_correct_t is None


def test_integers_must_be_equal() -> None:
    ref = torch.arange(5)
    assert compare_outputs(ref.clone(), ref).min_correct_t == -10
    assert compare_outputs(ref + 1, ref).min_correct_t is None


def test_merge_over_draws_takes_the_worst() -> None:
    ref = torch.ones(10)
    a = compare_outputs(ref.clone(), ref)
    b = compare_outputs(ref + 1e-3, ref)
    m = merge([a, b])
    assert m.min_correct_t == b.min_correct_t and m.max_abs == pytest.approx(1e-3, rel=1e-3)


def test_bitwise_equal_compares_bits_not_values() -> None:
    from passagent.tools.measure.correctness import bitwise_equal

    nan = torch.tensor([float("nan"), 1.0])
    assert bitwise_equal(nan, nan.clone())  # torch.equal says False: NaN != NaN
    assert not torch.equal(nan, nan.clone())
    assert not bitwise_equal(torch.tensor([0.0]), torch.tensor([-0.0]))  # equal values, other bits
    for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8, torch.bool, torch.complex64,
                  torch.complex128):
        x = (torch.randn(6, 5) * 3).to(dtype) if dtype != torch.complex128 else torch.randn(6, 5, dtype=dtype)
        y = x.clone()
        assert bitwise_equal(x, y) and bitwise_equal(x.t(), y.t())  # any strides
        y.view(-1)[7] = 1 - y.view(-1)[7] if dtype != torch.bool else ~y.view(-1)[7]
        assert not bitwise_equal(x, y), dtype
    assert not bitwise_equal(torch.zeros(3), torch.zeros(3, dtype=torch.float64))
    assert not bitwise_equal(torch.zeros(3), torch.zeros(1, 3))


def test_identical_outputs_take_the_exact_level_with_non_finite_entries() -> None:
    r = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), -0.0], dtype=torch.bfloat16)
    c = compare_outputs([r.clone()], [r])
    assert c.min_correct_t == TOLERANCE_LEVELS[0] and c.max_abs == 0.0 and not c.nonfinite
    # The same entries with one finite value moved: the full comparison, which still accepts the
    # non-finite entries and finds the error.
    moved = r.clone()
    moved[0] = 1.5
    c = compare_outputs([moved], [r])
    assert c.max_abs == pytest.approx(0.5) and not c.nonfinite


def test_level_search_gives_the_linear_scans_answer() -> None:
    """The binary search over tolerance levels agrees with checking every level in turn, for
    errors at every scale, in every floating dtype, with some elements equal."""
    from passagent.tools.measure.correctness import TOLERANCE_LEVELS, _min_level_for_tensor, tolerance

    g = torch.Generator().manual_seed(0)
    seen = set()
    for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.float64):
        for exp in range(-12, 2):
            ref = (torch.randn(256, generator=g, dtype=torch.float64) * 10.0 ** (exp % 5 - 2)).to(dtype)
            noise = torch.randn(256, generator=g, dtype=torch.float64) * 10.0 ** exp
            noise[::3] = 0.0  # equal elements
            cand = (ref.double() + noise).to(dtype)
            diff = (cand.double() - ref.double()).abs()
            scan = next((t for t in TOLERANCE_LEVELS
                         if bool((diff <= tolerance(dtype, t)[0] + tolerance(dtype, t)[1] * ref.double().abs()).all())), None)
            assert _min_level_for_tensor(cand, ref)[0] == scan, (dtype, exp)
            seen.add(scan)
    assert len(seen) >= 6 and -10 in seen  # the cases span many levels, the strictest among them
