"""Runtime integrity checks: what the worker verifies while a candidate runs.

Each check returns a :class:`Breach` naming its rule; the worker turns a breach into an
``integrity`` failure (scored b, recorded in the trajectory, shown to the model). What each
rule stops (see README "Integrity"):

* ``patched_function``: the timer, synchronisation, comparison or harness functions were
  replaced (their identities are snapshot before any pass code is imported);
* ``output_type``: an output is not a plain dense ``torch.Tensor`` with real storage (a lazy
  subclass that computes only when compared, a meta or sparse tensor);
* ``output_aliases_input`` / ``output_aliases_output``: an output shares storage with an
  input or another output where the reference's does not (returning an input);
* ``output_reused``: a call returned storage that an earlier call's (still alive) output owns
  (outputs cached across calls);
* ``timed_output_mismatch``: an output produced during timing is wrong for the input it was
  given (correct while checked, cheap while timed; caches keyed by ``data_ptr`` or ``id``);
* ``background_thread``: the candidate left threads running that the timer cannot see;
* ``no_change``: the graph Inductor receives is the same with and without the pass (the
  original ops under a new name);
* ``precision_downgrade``: the rewritten graph casts to a lower-precision float type that the
  original graph never uses (fast because it computes less precisely);
* ``shape_special_case``: correct on the measured shapes, wrong on (or raising on) a held-out
  shape;
* ``input_mutated``: the candidate wrote an input that eager leaves unchanged (writes that eager
  makes, ``relu_`` or ``add_`` on an input, are compared as outputs: dropping one is wrong values);
* ``post_timing_mismatch``: a sampled timed call, re-run through eager on the same secret inputs
  after timing, disagrees;
* ``physics_floor``: a measured time below what the device can do (:mod:`.physics_floor`);
* ``patched_function`` / ``process_flag`` / ``operator_override``: the harness's references,
  the process-wide flags or PyTorch's operator table changed (:mod:`.process_guard`);
* ``strict_no_triton_launch`` / ``strict_other_compute``: in strict mode, a replacement launched
  no Triton kernel, or computed with ATen ops beside its kernels (:mod:`.strict_runtime`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import torch
import torch.fx

from . import library_registry
from .correctness import Comparison, bitwise_equal, compare_outputs, flatten_outputs


@dataclass(frozen=True)
class Breach:
    """A defense that fired: its rule id and a one-line explanation."""

    rule: str
    message: str

    def text(self) -> str:
        return f"integrity rule '{self.rule}': {self.message}"


# -- patched functions ----------------------------------------------------------------------------


def _guarded_objects() -> dict[str, Any]:
    # Only objects nothing legitimate replaces: Dynamo itself rebinds e.g. torch.manual_seed
    # on first compile, so that one cannot be guarded by identity.
    from . import correctness, timing

    objects: dict[str, Any] = {
        "time.perf_counter": time.perf_counter,
        "time.perf_counter_ns": time.perf_counter_ns,
        "time.monotonic": time.monotonic,
        "time.time": time.time,
        "torch.allclose": torch.allclose,
        "torch.equal": torch.equal,
        "torch.Tensor.__eq__": torch.Tensor.__eq__,
        "correctness.compare_outputs": correctness.compare_outputs,
        "correctness.merge": correctness.merge,
        "timing.time_interleaved": timing.time_interleaved,
        "torch.cuda.synchronize": torch.cuda.synchronize,
        "torch.cuda.Event": torch.cuda.Event,
        "torch.cuda.Event.record": torch.cuda.Event.record,
        "torch.cuda.Event.elapsed_time": torch.cuda.Event.elapsed_time,
        "threading.Thread.start": threading.Thread.start,
    }
    return objects


def _guarded_config() -> dict[str, Any]:
    import torch._dynamo.config as dynamo_config
    import torch._inductor.config as inductor_config

    return {
        # True would let a failing compile silently run the eager graph instead.
        "torch._dynamo.config.suppress_errors": dynamo_config.suppress_errors,
        "torch._inductor.config.fallback_random": inductor_config.fallback_random,
        "torch._dynamo.config.automatic_dynamic_shapes": dynamo_config.automatic_dynamic_shapes,
    }


class FunctionGuard:
    """Remembers guarded functions' identities and compiler settings; :meth:`check` reports changes.

    Create it after the worker has configured the compiler and before any pass code is imported.
    """

    def __init__(self) -> None:
        self._ids = {name: id(obj) for name, obj in _guarded_objects().items()}
        self._config = _guarded_config()

    def check(self) -> Breach | None:
        changed = [name for name, obj in _guarded_objects().items() if id(obj) != self._ids.get(name)]
        if changed:
            return Breach("patched_function", f"these functions were replaced at runtime: {', '.join(changed)}")
        config = [k for k, v in _guarded_config().items() if v != self._config.get(k)]
        if config:
            return Breach("patched_function", f"compiler settings were changed at runtime: {', '.join(config)}")
        return None


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
    result = []
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


def check_outputs(outputs: Any, inputs: list[Any], reference_aliases: list[frozenset[int]]) -> Breach | None:
    """Plain dense tensors with real storage, aliasing no more than the reference's outputs do."""
    flat = flatten_outputs(outputs)
    for k, o in enumerate(flat):
        if isinstance(o, torch.Tensor):
            if type(o) is not torch.Tensor and not isinstance(o, torch.nn.Parameter):
                return Breach("output_type", f"output {k} is a {type(o).__module__}.{type(o).__name__}, not a plain torch.Tensor")
            if o.layout != torch.strided or o.is_meta:
                return Breach("output_type", f"output {k} has layout {o.layout}{' (meta)' if o.is_meta else ''}; a dense tensor is required")
            if o.numel() > 0 and _storage_key(o) is None:
                return Breach("output_type", f"output {k} has no real storage")
    for k, (got, allowed) in enumerate(zip(alias_map(outputs, inputs), reference_aliases)):
        extra = got - allowed
        if any(x < 1000 for x in extra):
            return Breach("output_aliases_input", f"output {k} shares memory with input {min(x for x in extra if x < 1000)}, the reference's does not")
        if extra:
            return Breach("output_aliases_output", f"output {k} shares memory with output {min(extra) - 1000}, the reference's does not")
    return None


def check_not_reused(outputs: Any, earlier: list[Any]) -> Breach | None:
    """No output may own storage that a still-alive earlier output owns (a cache across calls)."""
    old = {_storage_key(o) for prev in earlier for o in flatten_outputs(prev) if isinstance(o, torch.Tensor) and o.numel() > 0}
    old.discard(None)
    for k, o in enumerate(flatten_outputs(outputs)):
        if isinstance(o, torch.Tensor) and o.numel() > 0 and _storage_key(o) in old:
            return Breach("output_reused", f"output {k} is the same memory an earlier call returned (outputs cached across calls)")
    return None


# -- inputs written in place ------------------------------------------------------------------------


def written_inputs(draw: list[Any], args_after: list[Any]) -> dict[int, torch.Tensor]:
    """Index -> value after the call, for each tensor input a call changed in place.

    Args:
        draw: the inputs as they were before the call (never passed to any callable).
        args_after: the (cloned) arguments the call received, read after it returned.
    """
    out = {}
    for i, (before, after) in enumerate(zip(draw, args_after)):
        if isinstance(before, torch.Tensor) and isinstance(after, torch.Tensor) and not bitwise_equal(before, after):
            out[i] = after
    return out


def check_input_writes(draw: list[Any], args_after: list[Any],
                       reference_writes: dict[int, torch.Tensor]) -> tuple[Breach | None, Comparison | None]:
    """Compare a candidate's in-place writes with eager's on the same inputs.

    An input eager leaves unchanged must be bitwise unchanged (else ``input_mutated``); the inputs
    eager writes are compared with eager's values after the call, as outputs, and returned as a
    :class:`~passagent.tools.correctness.Comparison` to merge with the outputs' (None if eager
    writes nothing). A candidate that drops a write therefore has wrong values there.
    """
    for i, (before, after) in enumerate(zip(draw, args_after)):
        if i in reference_writes or not isinstance(before, torch.Tensor):
            continue
        if not isinstance(after, torch.Tensor) or not bitwise_equal(before, after):
            return Breach("input_mutated", f"the candidate changed input {i} in place; eager leaves it unchanged"), None
    if not reference_writes:
        return None, None
    idx = sorted(reference_writes)
    return None, compare_outputs([args_after[i] for i in idx], [reference_writes[i] for i in idx])


# -- threads ---------------------------------------------------------------------------------------


def python_threads() -> set[int]:
    """Idents of the live Python threads.

    Native threads are not counted: the CUDA runtime and Triton start their own lazily (seen on
    an H200: one appeared during timing with an honest pass), and a pass cannot start a native
    thread without imports the static checks refuse (ctypes, multiprocessing).
    """
    return {t.ident for t in threading.enumerate() if t.ident is not None}


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
    :func:`.library_registry.install` ran (the pass loader installs it).

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
    """The ATen ops ``gm`` executes (dead code removed), as comparable (target, arguments) pairs.

    Custom ops are traced through (:func:`custom_op_bodies`), so what is compared is the ATen
    ops that actually run, however a replacement wraps them; where a body cannot be traced the
    op is kept as one node. Returns None when the graph cannot be traced to ATen (then no
    verdict is drawn).
    """
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.proxy_tensor import make_fx

    device = next((x.device.type for x in example_inputs if isinstance(x, torch.Tensor)), "cpu")

    def trace(table: dict[Any, Any]) -> torch.fx.GraphModule | None:
        try:
            # A fake mode without a shape environment: every size is a plain int, so the two
            # traces cannot differ by how a size was read (sym_size vs literal).
            mode = FakeTensorMode(allow_non_fake_inputs=True)
            fake = [mode.from_tensor(x) if isinstance(x, torch.Tensor) else x for x in example_inputs]
            with mode, torch.no_grad():
                return make_fx(gm, tracing_mode="real", decomposition_table=table)(*fake)
        except Exception:  # noqa: BLE001 - an untraceable body: the op stays one node
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
            args = torch.fx.node.map_arg((nargs, nkwargs), lambda a: index.get(a, "?"))  # type: ignore[arg-type]
            signature.append((str(n.target), repr(args)))
    return signature


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
