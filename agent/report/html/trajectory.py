"""A run's ``events.jsonl`` as the trajectory viewer shows it: steps, each with the model's
message, its tool calls and their results, the pass version an evaluation produced (as a diff
against the previous version), the evaluation's per-subgraph table, and the spend so far.

The event kinds and fields are those :mod:`passagent.agent.run.loop` and :mod:`passagent.agent.run.solve`
record (``message``, ``model_response``, ``tool_result``, ``format_error``, ``error``,
``run_end``); an unknown kind is kept as a note so nothing a run recorded is hidden.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ....tools.evaluation.results import inductor_outcome, scored_us
from ....tools.evaluation.schema import EvalResult
from ...run.runstate import read_events
from ...run.events import EventKind

MAX_TEXT = 20_000
"""Characters of one message or tool result shown (the rest is cut with a note): a tool result
can hold a whole FX graph, and one page must stay light."""


def _clip(text: str | None) -> str:
    text = text or ""
    if len(text) <= MAX_TEXT:
        return text
    return text[:MAX_TEXT] + f"\n... ({len(text) - MAX_TEXT} more characters not shown)"


@dataclass
class SubgraphRow:
    """One subgraph of an evaluation, as its table shows it (times in microseconds)."""

    name: str
    status: str
    matches: int
    eager_us: float | None
    inductor_us: float | None
    candidate_us: float | None
    speedup_vs_eager: float | None
    speedup_vs_inductor: float | None
    min_correct_t: int | None
    inductor_min_correct_t: int | None
    inductor_speedup: float | None
    message: str | None
    integrity_rule: str | None


@dataclass
class Evaluation:
    """One evaluation of a pass version: its scores and per-subgraph rows."""

    version: int
    as_: float
    baseline: str
    correct_at_minus5: float
    fast_1: float
    rows: list[SubgraphRow]
    warnings: list[str]
    es: dict[int, float]

    @property
    def integrity(self) -> list[SubgraphRow]:
        return [r for r in self.rows if r.status == "integrity" or r.integrity_rule]


@dataclass
class ToolStep:
    """One tool call and its result."""

    name: str
    arguments: str
    result: str
    is_error: bool
    format_error: bool
    version: int | None = None
    diff: list[tuple[str, str]] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    evaluation: Evaluation | None = None


@dataclass
class Step:
    """One model call (step) and what followed it."""

    index: int
    text: str
    tools: list[ToolStep]
    notes: list[tuple[str, str]]
    tokens: int
    cost_usd: float
    cum_tokens: int
    cum_cost_usd: float
    latency_s: float | None
    best_as: float | None

    @property
    def flagged(self) -> str | None:
        """'integrity', 'error' or None: how the viewer highlights the step."""
        if any(t.evaluation and t.evaluation.integrity for t in self.tools):
            return "integrity"
        if any(t.is_error or t.format_error for t in self.tools) or any(k == "error" for k, _ in self.notes):
            return "error"
        return None


@dataclass
class Trajectory:
    """One run, step by step."""

    prompt: list[tuple[str, str]]
    steps: list[Step]
    end: str | None
    problems: list[str]

    @property
    def as_points(self) -> list[tuple[int, float, int]]:
        """(step, AS, version) of every evaluation, in order."""
        return [(s.index, t.evaluation.as_, t.version) for s in self.steps for t in s.tools
                if t.evaluation is not None and t.version is not None]

    @property
    def integrity_steps(self) -> list[int]:
        return [s.index for s in self.steps if s.flagged == "integrity"]


def evaluation_of(ev: dict[str, Any], version: int) -> Evaluation | None:
    """An :class:`Evaluation` from a recorded ``EvalResult`` (JSON); None if it does not parse."""
    try:
        r = EvalResult.model_validate(ev)
    except ValueError:
        return None
    stat = r.config.time_statistic
    rows = []
    for s in r.subgraphs:
        t = {k: scored_us(v, stat) for k, v in s.times.items()}
        ind = inductor_outcome(s, stat)
        rows.append(SubgraphRow(
            name=s.name, status=s.status, matches=s.matches, eager_us=t.get("eager"), inductor_us=t.get("inductor"),
            candidate_us=t.get("candidate"), speedup_vs_eager=s.speedup_vs_eager, speedup_vs_inductor=s.speedup_vs_inductor,
            min_correct_t=s.candidate_error.min_correct_t if s.candidate_error else None,
            inductor_min_correct_t=ind.min_correct_t, inductor_speedup=ind.speedup, message=s.message,
            integrity_rule=s.integrity_rule))
    return Evaluation(version, r.scores.aggregated, r.scores.baseline, r.scores.correct_at_minus5, r.scores.fast_1, rows,
                      list(r.warnings), dict(r.scores.es))


def source_diff(before: dict[str, str], after: dict[str, str]) -> list[tuple[str, str]]:
    """Unified diff (``difflib``) of a pass's files, ``before`` -> ``after``, as (kind, line) pairs
    with kind one of ``add``, ``del``, ``hunk``, ``file`` or ``ctx``."""
    out: list[tuple[str, str]] = []
    for name in sorted(set(before) | set(after)):
        a, b = before.get(name, ""), after.get(name, "")
        if a == b:
            continue
        for line in difflib.unified_diff(a.splitlines(), b.splitlines(), f"a/{name}", f"b/{name}", lineterm=""):
            kind = ("file" if line.startswith(("---", "+++")) else "hunk" if line.startswith("@@")
                    else "add" if line.startswith("+") else "del" if line.startswith("-") else "ctx")
            out.append((kind, line))
    return out


def _args_text(call: dict[str, Any]) -> str:
    args = call.get("arguments")
    if args is None:
        return f"(arguments did not parse: {call.get('parse_error')})\n{call.get('raw_arguments') or ''}"
    # A pass's source is shown once, as the version's diff: here only its size.
    shown = {k: (f"<{len(v.splitlines())} lines>" if k in ("source", "new", "old") and isinstance(v, str) and "\n" in v else v)
             for k, v in args.items()}
    return json.dumps(shown, indent=1) if shown else ""


def load_trajectory(run_dir: Path) -> Trajectory:
    """Read ``run_dir/events.jsonl`` into a :class:`Trajectory` (never raises on bad lines: they
    are listed in ``problems``)."""
    events, problems = read_events(Path(run_dir))
    prompt: list[tuple[str, str]] = []
    steps: dict[int, Step] = {}
    prev_files: dict[str, str] = {}
    cum_tokens, cum_cost, best = 0, 0.0, None
    end = None

    def step(i: int) -> Step:
        if i not in steps:
            steps[i] = Step(i, "", [], [], 0, 0.0, cum_tokens, cum_cost, None, best)
        return steps[i]

    for e in events:
        kind = e.get("kind")
        if kind == EventKind.MESSAGE:
            m = e.get("message") or {}
            prompt.append((str(m.get("role")), _clip(m.get("content"))))
        elif kind == EventKind.MODEL_RESPONSE:
            u = e.get("usage") or {}
            tokens = int(u.get("input_tokens") or 0) + int(u.get("output_tokens") or 0)
            cum_tokens += tokens
            cum_cost += float(u.get("cost_usd") or 0.0)
            s = step(int(e.get("step", 0)))
            msg = (e.get("response") or {}).get("message") or {}
            s.text, s.tokens, s.cost_usd = _clip(msg.get("content")), tokens, float(u.get("cost_usd") or 0.0)
            s.cum_tokens, s.cum_cost_usd, s.latency_s = cum_tokens, cum_cost, e.get("latency_s")
        elif kind == EventKind.TOOL_RESULT:
            s = step(int(e.get("step", 0)))
            call = e.get("call") or {}
            t = ToolStep(str(call.get("name")), _args_text(call), _clip(e.get("result")), bool(e.get("is_error")),
                         bool(e.get("format_error")))
            if e.get("version") is not None:
                t.version = int(e["version"])
                t.files = dict(e.get("pass_sources") or {})
                t.diff = source_diff(prev_files, t.files)
                prev_files = t.files
                if e.get("evaluation"):
                    t.evaluation = evaluation_of(e["evaluation"], t.version)
                    if t.evaluation and (best is None or t.evaluation.as_ > best):
                        best = t.evaluation.as_
                s.best_as = best
            s.tools.append(t)
        elif kind in (EventKind.FORMAT_ERROR, EventKind.ERROR):
            step(int(e.get("step", 0))).notes.append(("error" if kind == EventKind.ERROR else "format", _clip(e.get("message") or e.get("error"))))
        elif kind == EventKind.RUN_END:
            end = str(e.get("exit_reason"))
        else:
            step(int(e.get("step", 0) or 0)).notes.append(("note", f"{kind}: {_clip(json.dumps(e)[:2000])}"))
    return Trajectory(prompt, [steps[k] for k in sorted(steps)], end, problems)
