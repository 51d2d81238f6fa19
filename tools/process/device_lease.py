"""Exclusive use of a device for one evaluation at a time, across processes.

Sweeps run many solves at once so that model calls overlap, but two evaluations timed on the
same GPU (or the same CPU) at once would disturb each other's timings. Each evaluation leases one
device from a pool through an advisory file lock (``fcntl.flock``) in a shared lock folder; the
lock is released when the evaluation ends, or by the OS if its process dies.

Waiters are served first come, first served: each takes a ticket (a file named by the time it
asked, locked by its process) in a queue folder of its pool, and only the oldest live ticket
tries the devices. Why: when every waiter polls every device, whichever polls first after a
release wins, so a run that asked early can wait behind later ones and leave a tail with one GPU
idle (measured on two H200s: benchmarks/RESULTS.md, "Two GPUs"). A ticket whose process died is
not locked any more and is removed by the next waiter that looks.

Every lease is also recorded: on release, while the lock is still held, one JSON line is
appended to ``leases.jsonl`` in the lock folder (device, process, start and end times on the
wall clock and on the host's monotonic clock, the wait before it, whether the body raised, and
what the caller said it was for). :func:`read_leases` and :func:`busy_profile` turn that log into
per-device and overall concurrency, so "never two evaluations on one device" and "both GPUs
busy" are read off a record rather than assumed.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import socket
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

#: The lease log's file name inside a lock folder.
LEASE_LOG = "leases.jsonl"


@contextmanager
def lease_device(pool: list[str], lock_dir: Path, poll_s: float = 0.1, timeout_s: float | None = None,
                 info: dict[str, Any] | None = None, log: bool = True) -> Iterator[str]:
    """Block until one device of ``pool`` is free, hold it for the ``with`` block, yield its name.

    Waiters for the same ``pool`` and ``lock_dir`` get devices in the order they called (see the
    module docstring); a waiter that leaves (timeout, exception, death) gives up its place.

    Args:
        pool: device names (``["cuda:0", "cuda:1"]`` or ``["cpu"]``), tried in order.
        lock_dir: folder of lock files shared by every process of the sweep (created if missing).
        poll_s: seconds between looks at the queue, and between attempts at the devices once
            at its head while all of them are busy.
        timeout_s: give up after this many seconds (None: wait for ever).
        info: what the lease is for (task, pass digest...), copied into its log record.
        log: append the lease's record to ``lock_dir/leases.jsonl`` on release.

    Raises:
        TimeoutError: no device became free within ``timeout_s``.
        ValueError: ``pool`` is empty.
    """
    if not pool:
        raise ValueError("device pool is empty")
    lock_dir.mkdir(parents=True, exist_ok=True)
    asked = time.monotonic()
    deadline = None if timeout_s is None else asked + timeout_s
    with _queue_ticket(lock_dir, pool) as ticket:
        while _live_tickets_ahead(ticket):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"no device of {pool} became free within {timeout_s} s")
            time.sleep(poll_s)
        device, fd = _take_free_device(pool, lock_dir, poll_s, deadline, timeout_s)
    # At the head of the queue and now holding ``device``: the ticket is gone, the next waiter is head.
    start, start_mono = time.time(), time.monotonic()
    error = None
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # who holds it, for people looking
        yield device
    except BaseException as exc:
        error = type(exc).__name__
        raise
    finally:
        end_mono, end = time.monotonic(), time.time()
        if log:  # written before the unlock: the next holder's start is after this end
            record = {**(info or {}), "device": device, "host": socket.gethostname(), "pid": os.getpid(),
                      "start": start, "end": end, "start_mono": start_mono, "end_mono": end_mono,
                      "wait_s": start_mono - asked, "error": error}
            _append(lock_dir / LEASE_LOG, record)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _take_free_device(pool: list[str], lock_dir: Path, poll_s: float, deadline: float | None,
                      timeout_s: float | None) -> tuple[str, int]:
    """Poll ``pool`` in order until one device's lock is taken; return it and its locked descriptor.

    Raises:
        TimeoutError: past ``deadline`` (monotonic clock) with every device still held.
    """
    while True:
        for device in pool:
            fd = os.open(lock_dir / f"{device.replace(':', '_')}.lock", os.O_CREAT | os.O_RDWR, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return device, fd
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError(f"no device of {pool} became free within {timeout_s} s")
        time.sleep(poll_s)


@contextmanager
def _queue_ticket(lock_dir: Path, pool: list[str]) -> Iterator[Path]:
    """A place in the queue of ``pool``'s waiters for as long as the ``with`` block runs.

    The ticket is a file in ``lock_dir/queue-<pool digest>/`` named ``<time_ns>-<pid>-<random>``
    (names sort in the order the waiters asked; ``time.time_ns`` is one clock for every process of
    a host, and a lock folder is one host's), locked (``flock``) by this process while it waits.
    It is locked under a hidden name first and then renamed into the queue, so no other waiter
    ever sees it unlocked and takes it for a dead one's. Pools get a queue each: a waiter for
    ``cuda:1`` alone never waits behind one for ``cuda:0``.
    """
    digest = hashlib.sha256(",".join(pool).encode()).hexdigest()[:12]
    queue = lock_dir / f"queue-{digest}"
    queue.mkdir(parents=True, exist_ok=True)
    name = f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    hidden = queue / f".{name}"
    fd = os.open(hidden, os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(hidden, queue / name)
        yield queue / name
    finally:
        for path in (queue / name, hidden):
            try:
                path.unlink()
            except FileNotFoundError:
                pass
        os.close(fd)  # releases the lock


def _live_tickets_ahead(ticket: Path) -> int:
    """How many waiters that asked before ``ticket`` are still waiting; tickets of dead processes
    (no longer locked) are removed on the way."""
    ahead = 0
    for other in sorted(ticket.parent.iterdir()):
        if other.name >= ticket.name:
            break
        if other.name.startswith("."):
            continue
        try:
            fd = os.open(other, os.O_RDONLY)
        except FileNotFoundError:  # its owner got a device meanwhile
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            ahead += 1  # locked: its owner is alive and waiting
        else:  # unlocked: its owner died (or is just leaving); either way it waits no more
            try:
                other.unlink()
            except FileNotFoundError:
                pass
        finally:
            os.close(fd)
    return ahead


def leased_device(name: str) -> str:
    """The device an evaluation runs on under the lease ``name``: ``cpu:N`` is a stand-in slot of
    the CPU (a pool of several "devices" on a machine without GPUs, for tests and dry runs; the
    slots share the cores, so their timings disturb each other) and runs on ``cpu``; any other
    name is the device itself."""
    kind, _, index = name.partition(":")
    return "cpu" if kind == "cpu" and index.isdigit() else name


def pin_worker_device(device: str, env: dict[str, str]) -> str:
    """Confine a worker process to its leased GPU; return the device name it should use.

    For ``cuda:N`` the worker's ``CUDA_VISIBLE_DEVICES`` (in ``env``) is narrowed to the N-th GPU
    this process sees, and the worker uses ``cuda:0``: its current device, default stream,
    CUDA events and device-wide synchronisation are then all on GPU N, and it creates no CUDA
    context on another GPU (where it would disturb that GPU's evaluation). Other devices, and a
    GPU index this process does not see, are returned unchanged (the worker then fails as it
    would have). The rest of ``env`` is left alone.
    """
    kind, _, index = device.partition(":")
    if kind != "cuda" or not index.isdigit():
        return device
    n = int(index)
    visible = env.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        env["CUDA_VISIBLE_DEVICES"] = str(n)
        return "cuda:0"
    entries = [e.strip() for e in visible.split(",")]
    if n >= len(entries) or not entries[n]:
        return device
    env["CUDA_VISIBLE_DEVICES"] = entries[n]
    return "cuda:0"


def _append(path: Path, record: dict[str, Any]) -> None:
    """One line, one ``write`` on an ``O_APPEND`` descriptor: whole lines from concurrent writers.
    A log that cannot be written never fails the evaluation it records."""
    line = (json.dumps(record, default=str) + "\n").encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
    except OSError:
        pass


def read_leases(root: Path) -> list[dict[str, Any]]:
    """Every lease record under ``root`` (a lock folder, or a sweep folder with ``locks/<host>/``),
    sorted by start time; unparsable lines (a torn write) are skipped."""
    root = Path(root)
    files = [root / LEASE_LOG] if (root / LEASE_LOG).is_file() else sorted(root.rglob(LEASE_LOG))
    out = []
    for f in files:
        for line in f.read_text(errors="replace").splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(rec, dict) and {"device", "start", "end"} <= rec.keys():
                out.append(rec)
    return sorted(out, key=lambda r: r["start"])


def busy_profile(leases: Iterable[dict[str, Any]], window: tuple[float, float] | None = None) -> dict[str, Any]:
    """How the leases overlapped, from their start and end times.

    Times are the monotonic clock's when every record comes from one host (then ``window`` is
    on that clock too), else the wall clock's, and devices are named ``host/device``. An
    interval that ends exactly when another starts does not overlap it.

    Args:
        leases: records as :func:`read_leases` returns them.
        window: (start, end) of the period the fractions refer to (default: first start to
            last end).

    Returns:
        ``leases``, ``clock``, ``window_s``; per device ``max_per_device`` (most leases held at
        once: 1 when leases work), ``busy_s`` and ``count``; ``max_overall`` (most leases at once
        over all devices); ``seconds_with_devices_busy`` and ``fraction_with_devices_busy``
        (how long exactly k devices were busy, k = 0..number of devices).
    """
    leases = list(leases)
    hosts = {r.get("host") for r in leases}
    mono = len(hosts) <= 1 and all("start_mono" in r and "end_mono" in r for r in leases)
    s_key, e_key = ("start_mono", "end_mono") if mono else ("start", "end")

    def name(r: dict[str, Any]) -> str:
        return str(r["device"]) if len(hosts) <= 1 else f"{r.get('host')}/{r['device']}"

    devices = sorted({name(r) for r in leases})
    # Sweep line: ends sort before starts at the same instant, so touching intervals do not overlap.
    points = sorted([(float(r[s_key]), 1, name(r)) for r in leases] + [(float(r[e_key]), -1, name(r)) for r in leases],
                    key=lambda p: (p[0], p[1]))
    if window is None:
        window = (points[0][0], points[-1][0]) if points else (0.0, 0.0)
    lo, hi = window
    held = {d: 0 for d in devices}
    max_dev = {d: 0 for d in devices}
    at_k = [0.0] * (len(devices) + 1)
    total = max_total = 0
    prev = lo
    for t, delta, dev in points + [(hi, 0, "")]:
        a, b = max(prev, lo), min(t, hi)
        if b > a:
            at_k[sum(1 for n in held.values() if n > 0)] += b - a
        prev = max(prev, t)
        if not dev:
            continue
        held[dev] += delta
        total += delta
        max_dev[dev] = max(max_dev[dev], held[dev])
        max_total = max(max_total, total)
    span = max(hi - lo, 0.0)
    return {
        "leases": len(leases), "clock": "monotonic" if mono else "wall", "window_s": span,
        "max_per_device": max_dev, "max_overall": max_total,
        "busy_s": {d: sum(float(r[e_key]) - float(r[s_key]) for r in leases if name(r) == d) for d in devices},
        "count": {d: sum(1 for r in leases if name(r) == d) for d in devices},
        "seconds_with_devices_busy": {k: v for k, v in enumerate(at_k)},
        "fraction_with_devices_busy": {k: (v / span if span else 0.0) for k, v in enumerate(at_k)},
    }
