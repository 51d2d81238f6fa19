"""Writing pass files from graph fragments, and checking their patterns against the graph.

A pattern is emitted by copying the fragment's nodes from the printed FX graph, call by call:
same target, same function/method/operator form, same positional and keyword arguments, same
literals (unless a literal is *lifted* into a pattern parameter, so that one rule matches every
value of it). That is what makes the pattern match the Dynamo graph as recorded.
:func:`find_matches` then runs torch.fx's own matcher, with the harness's argument
canonicalisation, on a ``torch.fx.Graph`` rebuilt from the same text, so a draft whose
pattern would match nothing is never proposed.
"""

from __future__ import annotations

import math
import operator
import textwrap
from dataclasses import dataclass
from typing import Any

import torch
import torch.fx
from torch.fx.passes.utils.matcher_utils import SubgraphMatcher

from ...tools.passes.rewrite import canonicalize_call_args
from .fx_reader import BINOPS, CMPOPS, UNARYOPS, FxGraph, FxNode, Opaque, Ref, to_torch_graph

_SYMBOLS = {v: sym for v, sym in zip(BINOPS.values(), ["+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>"])}
_SYMBOLS.update({"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="})
_UNARY_SYMBOLS = {"neg": "-", "pos": "+", "invert": "~", "not_": "not "}
assert set(_SYMBOLS) >= set(BINOPS.values()) | set(CMPOPS.values()) and set(_UNARY_SYMBOLS) == set(UNARYOPS.values())

#: Nodes a pattern can be written for (in-place forms are never part of a pattern).
EMITTABLE_FORMS = {"call", "method", "binop", "unary", "compare", "subscript", "attribute"}


def py_src(value: Any, names: dict[str, str]) -> str:
    """Python source for an argument value, with graph references renamed through ``names``."""
    if isinstance(value, Ref):
        return names[value.name]
    if isinstance(value, Opaque):
        return value.src
    if isinstance(value, float) and not math.isfinite(value):
        return "float('nan')" if math.isnan(value) else ("float('inf')" if value > 0 else "-float('inf')")
    if isinstance(value, (torch.dtype, torch.memory_format, torch.layout)):
        return str(value)
    if isinstance(value, torch.device):
        return f"torch.device({str(value)!r})"
    if isinstance(value, slice):
        return f"slice({py_src(value.start, names)}, {py_src(value.stop, names)}, {py_src(value.step, names)})"
    if isinstance(value, torch.Size):
        return f"torch.Size([{', '.join(py_src(v, names) for v in value)}])"
    if isinstance(value, tuple):
        inner = ", ".join(py_src(v, names) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(py_src(v, names) for v in value) + "]"
    return repr(value)


def node_src(node: FxNode, names: dict[str, str], lifted: dict[int | str, str] | None = None) -> str:
    """The right-hand side of ``node`` as the graph spells it, arguments renamed or lifted."""
    lifted = lifted or {}
    args = [lifted.get(i) or py_src(a, names) for i, a in enumerate(node.args)]
    kwargs = [f"{k}={lifted.get(k) or py_src(v, names)}" for k, v in node.kwargs.items()]
    if node.form == "call":
        return f"{node.target}({', '.join(args + kwargs)})"
    if node.form == "method":
        return f"{args[0]}.{node.target}({', '.join(args[1:] + kwargs)})"
    if node.form in ("binop", "compare"):
        return f"{args[0]} {_SYMBOLS[node.fn]} {args[1]}"
    if node.form == "unary":
        return f"{_UNARY_SYMBOLS[node.fn]}{args[0]}"
    if node.form == "subscript":
        return f"{args[0]}[{args[1]}]"
    if node.form == "attribute":
        return f"{args[0]}.{node.args[1]}"
    raise ValueError(f"node {node.name} ({node.form}) cannot be written into a pattern")


@dataclass(frozen=True)
class Pattern:
    """An emitted ``pattern`` function.

    Attributes:
        params: its parameters, in order (fragment inputs and lifted literals).
        source: the ``def pattern(...)`` text.
        local: graph value name -> its name inside the pattern (inputs and intermediates).
    """

    params: tuple[str, ...]
    source: str
    local: dict[str, str]


def emit_pattern(g: FxGraph, nodes: list[str] | set[str], outputs: list[str],
                 names: dict[str, str] | None = None,
                 lift: dict[tuple[str, int | str], str] | None = None) -> Pattern | None:
    """Write the fragment ``nodes`` of ``g`` as a pattern returning ``outputs``.

    Args:
        names: parameter names for chosen fragment inputs (graph name -> parameter name);
            other inputs are ``in_0``, ``in_1``, ... in order of first use.
        lift: (node name, argument index or keyword) -> parameter name, for literals that
            become pattern inputs (any value binds there, e.g. dropout's ``p``).

    Returns:
        None if a node cannot be written into a pattern (an in-place form, an unread call).
    """
    order = {n: i for i, n in enumerate(g.nodes)}
    body = sorted(set(nodes), key=order.__getitem__)
    names = dict(names or {})
    lift = lift or {}
    local: dict[str, str] = {}
    params: list[str] = []
    lines: list[str] = []
    counter = 0
    for name in body:
        node = g[name]
        if node.form not in EMITTABLE_FORMS or node.target.startswith("<"):
            return None
        lifted = {key: p for (n, key), p in lift.items() if n == name}
        for i, value in enumerate(list(node.args) + list(node.kwargs.values())):
            key = i if i < len(node.args) else list(node.kwargs)[i - len(node.args)]
            if key in lifted:
                if lifted[key] not in params:
                    params.append(lifted[key])
                continue
            refs: list[str] = []
            _refs(value, refs)
            for r in refs:
                if r not in local:
                    local[r] = names.get(r) or f"in_{sum(p.startswith('in_') for p in params)}"
                    params.append(local[r])
        local[name] = f"t_{counter}"
        counter += 1
        lines.append(f"{local[name]} = {node_src(node, local, lifted)}")
    if not set(outputs) <= set(body):
        return None
    ret = local[outputs[0]] if len(outputs) == 1 else "(" + ", ".join(local[o] for o in outputs) + ")"
    lines.append(f"return {ret}")
    src = f"def pattern({', '.join(params)}):\n" + textwrap.indent("\n".join(lines), "    ") + "\n"
    return Pattern(tuple(params), src, local)


def emit_graph_pattern(node: FxNode) -> Pattern | None:
    """A one-node pattern with no tensor inputs (``torch.rand([])``), written as an FX graph.

    Python-level tracing cannot express it: a call without a traced input runs once and is
    recorded as a constant. The pass contract accepts a ``GraphModule`` as the pattern.
    """
    if node.op != "call_function" or node.form != "call" or node.refs():
        return None
    args = py_src(tuple(node.args), {})
    kwargs = "{" + ", ".join(f"{k!r}: {py_src(v, {})}" for k, v in node.kwargs.items()) + "}"
    src = (f"_graph = torch.fx.Graph()\n"
           f"_graph.output(_graph.call_function({node.target}, {args}, {kwargs}))\n"
           f"pattern = torch.fx.GraphModule(torch.nn.Module(), _graph)\n")
    return Pattern((), src, {})


def _refs(value: Any, out: list[str]) -> None:
    if isinstance(value, Ref):
        out.append(value.name)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _refs(v, out)


# --- checking a pattern against the graph ------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One match of a pattern in the graph.

    Attributes:
        nodes: graph names of the matched operator nodes.
        anchors: graph names of the nodes the pattern's outputs matched.
        bindings: pattern parameter -> what it bound to (a graph name as :class:`Ref`, or a literal).
    """

    nodes: frozenset[str]
    anchors: tuple[str, ...]
    bindings: dict[str, Any]


def _torch_graph(g: FxGraph) -> torch.fx.Graph:
    cached = g.__dict__.get("_torch_graph")
    if cached is None:
        cached = to_torch_graph(g)
        canonicalize_call_args(cached)
        g.__dict__["_torch_graph"] = cached
    return cached


def trace_pattern(pattern: Pattern) -> torch.fx.GraphModule:
    """Symbolically trace an emitted pattern exactly as the harness does."""
    namespace: dict[str, Any] = {"torch": torch, "operator": operator, "math": math}
    exec(compile(pattern.source, "<pattern>", "exec"), namespace)  # noqa: S102 - our own generated code
    gm = namespace["pattern"]
    if not isinstance(gm, torch.fx.GraphModule):
        gm = torch.fx.symbolic_trace(gm)
    canonicalize_call_args(gm.graph)
    return gm


def find_matches(g: FxGraph, pattern: Pattern) -> list[Match]:
    """Where torch.fx's subgraph matcher (as the harness configures it) matches ``pattern`` in ``g``.

    Returns [] if the pattern cannot be traced.
    """
    try:
        pattern_gm = trace_pattern(pattern)
    except Exception:  # noqa: BLE001 - an untraceable pattern simply matches nothing
        return []
    try:
        matcher = SubgraphMatcher(pattern_gm.graph, match_output=False, match_placeholder=False,
                                  remove_overlapping_matches=True, ignore_literals=False)
        found = matcher.match(_torch_graph(g))
    except Exception:  # noqa: BLE001 - a graph the matcher cannot walk gets no rule
        return []
    out = []
    for m in found:
        nodes = frozenset(gn.name for pn, gn in m.nodes_map.items() if pn.op not in ("placeholder", "output"))
        bindings = {
            p: Ref(b.name) if isinstance(b, torch.fx.Node) else b
            for p, b in zip(pattern.params, m.placeholder_nodes)
        }
        out.append(Match(nodes, tuple(n.name for n in m.returning_nodes), bindings))
    return out


# --- the pass file ---------------------------------------------------------------------


def pass_source(title: str, doc: str, pattern: Pattern, replacement_args: list[str], helpers: str, func: str) -> str:
    """The complete text of a pass file obeying the pass contract.

    Args:
        title: first docstring line. doc: the rest of the docstring (why the rewrite is valid).
        pattern: the emitted pattern. replacement_args: expressions over the pattern's
            parameters, passed to the replacement in order.
        helpers: module-level code defining the replacement (and anything it needs).
        func: the name of the function ``replacement_func`` returns.
    """
    params = ", ".join(pattern.params)
    args = ", ".join(replacement_args) + ("," if len(replacement_args) == 1 else "")
    body = "\n\n\n".join([
        pattern.source.rstrip(),
        f"def replacement_args({params}):\n    return ({args})",
        textwrap.dedent(helpers).strip(),
        f"def replacement_func():\n    return {func}",
    ])
    imports = ["import torch"]
    if "torch.fx.Graph(" in body:
        imports.append("import torch.fx")
    if "math." in body:
        imports.insert(0, "import math")
    if "operator." in body:
        imports.insert(0, "import operator")
    doc = textwrap.fill(" ".join(doc.split()), 96)
    return f'"""{title}\n\n{doc}\n"""\n\n' + "\n".join(imports) + "\n\n\n" + body + "\n"
