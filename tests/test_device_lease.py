"""Device leases: one evaluation per device at a time, across threads and processes."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from passagent.tools.device_lease import lease_device


def test_one_holder_per_device_and_waiters_get_it_after(tmp_path: Path) -> None:
    spans: list[tuple[str, float, float]] = []

    def job() -> None:
        with lease_device(["cpu"], tmp_path, poll_s=0.01) as dev:
            start = time.monotonic()
            time.sleep(0.2)
            spans.append((dev, start, time.monotonic()))

    threads = [threading.Thread(target=job) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    spans.sort(key=lambda s: s[1])
    assert len(spans) == 3
    for (_, _, end), (_, start, _) in zip(spans, spans[1:]):
        assert start >= end, "two evaluations held the same device at once"


def test_two_devices_are_used_concurrently(tmp_path: Path) -> None:
    held: list[str] = []
    barrier = threading.Barrier(2, timeout=5)

    def job() -> None:
        with lease_device(["cuda:0", "cuda:1"], tmp_path, poll_s=0.01) as dev:
            held.append(dev)
            barrier.wait()  # both hold a device at the same moment

    threads = [threading.Thread(target=job) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(held) == ["cuda:0", "cuda:1"]


def test_timeout_when_every_device_is_busy(tmp_path: Path) -> None:
    with lease_device(["cpu"], tmp_path):
        with pytest.raises(TimeoutError):
            with lease_device(["cpu"], tmp_path, poll_s=0.01, timeout_s=0.1):
                pass
