"""Rich rendering of tasks and evaluation results for people (the model sees :mod:`condense`)."""

from __future__ import annotations

import os
import re

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from ...tools.tasks.inputs import is_degenerate
from ...tools.evaluation.results import scored_us
from ...tools.evaluation.schema import EvalResult
from ...tools.tasks.loader import Task
from ..numbers import GEOMEAN_LABEL, INDUCTOR_BASELINE_LABEL, RATIO_LABEL, fmt_as, fmt_ratio, fmt_speedup

_STATUS_STYLE = {
    "correct": "green", "accuracy": "yellow", "runtime": "red", "compile": "magenta",
    "integrity": "bold red", "timeout": "red",
}


def _fmt_num(us: float | None) -> str:
    return "-" if us is None else f"{us:.1f}" if us < 1000 else f"{us:.0f}"


def verdict(result: EvalResult) -> str:
    """The result in words: the headline AS (against eager), how many subgraphs are correct at
    t = -5, and AS / AS(Inductor), the comparison with default Inductor from the same timings.
    Nothing here contradicts the headline: per-subgraph speedups are in the table above."""
    sc, n = result.scores, len(result.subgraphs)
    mine = result.as_vs_eager()
    head = (f"AS {fmt_as(mine)} against eager: " if mine is not None
            else f"AS {fmt_as(sc.aggregated)} against {sc.baseline}: ")
    correct = sum(1 for s in result.subgraphs if s.status == "correct")
    if correct == 0:
        classes = sorted({s.status for s in result.subgraphs})
        return head + f"the pass failed on every subgraph ({', '.join(classes)}), so each scores the failure penalty."
    text = head + f"correct at t=-5 on {correct} of {n} subgraph(s)"
    ratio = result.ratio_to_inductor()
    if ratio is None:
        return text + "."
    if fmt_ratio(ratio) == fmt_ratio(1.0):
        how = "the same score as default Inductor"
    else:
        how = f"{abs(ratio - 1):.1%} {'above' if ratio > 1 else 'below'} default Inductor's AS"
    return text + f"; {RATIO_LABEL} {fmt_ratio(ratio)}: {how} from the same timings."


def load_failure(result: EvalResult) -> str | None:
    """One line, ``file:line: error``, when the pass did not load (every subgraph failed with the
    load error, nothing compiled or timed); None otherwise."""
    prefix = "the pass failed to load: "
    messages = {s.message for s in result.subgraphs}
    if not result.subgraphs or len(messages) != 1 or not all(m and m.startswith(prefix) for m in messages):
        return None
    message = next(iter(messages)).removeprefix(prefix)  # type: ignore[union-attr]
    tb = result.subgraphs[0].traceback or ""
    if not re.match(r"[^\s:]+\.py:\d+:", message):  # an exception at import: where it was raised
        root = result.pass_path if os.path.isdir(result.pass_path) else os.path.dirname(result.pass_path)
        # The worker's trimmed traceback names the pass's own files by their base name.
        frames = [(f, ln) for f, ln in re.findall(r'File "([^"]+)", line (\d+)', tb)
                  if not os.path.isabs(f) or f.startswith(root)]
        if frames:
            message = f"{os.path.basename(frames[-1][0])}:{frames[-1][1]}: {message}"
    return f"the pass does not load: {message}"


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
            fmt_speedup(s.speedup_vs_eager),
            fmt_speedup(s.speedup_vs_inductor),
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
    mine, ratio = result.as_vs_eager(), result.ratio_to_inductor()
    correct = sum(1 for s in result.subgraphs if s.status == "correct")
    line = Text.assemble(("AS ", "bold"), (fmt_as(mine if mine is not None else sc.aggregated), "bold cyan"),
                         f" against {'eager' if mine is not None else sc.baseline}")
    if ratio is not None:
        line.append("  ·  ")
        line.append_text(Text.assemble((f"{RATIO_LABEL} ", "bold"), (fmt_ratio(ratio), "bold cyan")))
        line.append(f" (default Inductor's AS {fmt_as(result.inductor_scores.aggregated)}, same timings)")  # type: ignore[union-attr]
    line.append(f"  ·  correct@-5 {correct}/{len(result.subgraphs)}")
    # Secondary ratios, each labelled for what it is (never the headline).
    by_base = {sc.baseline: sc} | ({result.other_scores.baseline: result.other_scores} if result.other_scores else {})
    secondary = []
    if "inductor" in by_base:
        secondary.append(f"{INDUCTOR_BASELINE_LABEL} {fmt_as(by_base['inductor'].aggregated)}")
    speeds = [f"{fmt_speedup(by_base[b].geomean_speedup_correct)} vs {b.replace('inductor', 'Inductor')}" for b in ("eager", "inductor")
              if b in by_base and by_base[b].geomean_speedup_correct]
    if speeds:
        secondary.append(f"{GEOMEAN_LABEL} {', '.join(speeds)}")
    eager_sc = by_base.get("eager", sc)
    secondary.append(f"fast_1 {eager_sc.fast_1:.0%}")
    second = Text("secondary: " + "  ·  ".join(secondary), style="dim")
    es = "  ".join(f"{t}:{v:.3g}" for t, v in sc.es.items())
    parts += [line, second, Text(verdict(result), style="bold"), Text(AS_MEANING, style="dim"),
              Text(f"ES(t) against {sc.baseline}  {es}", style="dim")]
    footer = f"{result.device_name} · torch {result.torch_version} · {result.wall_s:.1f} s"
    if any("inductor" in s.times and s.times["inductor"].source == "cached" for s in result.subgraphs):
        footer += " · * Inductor time from the baseline cache, rescaled by this run's eager time"
    parts.append(Text(footer, style="dim"))
    if steps := step_times(result):
        parts.append(Text("time by step: " + ", ".join(f"{k} {v:.1f} s" for k, v in steps), style="dim"))
    if not result.config.sandbox:
        parts.append(Text("sandbox off (EvalOptions.sandbox=False): the candidate process ran without write confinement, "
                          "resource limits or network isolation", style="yellow"))
    for w in result.warnings:
        parts.append(Text(f"warning: {w}", style="yellow"))
    return Group(*parts)


#: Worker steps grouped for the footer (SubgraphResult.phase_s names -> what a user reads).
_STEP_GROUPS = {"references": "references and Inductor (clean processes)", "inductor": "Inductor compile",
                "candidate_compile": "candidate compile", "candidate_first_run": "candidate run",
                "candidate_inductor": "candidate compile", "candidate_run": "candidate run",
                "correctness": "checks", "timing": "timing", "heldout_shape": "held-out shape"}
#: SubgraphResult.before_lease_s names -> the step they belong to.
_AHEAD_GROUPS = {"inductor": "inductor", "candidate": "candidate_inductor"}


def step_times(result: EvalResult) -> list[tuple[str, float]]:
    """Seconds per step of the evaluation summed over the subgraphs, largest first (from ``phase_s``
    and, for the compiles done before the device lease, ``before_lease_s``)."""
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
