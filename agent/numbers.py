"""How scores are written for people, the same way in every command and page.

The headline of an evaluation, a run, a sweep or a report is **AS against eager** and
**AS / AS(Inductor)** from the same evaluation (SCORING.md, "Comparing with Inductor"). Other
ratios (AS with Inductor's time as the baseline, geometric-mean speedups of the correct subgraphs)
are secondary and always carry their own label. People get three decimals for AS and for the
AS ratio, two for speedups; JSON and CSV files keep full precision.
"""

from __future__ import annotations

#: Labels used wherever these quantities are shown.
AS_LABEL = "AS"
RATIO_LABEL = "AS / AS(Inductor)"
INDUCTOR_BASELINE_LABEL = "AS with Inductor's time as the baseline"
GEOMEAN_LABEL = "geomean speedup of the correct subgraphs"


def fmt_as(x: float | None) -> str:
    """An AS (or an AS ratio) for people: ``0.914``; ``-`` where there is none."""
    return "-" if x is None else f"{x:.3f}"


def fmt_ratio(x: float | None) -> str:
    """AS / AS(Inductor): ``1.014``; ``-`` where there is none."""
    return fmt_as(x)


def fmt_speedup(x: float | None) -> str:
    """A speedup: ``1.07x``, ``18.0x``, ``102x``; ``-`` where there is none."""
    return "-" if x is None else f"{x:.2f}x" if x < 10 else f"{x:.1f}x" if x < 100 else f"{x:.0f}x"


def confirmed_as(best_as: float | None, step_as: float | None) -> str:
    """A run's best AS, saying so where a re-evaluation confirmed it lower than its step measured:
    ``0.930 (confirmed; the step measured 0.956)``."""
    text = fmt_as(best_as)
    if best_as is not None and step_as is not None and fmt_as(step_as) != text:
        text += f" (confirmed; the step measured {fmt_as(step_as)})"
    return text


def ratio_of_evaluation(evaluation: dict | None) -> float | None:
    """AS / AS(Inductor) of an evaluation (``EvalResult`` as JSON): its AS against eager over default
    Inductor's AS from the same timings; None where either is missing."""
    if not evaluation:
        return None
    mine = next((float(sc["aggregated"]) for sc in (evaluation.get("scores"), evaluation.get("other_scores"))
                 if sc and sc.get("baseline") == "eager"), None)
    ind = (evaluation.get("inductor_scores") or {}).get("aggregated")
    return mine / float(ind) if mine is not None and ind else None


__all__ = ["AS_LABEL", "RATIO_LABEL", "INDUCTOR_BASELINE_LABEL", "GEOMEAN_LABEL", "fmt_as", "fmt_ratio",
           "fmt_speedup", "confirmed_as", "ratio_of_evaluation"]


def result_words(result: dict) -> str:
    """A finished run's headline for a log line: ``best AS 0.914, AS / AS(Inductor) 1.010``."""
    text = f"best AS {fmt_as(result.get('best_as'))}"
    if result.get("best_ratio_to_inductor") is not None:
        text += f", {RATIO_LABEL} {fmt_ratio(result['best_ratio_to_inductor'])}"
    return text
