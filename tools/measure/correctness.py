"""Correctness of a candidate's outputs against the eager reference, at every tolerance level.

Source: ``shared/docs/SCORING.md`` (GraphNet arXiv 2510.24035 / PassNet arXiv 2605.29357).
At level t an output is correct if ``allclose(candidate, reference, atol, rtol)`` holds with
the per-dtype tolerances below, after an exact check of output count, shapes and dtypes.
Integers and bools must be equal. NaN/Inf where the reference is finite fails every level.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field
from typing import Any, Iterator

import torch

#: The tolerance levels t, tightest first.
TOLERANCE_LEVELS: tuple[int, ...] = tuple(range(-10, 5))
#: The level reported as a subgraph's headline status (``correct@-5``).
HEADLINE_LEVEL = -5

# dtype -> (atol exponent factor, rtol exponent factor): atol = 10^(a*t), rtol = 10^(r*t).
_TOLERANCE_EXPONENTS: dict[torch.dtype, tuple[float, float]] = {
    torch.float16: (1.0, 0.6),
    torch.bfloat16: (1.0, 0.3592),
    torch.float32: (1.0, 1.1772),
    torch.complex64: (1.0, 1.1772),
    torch.float64: (1.4, 1.4),
    torch.complex128: (1.4, 1.4),
}


def tolerance(dtype: torch.dtype, t: int) -> tuple[float, float] | None:
    """``(atol, rtol)`` for ``dtype`` at level ``t``, or None for exact-equality dtypes.

    Example: float32 at t=-5 gives (1e-5, ~1.3e-6); bfloat16 at t=-5 gives (1e-5, ~1.6e-2).
    Float8 types use the bfloat16 row (the coarsest the table has).
    """
    exps = _TOLERANCE_EXPONENTS.get(dtype)
    if exps is None and dtype.is_floating_point:
        exps = _TOLERANCE_EXPONENTS[torch.bfloat16]
    if exps is None:
        return None
    a, r = exps
    return 10.0 ** (a * t), 10.0 ** (r * t)


class OutputMismatch(Exception):
    """Output count, shape, dtype or type differs from the reference (a ``runtime`` failure)."""


@dataclass
class Comparison:
    """How one candidate call's outputs compare with the reference outputs.

    Attributes:
        min_correct_t: the smallest level at which every output is allclose (correctness is
            monotone in t), or None if none is. NaN/Inf against a finite reference: None.
        max_abs: largest |candidate - reference| over all floating outputs (0 if none).
        max_rel: largest |candidate - reference| / max(|reference|, tiny).
        nonfinite: the candidate has NaN/Inf where the reference is finite.
        worst_output: index of the output with the largest error.
    """

    min_correct_t: int | None
    max_abs: float = 0.0
    max_rel: float = 0.0
    nonfinite: bool = False
    worst_output: int | None = None
    per_output_min_t: list[int | None] = field(default_factory=list)


def flatten_outputs(out: Any) -> list[Any]:
    """Outputs as a flat list (a graph returns a tensor, a tuple/list, possibly nested)."""
    if isinstance(out, (list, tuple)):
        flat: list[Any] = []
        for o in out:
            flat.extend(flatten_outputs(o))
        return flat
    return [out]


def check_structure(candidate: list[Any], reference: list[Any]) -> None:
    """Raise :class:`OutputMismatch` unless count, types, shapes and dtypes match exactly."""
    if len(candidate) != len(reference):
        raise OutputMismatch(f"returned {len(candidate)} outputs, the reference returns {len(reference)}")
    for i, (c, r) in enumerate(zip(candidate, reference)):
        if isinstance(r, torch.Tensor):
            if not isinstance(c, torch.Tensor):
                raise OutputMismatch(f"output {i} is {type(c).__name__}, expected a Tensor")
            if tuple(c.shape) != tuple(r.shape):
                raise OutputMismatch(f"output {i} has shape {list(c.shape)}, expected {list(r.shape)}")
            if c.dtype != r.dtype:
                raise OutputMismatch(f"output {i} has dtype {c.dtype}, expected {r.dtype}")
        elif type(c) is not type(r):
            raise OutputMismatch(f"output {i} is {type(c).__name__}, expected {type(r).__name__}")


_SAME_WIDTH_INT = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def bitwise_equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether two tensors have the same shape, dtype and bits in every element.

    Compared through integer views of the same element width: bitwise, so NaN equals the same NaN
    and -0.0 differs from 0.0 (``torch.equal`` compares values), and fast on the CPU, where
    ``torch.equal`` on float16/bfloat16 has no vectorised kernel (on 6.3 M elements, one core:
    float16 34 ms against 6.6 ms through an int16 view). Complex128 (16 bytes, no integer of that
    width) is compared as two float64 views.
    """
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        return False
    if a.is_complex():
        a, b = torch.view_as_real(a), torch.view_as_real(b)
    width = _SAME_WIDTH_INT.get(a.element_size())
    if width is None or a.dtype == width:
        return bool(torch.equal(a, b))
    return bool(torch.equal(a.view(width), b.view(width)))


def _min_level_for_tensor(c: torch.Tensor, r: torch.Tensor) -> tuple[int | None, float, float, bool]:
    # On the reference's device: a copy to the host of every output at every checked call cost
    # more than the comparison (the float64 steps below are exact IEEE operations, one kernel
    # each, so the verdict does not depend on where they run).
    r = r.detach()
    c = c.detach().to(r.device)
    if r.numel() == 0:
        return TOLERANCE_LEVELS[0], 0.0, 0.0, False
    if bitwise_equal(c, r):
        # What the float64 comparison below returns for identical bits (no error, non-finite
        # entries reproduced exactly), without its passes over the data: eager's own calls while
        # timing, and many candidates', are identical to the reference.
        return TOLERANCE_LEVELS[0], 0.0, 0.0, False
    if tolerance(r.dtype, 0) is None:  # integers and bools: exact equality
        equal = bool(torch.equal(c, r))
        err = 0.0 if equal else float((c.double() - r.double()).abs().max())
        return (TOLERANCE_LEVELS[0] if equal else None), err, err, False
    if r.is_complex():
        c, r = torch.view_as_real(c), torch.view_as_real(r)
    c64, r64 = c.double(), r.double()
    r_finite = torch.isfinite(r64)
    c_finite = torch.isfinite(c64)
    if bool(r_finite.all()):  # the common case: no masking, no non-finite entries to match
        nonfinite, same_nonfinite = not bool(c_finite.all()), True
        diff = (c64 - r64).abs()
        if nonfinite:
            diff = torch.where(c_finite, diff, torch.zeros_like(diff))
        ref_abs = r64.abs()
    else:
        nonfinite = bool((r_finite & ~c_finite).any())
        # Non-finite reference entries must be reproduced exactly (same NaN / same signed Inf).
        same_nonfinite = bool(
            torch.equal(torch.isnan(c64[~r_finite]), torch.isnan(r64[~r_finite]))
            and torch.equal(
                torch.nan_to_num(c64[~r_finite], nan=0.0), torch.nan_to_num(r64[~r_finite], nan=0.0)
            )
        )
        diff = (c64 - r64).abs()
        diff = torch.where(r_finite & c_finite, diff, torch.zeros_like(diff))
        ref_abs = r64.abs().where(r_finite, torch.zeros_like(r64))
    max_abs = float(diff.max())
    max_rel = float((diff / ref_abs.clamp_min(1e-12)).max())
    if nonfinite or not same_nonfinite:
        return None, max_abs if not nonfinite else math.inf, max_rel if not nonfinite else math.inf, nonfinite
    return _first_level(diff, ref_abs, r.dtype), max_abs, max_rel, False


def _first_level(diff: torch.Tensor, ref_abs: torch.Tensor, dtype: torch.dtype) -> int | None:
    """The tightest level t at which ``diff <= atol(t) + rtol(t) * ref_abs`` holds everywhere.

    Both tolerances grow with t and float64 rounding is monotone, so a level that holds implies
    every looser one: a binary search over the levels gives the linear scan's answer in at most
    four passes instead of up to fifteen, over the differing elements only (equal elements hold
    at every level).
    """
    differ = diff > 0
    if not bool(differ.any()):
        return TOLERANCE_LEVELS[0]
    diff, ref_abs = diff[differ], ref_abs[differ]

    def holds(t: int) -> bool:
        atol, rtol = tolerance(dtype, t)  # type: ignore[misc]
        return bool((diff <= atol + rtol * ref_abs).all())

    lo, hi = 0, len(TOLERANCE_LEVELS)  # the first level that holds lies in [lo, hi]; hi: none does
    while lo < hi:
        mid = (lo + hi) // 2
        if holds(TOLERANCE_LEVELS[mid]):
            hi = mid
        else:
            lo = mid + 1
    return TOLERANCE_LEVELS[lo] if lo < len(TOLERANCE_LEVELS) else None


def compare_outputs(candidate: Any, reference: Any) -> Comparison:
    """Compare a candidate call's outputs with the reference's.

    Args:
        candidate, reference: what the graph returned (tensor, tuple or list; may be nested).

    Returns:
        A :class:`Comparison`.

    Raises:
        OutputMismatch: output count, type, shape or dtype differs.
    """
    cand, ref = flatten_outputs(candidate), flatten_outputs(reference)
    check_structure(cand, ref)
    result = Comparison(min_correct_t=TOLERANCE_LEVELS[0])
    for i, (c, r) in enumerate(zip(cand, ref)):
        if isinstance(r, torch.Tensor):
            level, max_abs, max_rel, nonfinite = _min_level_for_tensor(c, r)
        else:
            equal = c == r
            level, max_abs, max_rel, nonfinite = (TOLERANCE_LEVELS[0] if equal else None), 0.0, 0.0, False
        result.per_output_min_t.append(level)
        if max_abs > result.max_abs or (result.worst_output is None and level is None):
            result.worst_output = i
        result.max_abs = max(result.max_abs, max_abs)
        result.max_rel = max(result.max_rel, max_rel)
        result.nonfinite = result.nonfinite or nonfinite
        if level is None or result.min_correct_t is None:
            result.min_correct_t = None
        else:
            result.min_correct_t = max(result.min_correct_t, level)
    return result


def merge(comparisons: list[Comparison]) -> Comparison:
    """Combine comparisons over several input draws: correct at t only if correct on all."""
    merged = Comparison(min_correct_t=TOLERANCE_LEVELS[0])
    for c in comparisons:
        if c.min_correct_t is None or merged.min_correct_t is None:
            merged.min_correct_t = None
        else:
            merged.min_correct_t = max(merged.min_correct_t, c.min_correct_t)
        if c.max_abs >= merged.max_abs:
            merged.worst_output = c.worst_output
        merged.max_abs = max(merged.max_abs, c.max_abs)
        merged.max_rel = max(merged.max_rel, c.max_rel)
        merged.nonfinite = merged.nonfinite or c.nonfinite
    return merged


def outputs_equal(a: Any, b: Any) -> list[bool]:
    """Per output: bitwise-equal values (used to detect outputs that ignore their inputs)."""
    fa, fb = flatten_outputs(a), flatten_outputs(b)
    same = []
    for x, y in zip(fa, fb):
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
            same.append(x.shape == y.shape and bool(torch.equal(x.cpu(), y.cpu())) if x.dtype == y.dtype else False)
        else:
            same.append(x == y)
    return same


@contextlib.contextmanager
def reference_precision() -> Iterator[None]:
    """Run the eager reference at the dtype's own precision: TF32 off for matmul and cuDNN.

    ``shared/docs/SCORING.md`` ("The correctness reference"): PyTorch's defaults let cuDNN run
    float32 convolutions in TF32 (error ~1e-3), far above float32's t = -5 tolerance, so a
    reference computed under them would fail a pass that computes exactly. Timing keeps the
    defaults; the previous values are restored on exit, so the process flags the worker's guard
    verifies are unchanged afterwards.
    """
    matmul, cudnn = torch.backends.cuda.matmul, torch.backends.cudnn
    saved = (matmul.allow_tf32, cudnn.allow_tf32)
    matmul.allow_tf32, cudnn.allow_tf32 = False, False
    try:
        yield
    finally:
        matmul.allow_tf32, cudnn.allow_tf32 = saved
