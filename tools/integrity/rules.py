"""Integrity rules about a pass's rewrite and its outputs: the verdicts named in results.

The design that keeps a pass from gaming its score is the clean room (:mod:`..evaluation`): the pass
runs in a process of its own, and nothing that judges it shares that process. This module holds
what the roles share about a rule: :class:`Breach` (a defence that fired), :func:`alias_map` (which
outputs share memory with which inputs, the producer's claim checked against eager's), and what
the candidate's backend computes about its own rewrite:

* ``no_change``: the graph Inductor compiles is the same with and without the pass
  (:func:`aten_signature`: the ATen ops that run, custom ops traced through wherever they are
  called, dimensions written in one form);
* ``precision_downgrade``: the rewritten graph casts to a lower-precision float type the
  original graph never uses (:func:`precision_downgrades`).

The rules the referee and the clean process apply (``output_type``, ``output_layout``,
``output_aliases_input``, ``input_mutated``, ``timed_output_mismatch``, ``parallel_work``,
``work_outside_window``, ``child_process``, ``deferred_device_work``, ``shape_special_case``,
``physics_floor``) are in :mod:`..evaluation.clean`, :mod:`..evaluation.rounds` and
:mod:`..evaluation.referee`; ``strict_no_triton_launch`` / ``strict_other_compute`` in
:mod:`.strict_runtime`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
import torch.fx

from ..passes import library_registry
from ..measure.correctness import flatten_outputs


@dataclass(frozen=True)
class Breach:
    """A defense that fired: its rule id and a one-line explanation."""

    rule: str
    message: str

    def text(self) -> str:
        return f"integrity rule '{self.rule}': {self.message}"


# -- outputs ---------------------------------------------------------------------------------------


def _storage_key(t: torch.Tensor) -> int | None:
    try:
        ptr = t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):
        return None
    return ptr or None


def alias_map(outputs: Any, inputs: list[Any]) -> list[frozenset[int]]:
    """For each output: the indices of inputs (and, offset by 1000, earlier outputs) it shares storage with."""
    in_keys = {i: _storage_key(a) for i, a in enumerate(inputs) if isinstance(a, torch.Tensor)}
    result: list[frozenset[int]] = []
    seen: dict[int, int] = {}
    for k, o in enumerate(flatten_outputs(outputs)):
        if not isinstance(o, torch.Tensor) or o.numel() == 0:
            result.append(frozenset())
            continue
        key = _storage_key(o)
        shared = {i for i, ik in in_keys.items() if key is not None and ik == key}
        if key is not None and key in seen:
            shared.add(1000 + seen[key])
        if key is not None:
            seen.setdefault(key, k)
        result.append(frozenset(shared))
    return result


# -- no_change -------------------------------------------------------------------------------------


_FLOAT_RANK = {"torch.float64": 4, "torch.float32": 3, "torch.bfloat16": 2, "torch.float16": 1,
               "torch.float8_e4m3fn": 0, "torch.float8_e5m2": 0}


def precision_downgrades(before: list[tuple[str, str]], after: list[tuple[str, str]], input_dtypes: set[str]) -> list[str]:
    """Float dtypes the rewritten graph converts to that the original graph never uses and that
    are below its highest float precision (e.g. ``torch.float16`` in a float32 graph).

    Args:
        before, after: :func:`aten_signature` of the graph without and with the pass.
        input_dtypes: dtypes of the graph's inputs (``"torch.float32"``...).
    """
    def dtypes(sig: list[tuple[str, str]]) -> set[str]:
        return {d for _t, args in sig for d in _FLOAT_RANK if d in args}

    def converts(sig: list[tuple[str, str]]) -> set[str]:
        return {d for t, args in sig if "convert_element_type" in t or "_to_copy" in t or t.endswith(".to")
                for d in _FLOAT_RANK if d in args}

    original = dtypes(before) | {d for d in input_dtypes if d in _FLOAT_RANK}
    top = max((_FLOAT_RANK[d] for d in original), default=None)
    if top is None:
        return []
    return sorted(d for d in converts(after) - original if _FLOAT_RANK[d] < top)


def custom_op_bodies(gm: torch.fx.GraphModule, device: str, opaque: set[str] = frozenset()) -> dict[Any, Any]:  # type: ignore[assignment]
    """OpOverload -> its Python implementation, for each ``torch.library.custom_op`` that ``gm`` calls,
    and each operator given a Python kernel with ``torch.library.Library(...).impl`` once
    :func:`..passes.library_registry.install` ran (the pass loader installs it).

    A custom op is opaque to a graph-level comparison: a replacement that wraps the original
    ops in one would look new. Tracing with these bodies as decompositions records the ATen ops
    they run instead (the device's ``register_kernel`` implementation where there is one, else
    the default). ``opaque`` names ops to leave alone (the harness's own Triton-launching ops,
    whose bodies cannot run on fake tensors).

    Source of the attributes read: ``torch/_library/custom_ops.py`` (``OPDEFS``,
    ``CustomOpDef._init_fn`` and ``_backend_fns``).
    """
    from torch._library.custom_ops import OPDEFS

    table: dict[Any, Any] = {}
    for n in gm.graph.nodes:
        target = n.target
        if isinstance(target, torch._ops.OpOverloadPacket):  # torch.ops.ns.op, as a replacement returns it
            target = getattr(target, "default", None)
        if n.op != "call_function" or not isinstance(target, torch._ops.OpOverload) or str(target) in opaque:
            continue
        opdef = OPDEFS.get(target._schema.name)
        if opdef is not None:
            table[target] = opdef._backend_fns.get(device, opdef._init_fn)
        elif (fn := library_registry.kernel(target, device)) is not None:  # Library("ns", "DEF") + .impl
            table[target] = fn
    return table


def aten_signature(gm: torch.fx.GraphModule, example_inputs: list[Any],
                   opaque: set[str] = frozenset()) -> list[tuple[str, str]] | None:  # type: ignore[assignment]
    """The ATen ops ``gm`` executes (functionalised, dead code removed), as comparable (target,
    arguments) pairs: an in-place op and its out-of-place form are the same op here.

    Custom ops are traced through (:func:`custom_op_bodies`), so what is compared is the ATen
    ops that actually run, however a replacement wraps them; where a body cannot be traced the
    op is kept as one node. Returns None when the graph cannot be traced to ATen (then no
    verdict is drawn).
    """
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.proxy_tensor import make_fx

    device = next((x.device.type for x in example_inputs if isinstance(x, torch.Tensor)), "cpu")

    def trace(table: dict[Any, Any]) -> torch.fx.GraphModule | None:
        # Functionalised first (``torch.func.functionalize``: in-place ops become their
        # out-of-place forms, and a write into an input one copy at the end), so that
        # ``t.mul_(c)`` and ``t * c`` on a value nobody else reads are the same op; where that
        # trace fails, the graph as written.
        for fn in (torch.func.functionalize(gm, remove="mutations"), gm):
            try:
                # A fake mode without a shape environment: every size is a plain int, so the two
                # traces cannot differ by how a size was read (sym_size vs literal).
                mode = FakeTensorMode(allow_non_fake_inputs=True)
                fake = [mode.from_tensor(x) if isinstance(x, torch.Tensor) else x for x in example_inputs]
                with mode, torch.no_grad():
                    return make_fx(fn, tracing_mode="real", decomposition_table=table)(*fake)
            except Exception:  # noqa: BLE001 - an untraceable body: the op stays one node
                continue
        return None

    # Custom ops are found where they are called: in the graph, and inside what the graph calls
    # (a function wrapped with torch.fx.wrap is traced into, and the custom ops it calls appear
    # only in the trace), so their bodies are added and the graph traced again until none is new.
    table = custom_op_bodies(gm, device, opaque)
    traced = trace(table)
    for _ in range(4):
        if traced is None:
            break
        more = {k: v for k, v in custom_op_bodies(traced, device, opaque).items() if k not in table}
        if not more:
            break
        retraced = trace({**table, **more})
        if retraced is None:
            break
        table.update(more)
        traced = retraced
    if traced is None:
        traced = trace({})
    if traced is None:
        return None
    traced.graph.eliminate_dead_code()
    index: dict[torch.fx.Node, str] = {}
    signature = []
    for n in traced.graph.nodes:
        index[n] = f"%{len(index)}"
        if n.op == "call_function":
            nargs, nkwargs = _canonical_dims(n)
            args = torch.fx.node.map_arg((nargs, nkwargs), lambda a: index.get(a, "?"))
            positional, named = args
            if str(n.target) in _COMMUTATIVE and len(positional) >= 2 and not named:
                # ``x + y`` and ``torch.add(y, x)`` are one op: the two operands in a fixed order.
                positional = tuple(sorted(positional[:2], key=repr)) + tuple(positional[2:])
            signature.append((str(n.target), repr((positional, named))))
    return signature


#: Binary ATen ops whose two operands commute (with no other argument given): IEEE 754 addition,
#: multiplication, maximum and minimum, comparisons for equality and the logical and bitwise ops
#: give the same result for either order (IEEE 754-2019, 5.4.1 and 5.11).
_COMMUTATIVE = frozenset(f"aten.{op}.{overload}" for op in ("add", "mul", "maximum", "minimum", "eq", "ne", "logical_and",
                                                            "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
                                                            "bitwise_xor")
                         for overload in ("Tensor", "default"))


#: Schema argument names that hold a dimension (or a list of them) of the op's first tensor input.
_DIM_ARGS = frozenset({"dim", "dims", "dim0", "dim1", "start_dim", "end_dim", "source", "destination"})


def _canonical_dims(n: torch.fx.Node) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``n``'s arguments with every negative dimension written as its non-negative equivalent
    (``cat([x], -1)`` and ``cat([x], 1)`` of a 2-d ``x`` are the same op), where the op's schema
    names the argument a dimension and the rank of its first tensor input is known."""
    target = n.target
    schema = getattr(target, "_schema", None)
    if schema is None:
        return tuple(n.args), dict(n.kwargs)

    def rank(value: Any) -> int | None:
        if isinstance(value, (list, tuple)):
            return next((r for r in (rank(v) for v in value) if r is not None), None)
        if isinstance(value, torch.fx.Node):
            val = value.meta.get("val")
            if isinstance(val, torch.Tensor):
                return val.dim() + (1 if str(target).startswith(("aten.unsqueeze", "aten.stack")) else 0)
        return None

    first = next((a for a in n.args if rank(a) is not None), None)
    r = rank(first) if first is not None else None
    if not r:
        return tuple(n.args), dict(n.kwargs)

    def fix(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value % r if -r <= value < 0 else value
        if isinstance(value, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return type(value)(fix(v) for v in value)
        return value

    args = list(n.args)
    kwargs = dict(n.kwargs)
    for i, arg in enumerate(schema.arguments):
        if arg.name not in _DIM_ARGS:
            continue
        if i < len(args):
            args[i] = fix(args[i])
        elif arg.name in kwargs:
            kwargs[arg.name] = fix(kwargs[arg.name])
    return tuple(args), kwargs
