"""The timing loop (tools/measure/timing.py): interleaving, the confidence-interval stopping rule, GC."""

from __future__ import annotations

import gc
import math
import os
import time

import pytest
import torch

from passagent.tools.measure.timing import (GUARD_US, MAX_GUARD_US, TimingConfig, interleaved_replays, median_ci_halfwidth,
                                    next_guard_us, paired_ratio_ci, time_interleaved)


def test_median_ci_halfwidth_by_hand() -> None:
    # n = 100: ranks 50 -+ 1.96 * 10 / 2 = 40.2 .. 59.8 -> order statistics 40 and 60 (0-based)
    # of 1..100, i.e. 41 and 61, around the median 50.5: (61 - 41) / (2 * 50.5).
    assert median_ci_halfwidth([float(x) for x in range(1, 101)]) == pytest.approx(20 / 101)
    assert median_ci_halfwidth([5.0] * 50) == 0.0
    assert median_ci_halfwidth([1.0] * 9) == math.inf  # too few samples to say


def _sleeper(seconds: float):
    def fn() -> float:
        time.sleep(seconds)
        return gc.isenabled()
    return fn


def test_ci_rule_stops_at_min_calls_when_already_precise() -> None:
    config = TimingConfig(warmup=1, min_calls=20, max_calls=1000, budget_s=30.0, target_ci=0.5)
    stats = time_interleaved({"a": _sleeper(0.002), "b": _sleeper(0.004)}, lambda i: [], config=config)
    assert stats["a"].n == stats["b"].n == 20
    assert stats["b"].median_us > stats["a"].median_us  # the two variants are told apart


def test_ci_rule_stops_at_max_calls_when_never_precise_enough() -> None:
    config = TimingConfig(warmup=1, min_calls=12, max_calls=30, budget_s=30.0, target_ci=0.0)
    stats = time_interleaved({"a": _sleeper(0.0005)}, lambda i: [], config=config)
    assert 30 <= stats["a"].n < 30 + 12  # whole blocks: stops at the first block past max_calls


def test_paired_ratio_ci_takes_the_widest_pair() -> None:
    # a/b is exactly 2 in every round (drift cancels: half-width 0); a/c runs 1..100 / 1 -> the
    # half-width of 1..100's median, 20/101 (see the test above).
    a = [float(x) for x in range(1, 101)]
    assert paired_ratio_ci({"a": a, "b": [x / 2 for x in a]}) == 0.0
    assert paired_ratio_ci({"a": a, "b": [x / 2 for x in a], "c": [1.0] * 100}) == pytest.approx(20 / 101)
    assert paired_ratio_ci({"a": a[:9], "b": a[:9]}) == math.inf  # too few rounds
    assert paired_ratio_ci({"a": a}) == 0.0


def _busy(share: float, drift: list[float]):
    """A call of ``share`` ms times the round's drift factor (a busy wait: sleep is too coarse)."""
    def fn(i: int) -> None:
        end = time.perf_counter() + share * 1e-3 * drift[i % len(drift)]
        while time.perf_counter() < end:
            pass
    return fn


def test_paired_rule_stops_when_the_ratios_settle_though_each_variant_drifts() -> None:
    # Every round is slow or fast for both variants alike (drift x1 or x3): each variant's own
    # median stays uncertain, the per-round ratio b/a stays 2.
    drift = [1.0, 3.0, 1.0, 1.0, 3.0, 3.0, 1.0, 3.0]
    variants = {"a": _busy(0.2, drift), "b": _busy(0.4, drift)}
    base = TimingConfig(warmup=1, min_calls=40, max_calls=400, budget_s=60.0, target_ci=0.001)
    held = time_interleaved(variants, lambda i: [i], config=base)
    assert held["a"].n >= 400  # the per-variant rule alone runs to max_calls
    samples: dict[str, list[float]] = {}
    stop: dict = {}
    paired = time_interleaved(variants, lambda i: [i], config=TimingConfig(**{**base.__dict__, "paired_ci": 0.05}),
                              samples_out=samples, stop_out=stop)
    assert paired["a"].n < 400 and paired_ratio_ci(samples) <= 0.05
    assert stop["reason"] == "paired_ci" and stop["rounds"] == paired["a"].n and stop["paired_ci"] <= 0.05
    assert TimingConfig.for_device("cuda").paired_ci == 0.0125 and TimingConfig.for_device("cpu").paired_ci is None


def test_a_host_slowing_whole_rounds_does_not_repeat_the_measurement() -> None:
    # Rounds slow or fast for both variants alike: each variant's IQR is about 1.0 (above
    # noisy_iqr), the per-round ratios' about 0. The measurement is not repeated: exactly
    # min_calls rounds. A variant alone, drifting, is.
    drift = [1.0, 3.0, 1.0, 3.0]
    config = TimingConfig(warmup=1, min_calls=40, max_calls=40, budget_s=0.0, noisy_iqr=0.25, max_remeasure=2)
    both = time_interleaved({"a": _busy(0.2, drift), "b": _busy(0.4, drift)}, lambda i: [i], config=config)
    assert both["a"].n == both["b"].n == 40
    assert both["a"].relative_iqr > 0.25  # the old rule (each variant's IQR) would have repeated it
    alone = time_interleaved({"a": _busy(0.2, drift)}, lambda i: [i], config=config)
    assert alone["a"].n == 120


def test_gc_is_paused_while_timing_and_restored() -> None:
    seen = []
    assert gc.isenabled()
    time_interleaved({"a": _sleeper(0.0)}, lambda i: [], config=TimingConfig(min_calls=5, max_calls=5),
                     after_call=lambda name, i, out, args: seen.append(out))
    assert seen and not any(seen)  # every timed call ran with the collector off
    assert gc.isenabled()


def test_rounds_rotate_which_variant_goes_first() -> None:
    order = []
    variants = {n: (lambda n=n: order.append(n)) for n in "abc"}
    time_interleaved(variants, lambda i: [], config=TimingConfig(warmup=0, min_calls=6, max_calls=6, max_remeasure=0, noisy_iqr=10.0))
    firsts = {order[k] for k in range(0, len(order), 3)}
    assert firsts == {"a", "b", "c"}


def test_cuda_default_sets_a_ci_target() -> None:
    assert TimingConfig.for_device("cuda").target_ci == 0.005
    assert TimingConfig.for_device("cuda").min_calls >= 100
    assert TimingConfig.for_device("cuda").budget_s == 0.75  # the measured repeatable budget (RESULTS.md)
    assert TimingConfig.for_device("cpu").target_ci is None
    assert TimingConfig.for_device("cpu", 2.0).budget_s == 2.0
    assert TimingConfig.for_device("cuda").graph_replay and not TimingConfig.for_device("cpu").graph_replay


def test_cpu_timing_has_no_graph_time() -> None:
    stats = time_interleaved({"a": lambda x: x + 1}, lambda i: [torch.ones(4)], config=TimingConfig(graph_replay=True))
    assert stats["a"].graph_median_us is None and stats["a"].median_us > 0


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs 2+ cores")
def test_pinned_timing_runs_on_one_core_and_restores_the_affinity() -> None:
    from passagent.tools.measure.timing import pinned_to_one_core

    before = os.sched_getaffinity(0)
    seen: list[set[int]] = []
    time_interleaved({"a": lambda x: seen.append(os.sched_getaffinity(0)) or x + 1}, lambda i: [torch.ones(4)],
                     config=TimingConfig(pin_thread=True, min_calls=5, max_calls=5))
    assert seen and all(len(s) == 1 and s <= before for s in seen)
    assert os.sched_getaffinity(0) == before
    with pytest.raises(RuntimeError):
        with pinned_to_one_core() as core:
            assert core in before and os.sched_getaffinity(0) == {core}
            raise RuntimeError("restored even on errors")
    assert os.sched_getaffinity(0) == before
    unpinned: list[set[int]] = []
    time_interleaved({"a": lambda x: unpinned.append(os.sched_getaffinity(0)) or x}, lambda i: [torch.ones(4)],
                     config=TimingConfig(min_calls=5, max_calls=5))
    assert all(s == before for s in unpinned)


def test_the_models_evaluation_text_shows_graph_replay_time_only_where_measured() -> None:
    from passagent.agent.run.condense import describe_subgraph_result
    from passagent.tools.evaluation.schema import SubgraphResult, Timing

    def timing(us: float, graph: float | None) -> Timing:
        return Timing(median_us=us, q1_us=us, q3_us=us, n=100, graph_median_us=graph)

    row = dict(index=0, name="graphs/0", source="test", dtypes=["float16"], status="correct", matches=1)
    cuda = SubgraphResult.model_validate({**row, "times": {"eager": timing(160.0, 16.5), "inductor": timing(270.0, 6.9),
                                                          "candidate": timing(200.0, 5.9)}})
    text = describe_subgraph_result(cuda)
    assert "device time (CUDA-graph replay" in text and "eager 16.5 us, Inductor 6.9 us, yours 5.9 us" in text
    cpu = SubgraphResult.model_validate({**row, "times": {k: timing(100.0, None) for k in ("eager", "inductor", "candidate")}})
    assert "device time" not in describe_subgraph_result(cpu)




def test_every_timed_call_is_checked_right_after_it_with_its_own_inputs() -> None:
    log: list[tuple[str, str, int]] = []

    def variant(name: str):
        def call(x: torch.Tensor) -> torch.Tensor:
            log.append(("call", name, id(x)))
            return x + 1
        return call

    def after_call(name: str, i: int, out: torch.Tensor, args: list) -> None:
        log.append(("check", name, id(args[0])))
        assert torch.equal(out, args[0] + 1) and float(args[0][0]) == i  # computed from exactly these inputs

    time_interleaved({"a": variant("a"), "b": variant("b")}, lambda i: [torch.full((4,), float(i))],
                     config=TimingConfig(warmup=1, min_calls=6, max_calls=6, max_remeasure=0, noisy_iqr=10.0),
                     after_call=after_call)
    assert len(log) == 2 * 2 * 7  # (1 warm-up + 6 timed) calls of each variant, each checked
    assert all(c[0] == "call" and k[0] == "check" and c[1:] == k[1:] for c, k in zip(log[::2], log[1::2]))


def test_the_replay_guard_grows_to_cover_the_slowest_submission_seen_up_to_its_cap() -> None:
    assert next_guard_us(50.0, 60.0) == 100.0  # doubled: 2 x 50 > 1.5 x 60
    assert next_guard_us(50.0, 300.0) == 450.0  # 1.5 x the submission that outran it
    assert next_guard_us(1500.0, 1600.0) == MAX_GUARD_US  # 3000 and 2400 capped
    assert next_guard_us(MAX_GUARD_US, 10 * MAX_GUARD_US) == MAX_GUARD_US
    assert 0 < GUARD_US < MAX_GUARD_US


def test_replay_loop_drops_outrun_replays_and_needs_min_kept_times_before_the_ci_can_stop_it() -> None:
    calls = {"steady": 0, "flaky": 0}

    def replay(name: str) -> float | None:
        calls[name] += 1
        if name == "flaky" and calls[name] % 2:  # every other replay outran its guard
            return None
        return 5.0  # identical times: the CI is zero as soon as there are 10 of them

    times = interleaved_replays(["steady", "flaky"], replay, min_replays=20, max_replays=1000, budget_s=60.0, target_ci=0.005)
    # The loop stops at the first round where both have >= 20 kept times: flaky's 20th comes at round 40.
    assert calls == {"steady": 40, "flaky": 40}
    assert len(times["steady"]) == 40 and len(times["flaky"]) == 20 and set(times["flaky"]) == {5.0}


def test_replay_loop_ends_at_max_rounds_even_when_everything_is_dropped() -> None:
    n = {"calls": 0}

    def replay(name: str) -> None:
        n["calls"] += 1
        return None

    times = interleaved_replays(["a", "b"], replay, min_replays=5, max_replays=7, budget_s=60.0, target_ci=0.005)
    assert times == {"a": [], "b": []} and n["calls"] == 14



def test_graph_replay_counts_reach_the_stats_and_the_result_schema() -> None:
    from dataclasses import asdict

    from passagent.tools.evaluation.results import subgraph_from_event
    from passagent.tools.measure.timing import TimingStats, record_graph_replays

    stats = {n: TimingStats(median_us=10.0, q1_us=9.0, q3_us=11.0, n=5) for n in ("eager", "candidate", "inductor")}
    # eager and candidate were captured (the candidate lost 7 of 107 replays to the guard); inductor's
    # capture failed, so it has a None median and no counts, as graph_replay_medians reports it.
    info = {"dropped": 7, "guard_us": 200.0, "kept": {"eager": 107, "candidate": 100}, "attempted": {"eager": 107, "candidate": 107}}
    record_graph_replays(stats, {"eager": 5.0, "candidate": 4.0, "inductor": None}, info)
    assert (stats["candidate"].graph_median_us, stats["candidate"].graph_replays, stats["candidate"].graph_dropped) == (4.0, 100, 7)
    assert (stats["eager"].graph_replays, stats["eager"].graph_dropped) == (107, 0)
    assert (stats["inductor"].graph_median_us, stats["inductor"].graph_replays, stats["inductor"].graph_dropped) == (None, None, None)

    class Subgraph:
        name, source, dtypes = "graphs/0", "test", ("float32",)

    ev = {"times": {n: asdict(s) for n, s in stats.items()},
          "candidate_error": {"min_correct_t": -10, "max_abs": 0.0, "max_rel": 0.0}}
    times = subgraph_from_event(0, Subgraph(), ev, None).times  # the worker's JSON -> the result schema
    assert (times["candidate"].graph_replays, times["candidate"].graph_dropped) == (100, 7)
    assert times["inductor"].graph_dropped is None


def _polluting_check_setup():
    """A variant that runs 20 ms slower on the first call after a check (a check that leaves the
    caches cold, exaggerated), and the check that marks it."""
    state = {"polluted": False, "checked_rounds": set()}

    def variant() -> None:
        if state["polluted"]:
            time.sleep(0.02)
            state["polluted"] = False

    def after_call(name, i, out, args) -> None:
        state["checked_rounds"].add(i)
        state["polluted"] = True

    return state, {"a": variant, "b": variant}, after_call


def test_sampled_check_rounds_and_their_successors_are_not_recorded() -> None:
    state, variants, after_call = _polluting_check_setup()
    config = TimingConfig(warmup=1, warmup_s=0.0, min_calls=60, max_calls=60, max_remeasure=0, noisy_iqr=10.0)
    samples: dict[str, list[float]] = {}
    time_interleaved(variants, lambda i: [], config=config, after_call=after_call, samples_out=samples, check_rate=0.25)
    assert 1 in state["checked_rounds"]  # the first round is always checked
    assert len(state["checked_rounds"] - {0}) >= 2  # and some later ones, at random
    assert len(samples["a"]) == len(samples["b"]) >= 60  # dropped rounds are replaced up to min_calls
    assert max(samples["a"] + samples["b"]) < 20_000  # no recorded call ran right after a check


def test_without_a_check_rate_every_call_is_checked_and_recorded() -> None:
    state, variants, after_call = _polluting_check_setup()
    config = TimingConfig(warmup=1, warmup_s=0.0, min_calls=8, max_calls=8, max_remeasure=0, noisy_iqr=10.0)
    samples: dict[str, list[float]] = {}
    time_interleaved(variants, lambda i: [], config=config, after_call=after_call, samples_out=samples)
    assert state["checked_rounds"] >= set(range(1, 9))
    assert min(samples["a"] + samples["b"]) >= 20_000  # every call followed a check


def test_check_rate_outside_0_1_is_refused() -> None:
    with pytest.raises(ValueError, match="check_rate"):
        time_interleaved({"a": lambda: None}, lambda i: [], config=TimingConfig(min_calls=1, max_calls=1), check_rate=0.0)


def test_the_cpu_measurement_ends_at_its_wall_budget_when_the_checks_dominate() -> None:
    # Rounds of ~0.1 ms size the measurement at 200 rounds (max_calls) for 0.1 s; a 2 ms check
    # after each call would make that ~0.8 s. The budget is wall time: it ends after min_calls rounds once 0.1 s
    # have passed.
    slow_check = lambda name, i, out, args: time.sleep(0.002)  # noqa: E731
    config = TimingConfig(warmup=1, min_calls=10, max_calls=200, budget_s=0.1, max_remeasure=0)
    stop: dict = {}
    stats = time_interleaved({"a": _busy(0.05, [1.0]), "b": _busy(0.05, [1.0])}, lambda i: [i], config=config,
                             after_call=slow_check, stop_out=stop)
    assert 10 <= stats["a"].n < 60 and stop["reason"] == "budget" and stop["attempts"] == 1
    unchecked = time_interleaved({"a": _busy(0.05, [1.0]), "b": _busy(0.05, [1.0])}, lambda i: [i], config=config)
    assert unchecked["a"].n == 200  # without the checks the calls fill the budget: sized by their own time


def test_reseed_gives_torch_manual_seeds_stream() -> None:
    """The timed calls' cheap seeding draws what torch.manual_seed does (CUDA: tests/test_gpu.py)."""
    from passagent.tools.evaluation.steps import reseed

    reseed(99)
    got = (torch.rand(5), torch.randn(2, 3), torch.randint(0, 100, (4,)))
    torch.manual_seed(99)
    want = (torch.rand(5), torch.randn(2, 3), torch.randint(0, 100, (4,)))
    assert all(torch.equal(a, b) for a, b in zip(got, want))
    reseed(100)
    assert not torch.equal(torch.rand(5), got[0])
