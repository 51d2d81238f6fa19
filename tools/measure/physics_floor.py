"""A lower bound on any honest subgraph call's time on this device, measured, not assumed.

A time below what the hardware can do is not a speedup but a measurement the candidate fooled
(work deferred past the clock, a stale result, a batch amortised over calls), and a geometric
mean is the aggregate most exposed to one near-zero time (EXPLOITS.md row 23: the public gpu-mode
reference-kernels leaderboard added a roofline floor for this reason; the source is cited there).

Two floors, each measured once per worker process with the same clock the timed calls use:

* **launch floor**: the end-to-end time of the cheapest call that produces a fresh output (one
  ``torch.empty`` + ``fill_``: one allocation and one kernel launch, between the same device
  synchronisations as a timed call; on the CPU, the Python call overhead of a function that
  allocates one element);
* **memory floor**: the bytes every honest call must write (the reference outputs' sizes,
  excluding outputs that alias an input) divided by the device's copy bandwidth, measured as
  ``2 * nbytes / time`` of a large ``copy_`` (read + write).

A candidate whose median is below :data:`FLOOR_MARGIN` times the launch floor or
:data:`MEMORY_MARGIN` times the memory floor fails as ``integrity`` (rule ``physics_floor``).
The margins leave room for clock noise and for a measured bandwidth below the peak (a kernel
may beat one ``copy_``), never for skipping work.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

import torch

from .correctness import flatten_outputs

#: A candidate below this fraction of the launch floor is flagged (clock noise).
FLOOR_MARGIN = 0.5
#: ... or below this fraction of the memory floor: the bandwidth is measured with a copy (read +
#: write), and a kernel that only writes, or a measurement taken while the machine was loaded,
#: can be up to ~2x off; a time 4x below it is not an honest write of the outputs.
MEMORY_MARGIN = 0.25
#: Bytes copied to measure bandwidth (large enough to leave the caches on an H200: 50 MB L2).
BANDWIDTH_BYTES = {"cuda": 512 * 2**20, "cpu": 64 * 2**20}


@dataclass(frozen=True)
class DeviceFloor:
    """Measured floors of one device.

    Attributes:
        launch_us: end-to-end µs of the cheapest call that writes a fresh output.
        bandwidth_gbs: copy bandwidth, GB/s (10^9 bytes per second).
    """

    launch_us: float
    bandwidth_gbs: float

    def floor_us(self, written_bytes: int) -> float:
        """The floor for a call that must write ``written_bytes`` bytes, in µs."""
        return max(self.launch_us, written_bytes / (self.bandwidth_gbs * 1e3))


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def measure(device: torch.device, repeats: int = 30) -> DeviceFloor:
    """Measure the launch floor and the copy bandwidth of ``device`` (a few hundred ms)."""

    def tiny() -> torch.Tensor:
        return torch.empty(1, device=device).fill_(1.0)

    launches = []
    for _ in range(repeats + 5):
        _sync(device)
        t0 = time.perf_counter()
        tiny()
        _sync(device)
        launches.append((time.perf_counter() - t0) * 1e6)
    nbytes = BANDWIDTH_BYTES["cuda" if device.type == "cuda" else "cpu"]
    src = torch.empty(nbytes // 4, dtype=torch.float32, device=device).fill_(1.0)
    dst = torch.empty_like(src)
    copies = []
    for _ in range(10):
        _sync(device)
        t0 = time.perf_counter()
        dst.copy_(src)
        _sync(device)
        copies.append(time.perf_counter() - t0)
    del src, dst
    return DeviceFloor(launch_us=statistics.median(launches[5:]), bandwidth_gbs=2 * nbytes / min(copies) / 1e9)


def written_bytes(reference_outputs: Any, aliases: list[frozenset[int]]) -> int:
    """Bytes of the reference's outputs that are not views of an input (what a call must write)."""
    total = 0
    for o, alias in zip(flatten_outputs(reference_outputs), aliases):
        if isinstance(o, torch.Tensor) and not alias:
            total += o.numel() * o.element_size()
    return total


def below_floor(median_us: float, floor: DeviceFloor, nbytes: int, writes_fresh_output: bool) -> str | None:
    """A one-line reason if ``median_us`` is below the floor, else None.

    Args:
        median_us: the candidate's median end-to-end time, µs.
        floor: the device's measured floors.
        nbytes: bytes the call must write (:func:`written_bytes`).
        writes_fresh_output: whether any reference output is a fresh tensor; a graph whose
            outputs are all views launches nothing and has no launch floor.
    """
    memory = nbytes / (floor.bandwidth_gbs * 1e3)
    launch = floor.launch_us if writes_fresh_output else 0.0
    if median_us < FLOOR_MARGIN * launch or median_us < MEMORY_MARGIN * memory:
        return (f"median {median_us:.2f} µs is below this device's floor (launch {floor.launch_us:.2f} µs x {FLOOR_MARGIN:g}; "
                f"{nbytes} bytes written at {floor.bandwidth_gbs:.1f} GB/s = {memory:.2f} µs x {MEMORY_MARGIN:g})")
    return None
