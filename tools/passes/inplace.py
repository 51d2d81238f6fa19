"""In-place operators in patterns: tracing them as written, and what a replacement does with their writes.

Dynamo records ``x += y`` on tensors as ``operator.iadd(x, y)`` and prints it back as
``x += y`` in the graph's code, but ``torch.fx.Proxy`` defines no in-place magic methods, so
Python falls back to ``__add__`` and a pattern that says ``x += y`` traces to
``operator.add``: it could never match the graph it was copied from. :class:`PatternTracer`
records every augmented assignment as its ``operator.i*`` node, the way Dynamo does
(``x.relu_()``, ``torch.relu_(x)`` and ``F.relu(x, inplace=True)`` already trace to the same
call as in the graph).

What a replacement may do with a matched in-place op (the replacement computes out of place):

- the op writes into a value the match itself defines: nothing outside the match can see that
  value (``torch.fx`` refuses matches whose intermediate values are used outside them), so the
  out-of-place form is exact;
- the op writes into a value from outside the match (a pattern parameter) and its result is one
  of the pattern's outputs: the write is kept (``dst.copy_(result)``) where the graph reads
  ``dst`` again after the op or ``dst`` is an input of the graph; elsewhere it is dead and dropped;
- the op writes into a value from outside the match and its result is *not* an output: the
  replacement cannot produce the written value. A match where the graph reads ``dst`` again is
  refused (the reader would see stale values); a match where ``dst`` is a graph input that
  nothing reads again is kept, with a note that the caller's tensor is no longer modified
  (the graph's outputs are unchanged).
"""

from __future__ import annotations

import inspect
import operator
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx

#: Python's augmented assignment operators and the ``operator`` function Dynamo records for each
#: (``operator`` module docs, "In-place Operators").
AUGMENTED = {
    "add": ("+=", operator.iadd), "sub": ("-=", operator.isub), "mul": ("*=", operator.imul),
    "truediv": ("/=", operator.itruediv), "floordiv": ("//=", operator.ifloordiv), "mod": ("%=", operator.imod),
    "pow": ("**=", operator.ipow), "matmul": ("@=", operator.imatmul), "and": ("&=", operator.iand),
    "or": ("|=", operator.ior), "xor": ("^=", operator.ixor), "lshift": ("<<=", operator.ilshift),
    "rshift": (">>=", operator.irshift),
}
#: In-place ``operator`` function -> its out-of-place counterpart (``operator.iadd`` -> ``operator.add``).
OUT_OF_PLACE: dict[Any, Any] = {fn: getattr(operator, f"{name}_" if name in ("and", "or") else name) for name, (_s, fn) in AUGMENTED.items()}
INPLACE_SYMBOL: dict[Any, str] = {fn: sym for sym, fn in AUGMENTED.values()}


class PatternProxy(torch.fx.Proxy):
    """A proxy whose augmented assignments record the in-place ``operator`` call (``x += y`` ->
    ``operator.iadd(x, y)``), as Dynamo records them, instead of Python's out-of-place fallback."""


def _augmented(fn: Any) -> Any:
    def method(self: torch.fx.Proxy, other: Any) -> torch.fx.Proxy:
        return self.tracer.create_proxy("call_function", fn, (self, other), {})

    return method


for _name, (_symbol, _fn) in AUGMENTED.items():
    setattr(PatternProxy, f"__i{_name}__", _augmented(_fn))


class PatternTracer(torch.fx.Tracer):
    """``torch.fx.Tracer`` for patterns: identical to ``symbolic_trace`` except that ``x += y``
    is traced as the in-place op the graph holds (see the module docstring)."""

    def proxy(self, node: torch.fx.Node) -> torch.fx.Proxy:
        return PatternProxy(node, self)


def trace_pattern(pattern: Any) -> torch.fx.GraphModule:
    """The pattern as a GraphModule (a GraphModule pattern is used as given)."""
    if isinstance(pattern, torch.fx.GraphModule):
        return pattern
    tracer = PatternTracer()
    graph = tracer.trace(pattern)
    return torch.fx.GraphModule(tracer.root, graph)


def mutated_operand(node: torch.fx.Node) -> torch.fx.Node | None:
    """The value an in-place node writes into (its first argument), or None for other nodes.

    In-place: an ``operator.i*`` call; a tensor method or ``torch`` function whose name ends in
    a single ``_`` (``x.relu_()``, ``torch.relu_(x)``: PyTorch's naming rule for in-place
    variants, "torch.Tensor" docs); a function called with ``inplace=True`` (``F.relu``,
    ``F.dropout``...), whether the flag is a keyword or, after binding, a positional argument.
    """
    if node.op not in ("call_function", "call_method") or not node.args or not isinstance(node.args[0], torch.fx.Node):
        return None
    target = node.target
    name = target if isinstance(target, str) else getattr(target, "__name__", "")
    if node.op == "call_function" and target in OUT_OF_PLACE:
        return node.args[0]
    if name.endswith("_") and not name.endswith("__") and not name.startswith("_") and (
            node.op == "call_method" or getattr(target, "__module__", "") in ("torch", "torch._C._VariableFunctions")):
        return node.args[0]
    if node.kwargs.get("inplace") is True:
        return node.args[0]
    if node.op == "call_function" and callable(target):
        try:
            params = list(inspect.signature(inspect.unwrap(target)).parameters)
        except (TypeError, ValueError):
            return None
        if "inplace" in params and params.index("inplace") < len(node.args) and node.args[params.index("inplace")] is True:
            return node.args[0]
    return None


def spelled(node: torch.fx.Node) -> str:
    """A short source-like spelling of an in-place node for messages (``x += y``, ``x.relu_()``)."""
    a = [getattr(x, "name", repr(x)) for x in node.args]
    if node.target in INPLACE_SYMBOL and len(a) == 2:
        return f"{a[0]} {INPLACE_SYMBOL[node.target]} {a[1]}"
    if node.op == "call_method":
        return f"{a[0]}.{node.target}({', '.join(a[1:])})"
    return f"{getattr(node.target, '__name__', node.target)}({', '.join(a)}, ...)"


@dataclass
class ExternalWrite:
    """An in-place chain of the pattern that writes into one of its parameters.

    Attributes:
        placeholder: the pattern parameter written into.
        last: the last in-place node of the chain (its value is the parameter's new value).
        output_index: the position of ``last`` among the pattern's outputs, or None.
    """

    placeholder: torch.fx.Node
    last: torch.fx.Node
    output_index: int | None


def pattern_outputs(pattern: torch.fx.Graph) -> list[Any]:
    """The pattern's returned values, flattened in order (what ``torch.fx`` replaces)."""
    output = next(n for n in reversed(pattern.nodes) if n.op == "output")
    value = output.args[0]
    return list(value) if isinstance(value, (tuple, list)) else [value]


def external_writes(pattern: torch.fx.Graph) -> list[ExternalWrite]:
    """Every in-place chain of ``pattern`` whose first write is into a pattern parameter."""
    outputs = pattern_outputs(pattern)
    writes: dict[torch.fx.Node, torch.fx.Node] = {}  # placeholder -> last in-place node writing it
    for node in pattern.nodes:
        dst = mutated_operand(node)
        while dst is not None and dst.op != "placeholder":
            dst = mutated_operand(dst)  # `x += y; x *= 2`: the second writes where the first did
        if dst is not None:
            writes[dst] = node
    return [ExternalWrite(p, last, outputs.index(last) if last in outputs else None) for p, last in writes.items()]


def _read_after(dst: torch.fx.Node, after: torch.fx.Node, inside: set[torch.fx.Node]) -> torch.fx.Node | None:
    order = {n: i for i, n in enumerate(dst.graph.nodes)}
    later = [u for u in dst.users if u not in inside and order[u] > order[after]]
    return min(later, key=order.__getitem__) if later else None


@dataclass
class WriteGuard:
    """``torch.fx`` match filter that refuses matches whose external writes cannot be kept,
    and records why (for the no-match diagnostic) and which writes were dropped (notes).

    Attributes:
        writes: the pattern's external writes (:func:`external_writes`).
        refusals: one message per refused match.
        notes: one message per dropped write into a graph input.
    """

    writes: list[ExternalWrite]
    refusals: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __call__(self, match: Any, original_graph: torch.fx.Graph, pattern_graph: torch.fx.Graph) -> bool:
        inside = {g for p, g in match.nodes_map.items() if p.op not in ("placeholder", "output")}
        for w in self.writes:
            if w.output_index is not None:
                continue  # the write is kept after the rewrite where it is observable (resolve_writes)
            dst = match.nodes_map[w.placeholder]
            op = match.nodes_map[w.last]
            reader = _read_after(dst, op, inside)
            if reader is not None:
                self.refusals.append(
                    f"the pattern's in-place `{spelled(w.last)}` writes into `{w.placeholder.name}` (graph value "
                    f"`{dst.name}`), which graph node `{reader.name}` reads afterwards; a replacement computes out of "
                    f"place, so return the in-place result from the pattern (the write is then kept) or include "
                    f"the producer of `{dst.name}` in the pattern")
                return False
            if dst.op == "placeholder":
                self.notes.append(
                    f"the write of `{spelled(w.last)}` into the graph input `{dst.name}` is dropped: the replacement "
                    f"computes it out of place and nothing in the graph reads `{dst.name}` afterwards, but the evaluation "
                    f"compares every input eager writes, so this subgraph will have wrong values; return the in-place "
                    f"result from the pattern to keep the write")
        return True


def keep_write(dst: Any, value: Any) -> Any:
    """Stands, in a traced replacement, for "``dst`` must end up holding ``value``"; resolved by
    :func:`resolve_writes` once the rewrite is done (called eagerly it just returns ``value``)."""
    return value


def resolve_writes(gm: torch.fx.GraphModule) -> int:
    """Turn each :func:`keep_write` node into ``dst.copy_(value)`` where the write is observable
    (``dst`` is an input of the graph or is read after it), else into ``value``.

    Returns:
        How many writes were kept.
    """
    kept = 0
    order = {n: i for i, n in enumerate(gm.graph.nodes)}
    for node in list(gm.graph.nodes):
        if node.op != "call_function" or node.target is not keep_write:
            continue
        dst, value = node.args
        later = [u for u in dst.users if u is not node and order.get(u, -1) > order[node]]
        if isinstance(dst, torch.fx.Node) and (dst.op == "placeholder" or later):
            node.op, node.target = "call_method", "copy_"
            node.meta.pop("is_wrapped", None)
            kept += 1
        else:
            node.replace_all_uses_with(value)
            gm.graph.erase_node(node)
    return kept
