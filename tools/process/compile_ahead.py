"""Compiling before the device lease.

``torch.compile`` compiles a variant when it is first called, and that same call runs it: the
kernels, and on a GPU Inductor's first-run autotuning of kernels with several configs. The worker
wants the compile (Dynamo's trace, AOTAutograd, the pass's rewrite, Inductor's lowering and code
generation, Triton's compile to a GPU binary: all host work) before it takes the device lease, and
everything that runs on the device after it. :class:`DeferredBackend` splits the two:

* before the lease (:class:`LeaseFlag` closed) the worker calls each compiled variant once on
  placeholder inputs (:func:`placeholder_inputs`: the draws' shapes, strides and dtypes, allocated
  on the device, never written). Dynamo traces and calls the backend, which compiles and returns
  a callable that raises :class:`NotRunBeforeLease` instead of running; Dynamo keeps the compiled
  graph in its cache (the exception is the graph's, raised after its cache entry was installed);
* once the lease is held (:meth:`LeaseFlag.open`), the variant's first real call finds the graph in
  Dynamo's cache (the guards check shapes, strides, dtypes and devices, which the placeholders
  share with the draws) and runs it: kernels, first-run autotuning and all.

:func:`unwrap` then takes the deferring callable out of each compiled graph's call path, so a
timed call runs exactly what it would have run had it been compiled under the lease.

The placeholders' values are uninitialised memory: a rewrite that reads its example inputs' values
at compile time sees nothing meaningful (a pass must not specialise on input values, and here it
cannot). A subgraph that Dynamo compiles in several graphs (a graph break) has only its first graph
compiled ahead: the deferral stops the call there, and the rest compiles under the lease (counted
by :attr:`DeferredBackend.compiles_in_lease`).
"""

from __future__ import annotations

from typing import Any, Callable

import torch


class NotRunBeforeLease(Exception):
    """Raised by a compiled graph called before the lease is held (the call only compiled it)."""


class LeaseFlag:
    """Closed until the worker holds the device lease; shared by a worker's deferred backends."""

    def __init__(self) -> None:
        self.is_open = False

    def open(self) -> None:
        self.is_open = True


class DeferredBackend:
    """A Dynamo backend (``backend(gm, example_inputs) -> callable``) whose compiled graphs run
    only once ``flag`` is open.

    Attributes:
        backend: the wrapped backend (``"inductor"``'s compiler or a :class:`..passes.backend.PassBackend`).
        compiles_ahead: graphs compiled while the flag was closed.
        compiles_in_lease: graphs compiled after it opened (a graph break, a guard that failed,
            the held-out shape's recompile).
    """

    def __init__(self, backend: Callable[..., Any], flag: LeaseFlag):
        self.backend = backend
        self.flag = flag
        self.compiles_ahead = 0
        self.compiles_in_lease = 0

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
        """Compile ``gm`` (Dynamo's graph, its example inputs) with the wrapped backend.

        Returns:
            The compiled graph itself once the flag is open; before, a callable that runs it only
            once the flag is open and raises :class:`NotRunBeforeLease` until then.

        Raises:
            Whatever the wrapped backend raises (a pass that fails to apply, Inductor failing).
        """
        if self.flag.is_open:
            self.compiles_in_lease += 1
            return self.backend(gm, example_inputs)
        self.compiles_ahead += 1
        compiled = self.backend(gm, example_inputs)
        flag = self.flag

        def deferred(*args: Any) -> Any:
            if not flag.is_open:
                raise NotRunBeforeLease("compiled before the device lease; runs once it is held")
            return compiled(*args)

        deferred._passagent_compiled = compiled  # type: ignore[attr-defined]  # what unwrap() puts in its place
        return deferred


def compile_only(module: Any, inputs: list[Any]) -> BaseException | None:
    """Call ``module`` (a ``torch.compile``-d module on :class:`DeferredBackend`) once, with the
    flag closed, so that it compiles and does not run.

    Returns:
        None when it compiled (or ran nothing that raised); the exception otherwise (a failed
        compile: the caller reports it where the variant's first call would have).
    """
    try:
        with torch.no_grad():  # the grad mode of every later call: Dynamo guards on it
            module(*inputs)
    except NotRunBeforeLease:
        return None
    except Exception as exc:  # noqa: BLE001 - reported by the caller with the variant's first call
        return exc
    return None


def placeholder_inputs(args: list[Any], device: torch.device) -> list[Any]:
    """``args`` with each tensor replaced by uninitialised memory of the same size, strides and
    dtype on ``device`` (an allocation of the same bytes, no copy and no kernel); other values
    (Python ints, floats) are kept as they are.

    Raises:
        RuntimeError: a tensor without strides (a sparse layout), or the device is out of memory.
    """
    return [torch.empty_strided(a.size(), a.stride(), dtype=a.dtype, device=device) if isinstance(a, torch.Tensor) else a
            for a in args]


def unwrap(namespace: dict[str, Any]) -> int:
    """Replace each deferring callable that Dynamo installed in ``namespace`` (the globals of the
    compiled module's code, where Dynamo binds each compiled graph, inside its own wrapper) by the
    compiled graph itself, so the deferral costs a timed call nothing once the lease is held.

    Dynamo binds a wrapper (its ``disable`` of the graph, which keeps Dynamo from tracing into the
    compiled graph) that holds the backend's callable in a closure cell; the cell is rebound and
    the wrapper kept. Where a Dynamo version binds it otherwise, the deferring callable stays (it
    then costs one Python call, the same for every compiled variant).

    Returns:
        How many were replaced.
    """
    replaced = 0
    for value in list(namespace.values()):
        for cell in getattr(value, "__closure__", None) or ():
            try:
                inner = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            compiled = getattr(inner, "_passagent_compiled", None)
            if compiled is not None:
                cell.cell_contents = compiled
                replaced += 1
    return replaced
