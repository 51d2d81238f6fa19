"""Structural hashes of FX graphs: exact duplicates, and the operator-sequence key tasks share.

A graph is normalised before hashing:

* placeholders are renumbered in order of first use, so their names (``L_x_``, ``in_0``,
  ``hidden_states_3``) and their order in the signature do not matter; each carries its input
  spec (shape and dtype) when shapes are hashed;
* every other node is ``(op kind, target, args, kwargs)`` with node references replaced by
  their position in the normalised order, so node names do not matter either;
* literals are hashed by type and value (``0.1`` and ``0.2`` differ, ``1`` and ``1.0`` differ).

:func:`structural_hash` (exact) keeps shapes, dtypes and every literal: two subgraphs with the
same hash compute the same thing on the same inputs, so one of them is a duplicate.
:func:`group_key` abstracts what changes with the input shape and the dtype: input shapes,
integer literals in shape-taking operators (``view(2, 16, -1, 64)``, ``arange(16)``, slice
bounds, ``layer_norm``'s normalized_shape, convolution strides and groups), eval-mode
dropout rates and floating-point dtype literals; subgraphs with
the same key run the same operator sequence on different shapes and dtypes (one task).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import torch
import torch.fx

#: Operators whose integer arguments are sizes, offsets or element counts that follow the input shape.
SHAPE_OPS = frozenset({
    "view", "reshape", "expand", "repeat", "new_zeros", "new_ones", "new_empty", "new_full", "zeros", "ones",
    "empty", "full", "rand", "randn", "randint", "arange", "narrow", "split", "split_with_sizes", "tensor_split",
    "unflatten", "layer_norm", "group_norm", "interpolate", "upsample", "pad", "_unsafe_view", "as_strided",
    "linspace", "tril", "triu", "ones_like", "zeros_like", "full_like", "roll", "rms_norm",
    # channel counts (depthwise ``groups``), strides and paddings follow the layer's shape
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
})
#: Operators whose floating-point arguments do not change what they compute at inference
#: (eval-mode dropout's rate; EfficientNet's stochastic-depth rate grows block by block).
INERT_FLOAT_OPS = frozenset({"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"})
_FLOAT_DTYPES = {torch.float16, torch.bfloat16, torch.float32, torch.float64}

#: An input spec: (shape, dtype) of one placeholder.
InputSpec = tuple[Sequence[int], torch.dtype]


def target_name(node: torch.fx.Node) -> str:
    """A stable, readable name of a node's target (``linear``, ``add``, ``view``)."""
    t = node.target
    if isinstance(t, str):
        return t
    return getattr(t, "__name__", None) or str(t)


def _qualified(node: torch.fx.Node) -> str:
    t = node.target
    if isinstance(t, str):
        return f"{node.op}:{t}"
    module = getattr(t, "__module__", None) or ""
    return f"{node.op}:{module}.{getattr(t, '__qualname__', None) or getattr(t, '__name__', None) or repr(t)}"


def _literal(value: Any, index: dict[torch.fx.Node, int], abstract_ints: bool, abstract_dtypes: bool,
             abstract_floats: bool = False) -> Any:
    rec = lambda v: _literal(v, index, abstract_ints, abstract_dtypes, abstract_floats)  # noqa: E731
    if isinstance(value, torch.fx.Node):
        return ("%", index[value])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(rec(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((str(k), rec(v)) for k, v in value.items())))
    if isinstance(value, slice):
        return ("slice", rec(value.start), rec(value.stop), rec(value.step))
    if isinstance(value, bool) or value is None or value is Ellipsis:
        return (type(value).__name__, repr(value))
    if isinstance(value, int):
        return ("int", "#") if abstract_ints else ("int", value)
    if isinstance(value, float):
        return ("float", "#") if abstract_floats else ("float", repr(value))
    if isinstance(value, torch.dtype):
        if abstract_dtypes and value in _FLOAT_DTYPES:
            return ("dtype", "float")
        return ("dtype", str(value))
    if isinstance(value, torch.device):
        return ("device", value.type)
    if isinstance(value, (torch.memory_format, torch.layout)):
        return (type(value).__name__, str(value))
    return (type(value).__name__, repr(value))


def _slice_ints(value: Any, index: dict[torch.fx.Node, int], abstract_dtypes: bool) -> Any:
    """Like :func:`_literal` but abstracts integers inside ``slice`` objects only (``getitem``)."""
    if isinstance(value, slice):
        return ("slice",) + tuple(_literal(v, index, True, abstract_dtypes) for v in (value.start, value.stop, value.step))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_slice_ints(v, index, abstract_dtypes) for v in value))
    return _literal(value, index, False, abstract_dtypes)


def normalise(
    graph: torch.fx.Graph | torch.fx.GraphModule,
    input_specs: Sequence[InputSpec] | None = None,
    *,
    shapes: bool = True,
    abstract: bool = False,
) -> list[Any]:
    """The normalised form hashed by :func:`structural_hash` (see the module docstring).

    Args:
        graph: an FX graph (or a GraphModule, whose graph is used).
        input_specs: per placeholder in signature order, its (shape, dtype); None hashes
            without them.
        shapes: include input shapes (dtypes are always included, as float/int/bool class when
            ``abstract``).
        abstract: abstract shape-following integer literals and floating-point dtypes.

    Raises:
        ValueError: ``input_specs`` does not have one entry per placeholder.
    """
    g = graph.graph if isinstance(graph, torch.fx.GraphModule) else graph
    nodes = list(g.nodes)
    placeholders = [n for n in nodes if n.op == "placeholder"]
    if input_specs is not None and len(input_specs) != len(placeholders):
        raise ValueError(f"{len(input_specs)} input specs for {len(placeholders)} placeholders")
    spec_of = dict(zip(placeholders, input_specs)) if input_specs is not None else {}
    # Placeholders in order of first use, unused ones last in signature order.
    order: list[torch.fx.Node] = []
    seen: set[torch.fx.Node] = set()
    for n in nodes:
        if n.op == "placeholder":
            continue
        for a in n.all_input_nodes:
            if a.op == "placeholder" and a not in seen:
                seen.add(a)
                order.append(a)
    order += [p for p in placeholders if p not in seen]
    index: dict[torch.fx.Node, int] = {p: i for i, p in enumerate(order)}
    out: list[Any] = []
    for p in order:
        entry: list[Any] = ["in"]
        if p in spec_of:
            shape, dtype = spec_of[p]
            if abstract:
                kind = "float" if dtype.is_floating_point else ("bool" if dtype is torch.bool else "int")
                entry.append(kind)
            else:
                entry.append(str(dtype))
            if shapes:
                entry.append(tuple(int(d) for d in shape))
        out.append(tuple(entry))
    for n in nodes:
        if n.op == "placeholder":
            continue
        index[n] = len(index)
        name = target_name(n)
        ints = abstract and name in SHAPE_OPS
        if abstract and name == "getitem":
            args = _slice_ints(n.args, index, abstract)
            kwargs = _slice_ints(dict(n.kwargs), index, abstract) if n.kwargs else None
        else:
            floats = abstract and name in INERT_FLOAT_OPS
            args = _literal(n.args, index, ints, abstract, floats)
            kwargs = _literal(dict(n.kwargs), index, ints, abstract, floats) if n.kwargs else None
        out.append((n.op, _qualified(n) if n.op != "output" else "output", args, kwargs))
    return out


def _digest(obj: Any) -> str:
    return hashlib.sha256(repr(obj).encode()).hexdigest()


def structural_hash(
    graph: torch.fx.Graph | torch.fx.GraphModule,
    input_specs: Sequence[InputSpec] | None = None,
    *,
    shapes: bool = True,
) -> str:
    """Exact structural hash (64 hex digits): equal for graphs that differ only in names.

    Args:
        graph: the FX graph or GraphModule.
        input_specs: (shape, dtype) per placeholder in signature order; None leaves them out.
        shapes: False leaves input shapes out (dtypes and every literal stay in).

    Raises:
        ValueError: ``input_specs`` has the wrong length.
    """
    return _digest(normalise(graph, input_specs, shapes=shapes))


def group_key(graph: torch.fx.Graph | torch.fx.GraphModule, input_specs: Sequence[InputSpec] | None = None) -> str:
    """The operator-sequence key (64 hex digits) shared by one subgraph at any shape and dtype.

    Raises:
        ValueError: ``input_specs`` has the wrong length.
    """
    return _digest(normalise(graph, input_specs, shapes=False, abstract=True))
