"""Speedup estimators from paired samples (tools/measure/timing.speedup_estimates) and the raw samples
``time_interleaved(samples_out=...)`` hands back for them (benchmarks/eval_repeatability.py)."""

from __future__ import annotations

import statistics
import time

import pytest

from passagent.tools.measure.timing import SPEEDUP_ESTIMATORS, TimingConfig, speedup_estimates, time_interleaved


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


# --- the score's time statistic (EvalOptions.time_statistic) ---------------------------------


def test_every_measurement_records_its_lower_decile() -> None:
    from passagent.tools.measure.timing import _stats

    s = _stats([10.0, 20.0, 30.0, 40.0, 100.0], None)
    assert s.median_us == 30.0
    assert s.p10_us == pytest.approx(14.0, rel=1e-12)  # 0.6 * 10 + 0.4 * 20 (inclusive deciles)
    assert _stats([7.0], None).p10_us == 7.0


def _event(times: dict[str, tuple[float, float | None]]) -> dict:
    return {"times": {k: {"median_us": m, "q1_us": m, "q3_us": m, "n": 5, "p10_us": p} for k, (m, p) in times.items()},
            "candidate_error": {"min_correct_t": -10, "max_abs": 0.0, "max_rel": 0.0}}


class _Subgraph:
    name, source, dtypes = "graphs/0", "test", ("float32",)


def test_speedups_use_the_chosen_statistic() -> None:
    from passagent.tools.evaluation.results import subgraph_from_event

    ev = _event({"eager": (100.0, 60.0), "inductor": (80.0, 50.0), "candidate": (50.0, 40.0)})
    ev["paired_speedup"] = {"eager": 2.2, "inductor": 1.5, "inductor_vs_eager": 1.3}
    paired = subgraph_from_event(0, _Subgraph(), ev, None)  # SCORING.md's default: per-round ratios
    assert (paired.speedup_vs_eager, paired.speedup_vs_inductor) == (2.2, 1.5)
    assert (paired.median_ratio_vs_eager, paired.median_ratio_vs_inductor) == (2.0, 1.6)  # recorded beside
    assert paired.inductor_speedup_vs_eager == 1.3  # Inductor scored by the same estimator
    median = subgraph_from_event(0, _Subgraph(), ev, None, time_statistic="median")
    assert (median.speedup_vs_eager, median.speedup_vs_inductor) == (2.0, 1.6)
    assert median.inductor_speedup_vs_eager == 1.25
    p10 = subgraph_from_event(0, _Subgraph(), ev, None, time_statistic="p10")
    assert (p10.speedup_vs_eager, p10.speedup_vs_inductor) == (1.5, 1.25)
    assert p10.times["candidate"].p10_us == 40.0 and p10.times["candidate"].median_us == 50.0
    with pytest.raises(KeyError):
        subgraph_from_event(0, _Subgraph(), ev, None, time_statistic="mean")


def test_p10_without_a_recorded_p10_gives_no_speedup_rather_than_a_median_one() -> None:
    from passagent.tools.evaluation.results import subgraph_from_event

    ev = _event({"eager": (100.0, None), "candidate": (50.0, None)})  # a result from before p10 was recorded
    assert subgraph_from_event(0, _Subgraph(), ev, None, time_statistic="p10").speedup_vs_eager is None
    # A cached Inductor time is rescaled by the cached p10 ratio, or has no p10 if none was cached.
    ev = _event({"eager": (100.0, 60.0), "candidate": (50.0, 40.0)})
    cached = {"inductor_ratio": 0.8, "inductor_p10_ratio": 0.5}
    s = subgraph_from_event(0, _Subgraph(), ev, cached, time_statistic="p10")
    assert s.times["inductor"].source == "cached"
    assert s.times["inductor"].p10_us == 30.0 and s.speedup_vs_inductor == 0.75
    old = subgraph_from_event(0, _Subgraph(), ev, {"inductor_ratio": 0.8}, time_statistic="p10")
    assert old.times["inductor"].p10_us is None and old.speedup_vs_inductor is None


def test_paired_falls_back_to_the_ratio_of_medians_only_where_nothing_was_paired() -> None:
    from passagent.tools.evaluation.results import subgraph_from_event

    # Inductor's time from the cache was never timed in the candidate's rounds.
    ev = _event({"eager": (100.0, 60.0), "candidate": (50.0, 40.0)})
    ev["paired_speedup"] = {"eager": 2.5}
    s = subgraph_from_event(0, _Subgraph(), ev, {"inductor_ratio": 0.8})
    assert s.speedup_vs_eager == 2.5
    assert s.times["inductor"].source == "cached" and s.speedup_vs_inductor == pytest.approx(80.0 / 50.0)
    assert s.paired_speedup_vs_inductor is None and s.inductor_speedup_vs_eager is None


def test_unknown_time_statistic_is_refused() -> None:
    from passagent.tools.evaluation.evaluate import EvalOptions

    with pytest.raises(ValueError, match="time statistic"):
        EvalOptions(time_statistic="mean")


def test_baseline_cache_entries_keep_inductors_p10_ratio() -> None:
    from passagent.tools.evaluation.results import cache_entry

    entry = cache_entry(_event({"eager": (100.0, 60.0), "inductor": (80.0, 45.0)}))
    assert entry["inductor_ratio"] == 0.8 and entry["inductor_p10_ratio"] == 0.75
    assert "inductor_p10_ratio" not in cache_entry(_event({"eager": (100.0, None), "inductor": (80.0, None)}))


def test_the_worker_records_the_median_of_per_round_ratios_per_baseline() -> None:
    from passagent.tools.evaluation.steps import paired_speedups

    samples = {"eager": [10.0, 20.0, 30.0], "inductor": [8.0, 8.0, 8.0], "candidate": [5.0, 5.0, 20.0]}
    # eager / candidate per round: 2, 4, 1.5 -> median 2; inductor: 1.6, 1.6, 0.4 -> 1.6.
    # eager / inductor per round: 1.25, 2.5, 3.75 -> 2.5 (Inductor's own speedup, scored like a candidate's).
    assert paired_speedups(samples) == {"eager": 2.0, "inductor": pytest.approx(1.6), "inductor_vs_eager": 2.5}
    assert paired_speedups({"eager": [10.0], "candidate": [5.0]}) == {"eager": 2.0}  # Inductor not timed here
    assert paired_speedups({"eager": [10.0]}) == {}  # nothing to pair
    assert paired_speedups({"eager": [10.0], "inductor": [4.0]}) == {"inductor_vs_eager": 2.5}  # no candidate
    assert paired_speedups({"eager": [10.0, 0.0], "inductor": [4.0, 4.0], "candidate": [2.0, 2.0]}) == {"inductor": 2.0}
