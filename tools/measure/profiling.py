"""Where a compiled subgraph's time goes: torch.profiler over a few calls, as a table of events.

Used by the IR inspection (``show_baseline``: eager and default Inductor) and by the evaluation
worker (default Inductor and the candidate, side by side, for ``profile_pass``).

Times are per call ("per run"), in microseconds: on CUDA the **device** self time of each
kernel (what the GPU spent in it), on the CPU the **self CPU** time of each event (time spent
in it and not in an event nested in it). On the CPU, Inductor's generated C++ kernels show up
only when the callable was compiled with ``torch._inductor.config.cpp.enable_kernel_profile``
(off by default in torch 2.13; the worker turns it on for profiled evaluations, see
:func:`enable_cpp_kernel_profile`); without it their time is folded into the wrapper event
that calls them. Profiler times include the profiler's own overhead: they show the shares of
the time, the evaluation's timing gives the speed.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Callable, Sequence

import torch

#: Events whose names Inductor gives its generated kernels (``graph_0_cpp_fused_add_0``,
#: ``triton_poi_fused_add_0``, ``cpp_fused_...``).
_INDUCTOR_KERNEL = re.compile(r"^(graph_\d+_)?(cpp|triton)_\w+|_fused_")


@dataclass
class EventRow:
    """One profiler event key, averaged over the profiled calls.

    Attributes:
        name: the event's name (kernel, operator or framework step).
        calls_per_run: how often it occurred per call of the callable.
        self_cpu_us_per_run: self CPU time per call (microseconds).
        self_device_us_per_run: self device (CUDA) time per call (microseconds); 0 on CPU.
    """

    name: str
    calls_per_run: float
    self_cpu_us_per_run: float
    self_device_us_per_run: float


def enable_cpp_kernel_profile() -> None:
    """Make Inductor wrap each generated C++ kernel in a profiler record (before compiling).

    The record costs a few tens of nanoseconds per kernel launch when no profiler is active
    (measured: no difference beyond noise on a 16 us subgraph), and both default Inductor and
    the candidate are compiled with it, so timings stay comparable.
    """
    import torch._inductor.config as inductor_config

    inductor_config.cpp.enable_kernel_profile = True


def time_field(device: torch.device | str) -> str:
    """The :class:`EventRow` field that says where time goes on ``device``."""
    return "self_device_us_per_run" if torch.device(device).type == "cuda" else "self_cpu_us_per_run"


def profile_calls(fn: Callable[..., Any], arg_sets: Sequence[Sequence[Any]], device: torch.device | str,
                  before_call: Callable[[], None] | None = None) -> list[EventRow]:
    """Profile one call of ``fn`` per argument set (the caller warms ``fn`` up first).

    Args:
        fn: the callable (eager module, compiled module).
        arg_sets: one argument list per profiled call, prepared beforehand so that copying
            inputs (graphs mutate them in place) does not show up in the profile.
        device: where ``fn`` runs; CUDA adds device activity and a final synchronisation.
        before_call: run before each call, outside of ``fn`` (e.g. seeding the RNG).

    Returns:
        Every event key with its per-call counts and self times, sorted by the time that
        matters on ``device`` (descending); events with no time on it are kept at the end.
    """
    from torch.profiler import ProfilerActivity, profile

    dev = torch.device(device)
    calls = len(arg_sets)
    if calls == 0:
        return []
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev.type == "cuda" else [])
    with torch.no_grad(), profile(activities=activities) as prof:
        for args in arg_sets:
            if before_call is not None:
                before_call()
            fn(*args)
        if dev.type == "cuda":
            torch.cuda.synchronize()
    rows = [
        EventRow(
            name=evt.key,
            calls_per_run=evt.count / calls,
            self_cpu_us_per_run=evt.self_cpu_time_total / calls,
            self_device_us_per_run=(getattr(evt, "self_device_time_total", 0.0) or 0.0) / calls,
        )
        for evt in prof.key_averages()
    ]
    key = time_field(dev)
    rows.sort(key=lambda r: getattr(r, key), reverse=True)
    return rows


def top_events(rows: list[EventRow], device: torch.device | str, top: int = 15) -> list[dict[str, Any]]:
    """The ``top`` rows with time on ``device``, as dicts (the IR inspection's format)."""
    key = time_field(device)
    return [asdict(r) for r in rows if getattr(r, key) > 0][:top]


def event_kind(name: str, device: torch.device | str) -> str:
    """``kernel`` (an Inductor-generated or, on CUDA, any device kernel), ``aten`` (an ATen
    operator, e.g. an extern matmul or a fallback), ``op`` (another registered operator, e.g. a
    pass's custom op) or ``framework`` (Dynamo, AOTAutograd and wrapper overhead)."""
    if torch.device(device).type == "cuda":
        return "kernel"
    if name.startswith("aten::"):
        return "aten"
    if _INDUCTOR_KERNEL.search(name):
        return "kernel"
    if re.match(r"^\w+::\w+", name):
        return "op"
    return "framework"


def kernel_table(rows: list[EventRow], device: torch.device | str, runs: int, top: int = 15) -> dict[str, Any]:
    """The per-variant table the evaluation records (see :class:`~..evaluation.schema.VariantProfile`).

    Returns:
        ``kernels`` (the ``top`` events with time: name, kind, calls_per_run, us_per_run),
        ``total_us`` (per call, summed over every event with time, not only the top ones),
        ``kernel_us`` (the part spent in events of kind ``kernel``), ``events`` (how many
        events had time) and ``runs`` (profiled calls).
    """
    key = time_field(device)
    timed = [r for r in rows if getattr(r, key) > 0]
    kernels = [
        {"name": r.name, "kind": event_kind(r.name, device), "calls_per_run": r.calls_per_run, "us_per_run": getattr(r, key)}
        for r in timed
    ]
    return {
        "kernels": kernels[:top],
        "total_us": sum(k["us_per_run"] for k in kernels),
        "kernel_us": sum(k["us_per_run"] for k in kernels if k["kind"] == "kernel"),
        "events": len(kernels),
        "runs": runs,
    }
