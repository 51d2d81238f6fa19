"""The device lease of one evaluation, taken only for the steps that need the device.

A worker process (one per candidate, spawned and sandboxed as always) first does everything
that needs no device: interpreter start, ``import torch`` and Inductor, loading the task and
the pass, synthesising its input draws on the CPU. It then reports ``ready`` and blocks on its
standard input. Only then does the parent take the device lease (:func:`.device_lease.lease_device`)
and write the *go* line; the worker compiles, checks and times on the device, reports
``device_done`` after its last device step, and the parent releases the lease at once (or when
the worker dies, whichever comes first). A worker that dies before ``ready`` never held a lease.

The handshake is a line on a pipe, not a file: a worker blocked on its standard input needs no
polling, and if the parent dies the pipe closes and the worker exits instead of waiting for ever.

Each lease's record in ``leases.jsonl`` carries what it was spent on: ``lease_scope``
(``"device"`` for this split, ``"evaluation"`` for a lease around the whole evaluation),
``before_lease_s`` (the worker's start-up steps, seconds) and ``in_lease_s`` (the worker's
steps while the lease was held, seconds, summed over subgraphs; ``device_setup`` is from the go
line to the first subgraph: CUDA start and the device's floors).
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import IO, Any

from .device_lease import lease_device, leased_device, pin_worker_device

#: What a lease covers: only the device steps of a worker (default), or the whole evaluation
#: (process start, imports, compiles: the behaviour before the handshake, kept for comparison).
LEASE_SCOPES = ("device", "evaluation")


class LeaseGate:
    """Takes one device of ``pool`` when a worker is ready, and releases it when told.

    Args:
        pool: device names (``["cuda:0"]``, ``["cpu"]``, ``["cpu:0", "cpu:1"]``).
        lock_dir: the pool's lock folder (:func:`.device_lease.lease_device`).
        info: what the lease is for, copied into each lease record (task, pass digest, purpose);
            phase times are added to it before each release.

    A gate may take several leases in turn (a worker that died is replaced by a new one, which
    asks again); ``leases`` counts them.
    """

    def __init__(self, pool: list[str], lock_dir: Path, info: dict[str, Any] | None = None):
        if not pool:
            raise ValueError("device pool is empty")
        self.pool = list(pool)
        self.lock_dir = Path(lock_dir)
        self.info = dict(info or {})
        self.device: str | None = None  # the held lease's device name, None while none is held
        self.leases = 0
        self._cm: Any = None
        self._record: dict[str, Any] = {}

    @property
    def held(self) -> bool:
        return self.device is not None

    def acquire(self, before_lease_s: dict[str, float] | None = None) -> str:
        """Block until a device of the pool is leased (no-op if one is held); return its name.

        Args:
            before_lease_s: the worker's start-up steps (seconds), recorded with this lease.
        """
        if self.device is None:
            self._record = {**self.info, "lease_scope": "device", "before_lease_s": before_lease_s or {}, "in_lease_s": {}}
            self._cm = lease_device(self.pool, self.lock_dir, info=self._record)
            self.device = self._cm.__enter__()
            self.leases += 1
        return self.device

    def add_in_lease(self, phases: dict[str, float]) -> None:
        """Add the seconds of worker steps that ran under the held lease (no-op if none is held)."""
        if self.device is None:
            return
        held = self._record["in_lease_s"]
        for name, seconds in phases.items():
            held[name] = round(held.get(name, 0.0) + float(seconds), 4)

    def release(self) -> None:
        """Release the held lease, writing its record (no-op if none is held)."""
        if self.device is None:
            return
        cm, self._cm, self.device = self._cm, None, None
        cm.__exit__(None, None, None)

    def go_line(self, spawn_env: dict[str, str]) -> str:
        """The line that tells a ready worker to go on the leased device (JSON, newline-terminated).

        A worker of a one-device pool (or of the CPU) was confined to that device when it was
        spawned and keeps the device its request names: the line is ``{"go": true}``. On
        ``cuda:N`` of a pool of several GPUs the worker was started before its GPU was known, so
        the line names ``device`` (what the worker uses) and ``cuda_visible_devices``, which
        narrows its view to GPU N before it first touches CUDA
        (:func:`.device_lease.pin_worker_device` applied to ``spawn_env``, the worker's environment).
        """
        assert self.device is not None, "go_line before acquire"
        message: dict[str, Any] = {"go": True}
        device = leased_device(self.device)
        if device.startswith("cuda") and pinned_at_spawn(self.pool) is None:
            env = dict(spawn_env)
            message["device"] = pin_worker_device(device, env)
            if "CUDA_VISIBLE_DEVICES" in env:
                message["cuda_visible_devices"] = env["CUDA_VISIBLE_DEVICES"]
        return json.dumps(message) + "\n"


def pinned_at_spawn(pool: list[str]) -> str | None:
    """The device a worker can be confined to when it is spawned (before the lease): the pool's
    only device, or None when the pool has several (the lease picks one later)."""
    names = list(dict.fromkeys(pool))
    return names[0] if len(names) == 1 else None


def wait_for_go(stream: IO[str]) -> dict[str, Any] | None:
    """Block on ``stream`` (the worker's standard input) for the go line; None if it closed or
    the line is not a go message (the parent is gone or gave up: the worker must not go on)."""
    line = stream.readline()
    if not line:
        return None
    try:
        message = json.loads(line)
    except json.JSONDecodeError:
        return None
    return message if isinstance(message, dict) and message.get("go") else None


#: Files a child process writes in its folder for the handshake of :func:`lease_for_ready_child`.
READY_FILE, DEVICE_DONE_FILE = "ready", "device_done"


def lease_for_ready_child(proc: subprocess.Popen[bytes], gate: LeaseGate, folder: Path, *, deadline: float, t0: float,
                          before: str, during: str, spawn_env: dict[str, str] | None = None) -> None:
    """The parent's side of a child's handshake through files: wait for ``folder/ready``, take the
    lease, write the go line on the child's standard input (then closed), and release the lease
    when ``folder/device_done`` appears or the child exits. A child that exits before ``ready``
    never takes the lease.

    Args:
        proc: the child, started with ``stdin=subprocess.PIPE``; ``proc.stdin`` is closed and set
            to None (``communicate()`` must not flush it).
        deadline, t0: monotonic-clock seconds: the time limit, and when the child was started.
        before, during: the names under which the lease record gets the seconds from ``t0`` to the
            lease (``before_lease_s``) and from the go line to the release (``in_lease_s``).
        spawn_env: the child's environment, for the go line (:meth:`LeaseGate.go_line`).

    Raises:
        subprocess.TimeoutExpired: ``deadline`` passed first (the lease, if taken, is still held:
            release it once the child is killed).
    """
    ready = Path(folder) / READY_FILE
    while not ready.is_file():
        if proc.poll() is not None:
            return
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(proc.args, deadline - t0)
        time.sleep(0.02)
    gate.acquire(before_lease_s={before: round(time.monotonic() - t0, 4)})
    t_go = time.monotonic()
    stdin, proc.stdin = proc.stdin, None
    try:
        stdin.write(gate.go_line(spawn_env or {}).encode())  # type: ignore[union-attr]
        stdin.close()  # type: ignore[union-attr]
    except OSError:  # it died meanwhile: its partial output is read as usual
        return
    while proc.poll() is None and not (Path(folder) / DEVICE_DONE_FILE).is_file():
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(proc.args, deadline - t0)
        time.sleep(0.02)
    gate.add_in_lease({during: time.monotonic() - t_go})
    gate.release()
