"""The Python kernels registered with ``torch.library.Library(...).impl(...)``, by operator.

An operator defined with the older ``torch.library`` API (``Library("ns", "DEF")``,
``lib.define("op(Tensor x) -> Tensor")``, ``lib.impl("op", fn, "CPU")``, or the functional
``torch.library.define`` / ``torch.library.impl`` that call them) hands its Python function to
the C++ dispatcher and keeps no Python-side record of it (``torch/library.py``,
``Library.impl``: only the ``"ns/op/key"`` string is kept in ``_impls``), unlike
``torch.library.custom_op``, whose ``CustomOpDef`` keeps its functions in
``torch._library.custom_ops.OPDEFS``. To see through such an operator
(:func:`..integrity.rules.custom_op_bodies`), the pass loader installs :func:`install` before it imports
a pass, and every ``Library.impl`` registration from then on is recorded here.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import torch

#: (operator name ``ns::op``, overload name, ``""`` for the default) -> {dispatch key: function}.
_KERNELS: dict[tuple[str, str], dict[str, Callable[..., Any]]] = {}
#: Dispatch keys tried for a device, in order: the device's own kernel, then the composite ones
#: (``CompositeImplicitAutograd`` is what ``Library.impl`` registers without a key).
_KEY_ORDER = ("{device}", "CompositeExplicitAutograd", "CompositeImplicitAutograd")


def _operator(lib: Any, op_name: Any) -> tuple[str, str]:
    if isinstance(op_name, torch._ops.OpOverload):
        return op_name._schema.name, op_name._schema.overload_name
    name = str(op_name)
    qualified = name if "::" in name else f"{lib.ns}::{name}"
    base, _, overload = qualified.partition(".")
    return base, overload


def _recording(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def impl(self: Any, op_name: Any, fn: Any, dispatch_key: str = "", *args: Any, **kwargs: Any) -> Any:
        result = original(self, op_name, fn, dispatch_key, *args, **kwargs)
        if callable(fn) and not kwargs.get("with_keyset", False):  # a keyset-taking kernel cannot be called as the op
            key = dispatch_key or self.dispatch_key or "CompositeImplicitAutograd"
            _KERNELS.setdefault(_operator(self, op_name), {})[key] = fn
        return result

    impl._passagent_recording = True  # type: ignore[attr-defined]
    return impl


def install() -> None:
    """Record every later ``torch.library.Library.impl`` registration (idempotent)."""
    cls = torch.library.Library
    if not getattr(cls.impl, "_passagent_recording", False):
        cls.impl = _recording(cls.impl)  # type: ignore[method-assign]


def kernel(op: torch._ops.OpOverload, device: str) -> Callable[..., Any] | None:
    """The Python function registered for ``op`` through ``Library.impl`` that runs on
    ``device`` (``"cpu"``, ``"cuda"``): its device kernel, else its composite one; None if
    none was recorded."""
    table = _KERNELS.get((op._schema.name, op._schema.overload_name))
    if not table:
        return None
    for key in _KEY_ORDER:
        fn = table.get(key.format(device=device.upper()))
        if fn is not None:
            return fn
    return None
