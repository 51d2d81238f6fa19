"""Rich rendering of tasks and evaluation results for people (the model sees :mod:`condense`)."""

from __future__ import annotations

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from ..tools.inputs import is_degenerate
from ..tools.results import scored_us
from ..tools.schema import EvalResult
from ..tools.tasks import Task

_STATUS_STYLE = {
    "correct": "green", "accuracy": "yellow", "runtime": "red", "compile": "magenta",
    "integrity": "bold red", "timeout": "red",
}


def _fmt_x(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}x"


def _fmt_speedup(x: float | None) -> str:
    """Three significant digits at most, so the column stays narrow (``1.07x``, ``18.0x``, ``102x``)."""
    return "-" if x is None else f"{x:.2f}x" if x < 10 else f"{x:.1f}x" if x < 100 else f"{x:.0f}x"


def _fmt_num(us: float | None) -> str:
    return "-" if us is None else f"{us:.1f}" if us < 1000 else f"{us:.0f}"


def _relative(x: float, what: str) -> str:
    """``1.31x faster than eager`` / ``1.25x slower than eager`` from a speedup ``x``."""
    return f"{x:.2f}x faster than {what}" if x >= 1 else f"{1 / x:.2f}x slower than {what}"


def verdict(result: EvalResult) -> str:
    """The result in words: the score, how many subgraphs are correct, and whether the pass is
    faster or slower than eager and than default Inductor (geometric means over the subgraphs
    correct at t = -5)."""
    sc, n = result.scores, len(result.subgraphs)
    correct = sum(1 for s in result.subgraphs if s.status == "correct")
    head = f"AS {sc.aggregated:.3f} against {sc.baseline}: "
    if correct == 0:
        classes = sorted({s.status for s in result.subgraphs})
        return head + f"the pass failed on every subgraph ({', '.join(classes)}), so each scores the failure penalty."
    by_base = {sc.baseline: sc.geomean_speedup_correct}
    if result.other_scores is not None:
        by_base[result.other_scores.baseline] = result.other_scores.geomean_speedup_correct
    names = {"eager": "eager", "inductor": "default Inductor"}
    speeds = [_relative(x, names[b]) for b, x in sorted(by_base.items()) if x]
    return head + f"correct at t=-5 on {correct} of {n} subgraph(s)" + (
        f"; on those, {' and '.join(speeds)} (geometric mean)." if speeds else ".")


AS_MEANING = ("AS (SCORING.md) aggregates the error-aware speedup ES(t) over tolerance levels t: 1.0 is "
              "eager's speed with correct outputs, above 1 is faster; a failed subgraph scores 0.1 at a level "
              "(an accuracy failure counts 1 from t=1, compile and runtime failures from t=3).")


def task_table(task: Task, code: bool = False, shown_of: tuple[int, int] | None = None) -> Group:
    """The subgraphs of a task: source, dtypes, argument shapes and the operator sequence, and
    with ``code`` each subgraph's ``model.py`` (the code a pattern is written like). ``shown_of``
    is ``(index, count)`` when ``task`` holds one subgraph picked out of ``count``."""
    shown = f"{len(task.subgraphs)} subgraph(s)" if shown_of is None else f"subgraph {shown_of[0]} of {shown_of[1]}"
    head = Text.assemble((task.id, "bold"), f"  {task.layout}, {shown}  ", (str(task.path), "dim"))
    tables = [head]
    for sg in task.subgraphs:
        t = Table(title=f"{sg.name}  [dim]{sg.source}[/dim]", title_justify="left", show_edge=False, pad_edge=False)
        t.add_column("arg")
        t.add_column("shape")
        t.add_column("dtype")
        t.add_column("mean / std", justify="right")
        t.add_column("note")
        for a in sg.args:
            m = a.meta
            if a.is_symint:
                t.add_row(a.name, "SymInt", "int", str(m.data[0] if m.data else m.mean), "")
                continue
            stats = "data" if m.data is not None else f"{m.mean if m.mean is not None else '-'} / {m.std if m.std is not None else '-'}"
            note = "std 0: fallback draw" if is_degenerate(a) else ""
            t.add_row(a.name, str(list(m.shape)), str(m.dtype).removeprefix("torch."), stats, note)
        tables.append(t)
        tables.append(Text.assemble(("ops: ", "bold"), " -> ".join(sg.op_sequence) or "(none)", "\n"))
        if code:
            tables.append(Text(f"{sg.path / 'model.py'}", style="dim"))
            tables.append(Syntax(sg.code.rstrip(), "python", line_numbers=True, word_wrap=True, theme="ansi_dark"))
            tables.append(Text(""))
    return Group(*tables)


_DTYPE_SHORT = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64"}


def _fmt_level(t: int | None) -> str:
    return "never" if t is None else str(t)


def eval_table(result: EvalResult) -> Group:
    """Per-subgraph results and the task's scores, readable in an 80-column terminal.

    Columns: ``t>=`` is the strictest tolerance level at which the candidate (``I t>=``: default
    Inductor) is correct; times are µs of one call; ``vs E``/``vs I`` are the scored speedups.
    """
    stat = result.config.time_statistic
    tag = " (10th percentiles)" if stat == "p10" else ""  # the times shown are the ones the speedups use
    t = Table(show_edge=False, box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False,
              caption=f"times: µs per call{tag}; t>=: the strictest tolerance level at which the pass (I: default "
                      "Inductor) is correct; vs E / vs I: the pass's speedup against eager / default Inductor",
              caption_justify="left")
    for col, kw in [
        ("subgraph", {"no_wrap": True}), ("dtype", {}), ("status", {"min_width": 9}), ("match", {"justify": "right"}),
        ("t>=", {"justify": "right"}), ("I t>=", {"justify": "right"}), ("eager", {"justify": "right"}),
        ("Ind", {"justify": "right"}), ("pass", {"justify": "right"}),
        ("vs E", {"justify": "right"}), ("vs I", {"justify": "right"}),
    ]:
        t.add_column(col, **kw)
    # CUDA: device time from CUDA-graph replays (not scored), eager / Inductor / candidate.
    graphs = any(v.graph_median_us for s in result.subgraphs for v in s.times.values())
    if graphs:
        t.add_column("device us e/I/c", justify="right")
    for s in result.subgraphs:
        style = _STATUS_STYLE.get(s.status, "")
        status = s.status + (" (low-signal)" if s.low_signal else "")
        cached = "*" if "inductor" in s.times and s.times["inductor"].source == "cached" else ""
        t.add_row(
            s.name,
            ",".join(_DTYPE_SHORT.get(d, d) for d in s.dtypes),
            Text(status, style=style),
            str(s.matches),
            _fmt_level(s.candidate_error.min_correct_t) if s.candidate_error else "-",
            _fmt_level(s.inductor_error.min_correct_t) if s.inductor_error else "-",
            _fmt_num(scored_us(s.times["eager"], stat) if "eager" in s.times else None),
            _fmt_num(scored_us(s.times["inductor"], stat) if "inductor" in s.times else None) + cached,
            _fmt_num(scored_us(s.times["candidate"], stat) if "candidate" in s.times else None),
            _fmt_speedup(s.speedup_vs_eager),
            _fmt_speedup(s.speedup_vs_inductor),
            *(["/".join(f"{s.times[k].graph_median_us:.1f}" if k in s.times and s.times[k].graph_median_us else "-"
                        for k in ("eager", "inductor", "candidate"))] if graphs else []),
        )
    parts: list = [t]
    for s in result.subgraphs:
        if s.profile is not None and (s.profile.inductor or s.profile.candidate):
            from .condense import profile_table

            unit = "device us" if s.profile.time == "device" else "self CPU us"
            body = "\n".join(line[2:] for line in profile_table(s.profile.inductor, s.profile.candidate, top=8))
            if s.profile.error:
                body += f"\n{s.profile.error}"
            parts.append(Panel(Text(body), title=f"{s.name}: profile, {unit} per call", title_align="left",
                               border_style="dim", expand=False))
    # One panel per distinct failure: a pass that does not load (or is refused) fails every
    # subgraph with the same message, which is shown once, naming the subgraphs.
    groups: dict[tuple[str, str, str], list[str]] = {}
    for s in result.subgraphs:
        if s.message:
            groups.setdefault((s.status, s.message, s.traceback or ""), []).append(s.name)
    for (status, message, tb), names in groups.items():
        body = message + (f"\n\n{tb}" if tb else "")
        where = names[0] if len(names) == 1 else f"{', '.join(names)} ({len(names)} subgraphs)"
        parts.append(Panel(body, title=f"{where}: {status}", title_align="left", border_style=_STATUS_STYLE.get(status, "")))
    sc = result.scores
    line = Text.assemble(
        ("AS ", "bold"), (f"{sc.aggregated:.4f}", "bold cyan"), f" vs {sc.baseline}",
        f"  correct@-5 {sc.correct_at_minus5:.0%}  fast_1 {sc.fast_1:.0%}  ",
        f"geomean speedup (correct) {_fmt_x(sc.geomean_speedup_correct)}",
    )
    if result.other_scores:
        line.append(f"  |  AS {result.other_scores.aggregated:.4f} vs {result.other_scores.baseline}")
    if (ratio := result.ratio_to_inductor()) is not None:
        line.append(f"  |  default Inductor's AS {result.inductor_scores.aggregated:.4f} (same timings), "
                    f"AS / AS(Inductor) {ratio:.4f}")
    es = "  ".join(f"{t}:{v:.3g}" for t, v in sc.es.items())
    parts += [line, Text(verdict(result), style="bold"), Text(AS_MEANING, style="dim"), Text(f"ES(t)  {es}", style="dim")]
    footer = f"{result.device_name} · torch {result.torch_version} · {result.wall_s:.1f} s"
    if any("inductor" in s.times and s.times["inductor"].source == "cached" for s in result.subgraphs):
        footer += " · * Inductor time from the baseline cache, rescaled by this run's eager time"
    parts.append(Text(footer, style="dim"))
    if steps := step_times(result):
        parts.append(Text("worker time by step: " + ", ".join(f"{k} {v:.1f} s" for k, v in steps), style="dim"))
    if not result.config.sandbox:
        parts.append(Text("sandbox off (EvalOptions.sandbox=False): the worker ran without write confinement, "
                          "resource limits or network isolation", style="yellow"))
    for w in result.warnings:
        parts.append(Text(f"warning: {w}", style="yellow"))
    return Group(*parts)


#: Worker steps grouped for the footer (SubgraphResult.phase_s names -> what a user reads).
_STEP_GROUPS = {"inputs": "inputs", "eager": "eager", "inductor": "Inductor compile+check",
                "candidate_load": "pass load", "candidate_rewrite": "pass rewrite",
                "candidate_inductor": "candidate compile", "candidate_compiled": "candidate run",
                "candidate_run": "candidate run", "correctness": "checks", "timing": "timing",
                "heldout_shape": "held-out shape"}
#: SubgraphResult.before_lease_s names -> the step they belong to.
_AHEAD_GROUPS = {"inductor": "inductor", "candidate": "candidate_inductor"}


def step_times(result: EvalResult) -> list[tuple[str, float]]:
    """Worker seconds per step summed over the subgraphs, largest first (from ``phase_s`` and, for
    the compiles done before the device lease, ``before_lease_s``)."""
    totals: dict[str, float] = {}
    for s in result.subgraphs:
        steps = list(s.phase_s.items()) + [(_AHEAD_GROUPS.get(n, n), sec) for n, sec in s.before_lease_s.items()]
        for name, sec in steps:
            key = _STEP_GROUPS.get(name, name)
            totals[key] = totals.get(key, 0.0) + sec
    return sorted(totals.items(), key=lambda kv: -kv[1])


def console() -> Console:
    """A console that stays readable when piped (Rich would otherwise assume 80 columns)."""
    c = Console()
    return c if c.is_terminal else Console(width=160)


def print_renderable(obj: object) -> None:
    console().print(obj)
