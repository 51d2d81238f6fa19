"""The harness's own state, snapshot before pass code runs and verified around every candidate call.

A pass runs inside the worker process, so anything the harness relies on is within its reach:
the clock and synchronisation functions, the comparison, the harness modules' own references to
them (``passagent.tools.timing``'s ``time``), process-wide backend flags that change how fast or
how precisely *other* variants run, the RNG, grad mode, and PyTorch's operator registrations.
Rather than hope the static checks saw every way to reach them (names built at run time,
``operator.attrgetter`` chains), the worker verifies the state itself:

* :class:`ProcessGuard` records, once, before any pass module is imported:

  - **references**: the identity of every module, class and function bound in each harness
    module (every ``passagent.tools.*`` module loaded), of every callable attribute of the
    modules the harness times and compares with (``time``, ``gc``, ``torch``, ``torch.cuda``,
    ``torch.random``, ``math``, ``statistics``, ``threading``), and of every attribute of the
    classes it calls methods on (``torch.Tensor`` and its C base, ``torch.cuda.Event``,
    ``threading.Thread``); rebinding any of them is ``patched_function``;
  - **flags**: TF32 for matmul and cuDNN, reduced-precision reductions, cuDNN
    enabled/benchmark/deterministic, oneDNN (mkldnn), ``float32_matmul_precision``,
    deterministic algorithms, intra- and inter-op thread counts, the default dtype, the
    interpreter's switch interval and trace/profile hooks, grad mode (scoped, so
    :meth:`ProcessGuard.check_call` compares it with the caller's setting), and the
    torch-function / torch-dispatch mode stacks; changing any is ``process_flag``;
  - **operator registrations**: the dispatcher's kernel table of every ``aten::`` operator for
    the compute dispatch keys (a ``torch.library`` override of ``aten::mm`` on CPU changes it);
    a change is ``operator_override``. Dumping ~3,000 operators takes ~0.2 s on a CPU core, so
    this part is verified per step (after loading, after the checked calls, after timing), the
    rest after every call.

* :meth:`ProcessGuard.check_call` (one C-level tuple comparison per namespace) and :meth:`ProcessGuard.check` (everything)
  return a :class:`~passagent.tools.integrity.Breach` or None. :attr:`ProcessGuard.changed_flags`
  accumulates every flag change ever seen, so the parent never caches a baseline that was
  measured in a process whose flags moved (whatever the final verdict).

The RNG is not compared by state (random ops legitimately advance it); the harness reseeds it
before every call (:func:`passagent.tools.worker_calls.reseed`), and the generator objects themselves
are references (``torch.default_generator`` replaced is ``patched_function``).
"""

from __future__ import annotations

import hashlib
import operator
import sys
import types
from typing import Any, Callable

import torch

from .integrity import Breach

#: Modules whose callable attributes the harness looks up when it times, syncs or compares.
WATCHED_MODULES = ("time", "gc", "math", "statistics", "threading", "os", "torch", "torch.cuda",
                   "torch.random", "torch.backends.cudnn", "torch.backends.cuda", "torch.backends.mkldnn",
                   "torch.nn.functional", "torch.testing")
#: Classes whose attributes (methods, properties) the harness calls.
WATCHED_CLASSES = (torch.Tensor, torch._C.TensorBase, torch.cuda.Event, torch.Generator)
#: Dispatch keys whose aten kernels are compared (where an override changes computed values).
COMPUTE_KEYS = ("CPU:", "CUDA:", "CompositeImplicitAutograd:", "CompositeExplicitAutograd:",
                "CompositeExplicitAutogradNonFunctional:", "Autograd", "Python:", "PreDispatch:")


def _harness_package() -> str:
    return __name__.rsplit(".", 1)[0]


def _watched_classes() -> tuple[type, ...]:
    import threading

    return (*WATCHED_CLASSES, threading.Thread)


def _reference_slots() -> list[tuple[str, dict[str, Any], str]]:
    """(label, namespace dict, key) for every reference the harness depends on."""
    slots: list[tuple[str, dict[str, Any], str]] = []
    prefix = _harness_package() + "."
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name.startswith(prefix) or name in WATCHED_MODULES):
            continue
        harness = name.startswith(prefix)
        for key, value in list(vars(mod).items()):
            if isinstance(value, types.ModuleType) or callable(value):
                if harness or not key.startswith("__"):
                    slots.append((f"{name}.{key}", vars(mod), key))
    for cls in _watched_classes():
        ns = cls.__dict__  # a mappingproxy: reads see assignments to the class
        for key in list(ns):
            slots.append((f"{cls.__module__}.{cls.__qualname__}.{key}", ns, key))  # type: ignore[arg-type]
    slots.append(("torch.default_generator", vars(torch), "default_generator"))
    return slots


def process_flags() -> dict[str, Any]:
    """The process-wide settings that change another variant's speed or precision.

    Returns:
        name -> current value (bools, ints, strings, dtypes); equal dicts mean no change.
    """
    b = torch.backends
    flags: dict[str, Any] = {
        "torch.backends.cuda.matmul.allow_tf32": b.cuda.matmul.allow_tf32,
        "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction": b.cuda.matmul.allow_fp16_reduced_precision_reduction,
        "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction": b.cuda.matmul.allow_bf16_reduced_precision_reduction,
        "torch.backends.cudnn.allow_tf32": b.cudnn.allow_tf32,
        "torch.backends.cudnn.enabled": b.cudnn.enabled,
        "torch.backends.cudnn.benchmark": b.cudnn.benchmark,
        "torch.backends.cudnn.deterministic": b.cudnn.deterministic,
        "torch.backends.mkldnn.enabled": b.mkldnn.enabled,
        "torch.float32_matmul_precision": torch.get_float32_matmul_precision(),
        "torch.deterministic_algorithms": torch.are_deterministic_algorithms_enabled(),
        "torch.num_threads": torch.get_num_threads(),
        "torch.num_interop_threads": torch.get_num_interop_threads(),
        "torch.default_dtype": torch.get_default_dtype(),
        "torch_function_mode_stack": torch._C._len_torch_function_stack(),
        "torch_dispatch_mode_stack": torch._C._len_torch_dispatch_stack(),
        "sys.switchinterval": sys.getswitchinterval(),
        "sys.trace": sys.gettrace() is not None,
        "sys.profile": sys.getprofile() is not None,
    }
    return flags


def operator_registrations() -> str:
    """A digest of the compute kernels registered for every ``aten::`` operator.

    Source of the API: ``torch._C._dispatch_dump(name)`` prints an operator's per-dispatch-key
    kernel table, with the file that registered each kernel (PyTorch's dispatcher,
    ``aten/src/ATen/core/dispatch/OperatorEntry.cpp``, ``dumpState``).
    """
    h = hashlib.sha256()
    for name in sorted(torch._C._dispatch_get_all_op_names()):
        if not name.startswith("aten::"):
            continue
        lines = [ln for ln in torch._C._dispatch_dump(name).splitlines() if ln.startswith(COMPUTE_KEYS)]
        h.update(name.encode())
        h.update("\n".join(lines).encode())
    return h.hexdigest()


class ProcessGuard:
    """Snapshot of the harness's references, the process flags and the operator table.

    Create it after the worker has configured the process (threads, compiler settings) and
    before any pass code is imported. ``flags_override`` lets the caller state the flags the
    check should expect where the harness itself sets them around a call (the reference runs
    with TF32 off); see :meth:`expect`.
    """

    def __init__(self) -> None:
        import torch._dynamo  # noqa: F401 - importing Dynamo rebinds torch.manual_seed; snapshot after it

        self._slots = _reference_slots()
        self._class_keys = [frozenset(cls.__dict__) for cls in _watched_classes()]
        self._ids = [id(ns.get(key)) for _label, ns, key in self._slots]
        # Per namespace, one C-level getter over its keys: the per-call check is one tuple compare each.
        groups: dict[int, tuple[Any, list[str]]] = {}
        for _label, ns, key in self._slots:
            groups.setdefault(id(ns), (ns, []))[1].append(key)
        self._groups = [(ns, operator.itemgetter(*keys) if len(keys) > 1 else (lambda d, k=keys[0]: (d[k],)))
                        for ns, keys in groups.values()]
        self._group_ids = [self._fingerprint(ns, get) for ns, get in self._groups]
        self._flags = process_flags()
        self._ops = operator_registrations()
        self.changed_flags: set[str] = set()

    @staticmethod
    def _fingerprint(ns: Any, get: Any) -> tuple[int, ...] | None:
        try:
            return tuple(map(id, get(ns)))
        except KeyError:  # a name was deleted
            return None

    def _changed_references(self) -> list[str]:
        if all(self._fingerprint(ns, get) == want for (ns, get), want in zip(self._groups, self._group_ids)) and \
                all(frozenset(cls.__dict__) == keys for cls, keys in zip(_watched_classes(), self._class_keys)):
            return []
        changed = [label for (label, ns, key), want in zip(self._slots, self._ids) if id(ns.get(key)) != want]
        for cls, keys in zip(_watched_classes(), self._class_keys):
            # A new attribute on a subclass shadows the base's (torch.Tensor.clone over TensorBase's).
            changed += [f"{cls.__qualname__}.{k}" for k in set(cls.__dict__) - keys]
        return changed

    def _changed_flags(self) -> list[str]:
        now = process_flags()
        changed = [k for k, v in now.items() if self._flags.get(k) != v]
        self.changed_flags.update(changed)
        return changed

    def check_call(self, grad_enabled: bool | None = None) -> Breach | None:
        """References and flags (run after every call).

        Args:
            grad_enabled: the grad mode the caller set around the call, if it is still inside
                that scope (grad mode is scoped, so it is checked against the caller's setting,
                not the snapshot's).
        """
        flags = self._changed_flags()
        if grad_enabled is not None and torch.is_grad_enabled() != grad_enabled:
            self.changed_flags.add("torch.grad_enabled")
            flags.append("torch.grad_enabled")
        if flags:
            return Breach("process_flag", f"process-wide settings were changed at runtime: {', '.join(flags)}")
        refs = self._changed_references()
        if refs:
            return Breach("patched_function", f"the harness's references were replaced at runtime: {', '.join(refs[:8])}")
        return None

    def check(self) -> Breach | None:
        """Everything :meth:`check_call` checks, plus PyTorch's operator registrations."""
        breach = self.check_call()
        if breach:
            return breach
        if operator_registrations() != self._ops:
            return Breach("operator_override", "a PyTorch operator's kernel was replaced or added at runtime "
                                                "(torch.library on the aten namespace)")
        return None


def guarded(guard: ProcessGuard | None, fn: Callable[[], Any]) -> Any:
    """Run ``fn`` and raise :class:`GuardTripped` if the guard sees a change afterwards."""
    out = fn()
    if guard is not None and (breach := guard.check_call()):
        raise GuardTripped(breach)
    return out


class GuardTripped(Exception):
    """The process guard saw a change after a call (carries the :class:`Breach`)."""

    def __init__(self, breach: Breach):
        self.breach = breach
        super().__init__(breach.text())
