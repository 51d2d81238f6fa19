"""The report's data: one finished run's numbers, a model's row and its metrics with their
confidence intervals, and what was collected from a runs folder. Written by :mod:`.build`,
read by :mod:`.tables`, :mod:`.plots` and :mod:`.html`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

BASELINES = ("eager", "inductor")
LEVELS = tuple(range(-10, 5))


@dataclass
class TaskRun:
    """The numbers of one finished run that the report uses (baseline -> value maps)."""

    model: str
    task_id: str
    seed: int
    path: Path
    evaluated: bool
    as_: dict[str, float]
    es: dict[str, dict[int, float]]
    correct: float
    fast_1: dict[str, float]
    speedups: dict[str, list[float]]
    cost_usd: float
    tokens: int
    steps: int
    evaluations: int
    exit_reason: str
    inductor_as: float | None = None
    best_version: int | None = None


@dataclass
class TaskAgg:
    """One (model, task) with its seeds combined."""

    task_id: str
    runs: list[TaskRun]

    def log_as(self, base: str) -> float | None:
        vals = [r.as_[base] for r in self.runs if base in r.as_]
        return sum(math.log(v) for v in vals) / len(vals) if vals else None

    def mean(self, get: Callable[[TaskRun], float]) -> float:
        return sum(get(r) for r in self.runs) / len(self.runs)


@dataclass
class Metric:
    """A value with its 95 % bootstrap interval over tasks (None where undefined)."""

    value: float | None
    lo: float | None = None
    hi: float | None = None

    def fmt(self, digits: int = 3) -> str:
        if self.value is None:
            return "-"
        if self.lo is None or self.hi is None:
            return f"{self.value:.{digits}f}"
        return f"{self.value:.{digits}f} [{self.lo:.{digits}f}, {self.hi:.{digits}f}]"


@dataclass
class ModelRow:
    """The leaderboard row of one model."""

    model: str
    tasks: int
    runs: int
    evaluated_tasks: int
    as_: dict[str, Metric]
    correct: Metric
    speedup: dict[str, Metric]
    fast_1: dict[str, Metric]
    cost_per_task: float
    tokens_per_task: float
    steps_per_run: float
    evaluations_per_run: float
    es_curve: dict[str, dict[int, float]] = field(default_factory=dict)
    task_runs: list[TaskRun] = field(default_factory=list)
    ratio: Metric = field(default_factory=lambda: Metric(None))
    task_ratio: dict[str, float] = field(default_factory=dict)
    reference: bool = False

    def task_as(self, task_id: str) -> float | None:
        """The task's AS against eager (geometric mean over its seeds), None if not run."""
        logs = [math.log(r.as_["eager"]) for r in self.task_runs if r.task_id == task_id and "eager" in r.as_]
        return math.exp(sum(logs) / len(logs)) if logs else None


@dataclass
class Collected:
    """Finished runs, and a line for each folder that was skipped and why."""

    runs: list[TaskRun]
    skipped: list[str]
    inductor_runs: list[TaskRun] = field(default_factory=list)
