"""Applying a pass's rules to an FX graph.

Matching and replacing use ``torch.fx.subgraph_rewriter`` exactly as PassNet's pass manager
does (the pattern is symbolically traced; placeholders are wildcards; literals must be equal;
matches must be self-contained), so a pass written for PassNet behaves the same here, with
three differences that only make more honest patterns match:

- the pattern is traced by :class:`.inplace.PatternTracer`, so ``x += y`` written as the graph's
  code reads is the in-place node the graph holds (what a replacement does with in-place writes
  is defined in :mod:`.inplace`);
- calls are spelled one way on both sides before matching (:func:`canonicalize_call_args`:
  arguments bound to the signature, and public aliases such as ``F.pad`` mapped to the name
  Dynamo records, ``torch._C._nn.pad``);
- a replacement may return its outputs in any form ``torch.fx`` can trace: a tuple, a list, or
  one opaque value (a ``@torch.fx.wrap`` launcher returning a tuple) that is split here;
- a rule's optional ``match_check`` (:mod:`.rules`) decides per match whether it is rewritten
  (:class:`MatchCheck`, a ``torch.fx`` match filter).

The replacement traced into the graph is ``replacement_func()(*replacement_args(*args))``.
When a rule matches nothing, :func:`.no_match.explain_no_match` says why.
"""

from __future__ import annotations

import inspect
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, cast

import torch
import torch.fx
import torch.nn.functional as F
from torch.fx.passes.utils.matcher_utils import SubgraphMatcher
from torch.fx.subgraph_rewriter import replace_pattern_with_filters

from .inplace import WriteGuard, external_writes, keep_write, pattern_outputs, resolve_writes, trace_pattern
from .no_match import describe_target, explain_no_match  # noqa: F401 - re-exported
from .rules import PassRule
from .triton_ops import triton_leaf

#: ``node.meta`` key naming the rule whose ``replacement_func()`` produced a node (strict mode
#: runs those nodes and only those, :mod:`..integrity.strict_runtime`); ``replacement_args`` and the
#: harness's own nodes (output splitting, kept in-place writes) do not carry it.
REPLACEMENT_META = "passagent_replacement"
# The rule whose replacement_func() is being traced: set and cleared by the generated
# replacement as tracing runs its Python (plain Python calls run, they are not recorded).
_tracing_rule: list[str | None] = [None]


def _begin_replacement(rule: str) -> None:
    _tracing_rule[0] = rule


def _end_replacement(value: Any) -> Any:
    _tracing_rule[0] = None
    return value


@dataclass
class RuleApplication:
    """The outcome of applying one rule to one FX graph.

    Attributes:
        rule: the rule name.
        matches: how many non-overlapping matches were replaced (when applying the rule raised:
            how many the pattern has in the graph).
        diagnostic: why the pattern matched nothing (None when it matched).
        notes: what the rewrite did that the author should know (a dropped in-place write).
        sites: where each match was, as ``node`` or ``node (file:line)``: the graph node the
            match was anchored at and the model source line Dynamo recorded for it.
    """

    rule: str
    matches: int
    diagnostic: str | None = None
    notes: list[str] = field(default_factory=list)
    sites: tuple[str, ...] = ()


@dataclass
class MatchCheck:
    """``torch.fx`` match filter calling a rule's ``match_check`` with what each pattern parameter
    matched: a graph value's recorded example (``node.meta["example_value"]``, a fake tensor or a
    number; ``"val"`` where a pass sees the graph after fake propagation) or the literal itself.

    Attributes:
        check: the rule's ``match_check``.
        seen: matches offered. refused: matches it refused (the no-match diagnostic says so).
    """

    check: Callable[..., Any]
    seen: int = 0
    refused: int = 0

    def __call__(self, match: Any, original_graph: torch.fx.Graph, pattern_graph: torch.fx.Graph) -> bool:
        values = [_matched_value(v) for v in match.placeholder_nodes]
        self.seen += 1
        try:
            keep = bool(self.check(*values))
        except Exception as exc:
            raise MatchCheckError(f"match_check raised {type(exc).__name__}: {exc}") from exc
        self.refused += not keep
        return keep


class MatchCheckError(Exception):
    """A rule's ``match_check`` raised (the rule then fails as a ``compile`` failure)."""


def _matched_value(v: Any) -> Any:
    if isinstance(v, torch.fx.Node):
        return v.meta.get("example_value", v.meta.get("val"))
    return v


class RuleApplyError(Exception):
    """Applying a rule raised (tracing its replacement, or ``torch.fx`` replacing a match).

    Attributes:
        applications: the rules applied before it, then the failing rule with the number of
            matches its pattern has (so a failure after a match reports the match).
    The original exception is the ``__cause__``.
    """

    def __init__(self, rule: str, applications: list[RuleApplication], cause: BaseException):
        self.rule = rule
        self.applications = applications
        n = applications[-1].matches
        where = f"after its pattern matched {n} time(s)" if n else "(its pattern matches nothing)"
        super().__init__(f"rule {rule!r} failed {where}: {type(cause).__name__}: {cause}")


def pattern_arg_names(pattern: Callable[..., Any] | torch.fx.GraphModule) -> list[str]:
    """Positional parameter names of a pattern (placeholders for a GraphModule pattern).

    Raises:
        TypeError: the pattern takes ``*args``/``**kwargs`` or keyword-only parameters.
    """
    if isinstance(pattern, torch.fx.GraphModule):
        return [n.target for n in pattern.graph.nodes if n.op == "placeholder"]
    sig = inspect.signature(pattern)
    names = []
    for p in sig.parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise TypeError(f"pattern parameter {p.name!r} must be positional (no *args, **kwargs)")
        names.append(p.name)
    return names


def split_outputs(out: Any, n: int, rule: str) -> tuple[Any, ...]:
    """The replacement's result as ``n`` values, one per pattern output.

    A tuple or list is taken as is; one traced value standing for several outputs (an opaque
    ``@torch.fx.wrap`` call that returns a tuple) is indexed, which traces ``getitem`` nodes.

    Raises:
        TypeError: the replacement returned a sequence of another length than the pattern.
    """
    if isinstance(out, (tuple, list)):
        if len(out) != n:
            raise TypeError(f"the replacement of rule {rule!r} returns {len(out)} value(s) but its pattern returns {n}: "
                            "return one value per pattern output, in the same order")
        return tuple(out)
    if n == 1:
        return (out,)
    if isinstance(out, torch.fx.Proxy):
        return tuple(cast(Any, out)[i] for i in range(n))
    raise TypeError(f"the replacement of rule {rule!r} returns one {type(out).__name__} but its pattern returns {n} values")


def make_replacement(rule: PassRule, pattern_gm: torch.fx.GraphModule | None = None) -> Callable[..., Any]:
    """The function traced in place of a match: ``replacement_func()(*replacement_args(*args))``,
    its result split into one value per pattern output, and each in-place write of the pattern
    into one of its parameters handed to :func:`.inplace.keep_write`.

    It carries the pattern's parameter names, because ``torch.fx`` binds the match's inputs
    by position and reads the names from the function's code object.
    """
    names = pattern_arg_names(rule.pattern)
    params = ", ".join(names)
    pattern_gm = pattern_gm if pattern_gm is not None else trace_pattern(rule.pattern)
    outputs = pattern_outputs(pattern_gm.graph)
    placeholders = [n for n in pattern_gm.graph.nodes if n.op == "placeholder"]
    kept = {w.output_index: names[placeholders.index(w.placeholder)]
            for w in external_writes(pattern_gm.graph) if w.output_index is not None}
    # A replacement that launches Triton kernels is traced as one opaque call (a leaf) and
    # registered as a custom op once the rules are applied (see tools/passes/triton_ops.py).
    leaf = triton_leaf(rule.replacement_func(), rule.name, rule.module.__name__)
    call = "triton_leaf_call" if leaf is not None else "_rule.replacement_func()"
    values = [f"keep_write({kept[k]}, out[{k}])" if k in kept else f"out[{k}]" for k in range(len(outputs))]
    result = values[0] if len(outputs) == 1 and not isinstance(pattern_gm.graph.output_node().args[0], (tuple, list)) \
        else "(" + ", ".join(values) + ("," if len(values) == 1 else "") + ")"
    src = (
        f"def replacement({params}):\n"
        f"    args = _rule.replacement_args({params})\n"
        f"    if not isinstance(args, (tuple, list)):\n"
        f"        args = (args,)\n"
        f"    _begin(_rule.name)\n"
        f"    out = _split(_end({call}(*args)), {len(outputs)}, _rule.name)\n"
        f"    return {result}\n"
    )
    # FX autowraps only the names it finds in this function's globals (public ones: leaves).
    namespace: dict[str, Any] = {"_rule": rule, "triton_leaf_call": leaf, "keep_write": keep_write, "_split": split_outputs,
                                 "_begin": _begin_replacement, "_end": _end_replacement}
    exec(compile(src, f"<replacement of {rule.name}>", "exec"), namespace)  # noqa: S102
    replacement = namespace["replacement"]
    replacement.triton_leaf = leaf
    return replacement


class _PassSourceTracer(torch.fx.Tracer):
    """Records, on every traced node, the stack of the pass file's own lines that created it.

    The replacement's nodes keep that ``stack_trace`` in the rewritten graph, so when Inductor
    later fails on one of them its error names the pass file and line, not only FX internals.
    """

    record_stack_traces = True

    def __init__(self, files: list[str], leaves: tuple[Callable[..., Any], ...] = ()):
        super().__init__(autowrap_functions=leaves)
        self.files = set(files)

    def _filter_traceback_frames(self, user_stack_summary: traceback.StackSummary) -> traceback.StackSummary:
        return traceback.StackSummary.from_list([f for f in user_stack_summary if f.filename in self.files])

    def create_node(self, *args: Any, **kwargs: Any) -> torch.fx.Node:
        node = super().create_node(*args, **kwargs)
        if _tracing_rule[0] is not None and node.op not in ("placeholder", "output"):
            node.meta[REPLACEMENT_META] = _tracing_rule[0]
        return node


def trace_replacement(rule: PassRule, pattern_gm: torch.fx.GraphModule | None = None,
                      files: list[str] | None = None) -> torch.fx.GraphModule:
    """Trace the rule's replacement into a GraphModule whose nodes point at pass-file lines
    (the rule's file, and ``files``: the pass's helper modules)."""
    replacement = make_replacement(rule, pattern_gm)
    triton_leaf = getattr(replacement, "triton_leaf", None)
    leaves = (keep_write,) + ((triton_leaf,) if triton_leaf is not None else ())
    paths = [str(rule.path), str(rule.path.resolve())] + [str(f) for f in files or ()]
    tracer = _PassSourceTracer(paths, leaves)
    try:
        graph = tracer.trace(replacement)
    finally:
        _tracing_rule[0] = None  # a replacement that raised mid-trace leaves nothing tagged after it
    return torch.fx.GraphModule(tracer.root, graph)


def count_matches(gm: torch.fx.GraphModule, pattern_gm: torch.fx.GraphModule) -> int:
    """Non-overlapping matches of the pattern in ``gm``, found as ``replace_pattern`` finds them."""
    return len(_matches(gm.graph, pattern_gm))


def _matches(graph: torch.fx.Graph, pattern_gm: torch.fx.GraphModule) -> list[Any]:
    try:
        matcher = SubgraphMatcher(pattern_gm.graph, match_output=False, match_placeholder=False,
                                  remove_overlapping_matches=True, ignore_literals=False)
        return matcher.match(graph)
    except Exception:  # noqa: BLE001 - for a message; the caller reports the real error
        return []


def _no_match_diagnostic(rule: PassRule, pattern_gm: torch.fx.GraphModule, graph: torch.fx.Graph,
                         captured: torch.fx.Graph | None, earlier: list[RuleApplication]) -> str:
    """Why a rule that matched nothing in ``graph`` (the graph the earlier rules left) did not.

    Where earlier rules rewrote something, the pattern is tried on ``captured`` (the graph before
    any rule): a fragment an earlier rule consumed is named as such, and the node-by-node hint is
    computed there, so it never blames a node an earlier replacement made."""
    rewrote = [a.rule for a in earlier if a.matches]
    if captured is None or not rewrote:
        return explain_no_match(pattern_gm.graph, graph)
    found = _matches(captured, pattern_gm)
    if not found:
        return explain_no_match(pattern_gm.graph, captured)
    if rule.match_check is not None:
        try:
            found = [m for m in found if rule.match_check(*(_matched_value(v) for v in m.placeholder_nodes))]
        except Exception:  # noqa: BLE001 - the rule's own run reports a raising check
            pass
        if not found:
            return ("the pattern matches the graph as captured, and match_check returned false for each match "
                    "(compare its conditions with the shapes and dtypes of the values it matched)")
    return (f"the pattern matches the graph as captured {len(found)} time(s), but earlier rule(s) "
            f"{', '.join(rewrote)} rewrote that fragment first (rules apply in order, each to the graph the earlier "
            f"ones left; where rules are meant for different cases, their match_check decides)")


def apply_rules(gm: torch.fx.GraphModule, rules: list[PassRule], files: list[str] | None = None) -> list[RuleApplication]:
    """Apply each rule in order to ``gm`` (in place) and recompile it.

    Args:
        gm: the Dynamo FX graph.
        rules: the pass's rules, in application order.
        files: the pass's other source files (helper modules), for stack traces.

    Returns:
        One :class:`RuleApplication` per rule, with a no-match diagnostic where it matched 0.

    Raises:
        RuleApplyError: tracing a pattern or replacement, or replacing a match, raised (the
            caller classifies it as a ``compile`` failure of the pass and reports the matches).
    """
    results: list[RuleApplication] = []
    canonicalize_call_args(gm.graph)
    import copy

    captured = copy.deepcopy(gm.graph) if len(rules) > 1 else None  # for later rules' no-match diagnostics
    for rule in rules:
        pattern_gm = None
        try:
            pattern_gm = trace_pattern(rule.pattern)
            canonicalize_call_args(pattern_gm.graph)
            guard = WriteGuard(external_writes(pattern_gm.graph))
            replacement = trace_replacement(rule, pattern_gm, files)
            checked = MatchCheck(rule.match_check) if rule.match_check is not None else None
            filters = ([guard] if guard.writes else []) + ([checked] if checked is not None else [])
            replaced = replace_pattern_with_filters(gm, pattern_gm, replacement, match_filters=cast(Any, filters or None))
            resolve_writes(gm)
        except Exception as exc:
            n = count_matches(gm, pattern_gm) if pattern_gm is not None else 0
            raise RuleApplyError(rule.name, results + [RuleApplication(rule.name, n)], exc) from exc
        diagnostic = None
        if not replaced:
            if checked is not None and checked.refused:
                diagnostic = (f"the pattern matched {checked.refused} time(s) and match_check returned false for each "
                              f"(compare its conditions with the shapes and dtypes of the values it matched)")
            else:
                diagnostic = guard.refusals[0] if guard.refusals else _no_match_diagnostic(rule, pattern_gm, gm.graph, captured, results)
        results.append(RuleApplication(rule.name, len(replaced), diagnostic, notes=list(dict.fromkeys(guard.notes)),
                                       sites=tuple(match_site(r.nodes_map.get(r.anchor, r.anchor)) for r in replaced)))
    gm.graph.lint()
    gm.recompile()
    return results


def match_site(node: torch.fx.Node) -> str:
    """``name (file:line)`` of a matched graph node, from the innermost frame of the stack trace
    Dynamo records on each node (``node.meta["stack_trace"]``); just ``name`` without one."""
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+)', trace)
    if not frames:
        return node.name
    file, line = frames[-1]
    return f"{node.name} ({Path(file).name}:{line})"


#: Public functions whose call Dynamo records under another name, mapped to that name. The
#: public function is a Python wrapper that forwards every argument positionally, so binding a
#: call to its signature (defaults filled) and renaming it gives exactly what Dynamo records
#: (``torch/nn/functional.py``: ``pad`` calls ``torch._C._nn.pad(input, pad, mode, value)``).
FUNCTION_ALIASES: dict[Any, Any] = {F.pad: torch._C._nn.pad}
#: Public functions that are one tensor method call (``torch/nn/functional.py``: ``sigmoid``
#: returns ``input.sigmoid()``, ``tanh`` returns ``input.tanh()``). Dynamo records the function,
#: tracing a pattern records the method; both are spelled as the method.
METHOD_ALIASES: dict[Any, str] = {F.sigmoid: "sigmoid", F.tanh: "tanh"}


def canonicalize_call_args(graph: torch.fx.Graph) -> None:
    """Spell every call to a Python-level function the same way: bound, defaults filled, positional.

    Dynamo records ``F.dropout(x, 0.1, False, False)`` as written, but tracing a pattern that
    says the same thing records ``F.dropout(x, p=0.1, training=False, inplace=False)``
    (``__torch_function__`` passes keywords). ``torch.fx`` compares arguments literally, so the
    two would never match. Binding both to the function's signature makes the spelling
    irrelevant; calls whose target has no Python signature (C builtins) are left as recorded,
    and both sides record those the same way. Keyword-only parameters stay keywords. Then the
    public aliases of :data:`FUNCTION_ALIASES` and :data:`METHOD_ALIASES` get the one spelling.
    """
    for node in graph.nodes:
        _bind(node)
        if node.op == "call_function" and node.target in FUNCTION_ALIASES and not node.kwargs:
            node.target = FUNCTION_ALIASES[node.target]
        elif node.op == "call_function" and node.target in METHOD_ALIASES and len(node.args) == 1 and not node.kwargs:
            node.op, node.target = "call_method", METHOD_ALIASES[node.target]


def _bind(node: torch.fx.Node) -> None:
    """Bind a call to its Python signature: defaults filled, positional where the signature allows."""
    if node.op != "call_function" or not callable(node.target):
        return
    try:
        sig = inspect.signature(inspect.unwrap(node.target))
        bound = sig.bind(*node.args, **node.kwargs)
    except (TypeError, ValueError):
        return
    bound.apply_defaults()
    args, kwargs = [], {}
    for name, value in bound.arguments.items():
        kind = sig.parameters[name].kind
        if kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
            args.append(value)
        elif kind == inspect.Parameter.VAR_POSITIONAL:
            args.extend(value)
        elif kind == inspect.Parameter.VAR_KEYWORD:
            kwargs.update(value)
        else:
            kwargs[name] = value
    node.args, node.kwargs = tuple(args), kwargs
