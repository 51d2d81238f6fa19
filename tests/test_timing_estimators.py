"""Speedup estimators from paired samples (tools/timing.speedup_estimates) and the raw samples
``time_interleaved(samples_out=...)`` hands back for them (benchmarks/timing_repeatability.py)."""

from __future__ import annotations

import statistics
import time

import pytest

from passagent.tools.timing import SPEEDUP_ESTIMATORS, TimingConfig, speedup_estimates, time_interleaved


def test_every_estimator_gives_the_common_factor_of_proportional_samples() -> None:
    est = speedup_estimates([2.0, 4.0, 6.0, 8.0], [1.0, 2.0, 3.0, 4.0])
    assert tuple(est) == SPEEDUP_ESTIMATORS
    assert est == {name: 2.0 for name in SPEEDUP_ESTIMATORS}


def test_estimators_by_hand_where_they_differ() -> None:
    base, cand = [10.0, 20.0, 30.0, 40.0, 100.0], [5.0, 8.0, 10.0, 40.0, 25.0]
    est = speedup_estimates(base, cand)
    # medians 30 and 10 (cand sorted: 5 8 10 25 40)
    assert est["ratio_of_medians"] == pytest.approx(3.0, rel=1e-12)
    # round ratios 2, 2.5, 3, 1, 4 -> median 2.5
    assert est["median_of_paired_ratios"] == pytest.approx(2.5, rel=1e-12)
    # inclusive deciles of 5 samples: p10 = 0.6 x1 + 0.4 x2 (sorted) -> 14 and 6.2
    assert est["ratio_of_p10"] == pytest.approx(14.0 / 6.2, rel=1e-12)
    # floor(5/4) = 1 dropped from each end: mean(20, 30, 40) = 30 over mean(8, 10, 25) = 43/3
    assert est["ratio_of_trimmed_means"] == pytest.approx(90.0 / 43.0, rel=1e-12)
    assert est["ratio_of_minimums"] == pytest.approx(2.0, rel=1e-12)
    assert len(set(est.values())) == len(SPEEDUP_ESTIMATORS)  # the case tells them all apart


def test_estimators_of_one_round_are_the_plain_ratio() -> None:
    assert speedup_estimates([3.0], [2.0]) == {name: 1.5 for name in SPEEDUP_ESTIMATORS}


@pytest.mark.parametrize("base, cand", [([], []), ([1.0, 2.0], [1.0]), ([1.0], [1.0, 2.0]), ([1.0], [0.0]),
                                        ([-1.0], [1.0])])
def test_estimators_refuse_unpaired_empty_or_non_positive_samples(base: list[float], cand: list[float]) -> None:
    with pytest.raises(ValueError):
        speedup_estimates(base, cand)


def _sleeps_every_third_round(i: int) -> None:
    if i % 3 == 0:  # no sleep(0) otherwise: yielding the core could make a fast call look slow
        time.sleep(0.003)


@pytest.mark.parametrize("config", [
    # fixed count, IQR never narrow enough: three attempts of 5 rounds, samples kept across them
    TimingConfig(warmup=1, min_calls=5, max_calls=5, max_remeasure=2, noisy_iqr=0.0),
    # CI rule never met: blocks of 3 rounds after the first 12, until max_calls
    TimingConfig(warmup=1, min_calls=12, max_calls=18, budget_s=30.0, target_ci=0.0),
], ids=["fixed-count", "target-ci"])
def test_samples_out_are_the_samples_behind_the_stats_paired_by_round(config: TimingConfig) -> None:
    samples: dict[str, list[float]] = {}
    stats = time_interleaved({"a": _sleeps_every_third_round, "b": _sleeps_every_third_round}, lambda i: [i],
                             config=config, samples_out=samples)
    assert set(samples) == {"a", "b"}
    assert len(samples["a"]) == len(samples["b"]) == stats["a"].n == stats["b"].n >= 12
    for name in samples:  # the same list the stats came from: exact equality, not approx
        assert statistics.median(samples[name]) == stats[name].median_us
    # Sample k is round k + 1 for both variants: the slow rounds line up.
    slow = [[x > 1500.0 for x in samples[name]] for name in ("a", "b")]
    assert slow[0] == slow[1] == [(k + 1) % 3 == 0 for k in range(stats["a"].n)]
