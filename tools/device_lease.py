"""Exclusive use of a device for one evaluation at a time, across processes.

Sweeps run many solves at once so that model calls overlap, but two evaluations timed on the
same GPU (or the same CPU) at once would disturb each other's timings. Each evaluation leases one
device from a pool through an advisory file lock (``fcntl.flock``) in a shared lock folder; the
lock is released when the evaluation ends, or by the OS if its process dies.
"""

from __future__ import annotations

import fcntl
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def lease_device(pool: list[str], lock_dir: Path, poll_s: float = 0.1, timeout_s: float | None = None) -> Iterator[str]:
    """Block until one device of ``pool`` is free, hold it for the ``with`` block, yield its name.

    Args:
        pool: device names (``["cuda:0", "cuda:1"]`` or ``["cpu"]``), tried in order.
        lock_dir: folder of lock files shared by every process of the sweep (created if missing).
        poll_s: seconds between attempts while all devices are busy.
        timeout_s: give up after this many seconds (None: wait for ever).

    Raises:
        TimeoutError: no device became free within ``timeout_s``.
        ValueError: ``pool`` is empty.
    """
    if not pool:
        raise ValueError("device pool is empty")
    lock_dir.mkdir(parents=True, exist_ok=True)
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while True:
        for device in pool:
            fd = os.open(lock_dir / f"{device.replace(':', '_')}.lock", os.O_CREAT | os.O_RDWR, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())  # who holds it, for people looking
                yield device
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
            return
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError(f"no device of {pool} became free within {timeout_s} s")
        time.sleep(poll_s)
