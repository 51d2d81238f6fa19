"""Timed windows, as a child process runs them: the same code in the clean and candidate roles.

A *window* is one variant's share of a timed round: the referee asks the process to ``prepare``
fresh inputs for ``m`` calls (windows of its secret timing pool, :class:`.draws.TimingPool`),
then sends ``go``; the process makes the ``m`` calls back to back and answers ``done`` (on CUDA
after a device-wide synchronisation). The referee's clock between ``go`` and ``done`` is the
window's time. It then asks for the window's outputs (``check``): the process writes every call's outputs to
its folder as data (:func:`.wire.write_values`), and the referee picks, only then, the one call
the clean process compares with eager on the same inputs.

Both roles run exactly these steps, so what the protocol itself costs (reading a message,
copying inputs, writing the outputs) is the same on both sides of every ratio.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import torch

from ..measure.correctness import flatten_outputs
from ..integrity.rules import alias_map
from .steps import reseed
from .draws import DrawSpec, TimingPool
from .wire import write_values


def l2_flush_buffer(device: torch.device) -> torch.Tensor | None:
    """A buffer twice the GPU's L2 cache (written before each window), None on the CPU."""
    if device.type != "cuda":
        return None
    props = torch.cuda.get_device_properties(device)
    l2 = getattr(props, "L2_cache_size", 0) or 64 * 2**20
    return torch.empty(2 * l2 // 4, dtype=torch.int32, device=device)


class Windows:
    """One process's timed windows for its variants of the current subgraph.

    Args:
        device: where the variants run.
        outbox: the folder ``check`` writes outputs into.
    """

    def __init__(self, device: torch.device, outbox: Path):
        self.device = device
        self.outbox = outbox
        self.pool: TimingPool | None = None
        self.variants: dict[str, Any] = {}
        self._args: list[list[Any]] = []
        self._rng: list[int] = []
        self._outs: list[Any] = []
        self._buffers: list[list[Any]] = []
        self._fn: Any = None
        self._flush: torch.Tensor | None = None  # made at the first window (no device memory before)

    def setup(self, sg: Any, variants: dict[str, Any], pool_seed: int, degenerate_std: float) -> None:
        """Build the timing pool of ``sg`` for these ``variants`` (name -> callable)."""
        self.pool = TimingPool(sg, DrawSpec(seed=pool_seed), self.device, degenerate_std)
        self.variants = dict(variants)
        self._args, self._outs, self._buffers = [], [], []
        # Every object alive now (the compiled variants, the pass, the compiler's caches) moves to
        # the collector's permanent generation (``gc.freeze``): a collection that falls in a step
        # between windows then scans only what that step made, in every process alike. Without it
        # a full collection costs each process in proportion to its own heap (a process that
        # compiled a Triton pass holds more), and lands in whichever step the allocation count
        # crosses the threshold in: outside a window, the referee reads it as work moved out of
        # the window (``work_outside_window``).
        gc.collect()
        gc.freeze()

    def prepare(self, variant: str, calls: list[int], rng: list[int]) -> None:
        """Inputs for one call per entry of ``calls`` (secret pool offsets), RNG seeds ``rng``.

        Each call has its own buffers, allocated once per subgraph and refilled here with the
        call's values (a copy: the same cost in every process, and no page faults from fresh
        allocations, whose cost depends on the allocator's history in that process). Values
        change with every call, so an answer cached by buffer address is wrong, and the checked
        call of each window shows it."""
        assert self.pool is not None, "prepare before setup"
        self._fn = self.variants[variant]
        self._outs = []
        while len(self._buffers) < len(calls):
            self._buffers.append(self.pool.inputs(0))
        for buf, r in zip(self._buffers, calls):
            self.pool.fill(buf, r)
        self._args = self._buffers[:len(calls)]
        self._rng = list(rng)
        if self.device.type == "cuda":
            if self._flush is None:
                self._flush = l2_flush_buffer(self.device)
            self._flush.zero_()  # type: ignore[union-attr]
            torch.cuda.synchronize(self.device)

    def go(self) -> None:
        """The timed calls, back to back; on CUDA, then a device-wide synchronisation."""
        fn, outs = self._fn, self._outs
        was = gc.isenabled()
        gc.disable()
        try:
            with torch.no_grad():
                for args, seed in zip(self._args, self._rng):
                    reseed(seed)
                    outs.append(fn(*args))
            if self.device.type == "cuda":
                torch.cuda.synchronize(self.device)
        finally:
            if was:
                gc.enable()

    def check(self, path: Path, written: list[int]) -> dict[str, Any]:
        """Write every call's outputs, each followed by its arguments ``written`` (those the graph
        writes in place) as they are after the call, to ``path``; free the window.

        All of them, not the one the referee will compare: which one that is is chosen after this
        file is written, so a process that did not compute every call inside the window must
        compute them now, and the referee sees that work on its CPU clock.

        Returns the header written; its claims hold ``calls``, ``per_call`` (values per call) and,
        per call, ``aliases`` (which outputs share memory with which arguments)."""
        values: list[Any] = []
        aliases: list[list[list[int]]] = []
        per_call = 0
        for out, args in zip(self._outs, self._args):
            outs = flatten_outputs(out)
            chunk = outs + [args[i] for i in written if 0 <= i < len(args)]
            per_call = len(chunk)
            values += chunk
            aliases.append([sorted(a) for a in alias_map(outs, args)])
        header = write_values(path, values, {"calls": len(self._outs), "per_call": per_call, "aliases": aliases})
        self._outs = []
        return header

    def device_times(self, budget_s: float, calls: int = 20) -> dict[str, dict[str, Any]]:
        """CUDA only, after the rounds: each variant's device time per call, by CUDA events around
        each of ``calls`` back-to-back calls (``kernel_median_us``: the host queues the next call
        while the device runs this one, as in the timed windows, so a call's span is its device
        work, or the host's launch time where that is longer; never an idle device's wake-up after
        a synchronisation), and of a CUDA-graph replay of one call
        (``graph_median_us``, :func:`passagent.tools.measure.timing.graph_replay_medians`, within
        ``budget_s``). Not scored: the score is the referee's clock. In the candidate process these
        are its own account, like anything it says. Empty on the CPU."""
        if self.device.type != "cuda" or self.pool is None:
            return {}
        import statistics

        from ..measure.timing import graph_replay_medians

        out: dict[str, dict[str, Any]] = {}
        args = self.pool.inputs(0)
        with torch.no_grad():
            for name, fn in self.variants.items():
                fn(*args)  # the queue starts full: the first span does not include a cold start
                events = []
                for _ in range(calls):
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    fn(*args)
                    end.record()
                    events.append((start, end))
                torch.cuda.synchronize(self.device)
                out[name] = {"kernel_median_us": statistics.median(s.elapsed_time(e) * 1e3 for s, e in events)}
            info: dict[str, Any] = {}
            try:
                medians = graph_replay_medians(self.variants, args, self.device, min_replays=100, budget_s=budget_s,
                                               info=info)
            except Exception:  # noqa: BLE001 - an extra metric: its failure must not fail the measurement
                medians = {}
        kept, attempted = info.get("kept") or {}, info.get("attempted") or {}
        for name, median in medians.items():
            out[name].update(graph_median_us=median, graph_replays=kept.get(name),
                             graph_dropped=(attempted[name] - kept[name]) if name in kept and name in attempted else None)
        return out

    def clear(self) -> None:
        gc.unfreeze()
        self.pool = None
        self.variants = {}
        self._outs, self._args, self._buffers = [], [], []
