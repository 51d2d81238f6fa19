"""The report's PNG plots (matplotlib, Agg backend: no display needed).

* ``es_curves.png``: ES(t) against eager per model and default Inductor, geometric mean over tasks;
* ``speedups.png``: the distribution of speedups of correct subgraphs per model and baseline;
* ``score_vs_cost.png``: AS vs eager (with its 95 % interval) against US dollars per task.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import ModelRow

_TITLES = {"eager": "vs eager", "inductor": "over Inductor"}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only; never open a window, even where a display exists
    import matplotlib.pyplot as plt

    return plt


def es_curves(rows: list[ModelRow], path: Path) -> Path:
    """ES(t) against eager for t = -10..4 per model (log scale), default Inductor's row dashed
    (the paper's comparison: Inductor scored like a candidate)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for row in rows:
        curve = row.es_curve.get("eager")
        if curve:
            ts = sorted(curve)
            style = {"color": "black", "ls": "--"} if row.reference else {}
            ax.plot(ts, [curve[t] for t in ts], marker="o", ms=3, label=row.model, **style)
    ax.set_yscale("log")
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("tolerance level t")
    ax.set_ylabel("ES(t) vs eager, geometric mean over tasks")
    ax.set_title("ES(t) per model and default Inductor")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def speedups(rows: list[ModelRow], path: Path) -> Path:
    """Box plots of the speedups of correct subgraphs (log scale), per model and baseline; default
    Inductor's own speedups over eager appear in the eager panel."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, base in zip(axes, ("eager", "inductor")):
        shown = [row for row in rows if base == "eager" or not row.reference]
        data = [[s for r in row.task_runs for s in r.speedups[base]] for row in shown]
        labels = [f"{row.model}\n(n={len(d)})" for row, d in zip(shown, data)]
        ax.boxplot([d if d else [math.nan] for d in data], showfliers=True)
        ax.set_xticks(range(1, len(labels) + 1), labels, fontsize=8)
        for i, d in enumerate(data, start=1):  # every point: few subgraphs is the common case
            ax.scatter([i] * len(d), d, s=10, alpha=0.6)
        ax.set_yscale("log")
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_title(f"speedup of correct subgraphs {_TITLES[base]}")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[0].set_ylabel("speedup (baseline time / pass time)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def score_vs_cost(rows: list[ModelRow], path: Path) -> Path:
    """AS vs eager against the mean US dollars per task, with the AS interval as error bars;
    default Inductor's AS as a dashed line (it costs nothing)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for row in rows:
        m = row.as_["eager"]
        if row.reference:
            if m.value is not None:
                ax.axhline(m.value, color="black", ls="--", lw=1, label=row.model)
            continue
        if m.value is None:
            continue
        lo = m.value - (m.lo if m.lo is not None else m.value)
        hi = (m.hi if m.hi is not None else m.value) - m.value
        ax.errorbar([row.cost_per_task], [m.value], yerr=[[lo], [hi]], fmt="o", capsize=4, label=row.model)
        ax.annotate(row.model, (row.cost_per_task, m.value), textcoords="offset points", xytext=(6, 4), fontsize=8)
    ax.set_xlabel("cost per task (US dollars)")
    ax.set_ylabel("AS vs eager (95 % interval)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title("score versus cost")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def draw_all(rows: list[ModelRow], out: Path) -> list[Path]:
    """Draw the three plots into ``out``; returns their paths."""
    return [es_curves(rows, out / "es_curves.png"), speedups(rows, out / "speedups.png"),
            score_vs_cost(rows, out / "score_vs_cost.png")]
