"""Static reading of a GraphNet ``model.py``: forward signature, operator sequence, device literals.

Everything here works on the source text with :mod:`ast`; nothing is executed. The module is
built and run only inside the evaluation's child processes (:mod:`passagent.tools.evaluation`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from ..errors import TaskError

_BINOPS = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
    ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul",
    ast.BitAnd: "and_", ast.BitOr: "or_", ast.BitXor: "xor", ast.LShift: "lshift",
    ast.RShift: "rshift",
}
_UNARYOPS = {ast.USub: "neg", ast.Invert: "invert", ast.Not: "not_", ast.UAdd: "pos"}
_CMPOPS = {
    ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge",
}
#: Calls that build Python values rather than run tensor operators.
_NOT_OPS = {"device", "slice", "dtype", "Size", "tuple", "list", "int", "float", "bool", "len"}


@dataclass(frozen=True)
class ForwardArg:
    """One parameter of ``GraphModule.forward``: its name and whether it is a ``torch.SymInt``."""

    name: str
    is_symint: bool


@dataclass(frozen=True)
class GraphSource:
    """What static analysis of a ``model.py`` yields.

    Attributes:
        class_name: the ``torch.nn.Module`` subclass holding ``forward`` (``GraphModule``).
        args: forward parameters after ``self``, in order.
        op_sequence: operator names in evaluation order (``gelu``, ``linear``, ``add``, ...).
    """

    class_name: str
    args: tuple[ForwardArg, ...]
    op_sequence: tuple[str, ...]


def _call_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


class _OpCollector(ast.NodeVisitor):
    """Post-order walk: operands before the operator that consumes them."""

    def __init__(self) -> None:
        self.ops: list[str] = []

    def visit_Call(self, node: ast.Call) -> None:
        for a in node.args:
            self.visit(a)
        for k in node.keywords:
            self.visit(k.value)
        if isinstance(node.func, ast.Attribute):
            self.visit(node.func.value)
        name = _call_name(node.func)
        if name and name not in _NOT_OPS:
            self.ops.append(name)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self.generic_visit(node)
        self.ops.append(_BINOPS.get(type(node.op), type(node.op).__name__.lower()))

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        self.generic_visit(node)
        if not isinstance(node.operand, ast.Constant):
            self.ops.append(_UNARYOPS.get(type(node.op), type(node.op).__name__.lower()))

    def visit_Compare(self, node: ast.Compare) -> None:
        self.generic_visit(node)
        for op in node.ops:
            self.ops.append(_CMPOPS.get(type(op), type(op).__name__.lower()))

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.generic_visit(node)
        self.ops.append("getitem")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        # ``x.T`` / ``x.shape`` style attribute reads on tensors are not operators we list.
        self.generic_visit(node)


def _find_module_class(tree: ast.Module) -> ast.ClassDef | None:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(
            isinstance(s, ast.FunctionDef) and s.name == "forward" for s in node.body
        ):
            return node
    return None


def analyse_model_source(source: str, path: Path) -> GraphSource:
    """Read the forward signature and operator sequence of a GraphNet ``model.py``.

    Raises:
        TaskError: the file does not parse or has no ``nn.Module`` class with ``forward``.
    """
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        raise TaskError(path, f"does not parse: {exc.msg} (line {exc.lineno})") from None
    cls = _find_module_class(tree)
    if cls is None:
        raise TaskError(path, "no class with a forward() method", "GraphModule")
    forward = next(s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "forward")
    params = forward.args.args[1:]  # drop self
    if forward.args.vararg or forward.args.kwarg or forward.args.kwonlyargs:
        raise TaskError(path, "forward() must take positional arguments only", "forward")
    args = tuple(
        ForwardArg(p.arg, p.annotation is not None and ast.unparse(p.annotation).endswith("SymInt"))
        for p in params
    )
    collector = _OpCollector()
    for stmt in forward.body:
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)):
            value = stmt.value
            if value is not None:
                collector.visit(value)
        if isinstance(stmt, ast.AugAssign):
            collector.ops.append("i" + _BINOPS.get(type(stmt.op), "op"))
    return GraphSource(cls.name, args, tuple(collector.ops))


# --- device literals -------------------------------------------------------------------------


def _device_type_of(text: str) -> str | None:
    base = text.split(":")[0].strip()
    return base if base in {"cpu", "cuda"} else None


def rewrite_device_literals(source: str, target: str) -> str:
    """Point hard-coded device literals in a ``model.py`` at ``target`` ("cpu" or "cuda").

    Graphs captured on a GPU hard-code ``device(type='cuda', index=0)``, ``device='cuda:0'``
    or ``.cuda()``; run on the CPU they would fail (or silently move work to a GPU). The
    reverse holds for CPU captures run on CUDA. Only the literal's text is replaced, in place,
    so every other line and column of the file is unchanged and tracebacks still point at the
    original line numbers.

    Args:
        source: the ``model.py`` text.
        target: ``"cpu"`` or ``"cuda"``.

    Returns:
        The rewritten text (the same object if nothing needed rewriting).
    """
    if target not in {"cpu", "cuda"}:
        raise ValueError(f"target device must be 'cpu' or 'cuda', not {target!r}")
    tree = ast.parse(source)
    new_literal = "'cuda'" if target == "cuda" else "'cpu'"
    edits: list[tuple[int, int, int, int, str]] = []

    def replace(node: ast.expr, text: str) -> None:
        assert node.end_lineno is not None and node.end_col_offset is not None
        edits.append((node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, text))

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node.func)
        # device(type='cuda', index=0) / torch.device('cuda:0')
        if name == "device":
            strings = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            kw_type = [k.value.value for k in node.keywords if k.arg == "type" and isinstance(k.value, ast.Constant)]
            literal = strings[0].value if strings else (kw_type[0] if kw_type else None)
            if isinstance(literal, str) and _device_type_of(literal) not in (None, target):
                func = ast.get_source_segment(source, node.func)
                replace(node, f"{func}({new_literal})")
            continue
        # x.cuda() -> x.to('cpu') when running on the CPU
        if name == "cuda" and isinstance(node.func, ast.Attribute) and target == "cpu":
            obj = ast.get_source_segment(source, node.func.value)
            replace(node, f"{obj}.to({new_literal})")
            continue
        # device='cuda:0' keywords and .to('cuda:0') positional strings
        for kw in node.keywords:
            if (
                kw.arg == "device"
                and isinstance(kw.value, ast.Constant)
                and isinstance(kw.value.value, str)
                and _device_type_of(kw.value.value) not in (None, target)
            ):
                replace(kw.value, new_literal)
        if name == "to":
            for a in node.args:
                if (
                    isinstance(a, ast.Constant)
                    and isinstance(a.value, str)
                    and _device_type_of(a.value) not in (None, target)
                ):
                    replace(a, new_literal)
    if not edits:
        return source
    lines = source.splitlines(keepends=True)
    # Apply from the end so earlier offsets stay valid; nested edits never overlap because a
    # device(...) call is replaced whole and its children are not visited for edits.
    for lineno, col, end_lineno, end_col, text in sorted(edits, reverse=True):
        start = lines[lineno - 1][:col]
        end = lines[end_lineno - 1][end_col:]
        newline_pad = "\n" * (end_lineno - lineno)  # keep the line count
        lines[lineno - 1 : end_lineno] = [start + text + end.rstrip("\n") + newline_pad + ("\n" if end.endswith("\n") else "")]
    return "".join(lines)
