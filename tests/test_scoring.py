"""ES(t), S_t and AS against hand-computed values; the closed form agrees with the per-subgraph form."""

from __future__ import annotations

import math
import random

import pytest

from passagent.tools.measure.correctness import TOLERANCE_LEVELS
from passagent.tools.measure.scoring import (
    AS_WEIGHTS,
    Outcome,
    ScoringConfig,
    aggregated_score,
    es_closed_form,
    es_curve,
    rectified_speedup,
    s_curve,
    subgraph_score,
    summarize,
)


def test_rectified_speedup() -> None:
    assert rectified_speedup(2.0) == 2.0
    assert rectified_speedup(0.5) == 0.5  # p = 0: upstream default
    assert rectified_speedup(0.5, 0.1) == pytest.approx(0.5**1.1)
    with pytest.raises(ValueError):
        rectified_speedup(0.0)


def test_as_weights_are_the_documented_ones() -> None:
    assert AS_WEIGHTS[-5] == AS_WEIGHTS[-4] == AS_WEIGHTS[-3] == 1.0
    assert AS_WEIGHTS[-2] == 0.8 and AS_WEIGHTS[0] == 0.512 and AS_WEIGHTS[3] == 0.262144
    assert AS_WEIGHTS[-10] == AS_WEIGHTS[4] == 0.001
    assert sorted(AS_WEIGHTS) == list(TOLERANCE_LEVELS)


def test_hand_computed_two_subgraph_task() -> None:
    # Subgraph A: 2x faster, correct from t=-5. Subgraph B: ran, wrong values (accuracy).
    a = Outcome(speedup=2.0, min_correct_t=-5, failure_class="accuracy")
    b = Outcome(speedup=1.5, min_correct_t=None, failure_class="accuracy")
    es = es_curve([a, b])
    assert es[-6] == pytest.approx(math.sqrt(0.1 * 0.1))  # both fail
    assert es[-5] == pytest.approx(math.sqrt(2.0 * 0.1))  # A correct, B = b
    assert es[1] == pytest.approx(math.sqrt(2.0 * 1.0))  # accuracy tolerated from t >= 1
    s = s_curve([a, b])
    assert s[1] == pytest.approx(math.sqrt(2.0 * 0.1))  # S_t never tolerates
    # AS by hand: levels -10..-6 (w=0.001 each) at sqrt(0.01)=0.1; -5..0 at sqrt(0.2); 1..4 at sqrt(2).
    num = 5 * 0.001 * math.log10(0.1)
    num += (1 + 1 + 1 + 0.8 + 0.64 + 0.512) * math.log10(math.sqrt(0.2))
    num += (0.4096 + 0.32768 + 0.262144 + 0.001) * math.log10(math.sqrt(2.0))
    den = sum(AS_WEIGHTS.values())
    assert aggregated_score(es) == pytest.approx(10 ** (num / den))


def test_tolerated_failure_rules_for_t_at_least_one() -> None:
    cfg = ScoringConfig(failure_penalty=0.1)
    acc = Outcome(None, None, "accuracy")
    run = Outcome(None, None, "runtime")
    comp = Outcome(None, None, "compile")
    integ = Outcome(None, None, "integrity")
    tout = Outcome(None, None, "timeout")
    expected = {
        0: (0.1, 0.1, 0.1, 0.1, 0.1),
        1: (1.0, 0.1, 0.1, 0.1, 0.1),
        2: (1.0, 0.1, 0.1, 0.1, 0.1),
        3: (1.0, 1.0, 1.0, 0.1, 0.1),
        4: (1.0, 1.0, 1.0, 0.1, 0.1),
    }
    for t, values in expected.items():
        got = tuple(subgraph_score(o, t, cfg) for o in (acc, run, comp, integ, tout))
        assert got == values, t


def test_correct_at_one_uses_speedup_for_all_higher_levels() -> None:
    o = Outcome(speedup=0.5, min_correct_t=0, failure_class="accuracy")
    assert subgraph_score(o, -1) == 0.1
    assert subgraph_score(o, 0) == 0.5
    assert subgraph_score(o, 4) == 0.5


def test_slowdown_penalty_applies_to_correct_slowdowns() -> None:
    cfg = ScoringConfig(slowdown_penalty=0.1)
    o = Outcome(speedup=0.8, min_correct_t=-10, failure_class=None)
    assert subgraph_score(o, -5, cfg) == pytest.approx(0.8**1.1)


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("p", [0.0, 0.1, 0.5])
def test_closed_form_agrees_with_per_subgraph_form(seed: int, p: float) -> None:
    rng = random.Random(seed)
    outcomes = []
    for _ in range(rng.randint(1, 9)):
        cls = rng.choice(["accuracy", "runtime", "compile", "integrity", "timeout"])
        ran = cls == "accuracy"
        speedup = rng.uniform(0.2, 4.0) if ran else None
        min_t = rng.choice([None, *TOLERANCE_LEVELS]) if ran else None
        outcomes.append(Outcome(speedup, min_t, cls))
    cfg = ScoringConfig(slowdown_penalty=p, failure_penalty=rng.choice([0.1, 0.2, 0.05]))
    es = es_curve(outcomes, cfg)
    for t in TOLERANCE_LEVELS:
        assert es_closed_form(outcomes, t, cfg) == pytest.approx(es[t], rel=1e-9), t


def test_summary_fractions() -> None:
    outcomes = [
        Outcome(2.0, -6, "accuracy"),  # correct@-5, faster
        Outcome(0.5, -8, "accuracy"),  # correct@-5, slower
        Outcome(3.0, -2, "accuracy"),  # not correct at -5
        Outcome(None, None, "runtime"),
    ]
    s = summarize(outcomes)
    assert s.correct_at_headline == 0.5
    assert s.fast_1 == 0.25
    assert s.geomean_speedup_correct == pytest.approx(1.0)


def test_failure_penalty_must_be_in_range() -> None:
    with pytest.raises(ValueError):
        ScoringConfig(failure_penalty=0.0)
