"""Speedup scoring: rectified speedup, ES(t), S_t, the aggregated score AS, benchmark summary.

Source: ``shared/docs/SCORING.md``, which follows the PassNet paper (arXiv 2605.29357) and
GraphNet (arXiv 2510.24035) as implemented in the public ``graph_net_bench`` harness. Every
constant is a named default here and a CLI flag (``--slowdown-penalty``, ``--failure-penalty``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .correctness import HEADLINE_LEVEL, TOLERANCE_LEVELS

FAILURE_CLASSES: tuple[str, ...] = ("accuracy", "runtime", "compile", "integrity", "timeout")
#: From which t a failure class is tolerated (scored 1 instead of b) for t >= 1.
#: ``integrity`` and ``timeout`` are never tolerated.
TOLERATED_FROM: dict[str, int] = {"accuracy": 1, "runtime": 3, "compile": 3}
#: Default slowdown penalty p: r(s) = s^(p+1) for s < 1. Upstream default 0 (paper text: 0.1).
DEFAULT_SLOWDOWN_PENALTY = 0.0
#: Default failure penalty b.
DEFAULT_FAILURE_PENALTY = 0.1
#: AS weights per tolerance level t (SCORING.md "Aggregated score").
AS_WEIGHTS: dict[int, float] = {
    -10: 0.001, -9: 0.001, -8: 0.001, -7: 0.001, -6: 0.001,
    -5: 1.0, -4: 1.0, -3: 1.0, -2: 0.8, -1: 0.64, 0: 0.512,
    1: 0.4096, 2: 0.32768, 3: 0.262144, 4: 0.001,
}


@dataclass(frozen=True)
class ScoringConfig:
    """The two penalties of the score.

    Attributes:
        slowdown_penalty: p in ``r(s) = s^(p+1)`` for slowdowns (s < 1).
        failure_penalty: b, the score of a failed subgraph (0 < b <= 1).
    """

    slowdown_penalty: float = DEFAULT_SLOWDOWN_PENALTY
    failure_penalty: float = DEFAULT_FAILURE_PENALTY

    def __post_init__(self) -> None:
        if not 0 < self.failure_penalty <= 1:
            raise ValueError(f"failure penalty b must be in (0, 1], got {self.failure_penalty}")
        if self.slowdown_penalty < 0:
            raise ValueError(f"slowdown penalty p must be >= 0, got {self.slowdown_penalty}")


@dataclass(frozen=True)
class Outcome:
    """What scoring needs from one subgraph.

    Attributes:
        speedup: s = T_baseline / T_candidate (dimensionless), or None if it never ran.
        min_correct_t: smallest tolerance level at which it is correct, or None.
        failure_class: why it fails where it fails: one of :data:`FAILURE_CLASSES`; None only
            if it is correct at every level (then it is never consulted).
    """

    speedup: float | None
    min_correct_t: int | None
    failure_class: str | None

    def correct_at(self, t: int) -> bool:
        return self.min_correct_t is not None and t >= self.min_correct_t and self.speedup is not None


def rectified_speedup(s: float, slowdown_penalty: float = DEFAULT_SLOWDOWN_PENALTY) -> float:
    """``r(s) = s`` if ``s >= 1`` else ``s^(p+1)``.

    Raises:
        ValueError: s is not a positive finite number.
    """
    if not (s > 0 and math.isfinite(s)):
        raise ValueError(f"speedup must be positive and finite, got {s}")
    return s if s >= 1 else s ** (slowdown_penalty + 1)


def _tolerated(failure_class: str | None, t: int) -> bool:
    start = TOLERATED_FROM.get(failure_class or "")
    return start is not None and t >= start


def subgraph_score(o: Outcome, t: int, cfg: ScoringConfig = ScoringConfig()) -> float:
    """r_i(t): the rectified speedup if correct, else b, with SCORING.md's rules for t >= 1."""
    b = cfg.failure_penalty
    if t <= 0:
        return rectified_speedup(o.speedup, cfg.slowdown_penalty) if o.correct_at(t) else b  # type: ignore[arg-type]
    if o.correct_at(1):
        return rectified_speedup(o.speedup, cfg.slowdown_penalty)  # type: ignore[arg-type]
    return 1.0 if _tolerated(o.failure_class, t) else b


def strict_subgraph_score(o: Outcome, t: int, cfg: ScoringConfig = ScoringConfig()) -> float:
    """The S_t variant of r_i(t): like :func:`subgraph_score` but every failure scores b."""
    level = min(t, 1)
    return rectified_speedup(o.speedup, cfg.slowdown_penalty) if o.correct_at(level) else cfg.failure_penalty  # type: ignore[arg-type]


def _geomean(values: list[float]) -> float:
    if not values:
        raise ValueError("geometric mean of no values")
    return math.exp(sum(math.log(v) for v in values) / len(values))


def es_curve(outcomes: list[Outcome], cfg: ScoringConfig = ScoringConfig()) -> dict[int, float]:
    """ES(t) for every level t: geometric mean over subgraphs of r_i(t)."""
    return {t: _geomean([subgraph_score(o, t, cfg) for o in outcomes]) for t in TOLERANCE_LEVELS}


def s_curve(outcomes: list[Outcome], cfg: ScoringConfig = ScoringConfig()) -> dict[int, float]:
    """S_t for every level t: as ES(t) but with every failure scored b."""
    return {t: _geomean([strict_subgraph_score(o, t, cfg) for o in outcomes]) for t in TOLERANCE_LEVELS}


def es_closed_form(outcomes: list[Outcome], t: int, cfg: ScoringConfig = ScoringConfig()) -> float:
    """ES(t) by SCORING.md's closed form ``alpha^lambda * beta^(lambda*eta*p) * gamma_t^(1-lambda)``.

    alpha: geomean speedup of the correct subgraphs; lambda: fraction correct; eta: fraction of
    correct ones that are slowdowns, beta their geomean speedup; ``gamma_t = b^(sum_c pi_c *
    1[t < tau_c])`` with pi_c the share of failure class c among the failures. For t >= 1
    "correct" means correct at t = 1. Must equal :func:`es_curve` (tested).
    """
    level = min(t, 1)
    correct = [o for o in outcomes if o.correct_at(level)]
    failed = [o for o in outcomes if not o.correct_at(level)]
    n = len(outcomes)
    lam = len(correct) / n
    p, b = cfg.slowdown_penalty, cfg.failure_penalty
    value = 1.0
    if correct:
        alpha = _geomean([o.speedup for o in correct])  # type: ignore[misc]
        slow = [o.speedup for o in correct if o.speedup < 1]  # type: ignore[operator]
        eta = len(slow) / len(correct)
        beta = _geomean(slow) if slow else 1.0  # type: ignore[arg-type]
        value *= alpha**lam * beta ** (lam * eta * p)
    if failed:
        exponent = 0.0
        for c in {o.failure_class for o in failed}:
            share = sum(1 for o in failed if o.failure_class == c) / len(failed)
            tau = TOLERATED_FROM.get(c or "", math.inf) if t >= 1 else math.inf
            exponent += share * (1.0 if t < tau else 0.0)
        value *= (b**exponent) ** (1 - lam)
    return value


def aggregated_score(es: dict[int, float], weights: dict[int, float] = AS_WEIGHTS) -> float:
    """AS = 10^( sum_t w_t log10 ES(t) / sum_t w_t ) over the levels present in ``es``."""
    num = sum(weights[t] * math.log10(v) for t, v in es.items())
    den = sum(weights[t] for t in es)
    return 10 ** (num / den)


@dataclass(frozen=True)
class Summary:
    """Scores of one task (or a benchmark when built from many tasks' outcomes).

    Attributes:
        es: ES(t) per level. s: S_t per level. aggregated: AS.
        correct_at_headline: fraction of subgraphs correct at t = -5 (``correct@-5``).
        geomean_speedup_correct: geometric-mean speedup of those subgraphs, or None.
        fast_1: fraction of subgraphs correct at t = -5 and faster than the baseline.
    """

    es: dict[int, float]
    s: dict[int, float]
    aggregated: float
    correct_at_headline: float
    geomean_speedup_correct: float | None
    fast_1: float


def summarize(outcomes: list[Outcome], cfg: ScoringConfig = ScoringConfig()) -> Summary:
    """All task-level scores for the outcomes of one task's subgraphs.

    Raises:
        ValueError: ``outcomes`` is empty.
    """
    if not outcomes:
        raise ValueError("cannot score a task with no subgraphs")
    es = es_curve(outcomes, cfg)
    correct = [o for o in outcomes if o.correct_at(HEADLINE_LEVEL)]
    return Summary(
        es=es,
        s=s_curve(outcomes, cfg),
        aggregated=aggregated_score(es),
        correct_at_headline=len(correct) / len(outcomes),
        geomean_speedup_correct=_geomean([o.speedup for o in correct]) if correct else None,  # type: ignore[misc]
        fast_1=len([o for o in correct if o.speedup is not None and o.speedup > 1]) / len(outcomes),
    )


def benchmark_score(task_scores: list[float]) -> float:
    """Benchmark-level score: geometric mean of the tasks' AS values."""
    return _geomean(task_scores)
