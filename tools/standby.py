"""Pre-started evaluation workers: start-up paid while nothing waits for it.

A worker's start-up (a fresh interpreter, ``import torch``, Inductor and Triton, the harness,
on the CPU Inductor's SIMD probe) costs seconds that need neither the pass nor the device: 6-8 s
of a 2-core CPU evaluation. :class:`StandbyPool` keeps one worker that has done all of it and
waits, for the next evaluation with the same launch settings. Isolation is that of any worker:

* it is a fresh interpreter spawned exactly as a worker is (same command wrapper, environment,
  its own folder as working directory and ``TMPDIR``, its own process group), confined by the
  same sandbox *before* its imports (:func:`.worker_entry.standby`); only the CPU-time limit,
  which depends on the request, is applied when the request arrives;
* it has run no pass code, loaded no task and not touched CUDA (the device is chosen, and a
  GPU's lease taken, after it reports ready, as for any worker);
* it serves one evaluation and then ends like any worker; the pool starts its successor after
  that evaluation, so its imports never compete with a measurement of the evaluation it follows.

A standby whose parent dies sees its standard input close and exits. The pool ends its standby
processes at interpreter exit.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

#: Where a standby's files live in its folder (the evaluation that adopts it keeps them there).
SPEC_FILE, READY_FILE, LOG_FILE = "standby.json", "standby.ready", "worker-standby.log"


@dataclass
class Standby:
    """One pre-started worker: its process, its folder (the adopting evaluation's ``workdir``),
    its log, and the launch key it was started for."""

    proc: subprocess.Popen[bytes]
    workdir: Path
    log_path: Path
    key: str

    @property
    def ready(self) -> bool:
        """Its imports are done (it is waiting for a request)."""
        return (self.workdir / READY_FILE).is_file()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def hand_over(self, request_path: Path, keep_stdin: bool) -> None:
        """Send the request's path; close standard input unless the handshake needs it.

        Raises:
            OSError: the process is gone (the caller starts a fresh worker instead).
        """
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{request_path}\n".encode())
        self.proc.stdin.flush()
        if not keep_stdin:
            self.proc.stdin.close()

    def discard(self) -> None:
        """End the process group and remove the folder."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        shutil.rmtree(self.workdir, ignore_errors=True)


def launch_key(device_type: str, env: dict[str, str], sandbox: dict[str, Any] | None, isolate_network: bool,
               workdir: Path) -> str:
    """What a standby must share with the request it serves: device type, environment, sandbox
    (without the CPU-time limit) and network isolation. The folder differs per worker, so
    ``workdir`` is replaced by a placeholder wherever it appears.

    Returns:
        A 24-character hex digest (SHA-256 of those settings as JSON); never raises for JSON-able input.
    """
    def neutral(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(str(workdir), "<workdir>")
        if isinstance(value, list):
            return [neutral(v) for v in value]
        if isinstance(value, dict):
            return {k: neutral(v) for k, v in value.items()}
        return value

    box = {k: v for k, v in (sandbox or {}).items() if k != "cpu_seconds"}
    blob = json.dumps([device_type, neutral(env), neutral(box), isolate_network], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


class StandbyPool:
    """At most one pre-started worker per launch key (and, by default, one in all).

    Args:
        size: standby workers kept at most, over all keys (the oldest is ended first).
    """

    def __init__(self, size: int = 1):
        self.size = size
        self._standbys: list[Standby] = []
        self._lock = threading.Lock()
        atexit.register(self.close)

    def take(self, key: str) -> Standby | None:
        """The live standby for ``key``, removed from the pool (ready or still importing), or None."""
        with self._lock:
            for sb in list(self._standbys):
                if not sb.alive():
                    self._standbys.remove(sb)
                    sb.discard()
                elif sb.key == key:
                    self._standbys.remove(sb)
                    return sb
        return None

    def start(self, key: str, spec: Callable[[Path], tuple[dict[str, str], dict[str, Any] | None]], device_type: str,
              command: Callable[[list[str]], list[str]] | None = None) -> Standby:
        """Start a standby for ``key``, ending the oldest one past ``size``.

        Args:
            spec: ``spec(workdir)`` -> (environment, sandbox) of a worker in ``workdir``, the same
                function the evaluation uses for its own worker.
            device_type: ``"cpu"`` or ``"cuda"`` (what it preloads).
            command: wraps the worker's argv (network isolation), as for any worker.
        """
        from .isolation import standby_command

        workdir = Path(tempfile.mkdtemp(prefix="passagent-eval-"))
        env, sandbox = spec(workdir)
        if sandbox is not None:  # the request's own CPU-time limit is applied when it arrives
            sandbox = {k: v for k, v in sandbox.items() if k != "cpu_seconds"}
        (workdir / SPEC_FILE).write_text(json.dumps({"sandbox": sandbox, "device_type": device_type,
                                                     "ready_path": str(workdir / READY_FILE)}))
        argv = standby_command(workdir / SPEC_FILE)
        if command is not None:
            argv = command(argv)
        log_path = workdir / LOG_FILE
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.PIPE, cwd=workdir,
                                    env=env, start_new_session=True)
        sb = Standby(proc, workdir, log_path, key)
        with self._lock:
            self._standbys.append(sb)
            while len(self._standbys) > self.size:
                self._standbys.pop(0).discard()
        return sb

    def wait_ready(self, timeout_s: float = 120.0) -> bool:
        """Block until every standby has finished its imports (or died); True if all are ready."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self._lock:
                pending = [sb for sb in self._standbys if sb.alive() and not sb.ready]
            if not pending:
                with self._lock:
                    return all(sb.ready for sb in self._standbys)
            time.sleep(0.05)
        return False

    def close(self) -> None:
        """End every standby process."""
        with self._lock:
            standbys, self._standbys = self._standbys, []
        for sb in standbys:
            sb.discard()

    def __len__(self) -> int:
        with self._lock:
            return len(self._standbys)


#: The process's pool (evaluations with ``EvalOptions(standby=True)`` use it).
POOL = StandbyPool()
