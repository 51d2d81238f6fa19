"""Default Inductor as a leaderboard row, scored like a candidate (``shared/docs/SCORING.md``,
"Comparing with Inductor", as the PassNet leaderboard compares models with TorchInductor).

Every evaluation a run made timed eager and default Inductor beside the candidate and checked
Inductor's own outputs against the eager reference (``SubgraphResult.times['inductor']``,
``SubgraphResult.inductor_error``). From the run's best evaluation, Inductor's task AS against
eager is computed with :func:`passagent.tools.evaluation.results.inductor_task_scores` (the same
``tools.measure.scoring`` code and penalties as the candidate's), so the model's AS and Inductor's come
from the same timings. A model's comparison with Inductor is the ratio ``AS / AS(Inductor)``,
per run (paired within one evaluation), per task (geometric mean over seeds) and over the
benchmark (geometric mean over tasks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...tools.measure.correctness import HEADLINE_LEVEL
from ...tools.evaluation.results import inductor_outcome, inductor_task_scores
from ...tools.evaluation.schema import EvalResult
from ...tools.measure.scoring import ScoringConfig
from ..run.confirm import evaluation_of
from ..run.runstate import RunInfo, read_events

INDUCTOR_MODEL = "Inductor (default)"
"""The leaderboard label of default ``torch.compile`` (the reference row)."""


def best_evaluation(path: Path, best_version: int | None, best_as: float | None = None) -> dict[str, Any] | None:
    """The evaluation (``EvalResult`` as JSON) of pass version ``best_version`` recorded in the
    run's ``events.jsonl`` that its AS ``best_as`` came from (a version the confirmation re-ran
    has two; :func:`passagent.agent.run.confirm.evaluation_of`); None where the run has no such
    version or no events."""
    if best_version is None:
        return None
    events, _ = read_events(path)
    return evaluation_of(events, best_version, best_as)


def inductor_scores(evaluation: dict[str, Any]) -> dict[str, Any] | None:
    """Inductor's task scores against eager (``TaskScores`` as a dict) from one evaluation's
    subgraphs, with that evaluation's penalties and time statistic; None where the evaluation
    does not parse under the current schema or has no subgraph."""
    try:
        result = EvalResult.model_validate(evaluation)
    except ValueError:
        return None
    if not result.subgraphs:
        return None
    cfg = ScoringConfig(slowdown_penalty=result.config.slowdown_penalty, failure_penalty=result.config.failure_penalty)
    scores = inductor_task_scores(result.subgraphs, cfg, result.config.time_statistic).model_dump()
    outcomes = [inductor_outcome(s, result.config.time_statistic) for s in result.subgraphs]
    scores["subgraphs"] = [
        {"name": s.name, "status": "correct" if o.correct_at(HEADLINE_LEVEL) else o.failure_class,
         "speedup_vs_eager": o.speedup, "min_correct_t": o.min_correct_t}
        for s, o in zip(result.subgraphs, outcomes)]
    return scores


def inductor_info(info: RunInfo, scores: dict[str, Any]) -> RunInfo:
    """A finished-run record for Inductor on ``info``'s task, whose best scores are ``scores``:
    read by the report like any model's run (no spend, no steps)."""
    result = {
        "task_id": info.task_id, "model": INDUCTOR_MODEL, "exit_reason": "reference", "best_as": scores["aggregated"],
        "best_scores": {k: scores[k] for k in ("baseline", "es", "aggregated")},
        "best_subgraphs": scores["subgraphs"],
        "evaluations": 0, "steps": 0, "cost_usd": 0.0,
    }
    config = {"model": {"base_name": INDUCTOR_MODEL, "sweep_seed": info.seed}, "eval_options": (info.config or {}).get("eval_options")}
    return RunInfo(info.path, "finished", result, config)

