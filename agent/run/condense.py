"""Turn harness results and IR into the text a model reads in a tool result.

Condensed, not lossy where it matters: per subgraph status, failure class, match count,
speedups, the trimmed error pointing at pass-file lines, and the task's ES(t) and AS.
"""

from __future__ import annotations

import re
from typing import Any

from ...tools.evaluation.results import scored_us
from ...tools.evaluation.schema import EvalResult, SubgraphResult, VariantProfile
from ...tools.tasks.loader import Task


def _x(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}x"


def _us(v: float | None) -> str:
    return "?" if v is None else f"{v:.1f} us"


def _t(t: int | None) -> str:
    return "never" if t is None else f"t>={t}"


def speedup_range(base: Any, cand: Any) -> tuple[float, float] | None:
    """The spread of a speedup ``T_base / T_cand`` implied by the two variants' interquartile
    ranges (``Timing.q1_us``/``q3_us``, microseconds): ``(q1_base / q3_cand, q3_base / q1_cand)``.
    A speedup whose range includes 1 (or two versions whose ranges overlap) is not distinguished
    from noise by this measurement. None where a quartile is missing or zero."""
    if base is None or cand is None or not (base.q1_us > 0 and cand.q1_us > 0 and cand.q3_us > 0):
        return None
    return base.q1_us / cand.q3_us, base.q3_us / cand.q1_us


def _xr(v: float | None, base: Any, cand: Any) -> str:
    r = speedup_range(base, cand)
    return _x(v) + (f" [{r[0]:.2f}-{r[1]:.2f}]" if v is not None and r else "")


def describe_time(result: Any, for_user: bool = False) -> str:
    """``time_pass`` / ``passagent time`` text: per subgraph, whether the candidate ran correct on the
    timed draws, and its paired speedups against eager and default Inductor with their spread. Not
    a score: no held-out shape, no pass version."""
    evaluate = "passagent eval" if for_user else "evaluate_pass"
    stat = result.config.time_statistic
    out = [f"Quick timing of pass {result.pass_sha256[:12]} on {result.task_id} ({result.device_name}, {result.wall_s:.1f} s): "
           f"the evaluation's timed rounds and checks without the held-out shape; not a score and not a pass version "
           f"({evaluate} scores it). Speedups are the median of per-round ratios, [interquartile spread]: a ratio whose "
           f"spread includes 1 is not told apart from noise."]
    for s in result.subgraphs:
        t = s.times
        head = f"[{s.index}] {s.name} ({','.join(s.dtypes)}): {s.status}, matches {s.matches}"
        if "candidate" in t and "eager" in t and "inductor" in t:
            us = {k: scored_us(v, stat) for k, v in t.items()}
            head += (f"; eager {_us(us['eager'])}, Inductor {_us(us['inductor'])}, yours {_us(us['candidate'])} -> "
                     f"{_xr(s.speedup_vs_eager, t['eager'], t['candidate'])} vs eager, "
                     f"{_xr(s.speedup_vs_inductor, t['inductor'], t['candidate'])} vs Inductor")
        elif s.message:
            head += f": {s.message.splitlines()[0]}"
        out.append(head)
    return "\n".join(out)


def describe_subgraph_result(s: SubgraphResult, time_statistic: str = "paired") -> str:
    """One block of text for one subgraph's evaluation; times are the ``time_statistic`` the
    speedups use (``EvalConfig.time_statistic``)."""
    head = f"[{s.index}] {s.name} ({','.join(s.dtypes)}): {s.status.upper()}"
    if s.low_signal:
        head += " (low-signal: outputs do not depend on the input draw)"
    parts = [head, f"    matches: {s.matches}" + (" (" + ", ".join(f"{r.rule}={r.matches}" for r in s.rules) + ")" if len(s.rules) > 1 else "")]
    if s.candidate_error is not None:
        parts.append(
            f"    correct at: {_t(s.candidate_error.min_correct_t)} (max abs err {s.candidate_error.max_abs:.3g}); "
            f"default Inductor correct at: {_t(s.inductor_error.min_correct_t) if s.inductor_error else 'n/a'}"
        )
    if "candidate" in s.times:
        t = s.times
        us = {k: scored_us(v, time_statistic) for k, v in t.items()}
        label = "time (p10)" if time_statistic == "p10" else "time"
        parts.append(
            f"    {label}: eager {_us(us['eager'])}, Inductor {_us(us['inductor'])}, "
            f"yours {_us(us['candidate'])} -> {_xr(s.speedup_vs_eager, t['eager'], t['candidate'])} vs eager, "
            f"{_xr(s.speedup_vs_inductor, t['inductor'], t['candidate'])} vs Inductor"
            if "inductor" in t and "eager" in t else f"    {label}: yours {_us(us['candidate'])}"
        )
        graph = {k: v.graph_median_us for k, v in t.items() if v.graph_median_us}
        if "candidate" in graph:  # CUDA: how much of each end-to-end time is the GPU's work
            names = {"eager": "eager", "inductor": "Inductor", "candidate": "yours"}
            parts.append("    device time (CUDA-graph replay, no launch overhead; not scored): "
                         + ", ".join(f"{names[k]} {graph[k]:.1f} us" for k in names if k in graph))
    for r in s.rules:
        parts += [f"    [{r.rule}] note: {n}" for n in getattr(r, "notes", [])]
    if s.message and s.status != "correct":
        parts.append("    " + s.message.replace("\n", "\n    "))
    if s.traceback:
        parts.append("    " + s.traceback.replace("\n", "\n    "))
    return "\n".join(parts)


def describe_eval(result: EvalResult, best_as: float | None = None, version: int | None = None) -> str:
    """The evaluation as a model should see it (a few lines per subgraph plus the scores)."""
    sc = result.scores
    n = len(result.subgraphs)
    correct = sum(1 for s in result.subgraphs if s.status == "correct")
    head = f"Pass version {version}: " if version is not None else ""
    head += f"AS = {sc.aggregated:.4f} vs {sc.baseline}"
    if result.other_scores:
        head += f" (AS = {result.other_scores.aggregated:.4f} vs {result.other_scores.baseline})"
    if (ratio := result.ratio_to_inductor()) is not None:
        # The paper's comparison: both AS against eager, each with its own correctness. The
        # "vs inductor" AS above takes speedups against Inductor but correctness against the
        # reference, so a pass that only inherits Inductor's rounding reads as a loss there.
        head += f"; default Inductor AS = {result.inductor_scores.aggregated:.4f}, AS/AS(Inductor) = {ratio:.4f}"
    head += f"; correct@-5: {correct}/{n}; fast_1: {sc.fast_1:.0%}"
    if best_as is not None:
        head += f"; best AS so far: {best_as:.4f}"
    es = ", ".join(f"{t}:{v:.3g}" for t, v in sc.es.items() if t >= -6)
    lines = [head, f"ES(t) for t=-6..4: {es}",
             "Speedups show [low-high]: the spread the two times' interquartile ranges allow; a difference "
             "inside it (between versions, or from 1.0) is noise, not a result.", ""]
    if regressions := result.regressions():
        # The loop's best-version rule (SolveConfig.discard_regressions): say it where it bites.
        lines.insert(2, f"Regression: subgraph(s) {', '.join(map(str, regressions))} fail t=-5 where default Inductor is "
                        "correct; a version with such a regression is the run's best only while no version without "
                        "one exists, whatever its AS.")
    lines += [describe_subgraph_result(s, result.config.time_statistic) for s in result.subgraphs]
    lines += [f"warning: {w}" for w in result.warnings]
    return "\n".join(lines)


def describe_task(task: Task) -> str:
    """The subgraph listing used in the first message and by ``list_subgraphs``."""
    lines = []
    for i, sg in enumerate(task.subgraphs):
        args = ", ".join(
            f"{a.name}: {'SymInt' if a.is_symint else str(a.dtype).removeprefix('torch.')}{'' if a.is_symint else list(a.shape)}"
            for a in sg.args
        )
        lines.append(f"[{i}] {sg.name} (from {sg.source}), dtypes {','.join(sg.dtypes) or '-'}")
        lines.append(f"    args: {args}")
        lines.append(f"    ops: {' -> '.join(sg.op_sequence)}")
    return "\n".join(lines)


def describe_ir(ir: dict[str, Any], view: str) -> str:
    """``inspect_ir`` text: the FX code block, the node table, and/or the ATen graph."""
    head = f"Subgraph [{ir['index']}] {ir['name']} (from {ir['source']}) on {ir['device']}"
    if ir.get("graph_breaks"):
        head += f"; Dynamo split it into {ir['graph_breaks'] + 1} graphs"
    out = [head]
    if view in ("fx", "all"):
        out += ["", "## Dynamo FX graph (what a pattern must match)", "```python", ir["fx_code"], "```", "",
                "## Nodes", "name | op | target | shape | dtype"]
        for n in ir["fx_nodes"]:
            if n["op"] == "output":
                continue
            out.append(f"{n['name']} | {n['op']} | {n['target']} | {n['shape']} | {n['dtype']}")
    if view in ("aten", "all"):
        out += ["", "## Post-grad ATen graph (what Inductor compiles)", "```python", ir["aten_code"], "```"]
    return "\n".join(out)


def describe_baseline(ir: dict[str, Any], times: dict[str, float] | None) -> str:
    """``show_baseline`` text: Inductor's kernels, its own correctness level against eager and what
    that costs in the score, profiles, and measured times."""
    out = [f"Default Inductor on subgraph [{ir['index']}] {ir['name']} ({ir['device']}): "
           f"{len(ir['kernels'])} kernel launch(es), {ir['output_code_lines']} lines of generated code"]
    for k in ir["kernels"]:
        out.append(f"  {k['name']:<50} {k['kind']:<7} fuses: {k['fuses']}")
    if "inductor_error" in ir:
        out.append(describe_inductor_correctness(ir["inductor_error"]))
    if ir.get("inductor_divergence"):
        from ...tools.inspection.divergence import Divergence

        out += describe_divergence(Divergence.model_validate(ir["inductor_divergence"]))
    if times:
        out.append(f"Measured per call: eager {times['eager_us']:.1f} us, Inductor {times['inductor_us']:.1f} us")
    prof = ir.get("profile") or {}
    field = "self_device_us_per_run" if ir["device"].startswith("cuda") else "self_cpu_us_per_run"
    for variant in ("eager", "inductor"):
        rows = prof.get(variant) or []
        if rows:
            out.append(f"Top profiler events per call, {variant} ({'device' if 'device' in field else 'CPU'} self time):")
            for r in rows[:8]:
                out.append(f"  {r[field]:9.1f} us  x{r['calls_per_run']:g}  {r['name'][:90]}")
    return "\n".join(out)


def describe_inductor_correctness(err: dict[str, Any]) -> str:
    """Default Inductor's own correctness level on a subgraph and, in one sentence, what it means
    for the score (the share of AS weight on the levels it fails, ``tools.measure.scoring.AS_WEIGHTS``)."""
    from ...tools.measure.correctness import HEADLINE_LEVEL, TOLERANCE_LEVELS
    from ...tools.measure.scoring import AS_WEIGHTS

    if "error" in err:
        return f"Default Inductor's correctness against eager: not measured ({err['error']})"
    level = err.get("min_correct_t")
    per = err.get("per_output") or []
    outputs = (" (per output: " + ", ".join(_t(t) for t in per) + ")") if len(per) > 1 else ""
    head = f"Default Inductor's correctness against eager (3 draws): correct {_t(level)}{outputs}, max abs err {err.get('max_abs', 0):.3g}."
    if level is not None and level <= TOLERANCE_LEVELS[0]:
        return head + " It loses nothing to rounding here; the score depends on speed."
    # Below level c a subgraph left to Inductor scores b (t <= 0; t >= 1 tolerates accuracy failures).
    failed = [t for t in TOLERANCE_LEVELS if t <= 0 and (level is None or t < level)]
    share = sum(AS_WEIGHTS[t] for t in failed) / sum(AS_WEIGHTS.values())
    where = "at every level t <= 0" if level is None else f"at t < {level}"
    if share < 0.01:
        return head + f" The levels it fails ({where}) carry {share:.1%} of AS's weight: the score depends on speed."
    verdict = ("so it fails the headline level t=-5 itself" if level is None or level > HEADLINE_LEVEL else "")
    return (head + f" Scoring: the part of this subgraph left to Inductor is scored as failed {where} "
            f"({share:.0%} of AS's weight){', ' + verdict if verdict else ''}; a pass that keeps eager's rounding "
            "on the fragment Inductor gets wrong gains more there than any speedup.")


_KIND_NOTE = ("kinds: kernel = Inductor-generated kernel, aten = ATen operator (extern call or fallback), "
              "op = another operator (e.g. your custom op), framework = Dynamo/AOTAutograd/wrapper overhead")


def short_event_name(name: str, width: int = 100) -> str:
    """A profiler event name without per-compile ids (``graph_3_``, graph hashes), trimmed to ``width``."""
    name = re.sub(r"^graph_\d+_", "", name)
    name = re.sub(r"## Call CompiledFxGraph \w+ ##", "Call CompiledFxGraph", name)
    name = re.sub(r"^(Torch-Compiled Region): \d+/\d+$", r"\1", name)
    return name if len(name) <= width else name[: width - 3] + "..."


def _merged(profile: VariantProfile | None) -> dict[str, tuple[str, float, float]]:
    """Short name -> (kind, us per call, calls per call), summing events that share a short name."""
    rows: dict[str, tuple[str, float, float]] = {}
    for k in profile.kernels if profile else []:
        name = short_event_name(k.name)
        kind, us, calls = rows.get(name, (k.kind, 0.0, 0.0))
        rows[name] = (kind, us + k.us_per_run, calls + k.calls_per_run)
    return rows


def _cell(row: tuple[str, float, float] | None) -> str:
    if row is None:
        return "-"
    _kind, us, calls = row
    return f"{us:.1f}" + (f" x{calls:g}" if abs(calls - 1) > 1e-9 else "")


def profile_table(inductor: VariantProfile | None, candidate: VariantProfile | None, top: int = 10) -> list[str]:
    """Default Inductor's and the candidate's events side by side, one row per event name: the
    union of each variant's ``top`` events, ordered by the larger of the two times."""
    a, b = _merged(inductor), _merged(candidate)
    chosen: list[str] = []
    for rows in (a, b):
        for name, _ in sorted(rows.items(), key=lambda kv: -kv[1][1])[:top]:
            if name not in chosen:
                chosen.append(name)
    chosen.sort(key=lambda n: -max(a.get(n, ("", 0.0, 0.0))[1], b.get(n, ("", 0.0, 0.0))[1]))
    w = max([len(n) for n in chosen] + [24])  # whole kernel names: they say what each kernel fuses
    lines = [f"  {'event':<{w}} {'kind':<9} {'Inductor':>14} {'candidate':>14}"]
    for name in chosen:
        kind = (a.get(name) or b[name])[0]
        lines.append(f"  {name:<{w}} {kind:<9} {_cell(a.get(name)):>14} {_cell(b.get(name)):>14}")
    rest = []
    for rows, prof in ((a, inductor), (b, candidate)):
        shown = sum(rows[n][1] for n in chosen if n in rows)
        rest.append("-" if prof is None else f"{max(prof.total_us - shown, 0.0):.1f}")
        if prof is not None and prof.events > len(rows):
            rest[-1] += f" ({prof.events - len(rows)} ev)"
    if any(r not in ("-", "0.0") for r in rest):
        lines.append(f"  {'(other events)':<{w}} {'':<9} {rest[0]:>14} {rest[1]:>14}")
    totals = ["-" if p is None else f"{p.total_us:.1f}" for p in (inductor, candidate)]
    kernels = ["-" if p is None else f"{p.kernel_us:.1f}" for p in (inductor, candidate)]
    lines.append(f"  {'TOTAL per call':<{w}} {'':<9} {totals[0]:>14} {totals[1]:>14}")
    lines.append(f"  {'  of which in kind kernel':<{w}} {'':<9} {kernels[0]:>14} {kernels[1]:>14}")
    return lines


def describe_profile(result: EvalResult, indices: list[int], origin: str) -> tuple[str, bool]:
    """``profile_pass`` text for subgraphs ``indices``; the bool is False when no candidate
    profile exists for any of them (the pass failed there: the text says why)."""
    by_index = {s.index: s for s in result.subgraphs}
    subgraphs = [by_index[i] for i in indices if i in by_index]
    one = len(subgraphs) == 1
    top = 10 if one else 6
    device_time = result.config.device.startswith("cuda")
    unit = "device time of each kernel" if device_time else "self CPU time of each event"
    runs = next((p.runs for s in subgraphs if s.profile for p in (s.profile.inductor, s.profile.candidate) if p), None)
    head = [f"Profiles {origin}; pass sha256 {result.pass_sha256[:12]}. Microseconds per call, {unit}, "
            f"torch.profiler over {runs or '?'} calls per variant. The profiler adds its own overhead: read "
            f"where time goes and what changed here, and the speed from evaluate_pass's timing.",
            _KIND_NOTE, ""]
    out: list[str] = []
    profiled = 0
    for s in subgraphs:
        t = s.times
        stat = result.config.time_statistic
        timed = (f"; timed: Inductor {_us(scored_us(t['inductor'], stat))}, yours {_us(scored_us(t['candidate'], stat))} "
                 f"({_xr(s.speedup_vs_inductor, t['inductor'], t['candidate'])} vs Inductor)" if "candidate" in t and "inductor" in t else "")
        out.append(f"[{s.index}] {s.name} ({','.join(s.dtypes)}): {s.status.upper()}, matches {s.matches}{timed}")
        prof = s.profile
        if prof is None:
            out.append("    no profile: this evaluation was not profiled" if not result.config.profile
                       else f"    no profile: {s.message.splitlines()[0] if s.message else 'the evaluation recorded none'}")
            out.append("")
            continue
        if prof.candidate is not None:
            profiled += 1
        else:
            why = "\n".join(x for x in (s.message or prof.error or "it did not run", s.traceback) if x).strip().replace("\n", "\n    ")
            out.append(f"    candidate not profiled: the pass failed here ({s.status}): {why}")
        if prof.inductor is None and prof.candidate is None:
            out.append(f"    no profile: {prof.error or 'none recorded'}")
        else:
            out += profile_table(prof.inductor, prof.candidate, top)
        out.append("")
    if profiled == 0:
        head.insert(0, "error: no candidate profile: the pass did not run cleanly on "
                       + ("this subgraph" if one else "any subgraph") + "; fix it first (see below and evaluate_pass).")
    return "\n".join(head + out).rstrip(), profiled > 0


def _level(t: int | None) -> str:
    return "at no level" if t is None else f"from t={t}"


def _without_importlib_frames(text: str) -> str:
    """A load error's traceback without Python's import machinery: the pass's own frames only."""
    keep, skip = [], False
    for line in text.splitlines():
        if line.lstrip().startswith('File "<frozen importlib'):
            skip = True  # its source line, if shown, follows
            continue
        if skip and line.startswith("    ") and not line.lstrip().startswith("File "):
            continue
        skip = False
        keep.append(line)
    return "\n".join(keep)


def describe_load_error(message: str, traceback: str = "", for_user: bool = True) -> str:
    """A pass that does not load, said first: the error with its file and line, the pass's own
    frames, and what to do (``passagent`` commands for people, tool names for the model)."""
    tb = _without_importlib_frames(traceback).strip()
    again = ("fix it, then run passagent check again (passagent eval scores it)" if for_user
             else "fix it with write_pass, then check_pass again")
    return "\n".join([f"the pass does not load: {message}"] + (["  " + tb.replace("\n", "\n  ")] if tb else [])
                     + [f"nothing else was checked: {again}."])


def check_exit_code(report: Any) -> int:
    """``passagent check``'s exit code (docs/cli.md): INTEGRITY (3) where the static checks refuse
    the pass, OK (0) where every subgraph matched and would be correct at t = -5, else FAILED (1)."""
    from ..exit_codes import ExitCode

    if report.findings:
        return ExitCode.INTEGRITY
    clean = (not report.load_error and not report.error and report.subgraphs
             and all(s.matches and not s.error and not s.no_change and s.outputs and all(
                 o.problem is None and o.min_correct_t is not None and o.min_correct_t <= -5 for o in s.outputs)
                     for s in report.subgraphs))
    return ExitCode.OK if clean else ExitCode.FAILED


#: Lines of one generated kernel's source shown at a time (``check_pass`` with ``inductor=true``).
KERNEL_PAGE_LINES = 80


def kernel_page(name: str, source: str, from_line: int, report: Any, for_user: bool) -> list[str]:
    """Lines ``from_line`` .. ``from_line + KERNEL_PAGE_LINES - 1`` of kernel ``name``'s source (1-based),
    in a code block, and where the rest is: the call that shows the next page."""
    code = source.splitlines()
    start = max(1, from_line)
    end = min(len(code), start + KERNEL_PAGE_LINES - 1)
    lang = "python" if source.lstrip().startswith(("import", "@", "def")) else "cpp"
    out = [f"    generated kernel {name}, lines {start}-{end} of {len(code)}:", f"```{lang}", *code[start - 1:end], "```"]
    if end < len(code):
        nxt = (f"the same command with --kernel {name} --from-line {end + 1}"
               if for_user else f"check_pass with inductor=true, subgraph={report.inductor_subgraph}, kernel=\"{name}\", from_line={end + 1}")
        out.append(f"    ... lines {end + 1}-{len(code)} not shown: {nxt}")
    return out


_DIVERGING = {"inductor": "default Inductor", "candidate": "your candidate compiled by Inductor",
              "candidate_eager": "your rewritten graph run eagerly"}


def describe_divergence(d: Any) -> list[str]:
    """Lines for one :class:`~passagent.tools.inspection.divergence.Divergence`: where ``d.computation`` first
    leaves level ``d.level`` against eager, its error, the node before it, the search's cost."""
    who = _DIVERGING.get(d.computation, d.computation)
    cost = (f"; {d.compiles} prefix compile(s)" + (f", {d.wall_s:.1f} s" if d.wall_s >= 0.1 else "")) if d.compiles else ""
    if d.node is None:
        # Every node compared is within the level; an output computed by the pass's own nodes alone
        # has no eager counterpart to compare, so a failing output is then "not located".
        return [f"divergence at t={d.level}, {who}: not located: {d.note or 'every compared node is within the level'}{cost}"]
    value = f"{d.dtype}{d.shape}" if d.shape is not None else "?"
    err = f"correct {_level(d.min_correct_t)}" + (f", max abs err {d.max_abs:.3g}" if d.max_abs is not None else "")
    if d.within:
        before = f"; the node compared before it, {d.within}, is within t={d.level}, so the error arises computing {d.node}"
        if d.compiles and d.dtype in ("float16", "bfloat16"):
            before += (": in half precision, typically a rounding eager does between ops that the fused kernel skips "
                       "(to keep it, round in arithmetic Inductor keeps, e.g. Veltkamp's split, as the system prompt says)")
    else:
        before = "; it is the first node compared"
    lines = [f"divergence at t={d.level}, {who}: first at node {d.node} ({d.op}, {value}): {err}{before}{cost}"]
    if d.note:
        lines.append(f"  note: {d.note}")
    return lines


def describe_check(report: Any, graph_of: int | None = None, max_graph_lines: int = 80, for_user: bool = False,
                   kernel: str | None = None, from_line: int = 1) -> str:
    """``check_pass`` / ``passagent check`` text: whether the pass loads, static findings, matches
    and diagnostics per subgraph, one comparison per output on one draw, and the rewritten FX graph
    of subgraph ``graph_of`` (default: the first subgraph the pass matched), cut at ``max_graph_lines``.
    With an Inductor compile, the first :data:`KERNEL_PAGE_LINES` lines of each generated kernel, or
    of ``kernel`` alone from line ``from_line`` (1-based; a page of the whole source, never cut).

    ``for_user``: the text is for a person at ``passagent check`` (it names the commands to run);
    otherwise for the model (it names the agent's tools)."""
    from ...tools.measure.correctness import HEADLINE_LEVEL

    evaluate = "passagent eval" if for_user else "evaluate_pass"
    if getattr(report, "compiled", True):
        compiled = "each candidate compiled by Inductor as the evaluation compiles it"
    else:
        compiled = ("run eagerly, no Inductor compile" + (f" (but subgraph [{report.inductor_subgraph}]'s)"
                                                          if report.inductor_subgraph is not None else ""))
    threads = (f", {report.cpu_threads} CPU thread{'s' if report.cpu_threads != 1 else ''}"
               if getattr(report, "cpu_threads", None) and str(report.device).startswith("cpu") else "")
    head = (f"Check of pass {report.pass_sha256[:12]} on {report.task_id} ({report.device}{threads}, {report.wall_s:.1f} s): "
            f"static checks, matches, the rewritten FX graph and one input draw against eager; {compiled}, "
            f"no timing, " + ("no score (passagent eval scores it)." if for_user
                              else "not a pass version (use evaluate_pass for the score)."))
    if report.load_error:  # before anything else: nothing below could run
        message, _, tb = report.load_error.partition("\n")
        return describe_load_error(message, tb, for_user)
    lines = [head]
    if report.findings:
        lines.append(f"STATIC CHECKS: {len(report.findings)} violation(s); {evaluate} would refuse this pass "
                     "(every subgraph an integrity failure). Not run:")
        lines += [f"  {f.file}:{f.line} [{f.rule}] {f.message}" for f in report.findings]
        return "\n".join(lines)
    lines.append("static checks: clean")
    if report.error:
        lines.append(f"ERROR: {report.error}")
    shown = graph_of if graph_of is not None else report.inductor_subgraph if report.inductor_subgraph is not None else next((s.index for s in report.subgraphs if s.matches), None)
    for s in report.subgraphs:
        per_rule = ", ".join(f"{r.rule}={r.matches}" for r in s.rules)
        if s.error:
            verdict = "would fail: " + s.error
        elif not s.matches:
            verdict = "would fail (compile: the pass matched nothing here)"
        elif s.no_change:
            verdict = "would fail (integrity no_change: the ATen ops are the same as without the pass)"
        else:
            worst = [o.min_correct_t for o in s.outputs]
            bad = not worst or any(o.problem for o in s.outputs) or None in worst
            level = None if bad else max(worst)  # type: ignore[type-var]
            verdict = (f"correct on this draw from t={level}" if level is not None and level <= HEADLINE_LEVEL
                       else f"would fail (wrong values: correct {_level(level)}; t={HEADLINE_LEVEL} needed)")
        lines.append(f"[{s.index}] {s.name}: matches {s.matches} ({per_rule}); {verdict}")
        for r in s.rules:
            if r.diagnostic and not r.matches:
                lines.append(f"    [{r.rule}] no match: " + r.diagnostic.replace("\n", "\n    "))
            lines += [f"    [{r.rule}] note: {n}" for n in r.notes]
        for o in s.outputs:
            what = f"{o.dtype}{o.shape}" if o.shape is not None else "?"
            name = f"input {o.written_input} (eager writes it)" if getattr(o, "written_input", None) is not None else f"output {o.index}"
            lines.append(f"    {name} {what}: " + (o.problem or f"correct {_level(o.min_correct_t)}" + (f" (max abs err {o.max_abs:.3g})" if o.max_abs is not None else "")))
        if s.traceback:
            lines.append("    " + s.traceback.replace("\n", "\n    "))
        lines += ["    " + line for d in getattr(s, "divergence", []) for line in describe_divergence(d)]
        if s.index == shown and s.rewritten_fx:
            code = s.rewritten_fx.splitlines()
            cut = f"\n    ... ({len(code) - max_graph_lines} more lines)" if len(code) > max_graph_lines else ""
            lines += [f"    rewritten FX graph of [{s.index}] (what Inductor would compile):", "```python",
                      *code[:max_graph_lines], "```" + cut]
        if s.kernels:
            lines.append(f"    Inductor's kernels for your candidate on [{s.index}] ({len(s.kernels)} launch(es)):")
            lines += [f"      {k['name']:<50} {k['kind']:<7} fuses: {k['fuses']}" for k in s.kernels]
        if s.index == shown and kernel is not None and kernel not in s.kernel_code:
            known = ", ".join(s.kernel_code) or "none"
            lines.append(f"    no generated kernel is named {kernel!r} on [{s.index}]; its kernels: {known}")
        for name, src in (s.kernel_code.items() if s.index == shown else []):
            if kernel is None or name == kernel:
                lines += kernel_page(name, src, from_line if name == kernel else 1, report, for_user)
        if s.index == shown and s.post_grad:
            code = s.post_grad.splitlines()
            cut = f"\n    ... ({len(code) - max_graph_lines} more lines)" if len(code) > max_graph_lines else ""
            lines += [f"    post-grad ATen graph of your candidate on [{s.index}]:", "```python", *code[:max_graph_lines], "```" + cut]
    half = [s.index for s in report.subgraphs if s.index != report.inductor_subgraph
            and any(o.dtype in ("float16", "bfloat16") for o in s.outputs)]
    if half and not getattr(report, "compiled", True):
        again = "without --eager" if for_user else "without eager=true"
        lines.append(f"Half precision on {', '.join(f'[{i}]' for i in half)}, run eagerly: Inductor's fused kernels can round "
                     f"differently from the eager run; the check {again} gives the evaluation's verdict on this draw.")
    return "\n".join(lines)
