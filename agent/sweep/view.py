"""The Rich progress view of ``passagent sweep``: overall progress, and per model the run counts,
spend and scores so far."""

from __future__ import annotations

import math
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..numbers import fmt_as, fmt_ratio
from .runner import SweepState


def model_rows(state: SweepState) -> list[dict[str, Any]]:
    """Per model: total/finished/running/failed runs, calls, US dollars, best and geomean AS, and the
    geomean of each run's AS / AS(Inductor) (from the evaluation its AS came from)."""
    rows: dict[str, dict[str, Any]] = {}
    for run in state.runs:
        r = rows.setdefault(run.model_spec, {"model": run.model_name, "total": 0, "finished": 0, "running": 0,
                                             "failed": 0, "calls": 0, "cost_usd": 0.0, "scores": [], "ratios": []})
        r["total"] += 1
        status = state.status.get(run.key, "pending")
        if status in ("finished", "running", "failed"):
            r[status] += 1
        t = state.tallies.get(run.key)
        if t is not None:
            r["calls"] += t.calls
            r["cost_usd"] += t.cost_usd
        result = state.results.get(run.key)
        if result is not None and result.get("best_as"):
            r["scores"].append(float(result["best_as"]))
        if result is not None and result.get("best_ratio_to_inductor"):
            r["ratios"].append(float(result["best_ratio_to_inductor"]))
    for r in rows.values():
        s, q = r.pop("scores"), r.pop("ratios")
        r["best_as"] = max(s) if s else None
        r["geomean_as"] = _geomean(s)
        r["geomean_ratio"] = _geomean(q)
    return list(rows.values())


def _geomean(xs: list[float]) -> float | None:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


class SweepView:
    """A context manager whose :meth:`update` is :func:`run_sweep`'s ``on_update`` callback."""

    def __init__(self, state_total: int, title: str, console: Console | None = None):
        self.console = console or Console(stderr=True)
        self.title = title
        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[extra]}"), TimeElapsedColumn(), console=self.console)
        self.bar = self.progress.add_task(title, total=state_total, extra="")
        self.table = Table()
        self.live = Live(Group(self.progress, self.table), console=self.console, refresh_per_second=2)

    def __enter__(self) -> "SweepView":
        self.live.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.live.__exit__(*exc)

    def update(self, state: SweepState) -> None:
        spend = state.spend()
        done = sum(1 for s in state.status.values() if s == "finished")
        extra = f"${spend.cost_usd:.4f} · {spend.calls} calls"
        if state.stop_reason:
            extra += f" · stopping: {state.stop_reason}"
        self.progress.update(self.bar, completed=done, extra=extra)
        t = Table(show_edge=False, title_justify="left")
        for col in ("model", "finished", "running", "failed", "calls", "spend", "best AS", "geomean AS",
                    "geomean AS / AS(Inductor)"):
            t.add_column(col, justify="left" if col == "model" else "right")
        for r in model_rows(state):
            t.add_row(r["model"], f"{r['finished']}/{r['total']}", str(r["running"]), str(r["failed"]), str(r["calls"]),
                      f"${r['cost_usd']:.4f}", fmt_as(r["best_as"]), fmt_as(r["geomean_as"]), fmt_ratio(r["geomean_ratio"]))
        self.live.update(Group(self.progress, t))
