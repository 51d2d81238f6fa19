"""Semantic views of printed FX nodes, for recognising fragments however they are spelled.

Dynamo records what the model's Python wrote: ``0.5 * x``, ``x * 0.5``, ``torch.mul(x, 0.5)`` and
``x.mul(0.5)`` are four different graphs. Recipes recognise a fragment through the views here
(:func:`binary`, :func:`unary`, the template matcher :func:`match_expr` with commutative
``add``/``mul``), then emit the pattern from the graph's own nodes, so recognition can be
tolerant while the pattern stays exact. Also here: which nodes mutate, alias or draw random
numbers, which decides where dropping a copy or a dead value is safe.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from .fx_reader import FxGraph, FxNode, Ref

_BINARY = {
    "add": "add", "sub": "sub", "subtract": "sub", "mul": "mul", "multiply": "mul", "truediv": "div",
    "div": "div", "true_divide": "div", "divide": "div", "pow": "pow", "matmul": "matmul",
}
_UNARY = {"tanh", "sigmoid", "erf", "sqrt", "rsqrt", "exp", "relu", "neg"}
COMMUTATIVE = {"add", "mul"}

#: Ops whose output may share storage with their first input.
ALIASING = {
    "getitem", "getattr", "view", "view_as", "reshape", "reshape_as", "transpose", "permute", "t", "T", "mT",
    "expand", "expand_as", "squeeze", "unsqueeze", "flatten", "unflatten", "narrow", "select", "split",
    "chunk", "unbind", "movedim", "moveaxis", "swapaxes", "swapdims", "diagonal", "detach", "as_strided",
    "contiguous", "to", "float", "half", "double", "bfloat16", "type", "type_as", "real", "imag", "unfold",
    "dropout", "alias", "view_as_real", "view_as_complex", "data",
}
#: Ops that draw random numbers (never dropped, never moved).
RANDOM = {
    "rand", "randn", "randint", "rand_like", "randn_like", "randint_like", "randperm", "bernoulli",
    "multinomial", "normal", "poisson", "rrelu", "alpha_dropout", "feature_alpha_dropout",
    "dropout1d", "dropout2d", "dropout3d", "uniform_", "normal_", "exponential_", "geometric_",
}
#: Positional index of ``inplace`` in functional activations that take one.
_INPLACE_ARG = {
    "dropout": 3, "relu": 1, "relu6": 1, "elu": 2, "selu": 1, "celu": 2, "leaky_relu": 2, "hardtanh": 3,
    "silu": 1, "hardswish": 1, "mish": 1, "hardsigmoid": 1, "threshold": 3,
}


def number(value: Any) -> float | None:
    """A numeric literal's value (bool is not a number here), else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def binary(node: FxNode | None) -> tuple[str, Any, Any] | None:
    """``(op, a, b)`` for ``a + b``, ``torch.add(a, b)``, ``a.add(b)`` and the like, else None.

    Calls with extra arguments (``alpha=``, ``rounding_mode=``) are not plain binary ops.
    """
    if node is None or node.kwargs or len(node.args) != 2:
        return None
    op = _BINARY.get(node.fn)
    if op is None:
        return None
    if node.form == "binop" or (node.form == "call" and node.target == f"torch.{node.fn}") or node.form == "method":
        return op, node.args[0], node.args[1]
    return None


def mean_last_dim(g: FxGraph, node: FxNode | None) -> Any:
    """The input of a mean over the last dimension with ``keepdim=True``, else None."""
    if node is None or node.fn != "mean" or not (node.form == "method" or node.target == "torch.mean"):
        return None
    args, kwargs = list(node.args), dict(node.kwargs)
    src = g.node(args[0])
    if src is None or src.shape is None or set(kwargs) - {"dim", "keepdim"}:
        return None
    dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
    keepdim = kwargs.get("keepdim", args[2] if len(args) > 2 else False)
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    last = len(src.shape) - 1
    if keepdim is not True or not isinstance(dim, int) or isinstance(dim, bool) or dim not in (-1, last):
        return None
    return args[0]


def unary(g: FxGraph, node: FxNode | None) -> tuple[str, Any] | None:
    """``(op, x)`` for ``torch.tanh(x)``, ``x.tanh()``, ``-x``, a last-dim mean (``mean_last``)..."""
    if node is None:
        return None
    x = mean_last_dim(g, node)
    if x is not None:
        return "mean_last", x
    if node.kwargs or len(node.args) != 1 or node.fn not in _UNARY:
        return None
    ok = (node.form in ("method", "unary")
          or node.target in (f"torch.{node.fn}", f"torch.nn.functional.{node.fn}", f"torch.special.{node.fn}"))
    return (node.fn, node.args[0]) if ok else None


# --- template matching -------------------------------------------------------------------
#
# A template is a nested tuple: ("var", key) binds any value (consistently), ("c", value)
# a numeric literal within a relative tolerance, ("num", key) binds any numeric literal,
# ("alt", t1, t2, ...) tries each, (op, t1[, t2]) an operator node whose operands match.


def _close(a: float, b: float, rel: float = 1e-6) -> bool:
    return a == b or abs(a - b) <= rel * max(abs(a), abs(b))


def _match(g: FxGraph, t: tuple[Any, ...], value: Any, env: dict[str, Any]) -> Iterator[dict[str, Any]]:
    kind = t[0]
    if kind == "var":
        if t[1] in env:
            if env[t[1]] == value:
                yield env
        elif isinstance(value, Ref):
            yield {**env, t[1]: value}
        return
    if kind == "c":
        v = number(value)
        if v is not None and _close(v, t[1]):
            yield env
        return
    if kind == "num":
        v = number(value)
        if v is not None:
            yield {**env, t[1]: v}
        return
    if kind == "alt":
        for sub in t[1:]:
            yield from _match(g, sub, value, env)
        return
    node = g.node(value)
    if node is None:
        return
    env = {**env, "__nodes__": env.get("__nodes__", frozenset()) | {node.name}}
    if len(t) == 2:
        u = unary(g, node)
        if u is not None and u[0] == kind:
            yield from _match(g, t[1], u[1], env)
        return
    b = binary(node)
    if b is None or b[0] != kind:
        return
    orders = [(b[1], b[2]), (b[2], b[1])] if kind in COMMUTATIVE else [(b[1], b[2])]
    for left, right in orders:
        for e in _match(g, t[1], left, env):
            yield from _match(g, t[2], right, e)


def match_expr(g: FxGraph, template: tuple[Any, ...], root: FxNode) -> dict[str, Any] | None:
    """Bindings of the first way ``root`` computes ``template`` as a self-contained fragment.

    Self-contained: every matched node except ``root`` is used only by matched nodes (what
    torch.fx requires of a match). The bindings hold ``__nodes__``, the matched node names.
    """
    for env in _match(g, template, Ref(root.name), {}):
        inner = env["__nodes__"] - {root.name}
        if all(set(g[n].users) <= env["__nodes__"] for n in inner) and not inner & g.output_names:
            return env
    return None


# --- effects -----------------------------------------------------------------------------


def mutated_args(node: FxNode) -> list[Any]:
    """The argument values ``node`` writes to (in-place methods, ``+=``, ``inplace=True``, setitem)."""
    if node.form in ("augassign", "setitem"):
        return [node.args[0]]
    if node.form == "method" and node.fn.endswith("_") and not node.fn.endswith("__"):
        return [node.args[0]]
    if node.form == "call" and node.fn.endswith("_") and not node.fn.startswith("_") and node.args:
        return [node.args[0]]
    if node.kwargs.get("inplace") is True or "out" in node.kwargs:
        return [node.args[0] if node.args else None, node.kwargs.get("out")]
    i = _INPLACE_ARG.get(node.fn)
    if node.target.startswith("torch.nn.functional.") and i is not None and len(node.args) > i and node.args[i] is True:
        return [node.args[0]]
    return []


def dropout_training(node: FxNode) -> Any:
    """The ``training`` argument of a ``torch.nn.functional.dropout``/``torch.dropout`` call."""
    if node.target == "torch.nn.functional.dropout":
        return node.kwargs.get("training", node.args[2] if len(node.args) > 2 else True)
    if node.target == "torch.dropout":
        return node.kwargs.get("train", node.args[2] if len(node.args) > 2 else None)
    return None


def is_random(node: FxNode) -> bool:
    """Whether ``node`` draws random numbers (a dropout only when training may be on)."""
    if node.fn in RANDOM:
        return True
    if node.fn == "dropout":
        return dropout_training(node) is not False
    return False


#: Call targets that act on global state (grad mode, RNG seeds, asserts, profiler, devices).
_SIDE_EFFECT_PREFIXES = (
    "torch.autograd", "torch._dynamo", "torch.cuda", "torch.distributed", "torch.profiler", "torch.ops.profiler",
    "torch.ops.higher_order", "torch._assert", "torch._check", "torch.manual_seed", "torch.set_", "builtins.print", "print",
)
#: Private C bindings that are plain math (Dynamo prints ``torch._C._nn.linear`` and friends).
_MATH_BINDINGS = ("torch._C._nn.", "torch._C._fft.", "torch._C._linalg.", "torch._C._special.")


def has_side_effect(node: FxNode) -> bool:
    """Whether a call may act on state outside its output (``torch._C._set_grad_enabled``...)."""
    t = node.target
    return t.startswith(_SIDE_EFFECT_PREFIXES) or (t.startswith("torch._C.") and not t.startswith(_MATH_BINDINGS))


def is_pure(node: FxNode) -> bool:
    """No side effect: no mutation, no random draw, and a call the reader understood."""
    return (not mutated_args(node) and not is_random(node) and not has_side_effect(node)
            and not node.target.startswith("<")
            and node.form in ("call", "method", "binop", "unary", "compare", "subscript", "attribute"))


def alias_roots(g: FxGraph) -> dict[str, str]:
    """A representative per set of values that may share storage (views, no-op casts, in-place results)."""
    parent: dict[str, str] = {n: n for n in g.nodes}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for node in g.nodes.values():
        if node.op == "placeholder" or not node.args or not isinstance(node.args[0], Ref):
            continue
        if node.fn in ALIASING or mutated_args(node):
            a, b = find(node.name), find(node.args[0].name)
            parent[a] = b
    return {n: find(n) for n in g.nodes}


def mutated_roots(g: FxGraph) -> set[str]:
    """Alias representatives of every value some node writes to."""
    roots = alias_roots(g)
    out = set()
    for node in g.nodes.values():
        for v in mutated_args(node):
            if isinstance(v, Ref):
                out.add(roots[v.name])
    return out


def never_mutated(g: FxGraph, *names: str) -> bool:
    """True if no node writes to any of ``names`` or to anything that may share their storage."""
    roots, hit = alias_roots(g), mutated_roots(g)
    return all(roots[n] not in hit for n in names)


def dims_perm(node: FxNode, ndim: int) -> list[int] | None:
    """The permutation a ``transpose``/``permute``/``t`` node applies to an ``ndim``-d input."""
    def norm(d: Any) -> int | None:
        if not isinstance(d, int) or isinstance(d, bool) or not -ndim <= d < ndim:
            return None
        return d % ndim

    if node.kwargs or node.form not in ("method", "call"):
        return None
    if node.form == "call" and node.target not in ("torch.transpose", "torch.permute", "torch.t"):
        return None
    rest = list(node.args[1:])
    if node.fn == "t" and not rest and ndim == 2:
        return [1, 0]
    if node.fn == "transpose" and len(rest) == 2:
        a, b = norm(rest[0]), norm(rest[1])
        if a is None or b is None:
            return None
        perm = list(range(ndim))
        perm[a], perm[b] = perm[b], perm[a]
        return perm
    if node.fn == "permute":
        dims = rest[0] if len(rest) == 1 and isinstance(rest[0], (list, tuple)) else rest
        perm = [norm(d) for d in dims]
        if len(perm) != ndim or None in perm or sorted(perm) != list(range(ndim)):  # type: ignore[type-var]
            return None
        return perm  # type: ignore[return-value]
    return None


SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
