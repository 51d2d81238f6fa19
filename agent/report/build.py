"""``passagent report RUNS_DIR``: a leaderboard per model, with bootstrap confidence intervals.

Every number comes from the runs' ``result.json`` (the best pass version of each run: its
scores against the run's baseline, ``best_scores``, and against the other one,
``best_other_scores``, plus the per-subgraph status and speedups). Per model:

* **AS**: the benchmark score against eager, the geometric mean over tasks of the task AS
  (``tools.measure.scoring.benchmark_score``). A run that never evaluated a pass counts with the failure
  penalty b (the run's ``--failure-penalty``, default 0.1) as its AS and as ES(t) at every t, as
  if every subgraph had failed: a model is not rewarded for giving up.
* **AS / Inductor**: the paper's comparison. Default Inductor gets its own row, scored like a
  candidate from the same evaluations (``agent.report.inductor``); a run's AS is divided by
  Inductor's AS from the same evaluation (a run without one: by the task's Inductor AS), and the
  ratios are combined by geometric means over seeds and tasks.
* **AS with Inductor's time as the baseline** (``as_inductor_baseline`` in the CSV): the
  candidate's speedup over Inductor scored with the candidate's correctness against eager. It is
  not the paper's comparison (a pass that inherits Inductor's own rounding fails there while
  Inductor is not charged for it), so the Markdown leaderboard shows the ratio instead.
* **correct@-5**: the fraction of a task's subgraphs correct at t = -5, averaged over tasks.
* **geomean speedup**: the geometric mean speedup of the correct subgraphs, pooled over tasks.
* **fast_1**: the fraction of a task's subgraphs that are correct and faster than the
  baseline, averaged over tasks.
* cost (US dollars) and tokens per task, steps and evaluations per run.

With several seeds, a task's AS is the geometric mean over its seeds (fractions: the mean).
Confidence intervals are percentile bootstrap intervals (95 %) over tasks, seeded, so a
report is reproducible. Runs that are unfinished or corrupt are listed and skipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ...tools.errors import PassagentError, require_module
from ...tools.measure.scoring import DEFAULT_FAILURE_PENALTY, benchmark_score
from .tables import csv_rows, markdown, write_csv
from .inductor import INDUCTOR_MODEL, best_evaluation, inductor_info, inductor_scores
from ..run.runstate import RunInfo, find_runs, load_run
from .model import BASELINES, LEVELS, Collected, Metric, ModelRow, TaskAgg, TaskRun

def task_run(info: RunInfo) -> TaskRun:
    """Extract a :class:`TaskRun` from a finished run.

    Raises:
        KeyError, TypeError, ValueError: the result lacks or mistypes a field (the caller skips it).
    """
    r = info.result or {}
    b = float(((info.config or {}).get("eval_options") or {}).get("scoring", {}).get("failure_penalty", DEFAULT_FAILURE_PENALTY))
    as_: dict[str, float] = {}
    es: dict[str, dict[int, float]] = {}
    for scores in (r.get("best_scores"), r.get("best_other_scores")):
        if scores:
            as_[scores["baseline"]] = float(scores["aggregated"])
            es[scores["baseline"]] = {int(t): float(v) for t, v in scores["es"].items()}
    subgraphs = r.get("best_subgraphs") or []
    evaluated = bool(r.get("best_scores"))
    if not evaluated:
        as_ = {base: b for base in BASELINES}
        es = {base: {t: b for t in LEVELS} for base in BASELINES}
    n = max(len(subgraphs), 1)
    correct = [s for s in subgraphs if s["status"] == "correct"]
    speedups = {base: [float(s[f"speedup_vs_{base}"]) for s in correct if s.get(f"speedup_vs_{base}")] for base in BASELINES}
    return TaskRun(
        model=info.model, task_id=info.task_id, seed=info.seed, path=info.path, evaluated=evaluated, as_=as_, es=es,
        correct=len(correct) / n, fast_1={base: sum(1 for x in speedups[base] if x > 1) / n for base in BASELINES},
        speedups=speedups, cost_usd=float(r.get("cost_usd") or 0.0),
        tokens=int(r.get("input_tokens") or 0) + int(r.get("output_tokens") or 0), steps=int(r.get("steps") or 0),
        evaluations=int(r.get("evaluations") or 0), exit_reason=str(r.get("exit_reason")),
        best_version=int(r["best_version"]) if evaluated and r.get("best_version") is not None else None,
    )


def bootstrap(values: list[Any], stat: Callable[[list[Any]], float | None], n_boot: int, rng: Any) -> Metric:
    """``stat(values)`` with a percentile 95 % interval from ``n_boot`` resamples of ``values``."""
    point = stat(values)
    if point is None or len(values) < 2:
        return Metric(point, point, point)
    draws = []
    for _ in range(n_boot):
        idx = rng.integers(0, len(values), len(values))
        v = stat([values[i] for i in idx])
        if v is not None:
            draws.append(v)
    if not draws:
        return Metric(point)
    draws.sort()
    return Metric(point, draws[int(0.025 * (len(draws) - 1))], draws[int(math.ceil(0.975 * (len(draws) - 1)))])


def _geomean_as(base: str) -> Callable[[list[TaskAgg]], float | None]:
    def stat(tasks: list[TaskAgg]) -> float | None:
        logs = [x for x in (t.log_as(base) for t in tasks) if x is not None]
        return benchmark_score([math.exp(x) for x in logs]) if logs else None
    return stat


def _pooled_speedup(base: str) -> Callable[[list[TaskAgg]], float | None]:
    def stat(tasks: list[TaskAgg]) -> float | None:
        logs = [math.log(s) for t in tasks for r in t.runs for s in r.speedups[base]]
        return math.exp(sum(logs) / len(logs)) if logs else None
    return stat


def model_row(model: str, runs: list[TaskRun], n_boot: int = 2000, seed: int = 0) -> ModelRow:
    """Aggregate one model's runs into its leaderboard row (see the module docstring)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    by_task: dict[str, list[TaskRun]] = {}
    for r in runs:
        by_task.setdefault(r.task_id, []).append(r)
    tasks = [TaskAgg(t, rs) for t, rs in sorted(by_task.items())]
    es_curve = {}
    for base in BASELINES:
        per_task = [[r.es[base] for r in t.runs if base in r.es] for t in tasks]
        per_task = [p for p in per_task if p]
        if per_task:
            es_curve[base] = {lv: math.exp(sum(sum(math.log(c[lv]) for c in p) / len(p) for p in per_task) / len(per_task))
                              for lv in LEVELS}
    return ModelRow(
        model=model, tasks=len(tasks), runs=len(runs), evaluated_tasks=sum(1 for t in tasks if any(r.evaluated for r in t.runs)),
        as_={base: bootstrap(tasks, _geomean_as(base), n_boot, rng) for base in BASELINES},
        correct=bootstrap(tasks, lambda ts: sum(t.mean(lambda r: r.correct) for t in ts) / len(ts), n_boot, rng),
        speedup={base: bootstrap(tasks, _pooled_speedup(base), n_boot, rng) for base in BASELINES},
        fast_1={base: bootstrap(tasks, lambda ts, b=base: sum(t.mean(lambda r: r.fast_1[b]) for t in ts) / len(ts), n_boot, rng)
                for base in BASELINES},
        cost_per_task=sum(t.mean(lambda r: r.cost_usd) for t in tasks) / len(tasks),
        tokens_per_task=sum(t.mean(lambda r: r.tokens) for t in tasks) / len(tasks),
        steps_per_run=sum(r.steps for r in runs) / len(runs),
        evaluations_per_run=sum(r.evaluations for r in runs) / len(runs),
        es_curve=es_curve, task_runs=runs,
    )


def collect(runs_dir: Path) -> Collected:
    """Read every run folder under ``runs_dir``; unfinished or corrupt ones are listed, not fatal.

    Raises:
        PassagentError: ``runs_dir`` does not exist or holds no run folder at all.
    """
    runs_dir = Path(runs_dir)
    if not runs_dir.is_dir():
        raise PassagentError(f"{runs_dir}: no such folder")
    folders = find_runs(runs_dir)
    if not folders:
        raise PassagentError(f"{runs_dir}: no run folders (config.json / result.json / events.jsonl) under it")
    runs, skipped, inductor_runs = [], [], []
    for folder in folders:
        info = load_run(folder)
        rel = folder.relative_to(runs_dir) if folder != runs_dir else Path(folder.name)
        if info.status == "partial":
            skipped.append(f"{rel}: unfinished (no result.json)")
            continue
        if info.status == "corrupt":
            skipped.append(f"{rel}: corrupt ({info.problem})")
            continue
        try:
            run = task_run(info)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            skipped.append(f"{rel}: corrupt (result.json: {type(exc).__name__}: {exc})")
            continue
        runs.append(run)
        record = info.result or {}
        evaluation = best_evaluation(folder, record.get("best_version"), record.get("best_as")) if run.evaluated else None
        scores = inductor_scores(evaluation) if evaluation else None
        if scores is not None:
            run.inductor_as = scores["aggregated"]
            inductor_runs.append(task_run(inductor_info(info, scores)))
    return Collected(runs, skipped, inductor_runs)


def _ratio_to_inductor(row: ModelRow, inductor_log_as: dict[str, float], n_boot: int, seed: int) -> None:
    """Fill ``row.task_ratio`` and ``row.ratio`` (AS / Inductor's AS; see the module docstring)."""
    import numpy as np

    per_task: dict[str, list[float]] = {}
    for r in row.task_runs:
        ref = math.log(r.inductor_as) if r.inductor_as else inductor_log_as.get(r.task_id)
        if ref is not None and "eager" in r.as_:
            per_task.setdefault(r.task_id, []).append(math.log(r.as_["eager"]) - ref)
    row.task_ratio = {t: math.exp(sum(v) / len(v)) for t, v in sorted(per_task.items())}
    logs = list(row.task_ratio.values())
    row.ratio = bootstrap([math.log(x) for x in logs], lambda xs: math.exp(sum(xs) / len(xs)) if xs else None,
                          n_boot, np.random.default_rng(seed)) if logs else Metric(None)


def leaderboard(runs: list[TaskRun], n_boot: int = 2000, seed: int = 0,
                inductor_runs: list[TaskRun] | None = None) -> list[ModelRow]:
    """One row per model, best AS vs eager first; with ``inductor_runs`` (:attr:`Collected.inductor_runs`)
    also default Inductor's row (``reference=True``) and every row's ratio to it."""
    by_model: dict[str, list[TaskRun]] = {}
    for r in runs:
        by_model.setdefault(r.model, []).append(r)
    rows = [model_row(m, rs, n_boot, seed) for m, rs in sorted(by_model.items())]
    if inductor_runs:
        ref = model_row(INDUCTOR_MODEL, inductor_runs, n_boot, seed)
        ref.reference = True
        ind_log = {t: math.log(v) for t in {r.task_id for r in inductor_runs} if (v := ref.task_as(t))}
        for row in rows + [ref]:
            _ratio_to_inductor(row, ind_log, n_boot, seed)
        rows.append(ref)
    return sorted(rows, key=lambda row: -(row.as_["eager"].value or 0.0))


@dataclass
class Written:
    """Files a report wrote."""

    out: Path
    leaderboard_md: Path
    leaderboard_csv: Path
    per_task_csv: Path
    plots: list[Path]
    skipped: list[str]
    rows: list[ModelRow]
    html_index: Path | None = None


def write_report(runs_dir: Path, out: Path | None = None, n_boot: int = 2000, seed: int = 0, plots: bool = True,
                 html: bool = False) -> Written:
    """Write ``leaderboard.md``, ``leaderboard.csv``, ``per_task.csv``, the PNG plots and, with
    ``html``, the static site under ``out/html`` (:mod:`passagent.agent.report.html`).

    Args:
        runs_dir: a sweep folder or any folder of run folders.
        out: output folder (default ``runs_dir/report``).
        n_boot: bootstrap resamples; seed: the bootstrap's seed.
        plots: also draw ``es_curves.png``, ``speedups.png`` and ``score_vs_cost.png`` (matplotlib).

    Raises:
        PassagentError: no folder, no run folder, or no finished run to report on.
    """
    runs_dir = Path(runs_dir)
    if plots:
        require_module("matplotlib", "sweep", "the report's plots", "or pass --no-plots")
    collected = collect(runs_dir)
    if not collected.runs:
        raise PassagentError(f"{runs_dir}: no finished run to report on ({len(collected.skipped)} skipped)")
    out = Path(out) if out else runs_dir / "report"
    out.mkdir(parents=True, exist_ok=True)
    rows = leaderboard(collected.runs, n_boot, seed, collected.inductor_runs)
    md = out / "leaderboard.md"
    md.write_text(markdown(rows, collected.skipped, n_boot, seed, runs_dir))
    write_csv(out / "leaderboard.csv", csv_rows(rows))
    write_csv(out / "per_task.csv", [
        {"model": r.model, "task_id": r.task_id, "seed": r.seed, "evaluated": r.evaluated,
         "as_eager": r.as_.get("eager"), "inductor_as": r.inductor_as,
         "as_ratio_to_inductor": r.as_["eager"] / r.inductor_as if r.inductor_as and "eager" in r.as_ else None,
         "as_inductor_baseline": r.as_.get("inductor"), "correct_at_minus5": r.correct,
         "fast_1_eager": r.fast_1["eager"], "fast_1_inductor": r.fast_1["inductor"], "cost_usd": r.cost_usd,
         "tokens": r.tokens, "steps": r.steps, "evaluations": r.evaluations, "exit_reason": r.exit_reason,
         "run": str(r.path)}
        for row in rows if not row.reference for r in row.task_runs])
    drawn: list[Path] = []
    if plots:
        from .plots import draw_all

        drawn = draw_all(rows, out)
    site = None
    if html:
        from .html import write_site

        site = write_site(out / "html", rows, collected, runs_dir, n_boot, seed)
    return Written(out, md, out / "leaderboard.csv", out / "per_task.csv", drawn, collected.skipped, rows, site)
