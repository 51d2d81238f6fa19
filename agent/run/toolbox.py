"""The tools a model gets: inspect the task, write and edit the pass, evaluate and profile it, finish.

Every tool returns text for the model; a bad call (unknown tool, malformed or missing
arguments, a failing harness step) comes back as an error text, never as an exception out of
the loop. Descriptions are templates in ``prompts/tools/``.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ...tools.evaluation.baseline_cache import BaselineCache
from ...tools.inspection.check import check_pass_on_task
from ...tools.errors import PassagentError
from ...tools.evaluation.evaluate import EvalOptions, evaluate_pass
from ...tools.inspection.ir import inspect_isolated
from ...tools.passes.rules import RULE_LIST_FILE, pass_digest
from ...tools.evaluation.schema import EvalResult
from ...tools.tasks.loader import Task
from .condense import (
    describe_baseline,
    describe_check,
    describe_eval,
    describe_ir,
    describe_profile,
    describe_task,
    describe_time,
)
from .prompting import render
from ..protocols import ToolCall, ToolSpec

_RULE_NAME = {"type": "string", "description": "rule (file) name, a Python identifier; default 'main'", "default": "main"}
_SUBGRAPH = {"type": "integer", "description": "subgraph index from list_subgraphs", "minimum": 0}

TOOL_PARAMETERS: dict[str, dict[str, Any]] = {
    "list_subgraphs": {"type": "object", "properties": {}, "additionalProperties": False},
    "inspect_ir": {
        "type": "object",
        "properties": {"subgraph": _SUBGRAPH, "view": {"type": "string", "enum": ["fx", "aten", "all"], "default": "fx"}},
        "required": ["subgraph"],
        "additionalProperties": False,
    },
    "show_baseline": {"type": "object", "properties": {"subgraph": _SUBGRAPH}, "required": ["subgraph"], "additionalProperties": False},
    "write_pass": {
        "type": "object",
        "properties": {"source": {"type": "string", "description": "the complete rule file"}, "rule": _RULE_NAME},
        "required": ["source"],
        "additionalProperties": False,
    },
    "edit_pass": {
        "type": "object",
        "properties": {"old": {"type": "string"}, "new": {"type": "string"}, "rule": _RULE_NAME},
        "required": ["old", "new"],
        "additionalProperties": False,
    },
    "delete_rule": {"type": "object", "properties": {"rule": _RULE_NAME}, "required": ["rule"], "additionalProperties": False},
    "read_pass": {"type": "object", "properties": {}, "additionalProperties": False},
    "check_pass": {
        "type": "object",
        "properties": {
            "subgraph": {**_SUBGRAPH, "description": "subgraph whose rewritten FX graph to show; omit for the first one matched"},
            "inductor": {"type": "boolean", "default": False, "description": (
                "also show, on `subgraph` (default 0), your candidate's post-grad ATen graph and the kernels Inductor "
                "generates for it, with what each fuses")},
            "kernel": {"type": "string", "description": (
                "with inductor=true: show only this generated kernel's source (its name as listed), a page at a time")},
            "from_line": {"type": "integer", "minimum": 1, "default": 1, "description": (
                "with kernel: the first line of the page (1-based); the text names the next page's from_line")},
            "eager": {"type": "boolean", "default": False, "description": (
                "run each rewritten graph eagerly instead of compiling it with Inductor: faster, exact about matching, "
                "but in half precision its verdict can differ from the evaluation's")},
            "divergence": {"type": "boolean", "default": False, "description": (
                "on `subgraph` (default: the first subgraph your candidate fails at t=-5), also find the first graph node "
                "whose value leaves tolerance level `level` "
                "against eager, for default Inductor and for your candidate (compiled, or run eagerly with eager=true); "
                "a compiled search costs a few Inductor compiles")},
            "level": {"type": "integer", "minimum": -10, "maximum": 4, "description": (
                "with divergence: the tolerance level t searched at; default the strictest level an output fails")},
        },
        "additionalProperties": False,
    },
    "evaluate_pass": {"type": "object", "properties": {}, "additionalProperties": False},
    "time_pass": {
        "type": "object",
        "properties": {"subgraph": {**_SUBGRAPH, "description": "time only this subgraph; omit for every subgraph"}},
        "additionalProperties": False,
    },
    "profile_pass": {
        "type": "object",
        "properties": {"subgraph": {**_SUBGRAPH, "description": "subgraph index from list_subgraphs; omit for every subgraph"}},
        "additionalProperties": False,
    },
    "finish": {
        "type": "object",
        "properties": {"summary": {"type": "string", "description": "what the best pass does"}},
        "required": ["summary"],
        "additionalProperties": False,
    },
}


class ToolError(Exception):
    """A tool could not do what was asked; the message goes back to the model."""


@dataclass
class ToolOutcome:
    """What one tool call produced.

    Attributes:
        text: the tool result the model reads.
        is_error: the call failed (bad arguments, unknown tool, harness error).
        evaluation: the harness result when the tool ran an evaluation (``evaluate_pass``, or
            ``profile_pass`` when no profiled evaluation of the current pass existed).
        pass_sources: rule name -> source of the evaluated pass (with ``evaluation`` only).
        finished: the model called ``finish``.
    """

    text: str
    is_error: bool = False
    evaluation: EvalResult | None = None
    pass_sources: dict[str, str] = field(default_factory=dict)
    finished: bool = False
    summary: str | None = None


def quick_timing_options(options: EvalOptions) -> EvalOptions:
    """``options`` for a quick timing (``time_pass``, ``passagent time``): the same timed rounds
    and checks, no held-out shape (its compile and check are most of a warm evaluation's time), no
    profile, and the baselines from the cache where it has them."""
    return dataclasses.replace(options, heldout_shapes=False, profile=False)


class PassWorkspace:
    """The pass being written: a PassNet ``pass_dir/`` (one file per rule + the rule order)."""

    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        if not (root / RULE_LIST_FILE).exists():
            self._write_order([])

    def order(self) -> list[str]:
        return json.loads((self.root / RULE_LIST_FILE).read_text())

    def _write_order(self, names: list[str]) -> None:
        (self.root / RULE_LIST_FILE).write_text(json.dumps(names))

    def sources(self) -> dict[str, str]:
        """Rule name -> source, in application order."""
        return {n: (self.root / f"{n}.py").read_text() for n in self.order()}

    def write(self, rule: str, source: str) -> None:
        if not rule.isidentifier():
            raise ToolError(f"rule name {rule!r} must be a Python identifier")
        (self.root / f"{rule}.py").write_text(source)
        order = self.order()
        if rule not in order:
            self._write_order(order + [rule])

    def delete(self, rule: str) -> None:
        order = self.order()
        if rule not in order:
            raise ToolError(f"no rule {rule!r}; rules: {order}")
        (self.root / f"{rule}.py").unlink(missing_ok=True)
        self._write_order([n for n in order if n != rule])

    def restore(self, sources: dict[str, str]) -> None:
        """Replace the workspace with ``sources`` (rule name -> text)."""
        for p in self.root.glob("*.py"):
            p.unlink()
        for name, text in sources.items():
            (self.root / f"{name}.py").write_text(text)
        self._write_order(list(sources))

    def snapshot(self, dest: Path) -> None:
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(self.root, dest)


def numbered(source: str, start: int = 1) -> str:
    return "\n".join(f"{i:4d}  {line}" for i, line in enumerate(source.splitlines(), start))


class Toolbox:
    """The tools of one solve run over one task.

    Args:
        task: the task being solved.
        workspace: where the pass is written.
        eval_options: options for ``evaluate_pass`` (device, baseline, timing...).
        evaluator: the harness entry point (injectable for tests of the loop's plumbing).
        inspector: IR inspection (injectable likewise).
        checker: the cheap pre-evaluation check (``tools.inspection.check.check_pass_on_task``; injectable).
    """

    def __init__(
        self,
        task: Task,
        workspace: PassWorkspace,
        eval_options: EvalOptions,
        evaluator: Callable[[Task, Path, EvalOptions], EvalResult] = evaluate_pass,
        inspector: Callable[..., dict[str, Any]] = inspect_isolated,
        checker: Callable[..., Any] = check_pass_on_task,
    ):
        self.task = task
        self.workspace = workspace
        self.options = eval_options
        self.evaluator = evaluator
        self.inspector = inspector
        self.checker = checker
        self.last_evaluation: EvalResult | None = None  # the latest evaluation this toolbox ran
        self._last_inductor_check: Any = None  # the latest check_pass with inductor=true (its kernels' whole source)
        # The device the IR was inspected on (a sweep's pool device); cached baselines are looked up for it.
        self._inspected_on: str | None = None
        self.handlers: dict[str, Callable[[dict[str, Any]], ToolOutcome]] = {
            "list_subgraphs": self._list_subgraphs,
            "inspect_ir": self._inspect_ir,
            "show_baseline": self._show_baseline,
            "write_pass": self._write_pass,
            "edit_pass": self._edit_pass,
            "delete_rule": self._delete_rule,
            "read_pass": self._read_pass,
            "check_pass": self._check_pass,
            "evaluate_pass": self._evaluate_pass,
            "time_pass": self._time_pass,
            "profile_pass": self._profile_pass,
            "finish": self._finish,
        }

    def specs(self) -> list[ToolSpec]:
        """The tools offered to the model, with descriptions rendered from ``prompts/tools``."""
        return [
            ToolSpec(name=name, description=render(f"tools/{name}.md.j2", draws=self.options.draws), parameters=params)
            for name, params in TOOL_PARAMETERS.items()
        ]

    def execute(self, call: ToolCall) -> ToolOutcome:
        """Run one tool call; every failure becomes an error outcome for the model."""
        if call.name not in self.handlers:
            return ToolOutcome(f"error: unknown tool {call.name!r}; tools are: {', '.join(self.handlers)}", is_error=True)
        if call.arguments is None:
            return ToolOutcome(
                f"error: the arguments of {call.name} are not a JSON object ({call.parse_error}); "
                f"received: {call.raw_arguments[:300]!r}",
                is_error=True,
            )
        schema = TOOL_PARAMETERS[call.name]
        missing = [k for k in schema.get("required", []) if k not in call.arguments]
        unknown = [k for k in call.arguments if k not in schema["properties"]]
        if missing or unknown:
            return ToolOutcome(
                f"error: {call.name} " + (f"is missing {missing} " if missing else "") + (f"got unknown {unknown} " if unknown else "")
                + f"(parameters: {list(schema['properties'])})",
                is_error=True,
            )
        try:
            return self.handlers[call.name](call.arguments)
        except ToolError as exc:
            return ToolOutcome(f"error: {exc}", is_error=True)
        except PassagentError as exc:
            return ToolOutcome(f"error: {exc}", is_error=True)
        except Exception as exc:  # noqa: BLE001 - a tool failure is reported to the model, not raised
            return ToolOutcome(f"error: {call.name} failed: {type(exc).__name__}: {exc}", is_error=True)

    # -- handlers ------------------------------------------------------------------------------

    def _subgraph_index(self, args: dict[str, Any]) -> int:
        i = args.get("subgraph")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self.task.subgraphs):
            raise ToolError(f"subgraph must be an integer in 0..{len(self.task.subgraphs) - 1}, got {i!r}")
        return i

    def _ir(self, i: int) -> dict[str, Any]:
        """Subgraph ``i``'s inspection, labelled as this task's: the inspection cache is keyed by the
        subgraph's content (its digest), so a record made for an identical subgraph of another task,
        or at another index, carries that one's index, name and source."""
        sg = self.task.subgraphs[i]
        return {**self._inspection(i), "index": i, "name": sg.name, "source": sg.source}

    def _inspection(self, i: int) -> dict[str, Any]:
        sg = self.task.subgraphs[i]
        # One inspection process for every subgraph not inspected yet: a process start costs
        # seconds, and models (and the built-in policy) inspect every subgraph of a task.
        others = [(k, s.digest) for k, s in enumerate(self.task.subgraphs) if k != i]
        o = self.options
        if not o.device_pool:
            return self.inspector(self.task.path, i, sg.digest, device=o.device, cache_root=o.cache_root, also=others,
                                  cpu_threads=o.cpu_threads)
        # In a sweep, inspect on the pool's devices. The inspection's compiles and checks time
        # nothing and run before any lease (FX graph, post-grad graph, output code); only its
        # profile holds a lease, like an evaluation, so it never runs beside another's timed
        # calls. A cached inspection needs no device at all: it must not queue behind
        # evaluations (seen on two H200s: runs whose IR was cached waited minutes for a GPU).
        from ...tools.evaluation.baseline_cache import default_cache_root
        from ...tools.process.device_lease import leased_device
        from ...tools.inspection.ir import cached_inspection
        from ...tools.process.lease_gate import LeaseGate

        kind = leased_device(o.device_pool[0])  # the cache is keyed by device type, shared by the pool
        hit = cached_inspection(self.task.path, i, sg.digest, device=kind, cache_root=o.cache_root, cpu_threads=o.cpu_threads)
        if hit is not None:
            self._inspected_on = self._inspected_on or kind
            return hit

        lock_dir = Path(o.lock_dir or (Path(o.cache_root or default_cache_root()) / "locks"))
        # The process starts on its device before the lease: with several GPUs, one picked by
        # this process's id (runs spread over them), and the profile's lease is for that one.
        pool = list(dict.fromkeys(o.device_pool))
        device = pool[os.getpid() % len(pool)]
        self._inspected_on = leased_device(device)
        gate = LeaseGate([device], lock_dir, {"task": self.task.id, "purpose": "inspect_ir"})
        return self.inspector(self.task.path, i, sg.digest, device=self._inspected_on, cache_root=o.cache_root,
                              also=others, gate=gate, cpu_threads=o.cpu_threads)

    def _list_subgraphs(self, args: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(describe_task(self.task))

    def _inspect_ir(self, args: dict[str, Any]) -> ToolOutcome:
        view = args.get("view", "fx")
        if view not in ("fx", "aten", "all"):
            raise ToolError("view must be 'fx', 'aten' or 'all'")
        return ToolOutcome(describe_ir(self._ir(self._subgraph_index(args)), view))

    def _show_baseline(self, args: dict[str, Any]) -> ToolOutcome:
        i = self._subgraph_index(args)
        ir = self._ir(i)
        return ToolOutcome(describe_baseline(ir, self._cached_times(i)))

    def _cached_times(self, i: int) -> dict[str, float] | None:
        from ...tools.evaluation.baseline_cache import default_cache_root
        from ...tools.evaluation.evaluate import baseline_key, device_name

        o = self.options
        cache = BaselineCache(Path(o.cache_root or default_cache_root()))
        device = self._inspected_on or o.device
        entry = cache.get(baseline_key(cache, self.task.subgraphs[i].digest, device_name(device), dataclasses.replace(o, device=device)))
        if entry and entry.get("eager_us") and entry.get("inductor_us"):
            return {"eager_us": entry["eager_us"], "inductor_us": entry["inductor_us"]}
        return None

    def _write_pass(self, args: dict[str, Any]) -> ToolOutcome:
        rule, source = args.get("rule", "main"), args["source"]
        if not isinstance(source, str) or not source.strip():
            raise ToolError("source must be the complete rule file as a non-empty string")
        self.workspace.write(rule, source)
        note = self._syntax_note(source, rule)
        return ToolOutcome(f"wrote rule {rule!r} ({len(source.splitlines())} lines); the pass's rules: {self.workspace.order()}{note}")

    def _edit_pass(self, args: dict[str, Any]) -> ToolOutcome:
        rule, old, new = args.get("rule", "main"), args["old"], args["new"]
        sources = self.workspace.sources()
        if rule not in sources:
            raise ToolError(f"no rule {rule!r}; rules: {list(sources)}")
        count = sources[rule].count(old)
        if count != 1:
            raise ToolError(f"`old` must occur exactly once in rule {rule!r}; it occurs {count} times")
        text = sources[rule].replace(old, new)
        self.workspace.write(rule, text)
        start = text[: text.index(new)].count("\n") + 1 if new else 1
        shown = "\n".join(numbered(text).splitlines()[max(0, start - 3): start + new.count("\n") + 2])
        return ToolOutcome(f"edited rule {rule!r}:\n{shown}{self._syntax_note(text, rule)}")

    @staticmethod
    def _syntax_note(source: str, rule: str) -> str:
        try:
            ast.parse(source)
        except SyntaxError as exc:
            return f"\nwarning: {rule}.py does not parse: line {exc.lineno}: {exc.msg}"
        return ""

    def _delete_rule(self, args: dict[str, Any]) -> ToolOutcome:
        self.workspace.delete(args["rule"])
        return ToolOutcome(f"deleted rule {args['rule']!r}; the pass's rules: {self.workspace.order()}")

    def _read_pass(self, args: dict[str, Any]) -> ToolOutcome:
        sources = self.workspace.sources()
        if not sources:
            return ToolOutcome("the pass has no rules yet; write one with write_pass")
        return ToolOutcome("\n\n".join(f"# rule {name} ({name}.py)\n{numbered(text)}" for name, text in sources.items()))

    def _check_pass(self, args: dict[str, Any]) -> ToolOutcome:
        """Static checks, matches, rewritten graph, one draw: no evaluation, no pass version."""
        if not self.workspace.sources():
            raise ToolError("the pass has no rules yet; write one with write_pass first")
        shown = self._subgraph_index(args) if "subgraph" in args else None
        kernel, from_line = args.get("kernel"), args.get("from_line", 1)
        if kernel is not None and (not isinstance(kernel, str) or not args.get("inductor")):
            raise ToolError("kernel names a generated kernel, shown only with inductor=true")
        if not isinstance(from_line, int) or isinstance(from_line, bool) or from_line < 1:
            raise ToolError(f"from_line must be an integer >= 1, got {from_line!r}")
        level = args.get("level")
        if level is not None and (not isinstance(level, int) or isinstance(level, bool) or not -10 <= level <= 4):
            raise ToolError(f"level must be an integer tolerance level in -10..4, got {level!r}")
        if level is not None and not args.get("divergence"):
            raise ToolError("level is the divergence search's level, used only with divergence=true")
        page = {"kernel": kernel, "from_line": from_line}
        # Another page of a kernel of the pass just checked with Inductor: that check's report has
        # the whole source; the same pass is not compiled again.
        last = self._last_inductor_check
        if (kernel is not None and not args.get("divergence") and last is not None and last.pass_sha256 == pass_digest(self.workspace.root)
                and last.inductor_subgraph == (shown or 0)):
            return ToolOutcome(describe_check(last, graph_of=shown, **page))
        report = self._run_check(args, shown)
        if report.inductor_subgraph is not None and not report.error:
            self._last_inductor_check = report
        return ToolOutcome(describe_check(report, graph_of=shown, **page))

    def _run_check(self, args: dict[str, Any], shown: int | None) -> Any:
        o = self.options
        from ...tools.inspection.check import AUTO_SUBGRAPH

        search: dict[str, Any] = ({"divergence_subgraph": AUTO_SUBGRAPH if shown is None else shown,
                                   "divergence_level": args.get("level")} if args.get("divergence") else {})
        # The pass runs with the evaluation's candidate cache, never the clean processes'.
        search.update(cache_root=o.cache_root, cache_scope=o.candidate_cache_scope)
        if args.get("eager"):
            search["eager"] = True
        if not o.device_pool:
            report = self.checker(self.task, self.workspace.root, device=o.device, integrity_mode=o.integrity_mode,
                                  sandbox=o.sandbox, inductor_subgraph=(shown or 0) if args.get("inductor") else None,
                                  cpu_threads=o.cpu_threads, **search)
            return report
        # In a sweep the check runs the pass on a leased device, like an evaluation, so it never
        # runs beside another's timed calls (and a Triton replacement gets its GPU); the lease is
        # taken once the check's process has started and loaded the pass, as an evaluation's is.
        from ...tools.evaluation.baseline_cache import default_cache_root
        from ...tools.process.lease_gate import LeaseGate

        lock_dir = Path(o.lock_dir or (Path(o.cache_root or default_cache_root()) / "locks"))
        info = {"task": self.task.id, "purpose": "check_pass"}
        common = {"integrity_mode": o.integrity_mode, "sandbox": o.sandbox, "cpu_threads": o.cpu_threads,
                  "inductor_subgraph": (shown or 0) if args.get("inductor") else None, **search}
        if o.lease_scope == "evaluation":  # the lease around the whole check, as around the whole evaluation
            from ...tools.process.device_lease import lease_device, leased_device

            with lease_device(o.device_pool, lock_dir, info={**info, "lease_scope": "evaluation"}) as device:
                report = self.checker(self.task, self.workspace.root, device=leased_device(device), **common)
        else:
            gate = LeaseGate(o.device_pool, lock_dir, info)
            report = self.checker(self.task, self.workspace.root, device=o.device, gate=gate, **common)
        return report

    def _evaluate_pass(self, args: dict[str, Any]) -> ToolOutcome:
        sources = self.workspace.sources()
        if not sources:
            raise ToolError("the pass has no rules yet; write one with write_pass first")
        result = self.evaluator(self.task, self.workspace.root, self.options)
        self.last_evaluation = result
        return ToolOutcome(describe_eval(result), evaluation=result, pass_sources=sources)

    def _time_pass(self, args: dict[str, Any]) -> ToolOutcome:
        """The evaluation's timed rounds on the current pass, without the held-out shape: no pass
        version, no patience step, not a score."""
        if not self.workspace.sources():
            raise ToolError("the pass has no rules yet; write one with write_pass first")
        task = self.task
        if "subgraph" in args:
            task = dataclasses.replace(task, subgraphs=(task.subgraphs[self._subgraph_index(args)],))
        result = self.evaluator(task, self.workspace.root, quick_timing_options(self.options))
        return ToolOutcome(describe_time(result))

    def _profile_pass(self, args: dict[str, Any]) -> ToolOutcome:
        indices = [self._subgraph_index(args)] if "subgraph" in args else list(range(len(self.task.subgraphs)))
        sources = self.workspace.sources()
        if not sources:
            raise ToolError("the pass has no rules yet; write one with write_pass first")
        last = self.last_evaluation
        if last is not None and last.config.profile and last.pass_sha256 == pass_digest(self.workspace.root):
            text, ok = describe_profile(last, indices, "from the latest evaluation of this pass")
            return ToolOutcome(text, is_error=not ok)
        # No profiled evaluation of the current source: run one (a real evaluation, recorded
        # as a pass version like evaluate_pass's).
        result = self.evaluator(self.task, self.workspace.root, dataclasses.replace(self.options, profile=True))
        self.last_evaluation = result
        text, ok = describe_profile(result, indices, "from a profiled evaluation of the current pass run just now")
        scores = describe_eval(result).splitlines()[0]
        text = f"{text}\n\nThat evaluation is recorded as a pass version: {scores}" if ok else f"{text}\n\nEvaluation: {scores}"
        return ToolOutcome(text, is_error=not ok, evaluation=result, pass_sources=sources)

    def _finish(self, args: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome("finished", finished=True, summary=str(args.get("summary", "")))
