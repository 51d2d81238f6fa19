"""The one way the harness starts a short-lived child process and runs it to its end.

Every such child (an IR inspection, a ``passagent check``, a coverage match worker) is started
the same way: a fresh interpreter in a process group of its own (``start_new_session``), so that
killing the group ends whatever it spawned (Inductor's compile workers included); standard input
a pipe only when the parent will write the device lease's go line on it
(:mod:`.lease_gate`), otherwise ``/dev/null``; optionally in a fresh network namespace
(:func:`.sandbox.isolate_network_command`). While it runs it is registered with
:mod:`.children`, so an interrupt of the parent kills its group at once.

:func:`start_child` starts one (for callers that follow a child's progress themselves, as
:func:`.isolation.run_workers` does through its event file); :func:`run_child` also waits for it
within a time limit, with the lease handshake when a gate is given, and returns what it printed.

The clean-room evaluation's long-lived roles talk over pipes for many requests and are started
by :mod:`passagent.tools.evaluation.child` (PID namespace, Landlock, pools), on the same rules.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .children import kill_group, tracked
from .lease_gate import LeaseGate, lease_for_ready_child
from .sandbox import isolate_network_command


@dataclass
class ChildRun:
    """How a child run ended.

    Attributes:
        returncode: its exit status (negative: killed by that signal).
        log: what it wrote on standard output and standard error, decoded (UTF-8, errors
            replaced); empty when the output went to a file.
        timed_out: it was still running at the time limit, and its group was killed.
    """

    returncode: int | None
    log: str
    timed_out: bool

    def tail(self, lines: int = 8) -> str:
        """The last ``lines`` non-empty lines of :attr:`log`."""
        return "\n".join(self.log.strip().splitlines()[-lines:])


def start_child(argv: list[str], *, cwd: Path, env: dict[str, str], handshake: bool = False,
                isolate_network: bool = False, stdout: IO[bytes] | int = subprocess.PIPE) -> subprocess.Popen[bytes]:
    """Start ``argv`` in a process group of its own.

    Args:
        argv: the command (``[sys.executable, "-m", module, ...]``).
        cwd: its working folder.
        env: its whole environment.
        handshake: standard input is a pipe for the lease's go line; otherwise ``/dev/null``.
        isolate_network: run it in a fresh network namespace where the OS allows (unchanged
            otherwise; see :func:`.sandbox.isolate_network_command`).
        stdout: where its standard output and standard error go (a pipe by default).

    Returns:
        The started process (its PID is its process group's id).

    Raises:
        OSError: the command could not be started.
    """
    if isolate_network:
        argv = isolate_network_command(argv)[0]
    return subprocess.Popen(argv, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.STDOUT,
                            stdin=subprocess.PIPE if handshake else subprocess.DEVNULL, start_new_session=True)


def run_child(argv: list[str], *, cwd: Path, env: dict[str, str], timeout_s: float, gate: LeaseGate | None = None,
              lease_steps: tuple[str, str] = ("start", "run"), spawn_env: dict[str, str] | None = None,
              isolate_network: bool = False) -> ChildRun:
    """Run ``argv`` to its end, at most ``timeout_s`` seconds (wall clock, start-up included).

    With a ``gate`` the child takes part in the lease handshake through files in ``cwd``
    (:func:`.lease_gate.lease_for_ready_child`): it writes ``ready``, gets the go line on standard
    input, writes ``device_done``; the lease is released however the run ends.

    Args:
        argv, cwd, env, isolate_network: as for :func:`start_child`.
        timeout_s: the limit in seconds; past it the child's group is killed (SIGKILL).
        gate: the device lease, or None when the caller holds what it needs.
        lease_steps: the names under which the lease record gets the time before the lease and
            the time in it.
        spawn_env: the environment the go line is written for (before the device was pinned in
            ``env``); ``env`` when None.

    Returns:
        Its exit status, its output and whether it was killed at the limit.

    Raises:
        OSError: the command could not be started.
    """
    t0 = time.monotonic()
    proc = start_child(argv, cwd=cwd, env=env, handshake=gate is not None, isolate_network=isolate_network)
    timed_out = False
    out: Any = b""
    with tracked(proc):
        try:
            if gate is not None:
                lease_for_ready_child(proc, gate, cwd, deadline=t0 + timeout_s, t0=t0, before=lease_steps[0],
                                      during=lease_steps[1], spawn_env=spawn_env if spawn_env is not None else env)
            out, _ = proc.communicate(timeout=max(1.0, t0 + timeout_s - time.monotonic()))
        except subprocess.TimeoutExpired:
            kill_group(proc.pid)
            out, _ = proc.communicate()
            timed_out = True
        finally:
            if gate is not None:
                gate.release()
    return ChildRun(proc.returncode, (out or b"").decode(errors="replace"), timed_out)
