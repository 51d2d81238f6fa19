"""Read a Dynamo FX graph from its printed code (``ir["fx_code"]``) with :mod:`ast`, never exec.

The printed code is what a pattern has to reproduce, so the reader keeps, for every node, the
exact spelling of its call (function vs method vs operator, positional vs keyword arguments,
literal values) next to a semantic view of it (target, argument values, users), and joins the
shapes and dtypes of ``ir["fx_nodes"]``. :func:`to_torch_graph` rebuilds a ``torch.fx.Graph``
from the same reading (resolving targets by attribute lookup only) so that a proposed pattern
can be matched against it with torch.fx's own matcher before anything is compiled.
"""

from __future__ import annotations

import ast
import builtins
import math
import operator
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx

#: Python operators as FX prints them, keyed by AST operator class.
BINOPS: dict[type, str] = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
    ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul", ast.BitAnd: "and_", ast.BitOr: "or_",
    ast.BitXor: "xor", ast.LShift: "lshift", ast.RShift: "rshift",
}
UNARYOPS: dict[type, str] = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert", ast.Not: "not_"}
CMPOPS: dict[type, str] = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
AUGOPS: dict[type, str] = {k: "i" + v.rstrip("_") for k, v in BINOPS.items()}

#: Module roots a printed call target may start from (resolved by attribute lookup).
_ROOTS: dict[str, Any] = {"torch": torch, "operator": operator, "_operator": operator, "math": math, "builtins": builtins}


@dataclass(frozen=True)
class Ref:
    """An argument that is the value of another node of the graph."""

    name: str


@dataclass(frozen=True)
class Opaque:
    """An argument the reader could not turn into a Python value (kept as its source text)."""

    src: str


@dataclass
class FxNode:
    """One node of the printed FX graph.

    Attributes:
        name: the node (variable) name.
        op: ``placeholder``, ``call_function`` or ``call_method`` (as in torch.fx).
        target: dotted function path as printed (``torch._C._nn.linear``; Python operators are
            ``operator.add`` etc.), the method name for ``call_method``, the forward parameter
            for a placeholder.
        form: how it is spelled: ``call``, ``method``, ``binop``, ``unary``, ``compare``,
            ``subscript``, ``attribute``, ``augassign`` or ``placeholder``.
        args, kwargs: argument values (:class:`Ref`, Python literals, lists/tuples of those,
            or :class:`Opaque`); for a method, ``args[0]`` is the object it is called on.
        shape, dtype: of the node's output, from ``fx_nodes`` (None when unknown).
        users: names of the nodes that use this one (filled by :func:`read_graphs`).
    """

    name: str
    op: str
    target: str
    form: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    shape: list[int] | None = None
    dtype: str | None = None
    users: list[str] = field(default_factory=list)

    @property
    def fn(self) -> str:
        """Short operator name: the last part of the target (``linear``, ``add``, ``softmax``)."""
        return self.target.rsplit(".", 1)[-1]

    def refs(self) -> list[str]:
        """Names of the nodes this node reads, in argument order (duplicates kept)."""
        out: list[str] = []
        _collect_refs(list(self.args) + list(self.kwargs.values()), out)
        return out


@dataclass
class FxGraph:
    """One captured FX graph (a ``def forward`` of the printed code).

    Attributes:
        nodes: every node by name, in graph order (placeholders first).
        outputs: the returned values (:class:`Ref` or literals), in order.
    """

    nodes: dict[str, FxNode]
    outputs: list[Any]

    def __getitem__(self, name: str) -> FxNode:
        return self.nodes[name]

    def node(self, value: Any) -> FxNode | None:
        """The node an argument value refers to, or None for a literal."""
        return self.nodes.get(value.name) if isinstance(value, Ref) else None

    @property
    def output_names(self) -> set[str]:
        """Names of the nodes the graph returns (also inside returned lists or tuples)."""
        out: list[str] = []
        _collect_refs(self.outputs, out)
        return set(out)

    def calls(self) -> list[FxNode]:
        """Every node that is not a placeholder, in graph order."""
        return [n for n in self.nodes.values() if n.op != "placeholder"]


def _collect_refs(values: Any, out: list[str]) -> None:
    if isinstance(values, Ref):
        out.append(values.name)
    elif isinstance(values, (list, tuple)):
        for v in values:
            _collect_refs(v, out)
    elif isinstance(values, dict):
        for v in values.values():
            _collect_refs(v, out)


def dotted(expr: ast.expr) -> str | None:
    """``torch._C._nn.linear`` for an attribute chain rooted at a name, else None."""
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))


def resolve_target(path: str) -> Any:
    """The Python object a printed call target names, by attribute lookup; None if unknown."""
    root, *rest = path.split(".")
    obj = _ROOTS.get(root)
    if obj is None:
        obj = getattr(builtins, root, None)
    for part in rest:
        if obj is None:
            return None
        obj = getattr(obj, part, None)
    return obj


def literal(expr: ast.expr, graph_names: set[str]) -> Any:
    """The value of an argument expression: :class:`Ref`, a Python literal, or :class:`Opaque`.

    Literals FX prints that are not Python literals (``torch.float32``, ``slice(None, 1, None)``,
    ``torch.device('cpu')``, ``inf``) are rebuilt by attribute lookup and a few known constructors.
    """
    if isinstance(expr, ast.Name):
        if expr.id in graph_names:
            return Ref(expr.id)
        if expr.id in ("inf", "nan"):
            return float(expr.id)
        return Opaque(expr.id)
    if isinstance(expr, ast.Constant):
        return expr.value
    if isinstance(expr, (ast.Tuple, ast.List)):
        items = [literal(e, graph_names) for e in expr.elts]
        return tuple(items) if isinstance(expr, ast.Tuple) else items
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        inner = literal(expr.operand, graph_names)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(expr.op, ast.USub) else inner
        return Opaque(ast.unparse(expr))
    if isinstance(expr, ast.Attribute):
        path = dotted(expr)
        value = resolve_target(path) if path and path.startswith("torch.") else None
        if isinstance(value, (torch.dtype, torch.layout, torch.memory_format)):
            return value
        return Opaque(ast.unparse(expr))
    if isinstance(expr, ast.Call):
        name = dotted(expr.func)
        args = [literal(a, graph_names) for a in expr.args]
        kwargs = {k.arg: literal(k.value, graph_names) for k in expr.keywords if k.arg}
        if any(isinstance(a, (Ref, Opaque)) for a in [*args, *kwargs.values()]):
            return Opaque(ast.unparse(expr))
        try:
            if name in ("device", "torch.device"):  # FX prints devices as `device(type='cpu')`
                return torch.device(*args, **kwargs)
            if kwargs:
                return Opaque(ast.unparse(expr))
            if name == "slice":
                return slice(*args)
            if name == "float" and len(args) == 1 and isinstance(args[0], str):
                return float(args[0])
            if name == "torch.Size":
                return torch.Size(*args)
        except (TypeError, ValueError):
            pass
    return Opaque(ast.unparse(expr))


class _Reader:
    def __init__(self, fn: ast.FunctionDef):
        self.fn = fn
        self.params = {a.arg for a in fn.args.args[1:]}
        self.nodes: dict[str, FxNode] = {}
        self.outputs: list[Any] = []
        self.pending_aug: tuple[str, FxNode] | None = None

    def names(self) -> set[str]:
        return set(self.nodes)

    def add(self, node: FxNode) -> None:
        self.nodes[node.name] = node

    def expr_node(self, name: str, expr: ast.expr) -> FxNode | None:
        names = self.names()
        val = lambda e: literal(e, names)  # noqa: E731
        if isinstance(expr, ast.Call):
            kwargs = {k.arg: val(k.value) for k in expr.keywords if k.arg}
            if len(kwargs) != len(expr.keywords) or any(isinstance(a, ast.Starred) for a in expr.args):
                return None
            func = expr.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in names:
                return FxNode(name, "call_method", func.attr, "method",
                              (Ref(func.value.id), *map(val, expr.args)), kwargs)
            path = dotted(func)
            if path is None:
                return None
            return FxNode(name, "call_function", path, "call", tuple(map(val, expr.args)), kwargs)
        if isinstance(expr, ast.BinOp) and type(expr.op) in BINOPS:
            return FxNode(name, "call_function", f"operator.{BINOPS[type(expr.op)]}", "binop",
                          (val(expr.left), val(expr.right)))
        if isinstance(expr, ast.UnaryOp) and type(expr.op) in UNARYOPS:
            return FxNode(name, "call_function", f"operator.{UNARYOPS[type(expr.op)]}", "unary",
                          (val(expr.operand),))
        if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and type(expr.ops[0]) in CMPOPS:
            return FxNode(name, "call_function", f"operator.{CMPOPS[type(expr.ops[0])]}", "compare",
                          (val(expr.left), val(expr.comparators[0])))
        if isinstance(expr, ast.Subscript):
            return FxNode(name, "call_function", "operator.getitem", "subscript",
                          (val(expr.value), val(expr.slice)))
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in names:
            return FxNode(name, "call_function", "builtins.getattr", "attribute",
                          (Ref(expr.value.id), expr.attr))
        return None

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Return):
            value = stmt.value
            if value is not None:
                out = literal(value, self.names())
                self.outputs = list(out) if isinstance(out, (tuple, list)) else [out]
            return
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and type(stmt.op) in AUGOPS:
            # FX prints `x += y;  x_1 = x`: the in-place node is named by the alias that follows.
            node = FxNode("", "call_function", f"operator.{AUGOPS[type(stmt.op)]}", "augassign",
                          (literal(stmt.target, self.names()), literal(stmt.value, self.names())))
            self.pending_aug = (stmt.target.id, node)
            return
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                # `x[idx] = v` is operator.setitem: a mutation of x, with no value of its own.
                names = self.names()
                name = f"__setitem_{len(self.nodes)}"
                self.add(FxNode(name, "call_function", "operator.setitem", "setitem",
                                (literal(target.value, names), literal(target.slice, names), literal(value, names))))
                return
            if not isinstance(target, ast.Name):
                return
            name = target.id
            if isinstance(value, ast.Constant) and value.value is None:
                return  # `x = None`: FX frees a value it no longer needs
            if isinstance(value, ast.Name):
                if value.id in self.params:
                    self.add(FxNode(name, "placeholder", value.id, "placeholder"))
                elif self.pending_aug and self.pending_aug[0] == value.id:
                    node = self.pending_aug[1]
                    node.name = name
                    self.add(node)
                    self.pending_aug = None
                return
            node = self.expr_node(name, value)
            if node is None:
                node = FxNode(name, "call_function", f"<unread:{ast.unparse(value)[:60]}>", "call")
            self.add(node)

    def read(self) -> FxGraph:
        for stmt in self.fn.body:
            self.statement(stmt)
        for node in self.nodes.values():
            for r in dict.fromkeys(node.refs()):
                if r in self.nodes:
                    self.nodes[r].users.append(node.name)
        return FxGraph(self.nodes, self.outputs)


def read_graphs(ir: dict[str, Any]) -> list[FxGraph]:
    """Parse every captured graph of an IR dict (one per graph break), in capture order.

    ``fx_nodes`` lists the nodes of all graphs in graph order; each node takes its shape and
    dtype from the next unused entry of its name (else the first unused one), so a name that
    a later graph repeats is not confused, with or without ``output`` rows between graphs.
    """
    code = ir.get("fx_code") or ""
    try:
        module = ast.parse(code)
    except SyntaxError:
        return []
    metas = [n for n in ir.get("fx_nodes") or [] if n.get("op") != "output"]
    where: dict[str, list[int]] = {}
    for i, m in enumerate(metas):
        where.setdefault(m.get("name", ""), []).append(i)
    graphs, pos, used = [], 0, set()
    for fn in (s for s in module.body if isinstance(s, ast.FunctionDef)):
        g = _Reader(fn).read()
        for node in g.nodes.values():
            free = [i for i in where.get(node.name, []) if i not in used]
            at = next((i for i in free if i >= pos), free[0] if free else None)
            if at is not None:
                node.shape, node.dtype = metas[at].get("shape"), metas[at].get("dtype")
                used.add(at)
                pos = max(pos, at + 1)
        graphs.append(g)
    return graphs


# --- a torch.fx view of the same graph, for checking patterns against it ---------------------


def _unmatchable(*args: Any, **kwargs: Any) -> None:
    """Stands in for a call the reader could not resolve, so no pattern can match it."""


def _fx_value(value: Any, env: dict[str, torch.fx.Node]) -> Any:
    if isinstance(value, Ref):
        return env[value.name]
    if isinstance(value, Opaque):
        return value  # equal only to itself: a pattern never matches across it
    if isinstance(value, list):
        return [_fx_value(v, env) for v in value]
    if isinstance(value, tuple):
        return tuple(_fx_value(v, env) for v in value)
    return value


def to_torch_graph(g: FxGraph) -> torch.fx.Graph:
    """Rebuild ``g`` as a ``torch.fx.Graph`` with the targets Dynamo recorded.

    Targets are resolved by attribute lookup on ``torch`` / ``operator`` / ``builtins``; a
    target that cannot be resolved becomes a private function that matches no pattern.
    """
    graph = torch.fx.Graph()
    env: dict[str, torch.fx.Node] = {}
    for node in g.nodes.values():
        if node.op == "placeholder":
            env[node.name] = graph.placeholder(node.name)
            continue
        args = tuple(_fx_value(a, env) for a in node.args)
        kwargs = {k: _fx_value(v, env) for k, v in node.kwargs.items()}
        if node.op == "call_method":
            target: Any = node.target
        else:
            target = resolve_target(node.target)
            target = target if callable(target) else _unmatchable
        env[node.name] = graph.create_node(node.op, target, args, kwargs, name=node.name)
    graph.output(_fx_value(tuple(g.outputs), env) if len(g.outputs) != 1 else _fx_value(g.outputs[0], env))
    return graph
