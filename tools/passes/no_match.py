"""Explaining a pattern that matches nothing: which pattern node failed against which graph node, and why.

:func:`explain_no_match` walks the pattern against the graph backwards from each pattern output
("anchor") and reports the attempt that got furthest (op, target or argument), as a value the
agent can show a model, not a log line (the spirit of ``torch.fx``'s ``Match``/``ReplacedPatterns``
values). Where the two sides differ only in spelling that the author can fix (the in-place form
``x += y`` against ``x + y``), the message says how.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.fx

from .inplace import INPLACE_SYMBOL, OUT_OF_PLACE


def describe_target(node: torch.fx.Node) -> str:
    """``call_function torch.nn.functional.gelu`` style description of a node."""
    target = node.target
    if callable(target):
        mod = getattr(target, "__module__", None) or ""
        name = str(getattr(target, "__qualname__", None) or getattr(target, "__name__", repr(target)))
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


def spelling_hint(pn: torch.fx.Node, gn: torch.fx.Node) -> str:
    """How to write ``pn`` so it reads like ``gn`` where they differ only in in-place form ("" if not)."""
    if gn.op == pn.op == "call_function" and OUT_OF_PLACE.get(gn.target) is pn.target:
        return f"; the graph's `{gn.name}` is the in-place `{INPLACE_SYMBOL[gn.target]}`: write it in the pattern as the graph's code does"
    if pn.op == gn.op == "call_function" and OUT_OF_PLACE.get(pn.target) is gn.target:
        return f"; the pattern uses the in-place `{INPLACE_SYMBOL[pn.target]}` where the graph computes out of place"
    if pn.op == gn.op == "call_method" and isinstance(gn.target, str) and gn.target == f"{pn.target}_":
        return f"; the graph calls the in-place method `.{gn.target}()`: write `.{gn.target}()` in the pattern"
    return ""


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
                f"at that position is {describe_target(gn)}{spelling_hint(pn, gn)}"
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
            hint = next((h for n in graph.nodes if (h := spelling_hint(anchor, n))), "")
            lines.append(
                f"pattern output `{anchor.name}` ({describe_target(anchor)}): no graph node has this "
                f"op and target{hint}. The graph's operators are: {', '.join(present[:40])}"
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
