"""One exported trajectory: a finished run as a provider-neutral conversation with its metadata
(written by :mod:`.build`, converted by :mod:`.formats`, summarised by :mod:`.dataset_card`)."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from typing import Any

from ...tools.measure.scoring import DEFAULT_FAILURE_PENALTY


@dataclass
class TrajectoryRecord:
    """One run as a provider-neutral conversation plus metadata."""

    id: str
    task_id: str
    model: str
    seed: int
    run_id: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    best_as: float | None
    exit_reason: str
    es_steps: list[dict[str, Any]]
    cost_usd: float
    input_tokens: int
    output_tokens: int
    steps: int
    evaluations: int
    source: str
    failure_penalty: float = DEFAULT_FAILURE_PENALTY
    split: str = "train"
    tools_recorded: bool = True
    integrity_rules: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        """Best AS, or the failure penalty b for a run that evaluated no pass."""
        return self.best_as if self.best_as is not None else self.failure_penalty

    def metadata(self) -> dict[str, Any]:
        return {"id": self.id, "split": self.split, "task_id": self.task_id, "model": self.model, "seed": self.seed,
                "run_id": self.run_id, "best_as": self.best_as, "exit_reason": self.exit_reason,
                "cost_usd": self.cost_usd, "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "steps": self.steps, "evaluations": self.evaluations, "es_steps": self.es_steps, "source": self.source,
                # Label: the integrity rules that fired on any evaluation of the run (an exploit attempt).
                "integrity_rules": self.integrity_rules, "exploit_attempt": bool(self.integrity_rules)}

    def action_digest(self) -> str:
        """SHA-256 of the task and everything the model did (not what tools answered)."""
        acts = [(m["content"], [(c["name"], c.get("arguments"), c.get("raw_arguments") if c.get("arguments") is None else None)
                                for c in m["tool_calls"]]) for m in self.messages if m["role"] == "assistant"]
        return hashlib.sha256(json.dumps([self.task_id, acts], sort_keys=True, default=str).encode()).hexdigest()


def quantiles(values: list[float]) -> dict[str, float]:
    """min, quartiles, median and max of ``values`` (nearest-rank); empty dict when none."""
    if not values:
        return {}
    v = sorted(values)

    def q(p: float) -> float:
        return v[min(len(v) - 1, max(0, math.ceil(p * len(v)) - 1))]

    return {"min": v[0], "q1": q(0.25), "median": q(0.5), "q3": q(0.75), "max": v[-1]}
