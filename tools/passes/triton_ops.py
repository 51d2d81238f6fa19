"""Triton replacements: a replacement that launches Triton kernels becomes a custom op.

A pass may compute its replacement with hand-written Triton kernels (``shared/docs/DESIGN.md``,
"The pass contract")::

    @triton.jit
    def _rms_norm_kernel(x_ptr, w_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr): ...

    def rms_norm(x, w):
        out = torch.empty_like(x)
        _rms_norm_kernel[(x.numel() // x.shape[-1],)](x, w, out, x.shape[-1], 1e-6, BLOCK=1024)
        return out

    def replacement_func():
        return rms_norm

Neither FX symbolic tracing nor Inductor can run such a function on proxies or fake tensors,
so the harness, not the pass, registers it with PyTorch:

1. :func:`triton_leaf` detects a replacement function that launches a ``@triton.jit`` or
   ``@triton.autotune`` kernel (directly, through a closure, or through another function of
   the pass module) and wraps it as one opaque FX call (a leaf) in the replacement graph;
2. after the rules are applied, :func:`register_triton_replacements` propagates fake tensors
   through the rewritten graph to learn each leaf call's argument and result types, registers
   the function with ``torch.library.triton_op`` under a namespace unique to the pass digest
   (every kernel launch routed through ``torch.library.wrap_triton``), and points the graph's
   node at the new operator.

Inductor then traces into the operator, compiles the user kernel into its own output code and
fuses the rest of the graph around it (PyTorch docs, "Using User-Defined Triton Kernels with
torch.compile"). Because the operator's name carries the pass digest, an edited kernel under
the same Python name is a different operator, never a stale cache hit.

The function must allocate its outputs (``torch.empty*``) and must not write its inputs: it is
registered with ``mutates_args=()``. Triton kernels run on CUDA devices only.
"""

from __future__ import annotations

import re
import types
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import torch

TRITON_ATTR = "_passagent_triton"


class TritonReplacementError(Exception):
    """A Triton replacement cannot be registered (unsupported argument or result types)."""


def _kernel_interface() -> type | None:
    try:
        from triton.runtime.jit import KernelInterface
    except ImportError:  # no Triton installed: no pass can hold a kernel either
        return None
    return KernelInterface


def is_triton_kernel(obj: Any) -> bool:
    """Whether ``obj`` is a ``@triton.jit``/``@triton.autotune``/``@triton.heuristics`` kernel."""
    base = _kernel_interface()
    return base is not None and isinstance(obj, base)


def _code_names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for const in code.co_consts:  # lambdas and inner functions (a grid lambda, a helper)
        if isinstance(const, types.CodeType):
            yield from _code_names(const)


def _referenced(fn: types.FunctionType) -> Iterator[Any]:
    for name in _code_names(fn.__code__):
        if name in fn.__globals__:
            yield fn.__globals__[name]
    for cell in fn.__closure__ or ():
        try:
            yield cell.cell_contents
        except ValueError:  # an empty cell
            continue


def launches_triton(fn: Any, _seen: set[int] | None = None) -> bool:
    """Whether ``fn`` launches a Triton kernel itself or through functions of its own module."""
    if not isinstance(fn, types.FunctionType):
        return False
    seen = _seen if _seen is not None else set()
    if id(fn) in seen:
        return False
    seen.add(id(fn))
    for value in _referenced(fn):
        if is_triton_kernel(value):
            return True
        if isinstance(value, types.FunctionType) and value.__module__ == fn.__module__ and launches_triton(value, seen):
            return True
    return False


class _TracedLaunch:
    """Stands in for a kernel in the registered copy: ``kernel[grid](...)`` goes through
    ``wrap_triton``, which records the launch when PyTorch traces and launches directly when not."""

    def __init__(self, kernel: Any):
        self._kernel = kernel

    def __getitem__(self, grid: Any) -> Any:
        from torch.library import wrap_triton

        return wrap_triton(self._kernel)[grid]

    def run(self, *args: Any, **kwargs: Any) -> Any:
        from torch.library import wrap_triton

        return wrap_triton(self._kernel).run(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kernel, name)


def _rebind(fn: types.FunctionType, namespace: dict[str, Any]) -> types.FunctionType:
    closure = None
    if fn.__closure__:
        cells = []
        for cell in fn.__closure__:
            try:
                value = cell.cell_contents
            except ValueError:
                cells.append(cell)
                continue
            cells.append(types.CellType(_TracedLaunch(value) if is_triton_kernel(value) else value))
        closure = tuple(cells)
    new = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    return new


def traceable_copy(fn: types.FunctionType) -> types.FunctionType:
    """A copy of ``fn`` (and of the module functions it can reach) whose kernel launches go
    through ``torch.library.wrap_triton``; the pass module itself is left untouched."""
    original = fn.__globals__
    namespace = dict(original)
    for name, value in original.items():
        if is_triton_kernel(value):
            namespace[name] = _TracedLaunch(value)
    for name, value in original.items():
        if isinstance(value, types.FunctionType) and value.__globals__ is original:
            namespace[name] = _rebind(value, namespace)
    return _rebind(fn, namespace)


def _on_cuda_only(function: types.FunctionType, name: str) -> Callable[..., Any]:
    """``function`` behind a device check: Triton kernels run on CUDA tensors only, and
    without the check a CPU evaluation fails deep inside Triton ("0 active drivers")."""

    def checked(*args: Any) -> Any:
        devices = {a.device.type for a in args if isinstance(a, torch.Tensor)}
        if devices - {"cuda"}:
            raise TritonReplacementError(
                f"{name} launches Triton kernels, which run on CUDA devices only, but got "
                f"{'/'.join(sorted(devices))} tensors; evaluate this pass with --device cuda"
            )
        return function(*args)

    return checked


@dataclass
class TritonReplacement:
    """A replacement function that launches Triton kernels, as carried by its FX leaf.

    Attributes:
        rule: the pass rule it belongs to.
        namespace: the ``torch.library`` namespace (unique to the pass digest).
        name: the operator name within the namespace.
        function: the traceable copy (behind a CUDA-device check), registered as the
            operator's implementation.
        source: the pass's own function, launching its kernels directly (strict mode runs it
            once to count launches, :mod:`..integrity.strict_runtime`).
    """

    rule: str
    namespace: str
    name: str
    function: Callable[..., Any]
    source: Callable[..., Any] | None = None


def _identifier(text: str) -> str:
    return re.sub(r"\W", "_", text).strip("_") or "op"


def triton_leaf(fn: Any, rule: str, module_name: str) -> Callable[..., Any] | None:
    """The FX leaf standing for ``fn`` in the replacement graph, or None if it launches no kernel.

    Args:
        fn: what the rule's ``replacement_func()`` returned.
        rule: the rule name.
        module_name: the pass module's name (``passagent_pass_<digest12>_<rule>``); its digest
            part makes the operator namespace unique to the pass source.
    """
    if not launches_triton(fn):
        return None
    digest = re.search(r"passagent_pass_([0-9a-f]+)_", module_name)
    namespace = f"passagent_{digest.group(1) if digest else _identifier(module_name)}"
    function = traceable_copy(fn)
    name = _identifier(fn.__name__ if fn.__name__.startswith(rule) else f"{rule}_{fn.__name__}")
    info = TritonReplacement(rule, namespace, name, _on_cuda_only(function, name), source=fn)

    def triton_replacement(*args: Any) -> Any:
        return info.function(*args)

    triton_replacement.__name__ = triton_replacement.__qualname__ = info.name
    setattr(triton_replacement, TRITON_ATTR, info)
    return triton_replacement


def _schema_type(value: Any, where: str) -> str:
    if isinstance(value, torch.Tensor):
        return "Tensor"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, torch.SymInt)):
        return "SymInt"
    if isinstance(value, (float, torch.SymFloat)):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, torch.dtype):
        return "ScalarType"
    if isinstance(value, torch.device):
        return "Device"
    if isinstance(value, (list, tuple)) and value:
        inner = {_schema_type(v, where) for v in value}
        if len(inner) == 1 and inner <= {"Tensor", "SymInt", "float", "bool"}:
            return f"{inner.pop()}[]"
    raise TritonReplacementError(
        f"{where} is a {type(value).__name__} ({value!r:.60}); a Triton replacement takes tensors, "
        "numbers, bools, strings, dtypes, devices and non-empty lists of one of these"
    )


def infer_schema(info: TritonReplacement, args: tuple[Any, ...], result: Any) -> str:
    """The ``torch.library`` schema of one call: argument types from its (fake) arguments and
    the result from its (fake) result, e.g. ``(Tensor arg0, Tensor arg1, float arg2) -> Tensor``.

    Raises:
        TritonReplacementError: an argument or the result has a type an operator cannot have.
    """
    params = ", ".join(f"{_schema_type(a, f'{info.name}: argument {i}')} arg{i}" for i, a in enumerate(args))
    if isinstance(result, torch.Tensor):
        returns = "Tensor"
    elif isinstance(result, (tuple, list)) and result and all(isinstance(r, torch.Tensor) for r in result):
        returns = "(" + ", ".join("Tensor" for _ in result) + ")"
    else:
        raise TritonReplacementError(
            f"{info.name} returned {type(result).__name__}; a Triton replacement must return a tensor "
            "or a tuple of tensors that it allocated"
        )
    return f"({params}) -> {returns}"


_REGISTERED: dict[tuple[str, str, str], Any] = {}


# Schema types as Python annotations: ``triton_op`` infers the schema from annotations (some
# torch versions ignore its ``schema`` argument), and a pass's function usually has none.
_ANNOTATIONS = {"Tensor": "torch.Tensor", "bool": "bool", "SymInt": "int", "float": "float", "str": "str",
                "ScalarType": "torch.dtype", "Device": "torch.device"}


def _annotated(function: Callable[..., Any], schema: str, name: str) -> Callable[..., Any]:
    params_text, returns = schema[1:].split(") -> ")
    params = [p.rsplit(" ", 1) for p in params_text.split(", ") if p]

    def annotation(t: str) -> str:
        return f"list[{_ANNOTATIONS[t[:-2]]}]" if t.endswith("[]") else _ANNOTATIONS[t]

    ret = "torch.Tensor" if returns == "Tensor" else "tuple[" + ", ".join("torch.Tensor" for _ in returns.split(",")) + "]"
    signature = ", ".join(f"{n}: {annotation(t)}" for t, n in params)
    names = ", ".join(n for _t, n in params)
    src = f"def {name}({signature}) -> {ret}:\n    return _function({names})\n"
    namespace: dict[str, Any] = {"torch": torch, "_function": function}
    exec(compile(src, f"<triton op {name}>", "exec"), namespace)  # noqa: S102 - generated from a schema we built
    return namespace[name]


def _register(info: TritonReplacement, schema: str) -> Any:
    key = (info.namespace, info.name, schema)
    if key not in _REGISTERED:
        variants = sum(1 for k in _REGISTERED if k[:2] == key[:2])
        name = info.name if variants == 0 else f"{info.name}_v{variants}"
        torch.library.triton_op(f"{info.namespace}::{name}", _annotated(info.function, schema, name), mutates_args=())
        _REGISTERED[key] = getattr(getattr(torch.ops, info.namespace), name).default
    return _REGISTERED[key]


def register_triton_replacements(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> list[str]:
    """Turn every Triton leaf of ``gm`` into a call of a registered ``triton_op`` (in place).

    Args:
        gm: the rewritten FX graph (Dynamo's graph after the pass's rules).
        example_inputs: the graph's inputs as the ``torch.compile`` backend received them
            (real or fake tensors, static shapes).

    Returns:
        The qualified names of the operators the graph now calls (empty if it has no leaf).

    Raises:
        TritonReplacementError: an argument or result type cannot be expressed in a schema.
    """
    leaves = [n for n in gm.graph.nodes if n.op == "call_function" and hasattr(n.target, TRITON_ATTR)]
    if not leaves:
        return []
    from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp

    saved = {n: n.meta.get("val") for n in gm.graph.nodes}
    fake = next((x for x in example_inputs if isinstance(x, FakeTensor)), None)
    try:
        if fake is not None:  # already fake (an AOT caller): reuse their mode
            FakeTensorProp(gm, fake.fake_mode).propagate_dont_convert_inputs(*example_inputs)
        else:  # Dynamo hands real tensors to the backend
            FakeTensorProp(gm, FakeTensorMode(allow_non_fake_inputs=True)).propagate(*example_inputs)
        names = []
        for node in leaves:
            info: TritonReplacement = getattr(node.target, TRITON_ATTR)
            args = torch.fx.node.map_arg(node.args, lambda a: a.meta["val"])
            op = _register(info, infer_schema(info, tuple(args), node.meta["val"]))
            node.target = op
            node.meta.pop("is_wrapped", None)  # else FX codegen emits fx.wrap() of the op's name
            names.append(str(op))
    finally:
        for n, val in saved.items():  # leave Dynamo's metadata as it was
            if val is None:
                n.meta.pop("val", None)
            else:
                n.meta["val"] = val
    gm.recompile()
    return sorted(set(names))
