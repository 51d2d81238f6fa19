"""Choosing the best pass version on a criterion that one lucky timing cannot win.

Identical re-evaluations of a pass move a subgraph's speedup by tens of percent on a busy host,
so "the version with the highest AS" is often the version with the luckiest draw. Before a run
ends, the versions whose AS is within ``margin`` of the best (at most ``top``) are evaluated once
more, round-robin so host drift falls on each alike, and each is scored by the **lower** of its
two AS values: a version keeps a high score only if it earns it twice. The version with the
highest confirmed score is the run's best. Versions far below the best are not re-run: no
plausible draw makes them win.

Every re-evaluation is recorded as an archive event (``confirm:<version>``), so a resumed run
repeats none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...tools.evaluation.schema import EvalResult
from .events import EventKind


@dataclass
class Confirmation:
    """The outcome of :func:`confirm_best`.

    Attributes:
        best_version: the version chosen (unchanged when nothing was re-run).
        best_as: its confirmed AS (the lower of its two evaluations), or its AS if not re-run.
        scores: version -> (first AS, re-evaluated AS) for each re-run version.
    """

    best_version: int | None
    best_as: float | None
    scores: dict[int, tuple[float, float]]


def evaluation_of(events: list[dict[str, Any]], version: int | None, score: float | None) -> dict[str, Any] | None:
    """The evaluation (``EvalResult`` as JSON) that pass ``version``'s reported AS ``score`` came from.

    A version re-evaluated by :func:`confirm_best` has two evaluations (its ``tool_result`` and its
    ``confirm`` event) and is scored by the lower AS: the evaluation whose ``scores.aggregated`` is
    closest to ``score`` is the one the score, its subgraphs and Inductor's paired AS belong to
    (ties: the first). None where the version has no recorded evaluation.
    """
    if version is None:
        return None
    mine = [e["evaluation"] for e in events
            if e.get("kind") in (EventKind.TOOL_RESULT, EventKind.CONFIRM) and e.get("version") == version and e.get("evaluation")]
    if not mine or score is None:
        return mine[0] if mine else None
    return min(mine, key=lambda ev: abs(float((ev.get("scores") or {}).get("aggregated", float("inf"))) - score))


def step_as_of(events: list[dict[str, Any]], version: int | None) -> float | None:
    """The AS pass ``version``'s own step measured (its ``tool_result``), before any
    re-evaluation; None where it has none. Where a confirmation scored the version lower, this is
    the number the live view and the trajectory showed for that step."""
    for e in events:
        if e.get("kind") == EventKind.TOOL_RESULT and version is not None and e.get("version") == version:
            return float(e["aggregated"]) if e.get("aggregated") is not None else None
    return None


def candidates(versions: dict[int, tuple[float, str]], top: int, margin: float) -> list[int]:
    """Versions worth re-timing: distinct passes (by digest; the first version of each), the
    ``top`` highest AS, each within ``margin`` (a fraction) of the best AS. Fewer than two: []."""
    seen: dict[str, int] = {}
    for v, (_score, digest) in sorted(versions.items()):
        seen.setdefault(digest, v)
    distinct = sorted(seen.values(), key=lambda v: -versions[v][0])
    if not distinct:
        return []
    best = versions[distinct[0]][0]
    chosen = [v for v in distinct[:top] if versions[v][0] >= best * (1 - margin) and versions[v][0] > 0]
    return chosen if len(chosen) >= 2 else []


def confirm_best(events: list[dict[str, Any]], reevaluate: Callable[[int], EvalResult],
                 record: Callable[..., dict[str, Any]], get: Callable[[str], dict[str, Any] | None],
                 current: tuple[int | None, float | None], top: int = 3, margin: float = 0.15,
                 regresses: Callable[[dict[str, Any]], bool] | None = None) -> Confirmation:
    """Re-evaluate the leading versions once and pick the best by the lower of each one's two AS values.

    Args:
        events: the archive's events (``tool_result`` events of evaluations carry ``version``,
            ``aggregated`` and ``evaluation.pass_sha256``).
        reevaluate: evaluates the snapshot of a version and returns the result.
        record / get: the archive's event recorder and lookup (for resumability).
        current: the loop's (best version, best AS) before confirmation.
        top: at most this many versions are re-run.
        margin: only versions whose AS is at least ``(1 - margin)`` times the best are re-run.
        regresses: whether a re-evaluation (``EvalResult`` as JSON) fails t = -5 where Inductor
            passes; a version whose re-evaluation does is chosen only when every re-run one does
            (a marginal rounding that one input draw passes and the next fails).
    """
    versions = {e["version"]: (float(e["aggregated"]), e.get("evaluation", {}).get("pass_sha256", str(e["version"])))
                for e in events if e.get("kind") == EventKind.TOOL_RESULT and e.get("version") is not None}
    chosen = candidates(versions, top, margin)
    if not chosen:
        return Confirmation(current[0], current[1], {})
    scores: dict[int, tuple[float, float]] = {}
    broken: set[int] = set()
    for v in chosen:
        done = get(f"confirm:{v}")
        if done is None:
            result = reevaluate(v)
            done = record(f"confirm:{v}", EventKind.CONFIRM, version=v, first_as=versions[v][0],
                          retimed_as=result.scores.aggregated, evaluation=result.model_dump(mode="json"))
        scores[v] = (versions[v][0], float(done["retimed_as"]))
        if regresses is not None and regresses(done.get("evaluation") or {}):
            broken.add(v)
    best = max([v for v in chosen if v not in broken] or chosen, key=lambda v: (min(scores[v]), -v))
    return Confirmation(best, min(scores[best]), scores)
