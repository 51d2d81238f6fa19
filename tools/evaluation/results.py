"""Assembling an :class:`~.schema.EvalResult` from what the workers reported, and scoring it."""

from __future__ import annotations

from typing import Any

from ..measure.correctness import HEADLINE_LEVEL
from .schema import TIME_STATISTICS, ErrorStats, RuleResult, SubgraphProfile, SubgraphResult, TaskScores, Timing
from ..measure.scoring import Outcome, ScoringConfig, summarize


def cache_entry(ev: dict[str, Any]) -> dict[str, Any]:
    times = ev.get("times", {})
    entry: dict[str, Any] = {"eager_us": times.get("eager", {}).get("median_us")}
    if "inductor" in times:
        entry["inductor_us"] = times["inductor"]["median_us"]
        entry["inductor_ratio"] = times["inductor"]["median_us"] / times["eager"]["median_us"]
        if times["inductor"].get("p10_us") and times["eager"].get("p10_us"):
            entry["inductor_p10_ratio"] = times["inductor"]["p10_us"] / times["eager"]["p10_us"]
    entry["inductor_error"] = ev.get("inductor_error")
    entry["inductor_failure"] = ev.get("inductor_failure")
    return entry


def _timing(d: dict[str, Any], source: str = "measured") -> Timing:
    return Timing(
        median_us=d["median_us"], q1_us=d["q1_us"], q3_us=d["q3_us"], n=d["n"],
        kernel_median_us=d.get("kernel_median_us"), graph_median_us=d.get("graph_median_us"), p10_us=d.get("p10_us"),
        graph_replays=d.get("graph_replays"), graph_dropped=d.get("graph_dropped"),
        source=source,
    )


def _ratio(base_us: float | None, cand_us: float | None) -> float | None:
    return base_us / cand_us if base_us is not None and cand_us else None


def scored_us(t: Timing, time_statistic: str) -> float | None:
    """The time (µs) of ``t`` shown beside speedups estimated by ``time_statistic``
    (``EvalConfig.time_statistic``): its median ('paired', 'median') or its 10th percentile ('p10');
    None where that statistic was not recorded.

    Raises:
        KeyError: ``time_statistic`` is not a key of :data:`.schema.TIME_STATISTICS`.
    """
    return getattr(t, TIME_STATISTICS[time_statistic])


def profile_from_event(ev: dict[str, Any]) -> SubgraphProfile:
    """The worker's ``profile`` event (or an error the parent made up for a missing one)."""
    return SubgraphProfile(
        time=ev["time"], inductor=ev.get("inductor"), candidate=ev.get("candidate"), error=ev.get("error"),
    )


def subgraph_from_event(i: int, sg: Any, ev: dict[str, Any], cached: dict[str, Any] | None,
                        profile: dict[str, Any] | None = None, time_statistic: str = "paired") -> SubgraphResult:
    """One subgraph's result from the worker's event ``ev``; speedups are estimated by
    ``time_statistic`` (:data:`.schema.TIME_STATISTICS`: the median of per-round ratios by default).

    Raises:
        KeyError: an unknown ``time_statistic``.
    """
    TIME_STATISTICS[time_statistic]  # KeyError before any work for an unknown statistic
    times = {name: _timing(t) for name, t in ev.get("times", {}).items()}
    inductor_error = ev.get("inductor_error")
    if "inductor" not in times and cached and cached.get("inductor_ratio") and "eager" in times:
        eager = times["eager"]
        r = cached["inductor_ratio"]
        p10_r = cached.get("inductor_p10_ratio")  # absent in entries cached before p10 was recorded
        times["inductor"] = Timing(
            median_us=eager.median_us * r, q1_us=eager.q1_us * r, q3_us=eager.q3_us * r, n=0, source="cached",
            p10_us=eager.p10_us * p10_r if eager.p10_us is not None and p10_r else None,
        )
    if inductor_error is None and cached:
        inductor_error = cached.get("inductor_error")
    cand_err = ev.get("candidate_error")
    failure = ev.get("failure_class")
    hard_failure = failure is not None and failure != "accuracy"
    correct_t = None if hard_failure or cand_err is None else cand_err["min_correct_t"]
    status = "correct" if correct_t is not None and correct_t <= HEADLINE_LEVEL else (failure or "accuracy")
    message = ev.get("message")
    if status == "accuracy" and message and inductor_error is not None:
        # So a pass is never blamed for the compiler's own error: say where Inductor stands.
        ind_t = inductor_error["min_correct_t"]
        message += f"; default Inductor itself is correct {'from t=%d' % ind_t if ind_t is not None else 'at no level'}"
    paired = ev.get("paired_speedup") or {}
    speedup: dict[str, float] = {}
    median_ratio: dict[str, float] = {}
    if "candidate" in times:
        for base in ("eager", "inductor"):
            if base not in times:
                continue
            ratio = _ratio(times[base].median_us, times["candidate"].median_us)
            if ratio is not None:
                median_ratio[base] = ratio
            if time_statistic == "paired":
                # Inductor's time taken from the cache (--reuse-inductor-time) has no rounds to
                # pair with the candidate's: its speedup falls back to the ratio of medians.
                s = paired.get(base, median_ratio.get(base))
            else:
                s = _ratio(scored_us(times[base], time_statistic), scored_us(times["candidate"], time_statistic))
            if s is not None:
                speedup[base] = s
    inductor_vs_eager = None
    if "eager" in times and "inductor" in times and times["inductor"].source == "measured":
        inductor_vs_eager = (paired.get("inductor_vs_eager") if time_statistic == "paired" else None) \
            or _ratio(scored_us(times["eager"], time_statistic), scored_us(times["inductor"], time_statistic))
    return SubgraphResult(
        index=i,
        name=sg.name,
        source=sg.source,
        dtypes=list(sg.dtypes),
        status=status,
        failure_class=failure,
        message=message,
        integrity_rule=ev.get("integrity_rule"),
        traceback=ev.get("traceback"),
        matches=ev.get("matches", 0),
        rules=[RuleResult(**r) for r in ev.get("rules", [])],
        candidate_error=ErrorStats(**cand_err) if cand_err else None,
        inductor_error=ErrorStats(**inductor_error) if inductor_error else None,
        low_signal=ev.get("low_signal", False),
        degenerate_inputs=ev.get("degenerate_inputs", []),
        times=times,
        speedup_vs_eager=speedup.get("eager"),
        speedup_vs_inductor=speedup.get("inductor"),
        paired_speedup_vs_eager=paired.get("eager") if "candidate" in times else None,
        paired_speedup_vs_inductor=paired.get("inductor") if "candidate" in times else None,
        median_ratio_vs_eager=median_ratio.get("eager"),
        median_ratio_vs_inductor=median_ratio.get("inductor"),
        inductor_speedup_vs_eager=inductor_vs_eager,
        wall_s=ev.get("wall_s", 0.0),
        phase_s=ev.get("phase_s", {}),
        before_lease_s=ev.get("before_lease_s", {}),
        compiles_in_lease=ev.get("compiles_in_lease"),
        timing_stop=ev.get("timing_stop"),
        profile=profile_from_event(profile) if profile is not None else None,
        draws=ev.get("draws", []),
        heldout=ev.get("heldout"),
    )


def has_times(subgraphs: list[SubgraphResult], baseline: str) -> bool:
    return all(baseline in s.times for s in subgraphs if "candidate" in s.times)


def _outcome(s: SubgraphResult, baseline: str) -> Outcome:
    speedup = s.speedup_vs_eager if baseline == "eager" else s.speedup_vs_inductor
    hard = s.failure_class not in (None, "accuracy")
    min_t = None if hard or s.candidate_error is None else s.candidate_error.min_correct_t
    return Outcome(speedup=speedup, min_correct_t=min_t if speedup is not None else None, failure_class=s.failure_class or "accuracy")


def task_scores(subgraphs: list[SubgraphResult], baseline: str, cfg: ScoringConfig) -> TaskScores:
    summary = summarize([_outcome(s, baseline) for s in subgraphs], cfg)
    return TaskScores(
        baseline=baseline,
        es=summary.es,
        s=summary.s,
        aggregated=summary.aggregated,
        correct_at_minus5=summary.correct_at_headline,
        geomean_speedup_correct=summary.geomean_speedup_correct,
        fast_1=summary.fast_1,
    )


def inductor_outcome(s: SubgraphResult, time_statistic: str = "paired") -> Outcome:
    """Default Inductor's own :class:`~..measure.scoring.Outcome` against eager on one subgraph, scored like
    a candidate (``shared/docs/SCORING.md``, "Comparing with Inductor"): its speedup is
    ``inductor_speedup_vs_eager``, recorded from the same measurement by the score's own estimator;
    where that is absent (Inductor's time came from the baseline cache, or a result from before it
    was recorded) the ratio of eager's and Inductor's ``time_statistic`` times (µs). Its
    correctness is its own error against the eager reference (``inductor_error.min_correct_t``).

    Where Inductor did not run (it raised while compiling or running: no ``inductor_error`` and no
    Inductor time), the subgraph fails with class ``compile``; where it ran but is not correct at
    a level, with class ``accuracy`` there.

    Raises:
        KeyError: an unknown ``time_statistic``.
    """
    speedup = s.inductor_speedup_vs_eager
    if speedup is None and "eager" in s.times and "inductor" in s.times:
        speedup = _ratio(scored_us(s.times["eager"], time_statistic), scored_us(s.times["inductor"], time_statistic))
    err = s.inductor_error
    if speedup is None or err is None:
        return Outcome(speedup=None, min_correct_t=None, failure_class="compile")
    return Outcome(speedup=speedup, min_correct_t=err.min_correct_t, failure_class="accuracy")


def inductor_task_scores(subgraphs: list[SubgraphResult], cfg: ScoringConfig, time_statistic: str = "paired") -> TaskScores:
    """Default Inductor's task scores against eager (:func:`inductor_outcome` per subgraph), with the
    penalties ``cfg`` of the evaluation they come from; ``baseline`` is ``"eager"``.

    Raises:
        ValueError: ``subgraphs`` is empty. KeyError: an unknown ``time_statistic``.
    """
    summary = summarize([inductor_outcome(s, time_statistic) for s in subgraphs], cfg)
    return TaskScores(
        baseline="eager", es=summary.es, s=summary.s, aggregated=summary.aggregated,
        correct_at_minus5=summary.correct_at_headline, geomean_speedup_correct=summary.geomean_speedup_correct,
        fast_1=summary.fast_1,
    )
