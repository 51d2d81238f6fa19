"""Strict mode at run time: a replacement allocates and launches Triton kernels, nothing else.

PassNet's strict mode lets a replacement allocate tensors and launch Triton kernels only. The
static checks (:mod:`.static_checks`) refuse calls of torch functions in the replacement, but
they see calls, not operators: Python operators on tensors (``x * y``, ``x ** 2``, ``x @ w``) run
ATen kernels without naming torch, and a Triton kernel that is defined but never launched (a
"ghost" branch, EXPLOITS.md row 15) makes a replacement look like Triton to
:func:`..passes.triton_ops.launches_triton` while a torch fallback does the work.

So in strict mode the candidate's backend runs every matched replacement once, eagerly, on the
match's example values (the inputs Dynamo hands the backend, cloned), before Inductor sees the
graph:

* Triton launches are counted by a hook around the launch entry points of Triton's runtime
  (``JITFunction.run``, and ``InterpretedFunction.run`` under ``TRITON_INTERPRET=1``; both are
  what ``kernel[grid](...)`` calls, ``triton/runtime/jit.py`` ``KernelInterface.__getitem__``;
  a call with ``warmup=True`` compiles without launching and is not counted);
* ATen ops are recorded by a ``TorchDispatchMode`` (``torch/utils/_python_dispatch.py``):
  every op the replacement dispatches outside a kernel launch, other than allocation
  (:data:`ALLOCATION_OPS`) and views (``OpOverload.is_view``) or metadata, is "other compute".

The verdict, per rule (:func:`verdict`): ATen compute and no launch is ``strict_no_triton_launch``;
ATen compute beside launches is ``strict_other_compute``; a Triton replacement that launched
nothing is ``strict_no_triton_launch`` too. A replacement that computes nothing at all (it
returns a view of its input, or drops an op) launches nothing and passes.

Which nodes of the rewritten graph a replacement produced is read from
:data:`..passes.rewrite.REPLACEMENT_META`, set while the rule's ``replacement_func()`` is traced (not
``replacement_args``, which strict mode lets compute arguments).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx
from torch.utils._python_dispatch import TorchDispatchMode

from ..tasks.inputs import clone_inputs
from .rules import Breach
from ..passes.rewrite import REPLACEMENT_META
from ..process.tracebacks import exception_chain
from ..passes.triton_ops import TRITON_ATTR, TritonReplacementError

#: ATen operators that only allocate (and fill a fresh allocation with a constant): the
#: tensor factories strict mode allows (the static checks' ``_STRICT_FACTORIES``).
ALLOCATION_OPS = frozenset({
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros", "zeros_like", "new_zeros",
    "ones", "ones_like", "new_ones", "full", "full_like", "new_full", "arange", "scalar_tensor",
})
#: Metadata queries that dispatch as ATen ops but compute nothing.
METADATA_OPS = frozenset({"sym_size", "sym_stride", "sym_numel", "sym_storage_offset", "size", "stride", "numel", "dim",
                          "is_contiguous", "is_non_overlapping_and_dense", "_local_scalar_dense"})


class StrictViolation(Exception):
    """Raised by the backend when a replacement breaks strict mode; carries the :class:`Breach`."""

    def __init__(self, breach: Breach):
        self.breach = breach
        super().__init__(breach.text())


def strict_breach(exc: BaseException) -> Breach | None:
    """The strict-mode breach an exception carries (through Dynamo's wrapping), or None."""
    for e in exception_chain(exc):
        if isinstance(e, StrictViolation):
            return e.breach
    return None


def _launch_entry_points() -> list[type]:
    classes = []
    try:
        from triton.runtime.jit import JITFunction

        classes.append(JITFunction)
    except ImportError:  # no Triton: no replacement can launch a kernel
        return []
    try:
        from triton.runtime.interpreter import InterpretedFunction

        classes.append(InterpretedFunction)
    except ImportError:
        pass
    return classes


class LaunchCounter:
    """Counts Triton kernel launches while active (a context manager).

    Attributes:
        launches: launches seen (``run`` calls with ``warmup`` false).
        depth: > 0 while a launch is in progress (what the interpreter does inside a launch,
            copying tensors to and from the host, is the kernel's, not other compute).
    """

    def __init__(self) -> None:
        self.launches = 0
        self.depth = 0
        self._saved: list[tuple[type, Any]] = []

    def _wrap(self, original: Any) -> Any:
        counter = self

        def run(kernel: Any, *args: Any, **kwargs: Any) -> Any:
            if not kwargs.get("warmup", False):
                counter.launches += 1
            counter.depth += 1
            try:
                return original(kernel, *args, **kwargs)
            finally:
                counter.depth -= 1

        return run

    def __enter__(self) -> "LaunchCounter":
        for cls in _launch_entry_points():
            original = cls.__dict__["run"]
            self._saved.append((cls, original))
            cls.run = self._wrap(original)  # type: ignore[attr-defined]
        return self

    def __exit__(self, *exc: Any) -> None:
        for cls, original in reversed(self._saved):
            cls.run = original
        self._saved.clear()


def is_compute(func: Any) -> bool:
    """Whether an ATen overload computes (neither allocation, a view, nor a metadata query)."""
    packet = getattr(func, "overloadpacket", None)
    name = getattr(packet, "__name__", str(func))
    if name in ALLOCATION_OPS or name in METADATA_OPS:
        return False
    return not getattr(func, "is_view", False)


class ComputeRecorder(TorchDispatchMode):
    """Records the ATen compute ops dispatched outside Triton launches (``ops``, in order)."""

    def __init__(self, counter: LaunchCounter):
        super().__init__()
        self.counter = counter
        self.ops: list[str] = []

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if self.counter.depth == 0 and is_compute(func):
            self.ops.append(str(func.overloadpacket.__name__) if hasattr(func, "overloadpacket") else str(func))
        return func(*args, **(kwargs or {}))


@dataclass
class ReplacementRun:
    """What one rule's replacements did when run once on the match's example values.

    Attributes:
        rule: the rule name. triton: the replacement is a Triton leaf (:mod:`..passes.triton_ops`).
        launches: Triton kernel launches. compute: ATen compute ops outside launches (names).
    """

    rule: str
    triton: bool = False
    launches: int = 0
    compute: list[str] = field(default_factory=list)


def _interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "0").lower() in ("1", "true", "on", "yes")


class _ReplacementInterpreter(torch.fx.Interpreter):
    """Runs the rewritten graph eagerly, each replacement node under a launch counter and a
    compute recorder; Triton leaves run the pass's own function (kernels launched directly)."""

    def __init__(self, gm: torch.fx.GraphModule):
        super().__init__(gm)
        self.runs: dict[str, ReplacementRun] = {}

    def run_node(self, n: torch.fx.Node) -> Any:
        info = getattr(n.target, TRITON_ATTR, None) if n.op == "call_function" else None
        rule = n.meta.get(REPLACEMENT_META)
        if rule is None and info is None:
            return super().run_node(n)
        key = str(rule or (info.rule if info is not None else ""))
        run = self.runs.setdefault(key, ReplacementRun(key))
        counter = LaunchCounter()
        recorder = ComputeRecorder(counter)
        with counter, recorder:
            if info is None:
                value = super().run_node(n)
            else:
                run.triton = True
                args, kwargs = self.fetch_args_kwargs_from_env(n)
                value = self._run_leaf(info, args, kwargs, counter)
        run.launches += counter.launches
        run.compute += recorder.ops
        return value

    @staticmethod
    def _run_leaf(info: Any, args: tuple[Any, ...], kwargs: dict[str, Any], counter: LaunchCounter) -> Any:
        try:
            return info.source(*args, **kwargs)
        except Exception as exc:
            devices = {a.device.type for a in args if isinstance(a, torch.Tensor)}
            if counter.launches and devices - {"cuda"} and not _interpreting():
                raise TritonReplacementError(
                    f"{info.name} launches Triton kernels, which run on CUDA devices only, but got "
                    f"{'/'.join(sorted(devices))} tensors; evaluate this pass with --device cuda") from exc
            raise


def run_replacements(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> dict[str, ReplacementRun]:
    """Run the rewritten graph once on copies of ``example_inputs`` and report, per rule, the
    Triton launches and ATen compute of its replacement nodes.

    Args:
        gm: the graph after the pass's rules were applied and before Triton leaves are
            registered as operators (:func:`..passes.triton_ops.register_triton_replacements`).
        example_inputs: the graph's inputs as the ``torch.compile`` backend received them (real
            tensors with static shapes); they are cloned, never written.

    Raises:
        TritonReplacementError: a Triton replacement was given non-CUDA tensors and Triton's
            interpreter is off (the kernel cannot run here).
        Exception: whatever the pass's replacement raises.
    """
    interpreter = _ReplacementInterpreter(gm)
    with torch.no_grad():
        interpreter.run(*clone_inputs(list(example_inputs)))
    return interpreter.runs


def verdict(runs: dict[str, ReplacementRun]) -> Breach | None:
    """The strict-mode breach of the first rule that broke it (see the module doc), or None."""
    for run in runs.values():
        ops = ", ".join(f"aten.{o}" for o in dict.fromkeys(run.compute))
        if run.compute and not run.launches:
            return Breach("strict_no_triton_launch", f"strict mode: rule '{run.rule}''s replacement launched no Triton kernel "
                                                     f"and computed with ATen ops ({ops}); compute it in a Triton kernel")
        if run.compute:
            return Breach("strict_other_compute", f"strict mode: rule '{run.rule}''s replacement launched {run.launches} Triton "
                                                  f"kernel(s) but also computed with ATen ops outside them ({ops})")
        if run.triton and not run.launches:
            return Breach("strict_no_triton_launch", f"strict mode: rule '{run.rule}''s replacement defines a Triton kernel "
                                                     "but launched none")
    return None


def check_strict(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Breach | None:
    """:func:`run_replacements` then :func:`verdict`."""
    return verdict(run_replacements(gm, example_inputs))

