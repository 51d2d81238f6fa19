"""Applying a pass's rules to an FX graph, and explaining a pattern that matches nothing.

Matching and replacing use ``torch.fx.subgraph_rewriter`` exactly as PassNet's pass manager
does (the pattern is symbolically traced; placeholders are wildcards; literals must be equal;
matches must be self-contained), so a pass written for PassNet behaves the same here. The
replacement traced into the graph is ``replacement_func()(*replacement_args(*args))``.

When a rule matches nothing, :func:`explain_no_match` walks the pattern against the graph and
says which pattern node failed against which graph node and why (op, target or argument), as a
value the agent can show a model, not a log line.
"""

from __future__ import annotations

import inspect
import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import torch
import torch.fx
from torch.fx.subgraph_rewriter import replace_pattern_with_filters

from .passes import PassRule
from .triton_ops import triton_leaf


@dataclass
class RuleApplication:
    """The outcome of applying one rule to one FX graph.

    Attributes:
        rule: the rule name.
        matches: how many non-overlapping matches were replaced.
        diagnostic: why the pattern matched nothing (None when it matched).
        sites: where each match was, as ``node`` or ``node (file:line)``: the graph node the
            match was anchored at and the model source line Dynamo recorded for it.
    """

    rule: str
    matches: int
    diagnostic: str | None = None
    sites: tuple[str, ...] = ()


def pattern_arg_names(pattern: Callable[..., Any] | torch.fx.GraphModule) -> list[str]:
    """Positional parameter names of a pattern (placeholders for a GraphModule pattern).

    Raises:
        TypeError: the pattern takes ``*args``/``**kwargs`` or keyword-only parameters.
    """
    if isinstance(pattern, torch.fx.GraphModule):
        return [n.target for n in pattern.graph.nodes if n.op == "placeholder"]  # type: ignore[misc]
    sig = inspect.signature(pattern)
    names = []
    for p in sig.parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise TypeError(f"pattern parameter {p.name!r} must be positional (no *args, **kwargs)")
        names.append(p.name)
    return names


def make_replacement(rule: PassRule) -> Callable[..., Any]:
    """The function traced in place of a match: ``replacement_func()(*replacement_args(*args))``.

    It carries the pattern's parameter names, because ``torch.fx`` binds the match's inputs
    by position and reads the names from the function's code object.
    """
    names = pattern_arg_names(rule.pattern)
    params = ", ".join(names)
    # A replacement that launches Triton kernels is traced as one opaque call (a leaf) and
    # registered as a custom op once the rules are applied (see tools/triton_ops.py).
    leaf = triton_leaf(rule.replacement_func(), rule.name, rule.module.__name__)
    call = "triton_leaf_call" if leaf is not None else "_rule.replacement_func()"
    src = (
        f"def replacement({params}):\n"
        f"    args = _rule.replacement_args({params})\n"
        f"    if not isinstance(args, (tuple, list)):\n"
        f"        args = (args,)\n"
        f"    return {call}(*args)\n"
    )
    namespace: dict[str, Any] = {"_rule": rule, "triton_leaf_call": leaf}  # FX autowraps only public names
    exec(compile(src, f"<replacement of {rule.name}>", "exec"), namespace)  # noqa: S102
    replacement = namespace["replacement"]
    replacement.triton_leaf = leaf  # type: ignore[attr-defined]
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


def trace_replacement(rule: PassRule) -> torch.fx.GraphModule:
    """Trace the rule's replacement into a GraphModule whose nodes point at pass-file lines."""
    replacement = make_replacement(rule)
    leaves = (replacement.triton_leaf,) if replacement.triton_leaf is not None else ()
    tracer = _PassSourceTracer([str(rule.path), str(rule.path.resolve())], leaves)
    graph = tracer.trace(replacement)
    return torch.fx.GraphModule(tracer.root, graph)


def apply_rules(gm: torch.fx.GraphModule, rules: list[PassRule]) -> list[RuleApplication]:
    """Apply each rule in order to ``gm`` (in place) and recompile it.

    Returns:
        One :class:`RuleApplication` per rule, with a no-match diagnostic where it matched 0.

    Raises:
        Whatever tracing the pattern or the replacement raises (the caller classifies it as a
        ``compile`` failure of the pass).
    """
    results = []
    canonicalize_call_args(gm.graph)
    for rule in rules:
        pattern_gm = rule.pattern if isinstance(rule.pattern, torch.fx.GraphModule) else torch.fx.symbolic_trace(rule.pattern)
        canonicalize_call_args(pattern_gm.graph)
        replaced = replace_pattern_with_filters(gm, pattern_gm, trace_replacement(rule))
        diagnostic = None if replaced else explain_no_match(pattern_gm.graph, gm.graph)
        results.append(RuleApplication(rule.name, len(replaced), diagnostic, tuple(match_site(r.nodes_map.get(r.anchor, r.anchor)) for r in replaced)))
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


def canonicalize_call_args(graph: torch.fx.Graph) -> None:
    """Spell every call to a Python-level function the same way: bound, defaults filled, positional.

    Dynamo records ``F.dropout(x, 0.1, False, False)`` as written, but tracing a pattern that
    says the same thing records ``F.dropout(x, p=0.1, training=False, inplace=False)``
    (``__torch_function__`` passes keywords). ``torch.fx`` compares arguments literally, so the
    two would never match. Binding both to the function's signature makes the spelling
    irrelevant; calls whose target has no Python signature (C builtins) are left as recorded,
    and both sides record those the same way. Keyword-only parameters stay keywords.
    """
    for node in graph.nodes:
        if node.op != "call_function" or not callable(node.target):
            continue
        try:
            sig = inspect.signature(inspect.unwrap(node.target))
            bound = sig.bind(*node.args, **node.kwargs)
        except (TypeError, ValueError):
            continue
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


# --- no-match diagnostics ----------------------------------------------------------------


def describe_target(node: torch.fx.Node) -> str:
    """``call_function torch.nn.functional.gelu`` style description of a node."""
    target = node.target
    if callable(target):
        mod = getattr(target, "__module__", None) or ""
        name = getattr(target, "__qualname__", None) or getattr(target, "__name__", repr(target))
        if isinstance(target, torch._ops.OpOverload | torch._ops.OpOverloadPacket):
            text = str(target)
        else:
            text = f"{mod}.{name}" if mod and mod != "builtins" else name
    else:
        text = str(target)
    return f"{node.op} {text}"


def _same_op(pn: torch.fx.Node, gn: torch.fx.Node) -> bool:
    if pn.op != gn.op:
        return False
    return pn.op in ("placeholder", "output", "get_attr") or pn.target == gn.target


class _Mismatch(Exception):
    pass


class _Walk:
    """Simultaneous backward walk of the pattern and the graph from an anchor pair."""

    def __init__(self) -> None:
        self.mapping: dict[torch.fx.Node, Any] = {}

    def node(self, pn: torch.fx.Node, gn: Any) -> None:
        if pn in self.mapping:
            if self.mapping[pn] is not gn:
                other = self.mapping[pn]
                raise _Mismatch(
                    f"pattern value `{pn.name}` is used twice, but the graph uses two different "
                    f"values there (`{getattr(other, 'name', other)}` and `{getattr(gn, 'name', gn)}`)"
                )
            return
        if pn.op == "placeholder":
            self.mapping[pn] = gn
            return
        if not isinstance(gn, torch.fx.Node):
            raise _Mismatch(f"pattern node `{pn.name}` ({describe_target(pn)}) faces the literal {gn!r} in the graph")
        if not _same_op(pn, gn):
            raise _Mismatch(
                f"pattern node `{pn.name}` is {describe_target(pn)}, but graph node `{gn.name}` "
                f"at that position is {describe_target(gn)}"
            )
        self.mapping[pn] = gn
        if len(pn.args) != len(gn.args) or list(pn.kwargs) != list(gn.kwargs):
            raise _Mismatch(
                f"pattern node `{pn.name}` ({describe_target(pn)}) has {len(pn.args)} positional "
                f"argument(s) and keywords {list(pn.kwargs)}; graph node `{gn.name}` has "
                f"{len(gn.args)} and keywords {list(gn.kwargs)}: write the call exactly as the graph does"
            )
        for i, (pa, ga) in enumerate(zip(list(pn.args) + list(pn.kwargs.values()), list(gn.args) + list(gn.kwargs.values()))):
            label = f"argument {i}" if i < len(pn.args) else f"keyword {list(pn.kwargs)[i - len(pn.args)]!r}"
            self.arg(pn, gn, label, pa, ga)

    def arg(self, pn: torch.fx.Node, gn: torch.fx.Node, label: str, pa: Any, ga: Any) -> None:
        if isinstance(pa, torch.fx.Node):
            if pa.op != "placeholder" and not isinstance(ga, torch.fx.Node):
                raise _Mismatch(f"{label} of pattern node `{pn.name}` is computed by `{pa.name}`, but graph node `{gn.name}` has the literal {ga!r}")
            self.node(pa, ga)
        elif isinstance(pa, (list, tuple)) and isinstance(ga, (list, tuple)):
            if len(pa) != len(ga):
                raise _Mismatch(f"{label} of pattern node `{pn.name}` has {len(pa)} elements, graph node `{gn.name}` has {len(ga)}")
            for j, (x, y) in enumerate(zip(pa, ga)):
                self.arg(pn, gn, f"{label}[{j}]", x, y)
        elif isinstance(ga, torch.fx.Node):
            raise _Mismatch(f"{label} of pattern node `{pn.name}` is the literal {pa!r}, but graph node `{gn.name}` takes the value `{ga.name}` there")
        elif type(pa) is not type(ga) or pa != ga:
            raise _Mismatch(
                f"{label} of pattern node `{pn.name}` ({describe_target(pn)}) is {pa!r}, "
                f"graph node `{gn.name}` has {ga!r}"
            )


def _anchors(pattern: torch.fx.Graph) -> list[torch.fx.Node]:
    output = next(n for n in reversed(pattern.nodes) if n.op == "output")
    return [n for n in output.all_input_nodes if len(n.users) == 1]


def explain_no_match(pattern: torch.fx.Graph, graph: torch.fx.Graph) -> str:
    """Why ``pattern`` matches nothing in ``graph``, naming the failing node, op/target or argument.

    Tries every graph node that could match each pattern output ("anchor") and reports the
    attempt that got furthest. Returns a short multi-line text.
    """
    anchors = _anchors(pattern)
    if not anchors:
        return "the pattern has no output computed by an operator (it returns an input unchanged)"
    lines = []
    for anchor in anchors:
        candidates = [n for n in graph.nodes if _same_op(anchor, n)]
        if not candidates:
            present = sorted({describe_target(n) for n in graph.nodes if n.op.startswith("call")})
            lines.append(
                f"pattern output `{anchor.name}` ({describe_target(anchor)}): no graph node has this "
                f"op and target. The graph's operators are: {', '.join(present[:40])}"
            )
            continue
        best: tuple[int, str] | None = None
        for cand in candidates:
            walk = _Walk()
            try:
                walk.node(anchor, cand)
            except _Mismatch as exc:
                progress = len(walk.mapping)
                if best is None or progress > best[0]:
                    best = (progress, f"trying graph node `{cand.name}` for pattern output `{anchor.name}`: {exc}")
                continue
            leak = _leak(walk.mapping, pattern)
            if leak:
                if best is None or len(walk.mapping) >= best[0]:
                    best = (len(walk.mapping), leak)
                continue
            return (
                f"the pattern matches at graph node `{cand.name}` structurally, but torch.fx rejected "
                "the match (overlap with another match or a cycle after fusion)"
            )
        assert best is not None
        lines.append(best[1])
    return "\n".join(lines)


def _leak(mapping: dict[torch.fx.Node, Any], pattern: torch.fx.Graph) -> str | None:
    output = next(n for n in reversed(pattern.nodes) if n.op == "output")
    returned = set(output.all_input_nodes)
    inside = {gn for pn, gn in mapping.items() if pn.op != "placeholder" and isinstance(gn, torch.fx.Node)}
    for pn, gn in mapping.items():
        if pn.op == "placeholder" or pn in returned or not isinstance(gn, torch.fx.Node):
            continue
        for user in gn.users:
            if user not in inside:
                return (
                    f"the pattern matches, but its intermediate value `{pn.name}` (graph node `{gn.name}`) "
                    f"is also used by `{user.name}` outside the match; a match must be self-contained: "
                    f"return that value from the pattern as well, or match a larger fragment"
                )
    return None
