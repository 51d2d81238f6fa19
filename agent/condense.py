"""Turn harness results and IR into the text a model reads in a tool result.

Condensed, not lossy where it matters: per subgraph status, failure class, match count,
speedups, the trimmed error pointing at pass-file lines, and the task's ES(t) and AS.
"""

from __future__ import annotations

from typing import Any

from ..tools.schema import EvalResult, SubgraphResult
from ..tools.tasks import Task


def _x(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}x"


def _t(t: int | None) -> str:
    return "never" if t is None else f"t>={t}"


def describe_subgraph_result(s: SubgraphResult) -> str:
    """One block of text for one subgraph's evaluation."""
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
        parts.append(
            f"    time: eager {t['eager'].median_us:.1f} us, Inductor {t['inductor'].median_us:.1f} us, "
            f"yours {t['candidate'].median_us:.1f} us -> {_x(s.speedup_vs_eager)} vs eager, {_x(s.speedup_vs_inductor)} vs Inductor"
            if "inductor" in t and "eager" in t else f"    time: yours {t['candidate'].median_us:.1f} us"
        )
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
    head += f"; correct@-5: {correct}/{n}; fast_1: {sc.fast_1:.0%}"
    if best_as is not None:
        head += f"; best AS so far: {best_as:.4f}"
    es = ", ".join(f"{t}:{v:.3g}" for t, v in sc.es.items() if t >= -6)
    lines = [head, f"ES(t) for t=-6..4: {es}", ""]
    lines += [describe_subgraph_result(s) for s in result.subgraphs]
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
    """``show_baseline`` text: Inductor's kernels, profiles, and measured times."""
    out = [f"Default Inductor on subgraph [{ir['index']}] {ir['name']} ({ir['device']}): "
           f"{len(ir['kernels'])} kernel launch(es), {ir['output_code_lines']} lines of generated code"]
    for k in ir["kernels"]:
        out.append(f"  {k['name']:<50} {k['kind']:<7} fuses: {k['fuses']}")
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
