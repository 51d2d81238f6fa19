"""Timing of baseline and candidate callables (``shared/docs/DESIGN.md``, "Evaluation protocol").

* Every timed call gets fresh input buffers, prepared outside the timed region (graphs mutate
  their inputs in place), and the caller may rotate their values between calls (so a cache
  keyed on ``data_ptr`` or ``id`` returns wrong answers, which ``after_call`` can then check).
* Variants are interleaved call by call, in a rotating order, so drift in machine load hits
  baseline and candidate alike.
* CPU: ``time.perf_counter`` around each call.
* CUDA: end-to-end time is host wall-clock between two device-wide ``torch.cuda.synchronize()``
  calls (so work on any stream is counted); kernel time is measured with CUDA events on the
  current stream. The L2 cache is flushed before every call by writing a buffer twice its size.
* The statistic is the median; the interquartile range is reported. If the IQR is wide the
  measurement is repeated (up to ``max_remeasure`` times) instead of failing on noise.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable

import torch


@dataclass
class TimingStats:
    """Timing of one variant, in microseconds.

    Attributes:
        median_us: median end-to-end time of one call.
        q1_us, q3_us: first and third quartiles of the same samples.
        n: number of timed calls.
        kernel_median_us: median device (CUDA event) time, or None on the CPU.
    """

    median_us: float
    q1_us: float
    q3_us: float
    n: int
    kernel_median_us: float | None = None

    @property
    def relative_iqr(self) -> float:
        return (self.q3_us - self.q1_us) / self.median_us if self.median_us > 0 else 0.0


@dataclass(frozen=True)
class TimingConfig:
    """How long to time.

    Attributes:
        warmup: untimed calls per variant first (compilation, allocator and cache warm-up).
        min_calls, max_calls: bounds on timed calls per variant per measurement.
        budget_s: target wall time of one measurement of all variants together (seconds).
        noisy_iqr: relative IQR above which a measurement is repeated.
        max_remeasure: how many times it may be repeated.
    """

    warmup: int = 1  # the correctness calls before timing already ran every variant
    min_calls: int = 5
    max_calls: int = 200
    budget_s: float = 0.5
    noisy_iqr: float = 0.25
    max_remeasure: int = 2


def _stats(samples: list[float], kernel: list[float] | None) -> TimingStats:
    qs = statistics.quantiles(samples, n=4, method="inclusive") if len(samples) > 1 else [samples[0]] * 3
    return TimingStats(
        median_us=statistics.median(samples),
        q1_us=qs[0],
        q3_us=qs[2],
        n=len(samples),
        kernel_median_us=statistics.median(kernel) if kernel else None,
    )


class _CudaClock:
    def __init__(self, device: torch.device):
        props = torch.cuda.get_device_properties(device)
        l2 = getattr(props, "L2_cache_size", 0) or 64 * 2**20
        self.flush_buf = torch.empty(2 * l2 // 4, dtype=torch.int32, device=device)
        self.device = device

    def call(self, fn: Callable[..., Any], args: list[Any]) -> tuple[float, float, Any]:
        self.flush_buf.zero_()
        torch.cuda.synchronize(self.device)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        start.record()
        out = fn(*args)
        end.record()
        torch.cuda.synchronize(self.device)  # device-wide: every stream's work is counted
        t1 = time.perf_counter()
        return (t1 - t0) * 1e6, start.elapsed_time(end) * 1e3, out


def time_interleaved(
    variants: dict[str, Callable[..., Any]],
    fresh_args: Callable[[int], list[Any]],
    *,
    device: str | torch.device = "cpu",
    config: TimingConfig = TimingConfig(),
    after_call: Callable[[str, int, Any], None] | None = None,
) -> dict[str, TimingStats]:
    """Time several callables on the same inputs, interleaved call by call.

    Args:
        variants: name -> callable taking the subgraph's positional arguments.
        fresh_args: ``fresh_args(i)`` returns fresh argument buffers for round ``i`` (every
            variant gets the same values in a round); called outside the timed region.
        device: ``"cpu"`` or a CUDA device.
        config: call counts and time budget.
        after_call: ``after_call(name, i, outputs)`` after each timed call, outside the timed
            region (the integrity checks of each timed output); it may raise to abort.

    Returns:
        name -> :class:`TimingStats` (microseconds).
    """
    device = torch.device(device)
    cuda = device.type == "cuda"
    clock = _CudaClock(device) if cuda else None
    names = list(variants)

    def timed(name: str, i: int) -> tuple[float, float | None]:
        args = fresh_args(i)
        if clock is not None:
            e2e, kern, out = clock.call(variants[name], args)
        else:
            t0 = time.perf_counter()
            out = variants[name](*args)
            e2e, kern = (time.perf_counter() - t0) * 1e6, None
        if after_call is not None:
            after_call(name, i, out)
        return e2e, kern

    # Warm-up, and an estimate of the per-call cost to size the measurement.
    estimate = 0.0
    for name in names:
        for w in range(config.warmup):
            e2e, _k = timed(name, w)
        estimate += e2e * 1e-6
    per_round = max(estimate, 1e-6)
    calls = int(min(config.max_calls, max(config.min_calls, config.budget_s / per_round)))

    samples: dict[str, list[float]] = {n: [] for n in names}
    kernel: dict[str, list[float]] = {n: [] for n in names}
    rnd = 0
    for _attempt in range(config.max_remeasure + 1):
        for i in range(calls):
            rnd += 1
            order = names[i % len(names):] + names[: i % len(names)]
            for name in order:
                e2e, k = timed(name, rnd)
                samples[name].append(e2e)
                if k is not None:
                    kernel[name].append(k)
        stats = {n: _stats(samples[n], kernel[n] or None) for n in names}
        if all(s.relative_iqr <= config.noisy_iqr for s in stats.values()):
            break
    return stats
