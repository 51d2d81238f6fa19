"""The report's leaderboards: Markdown and CSV files, and the terminal's summary.

Columns: see :mod:`passagent.agent.report.build`. The headline is AS against eager and AS / AS(Inductor)
(``as_ratio_to_inductor``), the paper's comparison. ``as_inductor_baseline`` in the CSV is the AS
with Inductor's time as the baseline and the candidate's correctness against eager, a secondary
figure the Markdown leaves out; the geometric-mean speedups are secondary and labelled so.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from .model import BASELINES, Metric, ModelRow


def _cell(row: ModelRow, m: Metric, own_baseline: bool = False) -> str:
    """A metric's cell; '-' where it means nothing for Inductor's own row (a comparison with itself)."""
    return "-" if row.reference and own_baseline else m.fmt()


def markdown(rows: list[ModelRow], skipped: list[str], n_boot: int, seed: int, source: Path) -> str:
    """``leaderboard.md``: one row per model and Inductor's, with the definitions above the table."""
    head = ["model", "tasks", "AS", "AS / AS(Inductor)", "correct@-5", "fast_1", "geomean speedup (secondary)",
            "geomean speedup over Inductor (secondary)", "$/task", "tokens/task"]
    lines = [f"# Leaderboard: {source}", "",
             f"Per model, over tasks; [95 % bootstrap interval over tasks, {n_boot} resamples, seed {seed}]. "
             "AS is the geometric mean of task AS against eager; a run that evaluated no pass counts with the failure "
             "penalty b as AS. Default Inductor is scored like a candidate from the same evaluations (its own times and "
             "its own correctness against eager); AS / AS(Inductor) is each run's AS over Inductor's AS from the same "
             "evaluation, geometric mean over tasks. correct@-5 and fast_1 (correct and faster than eager) are averaged "
             "over tasks. Secondary: the geometric-mean speedup of the correct subgraphs, pooled over tasks (over "
             "Inductor: Inductor's time as the baseline); it is not the score.", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join([
            f"**{r.model}**" if r.reference else r.model,
            f"{r.tasks}" if r.reference else f"{r.tasks} ({r.evaluated_tasks} with a pass)",
            r.as_["eager"].fmt(), r.ratio.fmt(), r.correct.fmt(), r.fast_1["eager"].fmt(), r.speedup["eager"].fmt(),
            _cell(r, r.speedup["inductor"], True), "-" if r.reference else f"{r.cost_per_task:.4f}",
            "-" if r.reference else f"{r.tokens_per_task:.0f}"]) + " |")
    if skipped:
        lines += ["", f"Skipped run folders ({len(skipped)}):", ""] + [f"- {s}" for s in skipped]
    return "\n".join(lines) + "\n"


def terminal_summary(rows: list[ModelRow], width: int = 80) -> str:
    """The leaderboard in a terminal ``width`` columns wide: rank, model, AS against eager,
    AS / AS(Inductor), tasks with a pass, correct@-5. Before a line would wrap, the 95 % intervals
    go first, then the headers shorten, then long model names; the files hold everything."""
    import textwrap

    def table(with_ci: bool, short: bool) -> list[list[str]]:
        fmt = (lambda m: m.fmt()) if with_ci else (lambda m: m.fmt() if m.value is None else f"{m.value:.3f}")
        head = ["#", "model", "AS", "AS/AS(Ind)" if short else "AS / AS(Inductor)", "tasks",
                "c@-5" if short else "correct@-5"]
        out, rank = [head], 0
        for r in rows:
            rank += 0 if r.reference else 1
            out.append(["-" if r.reference else str(rank), r.model, fmt(r.as_["eager"]), fmt(r.ratio),
                        str(r.tasks) if r.reference else f"{r.evaluated_tasks}/{r.tasks}", fmt(r.correct)])
        return out

    def total(cells: list[list[str]]) -> int:
        return sum(max(len(row[i]) for row in cells) for i in range(len(cells[0]))) + 2 * (len(cells[0]) - 1)

    for with_ci, short in ((True, False), (False, False), (False, True)):
        cells = table(with_ci, short)
        if total(cells) <= width:
            break
    w = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    spare = width - total(cells)
    if spare < 0:  # shorten the model names, keeping at least 8 characters
        w[1] = max(8, w[1] + spare)
        for row in cells:
            row[1] = row[1] if len(row[1]) <= w[1] else row[1][: w[1] - 1] + "…"
    lines = ["  ".join(c.ljust(w[i]) if i == 1 else c.rjust(w[i]) for i, c in enumerate(row)).rstrip() for row in cells]
    note = ("AS against eager; AS / AS(Inductor) from the same evaluations; "
            + ("[95 % bootstrap interval over tasks]." if with_ci else "intervals are in the files."))
    return "\n".join([textwrap.fill(note, max(width, 20)), *lines])


def csv_rows(rows: list[ModelRow]) -> list[dict[str, Any]]:
    """``leaderboard.csv`` rows: every metric with its interval bounds (``_lo``, ``_hi``)."""
    out = []
    for r in rows:
        d: dict[str, Any] = {"model": r.model, "reference": r.reference, "tasks": r.tasks, "runs": r.runs,
                             "evaluated_tasks": r.evaluated_tasks}
        metrics = {"as_eager": r.as_["eager"], "as_ratio_to_inductor": r.ratio,
                   "as_inductor_baseline": r.as_["inductor"], "correct_at_minus5": r.correct,
                   **{f"geomean_speedup_correct_{b}": r.speedup[b] for b in BASELINES},
                   **{f"fast_1_{b}": r.fast_1[b] for b in BASELINES}}
        for name, m in metrics.items():
            d[name], d[f"{name}_lo"], d[f"{name}_hi"] = m.value, m.lo, m.hi
        d.update(cost_usd_per_task=r.cost_per_task, tokens_per_task=r.tokens_per_task,
                 steps_per_run=r.steps_per_run, evaluations_per_run=r.evaluations_per_run)
        out.append(d)
    return out


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", newline="") as fh:
        if not rows:
            return
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
