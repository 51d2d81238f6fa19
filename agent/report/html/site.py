"""``passagent report RUNS_DIR --html``: a static site from a sweep's run folders.

Layout under the output folder (relative links only, so it opens from ``file://`` or any static
host; no script or style is fetched from the network)::

    index.html                      leaderboard (sortable) and the models x tasks matrix
    tasks/<task>.html               one page per task
    runs/<task>/<model>[+sN].html   one trajectory per run
    assets/site.css, site.js        bundled, copied from the package

Trajectories are never inlined in the leaderboard or a task page: each run is its own page,
read from its ``events.jsonl`` one task at a time, so a page's weight does not grow with the
number of runs beyond one table row or cell per run, and the viewer pages long runs' steps.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ...run.archive import safe_name
from ...numbers import confirmed_as
from ..model import LEVELS, Collected, ModelRow, TaskRun
from ..inductor import INDUCTOR_MODEL
from .svg import INDUCTOR_COLOR, PALETTE, Series, line_chart
from .trajectory import Trajectory, load_trajectory

_HERE = Path(__file__).parent
STEPS_PER_PAGE = 25
"""Steps the trajectory viewer shows before "show more": a 40-step run with full evaluation
tables stays quick to lay out."""


def ratio_colour(ratio: float | None) -> str:
    """Background colour of a matrix cell: white at 1x Inductor, green above, red below,
    saturating at 4x either way (log scale)."""
    if ratio is None or not ratio > 0:
        return "#fafafa"
    x = max(-1.0, min(1.0, math.log(ratio, 4)))
    light = int(round(255 - 120 * abs(x)))
    return f"rgb({light},255,{light})" if x >= 0 else f"rgb(255,{light},{light})"


@dataclass
class _Env:
    jinja: Environment
    source: str

    def write(self, path: Path, template: str, root: str, **ctx: Any) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.jinja.get_template(template).render(root=root, source=self.source, **ctx), encoding="utf-8")
        return path


def run_href(r: TaskRun) -> str:
    """The trajectory page of run ``r``, relative to the site's root."""
    name = safe_name(r.model) + (f"+s{r.seed}" if r.seed else "")
    return f"runs/{safe_name(r.task_id)}/{name}.html"


def task_href(task_id: str) -> str:
    return f"tasks/{safe_name(task_id)}.html"


def _best(runs: list[TaskRun]) -> TaskRun:
    return max(runs, key=lambda r: r.as_.get("eager", 0.0))


def _task_subgraphs(task_path: str | None, fallback: list[Any]) -> list[dict[str, Any]]:
    """Subgraph names, sources, dtypes and input shapes from the task folder; from the
    evaluation's subgraph records where the folder cannot be read."""
    if task_path:
        try:
            from ....tools.tasks.loader import load_task

            task = load_task(task_path)
            return [{"name": s.name, "source": s.source, "dtypes": list(s.dtypes),
                     "args": [f"{a.name}: {'int' if a.is_symint else str(a.dtype).removeprefix('torch.')}"
                              f"{'' if a.is_symint else list(a.shape)}" for a in s.args]} for s in task.subgraphs]
        except Exception:  # noqa: BLE001 - a moved or deleted task folder must not stop the report: use the result's records
            pass
    return [{"name": s.name, "source": "", "dtypes": [], "args": []} for s in fallback]


def _best_eval(traj: Trajectory, version: int | None):
    for s in traj.steps:
        for t in s.tools:
            if t.version == version and t.evaluation is not None:
                return t
    return None


def _es_series(label: str, colour: str, es: dict[int, float] | None, dashed: bool = False) -> Series:
    return Series(label, colour, [(t, es[t]) for t in LEVELS if es and t in es], dashed)


def _as_chart(traj: Trajectory, inductor_as: float | None) -> str:
    pts = traj.as_points
    if not pts:
        return ""
    best, running = [], None
    for step, v, _ in pts:
        running = v if running is None else max(running, v)
        best.append((step, running))
    series = [Series("evaluation AS", PALETTE[0], [(s, v) for s, v, _ in pts]), Series("best so far", PALETTE[2], best)]
    levels = [("Inductor AS", INDUCTOR_COLOR, inductor_as)] if inductor_as else []
    return line_chart(series, "step", "AS", ref_y=1.0, levels=levels)


def write_site(out: Path, rows: list[ModelRow], collected: Collected, runs_dir: Path, n_boot: int = 2000,
               seed: int = 0) -> Path:
    """Write the static site into ``out`` (created if missing).

    Args:
        out: the site's folder (``RUNS_DIR/report/html`` from the CLI); its ``runs/``, ``tasks/``
            and ``assets/`` of an earlier report are removed first, other files are left alone.
        rows: the leaderboard (:func:`passagent.agent.report.build.leaderboard`), Inductor's row included.
        collected: the runs it was computed from (:func:`passagent.agent.report.build.collect`).
        runs_dir: the sweep folder, shown in the header.
        n_boot, seed: the bootstrap settings the rows used (stated on the page).

    Returns:
        The path of ``index.html``.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("runs", "tasks", "assets"):  # the site's own folders: no page of an earlier report survives
        shutil.rmtree(out / sub, ignore_errors=True)
    env = _Env(Environment(loader=FileSystemLoader(_HERE / "templates"), autoescape=select_autoescape(["j2", "html"]),
                           trim_blocks=True, lstrip_blocks=True), str(runs_dir))
    shutil.copytree(_HERE / "assets", out / "assets", dirs_exist_ok=True)
    models = [r for r in rows if not r.reference]
    reference = next((r for r in rows if r.reference), None)
    by_task: dict[str, list[TaskRun]] = {}
    for r in collected.runs:
        by_task.setdefault(r.task_id, []).append(r)
    ind_by_task: dict[str, list[TaskRun]] = {}
    for r in collected.inductor_runs:
        ind_by_task.setdefault(r.task_id, []).append(r)
    colour = {m.model: PALETTE[i % len(PALETTE)] for i, m in enumerate(models)}

    matrix = []
    for task_id in sorted(by_task):
        runs = by_task[task_id]
        matrix.append(_write_task(env, out, task_id, runs, ind_by_task.get(task_id, []), models, reference, colour))

    es_chart = line_chart(
        [_es_series(m.model, colour[m.model], m.es_curve.get("eager")) for m in models]
        + ([_es_series(INDUCTOR_MODEL, INDUCTOR_COLOR, reference.es_curve.get("eager"), True)] if reference else []),
        "tolerance level t", "ES(t)", x_ticks=list(LEVELS))
    scale = [(f"{v:g}x", ratio_colour(v)) for v in (0.25, 0.5, 0.8, 1.0, 1.25, 2.0, 4.0)]
    return env.write(out / "index.html", "index.html.j2", "", title="Leaderboard", rows=rows, models=[m.model for m in models],
                     tasks=matrix, has_inductor=reference is not None, es_chart=es_chart, scale=scale,
                     skipped=collected.skipped, runs=len(collected.runs), n_boot=n_boot, seed=seed)


def _write_task(env: _Env, out: Path, task_id: str, runs: list[TaskRun], ind_runs: list[TaskRun], models: list[ModelRow],
                reference: ModelRow | None, colour: dict[str, str]) -> dict[str, Any]:
    """Write the task's page and its runs' trajectory pages; return its row of the matrix."""
    by_model: dict[str, list[TaskRun]] = {}
    for r in runs:
        by_model.setdefault(r.model, []).append(r)
    inductor_as = reference.task_as(task_id) if reference else None
    trajectories: dict[Path, Trajectory] = {}
    run_rows = []
    for r in sorted(runs, key=lambda r: (r.model, r.seed)):
        traj = trajectories[r.path] = load_trajectory(r.path)
        ratio = r.as_["eager"] / (r.inductor_as or inductor_as) if (r.inductor_as or inductor_as) else None
        # The best version's own step, where its evaluation was against eager (the AS shown here).
        step_as = next((t.evaluation.as_ for st in traj.steps for t in st.tools if t.evaluation is not None
                        and t.version == r.best_version and t.evaluation.baseline == "eager"), None)
        env.write(out / run_href(r), "run.html.j2", "../../", title=f"{r.model} on {task_id}", run=r, traj=traj,
                  ratio=ratio, best_as=confirmed_as(r.as_.get("eager"), step_as if r.evaluated else None), task_href="../../" + task_href(task_id), as_chart=_as_chart(traj, r.inductor_as or inductor_as),
                  baseline="eager", page_size=STEPS_PER_PAGE)
        run_rows.append({"model": r.model, "seed": r.seed, "href": "../" + run_href(r), "as_": r.as_["eager"], "ratio": ratio,
                         "evaluations": r.evaluations, "steps": r.steps, "cost": r.cost_usd, "exit": r.exit_reason})

    fallback: list[Any] = []
    model_cols, series = [], []
    inductor_cells: list[dict[str, Any]] = []
    inductor_from = ""
    for m in models:
        if m.model not in by_model:
            continue
        best = _best(by_model[m.model])
        tool = _best_eval(trajectories[best.path], best.best_version)
        cells = []
        if tool is not None:
            ev = tool.evaluation
            fallback = fallback or ev.rows
            cells = [{"status": x.status, "speedup": x.speedup_vs_eager, "vs_inductor": x.speedup_vs_inductor,
                      "min_t": x.min_correct_t, "matches": x.matches} for x in ev.rows]
            if not inductor_cells:  # Inductor on this task, from the first evaluation read (its own outcome)
                inductor_from = m.model
                inductor_cells = [{"status": "correct" if x.inductor_speedup and x.inductor_min_correct_t is not None
                                   and x.inductor_min_correct_t <= -5 else ("compile" if x.inductor_speedup is None else "accuracy"),
                                   "speedup": x.inductor_speedup, "min_t": x.inductor_min_correct_t} for x in ev.rows]
        model_cols.append({"model": m.model, "href": "../" + run_href(best), "as_": m.task_as(task_id),
                           "ratio": m.task_ratio.get(task_id), "subgraphs": cells, "version": best.best_version if tool else None,
                           "files": tool.files if tool else {}})
        series.append(_es_series(m.model, colour[m.model], best.es.get("eager")))
    if ind_runs:
        series.append(_es_series(INDUCTOR_MODEL, INDUCTOR_COLOR, ind_runs[0].es.get("eager"), True))
    task_path = next((p for p in (_config_task_path(r.path) for r in runs) if p), None)
    task = {"id": task_id, "path": task_path, "subgraphs": _task_subgraphs(task_path, fallback), "models": model_cols,
            "inductor": inductor_cells, "inductor_from": inductor_from, "inductor_as": inductor_as, "runs": run_rows,
            "es_chart": line_chart(series, "tolerance level t", "ES(t)", x_ticks=list(LEVELS))}
    env.write(out / task_href(task_id), "task.html.j2", "../", title=f"task {task_id}", task=task)

    cells = []
    for m in models:
        rs = by_model.get(m.model)
        ratio = m.task_ratio.get(task_id)
        cells.append({"as_": m.task_as(task_id) if rs else None, "ratio": ratio, "colour": ratio_colour(ratio),
                      "href": run_href(_best(rs)) if rs else ""})
    return {"id": task_id, "href": task_href(task_id), "inductor_as": inductor_as, "cells": cells}


def _config_task_path(run_dir: Path) -> str | None:
    import json

    try:
        return json.loads((run_dir / "config.json").read_text()).get("task_path")
    except (OSError, ValueError, AttributeError):
        return None
