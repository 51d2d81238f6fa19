"""Where a computation first leaves a tolerance level: a per-node comparison with eager.

When default Inductor, or a pass's candidate, is correct only from some tolerance level t on, the
output says *that* it drifted, not *where*. This module finds the first node of the Dynamo FX
graph whose value leaves level t, by comparing each node's value with the same node's value in
eager (the original graph run by :class:`torch.fx.Interpreter`, TF32 off, as the reference of an
evaluation; ``shared/docs/SCORING.md``).

* **Eager rewritten graph** (``passagent check`` without ``--inductor``): every node is run once
  and compared; the answer is exact.
* **Compiled** (default Inductor on the original graph, or the candidate's rewritten graph):
  intermediate values of a fused kernel do not exist, so a node's compiled value is the output of
  the *prefix* of the graph that ends at it, compiled by Inductor as it would compile the whole
  graph (the prefix fuses the same way up to that node, so a rounding Inductor drops inside a
  fused kernel shows at the node where it is dropped). The first node outside level t is found by
  bisection over the graph's order: ``ceil(log2(n)) + 1`` compiles for n compared nodes. It is a
  node outside the level whose predecessor in that order is within it; where an error comes and
  goes along the graph an earlier such node may exist.

Only nodes of the original graph are compared (a replacement's own nodes have no eager
counterpart): :func:`tag_origins` marks them before a pass rewrites the graph, and the mark
survives the rewrite on every node the pass left in place.

Tolerance levels and the per-dtype ``(atol, rtol)`` are :mod:`..measure.correctness`'s (SCORING.md).
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Literal, cast

import torch
from pydantic import BaseModel, Field

from ..measure.correctness import TOLERANCE_LEVELS, OutputMismatch, compare_outputs, reference_precision

#: ``node.meta`` key holding the name a node had in the graph before any pass rewrote it.
ORIGIN = "passagent_origin"
#: Compiles one bisection may spend: enough for a 2,000-node graph.
MAX_COMPILES = 12


class Divergence(BaseModel):
    """The first node of a graph whose value leaves tolerance level ``level``.

    ``node`` is None when every compared node is within the level (then ``note`` says so).
    """

    computation: Literal["inductor", "candidate", "candidate_eager"] = Field(
        description="default Inductor on the original graph; the candidate compiled by Inductor; the rewritten graph run eagerly")
    level: int = Field(description="the tolerance level t tested (SCORING.md)")
    node: str | None = Field(None, description="the first node outside the level (its name in the original graph)")
    op: str | None = Field(None, description="that node's operation, e.g. aten.mul.Tensor or torch.nn.functional.gelu")
    shape: list[int] | None = None
    dtype: str | None = None
    min_correct_t: int | None = Field(None, description="the smallest level that node's value passes; None: no level")
    max_abs: float | None = Field(None, description="its largest absolute error against eager")
    within: str | None = Field(None, description="the compared node before it, within the level")
    compared: int = Field(0, description="nodes of the original graph the search could compare")
    compiles: int = Field(0, description="Inductor compiles spent (0 for an eager run)")
    wall_s: float = Field(0.0, description="the search's wall time, seconds (compiles included)")
    note: str | None = None


def tag_origins(gm: torch.fx.GraphModule) -> None:
    """Mark every computing node of ``gm`` with its name (:data:`ORIGIN`), before a pass rewrites it."""
    for n in gm.graph.nodes:
        if n.op in ("call_function", "call_method", "call_module"):
            n.meta[ORIGIN] = n.name


def default_level(per_output_min_t: list[int | None]) -> int | None:
    """The level to search at: the strictest level some output fails, i.e. one below the worst
    output's smallest passing level (the highest level when an output passes none); None when
    every output passes every level."""
    if any(t is None for t in per_output_min_t):
        return TOLERANCE_LEVELS[-1]
    worst = max((t for t in per_output_min_t if t is not None), default=TOLERANCE_LEVELS[0])
    return worst - 1 if worst > TOLERANCE_LEVELS[0] else None


def node_values(gm: torch.fx.GraphModule, args: list[Any], *, origin_only: bool = False) -> dict[str, torch.Tensor]:
    """Every tensor a computing node of ``gm`` produces when it runs eagerly on ``args``, by name
    (:data:`ORIGIN` where set). Values are copied as produced, so a later in-place op does not
    change them; ``args`` are not cloned here. ``origin_only``: only nodes marked by :func:`tag_origins`.

    Returns:
        Node name -> a detached copy of its value (each node's own shape and dtype, on its device);
        nodes that return a tuple or a non-tensor are left out.

    Raises:
        Whatever running ``gm`` raises (the graph's own error, unchanged)."""
    values: dict[str, torch.Tensor] = {}

    class _Recorder(torch.fx.Interpreter):
        def run_node(self, n: torch.fx.Node) -> Any:
            value = super().run_node(n)
            key = n.meta.get(ORIGIN) if origin_only else n.meta.get(ORIGIN, n.name)
            if key is not None and n.op in ("call_function", "call_method", "call_module") and isinstance(value, torch.Tensor):
                values[key] = value.detach().clone()
            return value

    with torch.no_grad(), reference_precision():
        torch.manual_seed(0)
        _Recorder(gm).run(*args)
    return values


def _describe(n: torch.fx.Node) -> str:
    t = n.target
    if isinstance(t, str):
        return f"Tensor.{t}" if n.op == "call_method" else t
    if isinstance(t, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        return str(t)
    module, name = getattr(t, "__module__", None), getattr(t, "__name__", repr(t))
    return f"{module}.{name}" if module and module not in ("builtins", "_operator") else name


def _compare(got: torch.Tensor, want: torch.Tensor) -> tuple[int | None, float | None]:
    try:
        c = compare_outputs([got], [want])
    except OutputMismatch:
        return None, None
    return c.min_correct_t, c.max_abs


def _outside(t: int | None, level: int) -> bool:
    return t is None or t > level


def copy_module(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """A copy of ``gm`` with its own graph (nodes' ``meta`` copied, submodules and parameters
    shared, not copied), so a pass rewriting ``gm`` in place leaves the copy as it was."""
    graph = torch.fx.Graph()
    graph.output(graph.graph_copy(gm.graph, {}))
    return torch.fx.GraphModule(gm, graph)


def prefix_module(gm: torch.fx.GraphModule, last: torch.fx.Node) -> torch.fx.GraphModule:
    """The part of ``gm`` that computes ``last``: every placeholder, the nodes up to ``last`` it
    needs, and ``(last,)`` as the output."""
    graph = torch.fx.Graph()
    env: dict[torch.fx.Node, torch.fx.Node] = {}
    for n in gm.graph.nodes:
        if n.op == "output":
            break
        env[n] = graph.node_copy(n, lambda a: env[a])
        if n is last:
            break
    graph.output((env[last],))
    out = torch.fx.GraphModule(gm, graph)
    out.graph.eliminate_dead_code()
    out.recompile()
    return out


def _comparable(gm: torch.fx.GraphModule, reference: dict[str, torch.Tensor]) -> list[torch.fx.Node]:
    return [n for n in gm.graph.nodes
            if n.op in ("call_function", "call_method", "call_module") and n.meta.get(ORIGIN) in reference]


def _result(computation: str, level: int, node: torch.fx.Node | None, value: torch.Tensor | None,
            t: int | None, max_abs: float | None, within: torch.fx.Node | None, compared: int, compiles: int,
            note: str | None = None, t0: float | None = None) -> Divergence:
    return Divergence(computation=computation, level=level, node=node.meta.get(ORIGIN) if node is not None else None,
                      op=_describe(node) if node is not None else None,
                      shape=list(value.shape) if value is not None else None,
                      dtype=str(value.dtype).removeprefix("torch.") if value is not None else None,
                      min_correct_t=t, max_abs=max_abs, within=within.meta.get(ORIGIN) if within is not None else None,
                      compared=compared, compiles=compiles, note=note,
                      wall_s=round(time.perf_counter() - t0, 3) if t0 is not None else 0.0)


def eager_divergence(gm: torch.fx.GraphModule, args: list[Any], reference: dict[str, torch.Tensor], level: int,
                     clone: Callable[[list[Any]], list[Any]]) -> Divergence:
    """The first node of ``gm`` (a rewritten graph, run eagerly) whose value leaves ``level``
    against ``reference`` (:func:`node_values` of the original graph); exact.

    Args:
        args: ``gm``'s inputs, copied by ``clone`` before the run.
        level: a tolerance level t of SCORING.md (-10..4).

    Raises:
        Whatever running ``gm`` raises."""
    t0 = time.perf_counter()
    got = node_values(gm, clone(args), origin_only=True)
    nodes = _comparable(gm, reference)
    previous = None
    for n in nodes:
        key = n.meta[ORIGIN]
        if key not in got:
            continue
        t, max_abs = _compare(got[key], reference[key])
        if _outside(t, level):
            return _result("candidate_eager", level, n, got[key], t, max_abs, previous, len(nodes), 0, t0=t0)
        previous = n
    return _result("candidate_eager", level, None, None, None, None, None, len(nodes), 0,
                   f"every compared node is within t={level}", t0=t0)


def compiled_divergence(gm: torch.fx.GraphModule, args: list[Any], reference: dict[str, torch.Tensor], level: int,
                        clone: Callable[[list[Any]], list[Any]], computation: str = "inductor",
                        compile_prefix: Callable[[torch.fx.GraphModule, list[Any]], Callable[..., Any]] | None = None,
                        max_compiles: int = MAX_COMPILES) -> Divergence:
    """The first node of ``gm`` whose value, compiled by Inductor as the prefix of ``gm`` that
    ends at it, leaves ``level`` against ``reference``; found by bisection (module docstring).

    Args:
        gm: the graph Inductor compiles (the original one, or a candidate's rewritten one), its
            original nodes marked by :func:`tag_origins`.
        args: its inputs (cloned by ``clone`` for every run).
        reference: :func:`node_values` of the original graph on the same inputs.
        compile_prefix: how a prefix is compiled (default ``torch._inductor.compile_fx.compile_fx``).
        max_compiles: the bisection stops there and reports the narrowest interval it reached.

    Returns:
        A :class:`Divergence` (``computation`` as given; ``compiles`` and ``wall_s``, seconds, what
        the search spent).

    Raises:
        Whatever Inductor or the compiled prefix raises (callers report it as the search failing).
    """
    if compile_prefix is None:
        from torch._inductor.compile_fx import compile_fx

        compile_prefix = cast(Callable[[torch.fx.GraphModule, list[Any]], Callable[..., Any]], compile_fx)
    compile_ = compile_prefix
    t0 = time.perf_counter()
    nodes = _comparable(gm, reference)
    compiles = 0
    seen: dict[int, tuple[int | None, float | None, torch.Tensor | None]] = {}

    def probe(i: int) -> tuple[int | None, float | None, torch.Tensor | None]:
        nonlocal compiles
        if i not in seen:
            compiles += 1
            fn = compile_(prefix_module(gm, nodes[i]), clone(args))
            with torch.no_grad():
                torch.manual_seed(0)
                out = fn(*clone(args))
            got = out[0] if isinstance(out, (tuple, list)) else out
            t, max_abs = _compare(got, reference[nodes[i].meta[ORIGIN]])
            seen[i] = (t, max_abs, got.detach() if isinstance(got, torch.Tensor) else None)
        return seen[i]

    if not nodes:
        return _result(computation, level, None, None, None, None, None, 0, 0,
                       "no node of the original graph is left to compare (the pass replaced them all)", t0)
    hi = len(nodes) - 1
    if not _outside(probe(hi)[0], level):
        return _result(computation, level, None, None, None, None, None, len(nodes), compiles,
                       f"the last node compared is within t={level}" + (
                           "; an output the pass's own nodes compute has no eager counterpart to compare"
                           if computation != "inductor" else ""), t0)
    lo = -1
    budget = max(2, max_compiles)
    while hi - lo > 1 and compiles < budget:
        mid = (lo + hi) // 2
        if _outside(probe(mid)[0], level):
            hi = mid
        else:
            lo = mid
    t, max_abs, value = probe(hi) if hi in seen else (None, None, None)
    note = None if hi - lo <= 1 else (f"stopped after {compiles} compiles: the first node outside the level is between "
                                      f"{nodes[lo].meta[ORIGIN] if lo >= 0 else 'the inputs'} and this one")
    return _result(computation, level, nodes[hi], value, t, max_abs, nodes[lo] if lo >= 0 else None, len(nodes),
                   compiles, note, t0)


def bisection_compiles(n: int) -> int:
    """Compiles :func:`compiled_divergence` spends on ``n`` compared nodes (at most)."""
    return 1 + (math.ceil(math.log2(n)) if n > 1 else 0)
