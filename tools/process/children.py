"""The child process groups this process started, so that one handler can end them all.

Evaluation workers, IR inspections, checks and pre-started workers each run in a session of
their own (``start_new_session=True``): a signal to our process group never reaches them, which
is what keeps a pass from signalling its judge, and also why a Ctrl-C alone would leave them
compiling after we exit. Code that starts such a child registers it (:func:`tracked`), and an
interrupt handler calls :func:`kill_all`. Children started by code that does not register are
found too: :func:`kill_all` also ends the process group of every descendant it finds in ``/proc``
(Linux; elsewhere only the registered ones).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_lock = threading.Lock()
_live: dict[int, subprocess.Popen[bytes]] = {}


def register(proc: subprocess.Popen[bytes]) -> None:
    """Record ``proc`` (the leader of its own process group) as live."""
    with _lock:
        _live[proc.pid] = proc


def unregister(proc: subprocess.Popen[bytes]) -> None:
    with _lock:
        _live.pop(proc.pid, None)


@contextmanager
def tracked(proc: subprocess.Popen[bytes]) -> Iterator[subprocess.Popen[bytes]]:
    """Register ``proc`` for the block; on any exit from it, an interrupt included, end its group
    if it is still running (nothing waits for a child whose caller has gone)."""
    register(proc)
    try:
        yield proc
    except BaseException:
        kill_group(proc.pid)
        raise
    finally:
        unregister(proc)


def kill_group(pgid: int) -> None:
    """SIGKILL process group ``pgid``; a group that is gone is no error."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def descendants(pid: int) -> list[int]:
    """Process ids below ``pid`` (Linux ``/proc``; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            out.append(child)
            stack.append(child)
    return out


def kill_all() -> int:
    """End every registered child group and every descendant's process group (SIGKILL); our own
    group is spared (a descendant in it is killed alone). Returns how many groups or processes
    were signalled."""
    me, mine = os.getpid(), os.getpgid(0)
    with _lock:
        groups = set(_live)
        _live.clear()
    n = 0
    for pgid in groups:
        kill_group(pgid)
        n += 1
    for pid in descendants(me):
        try:
            group = os.getpgid(pid)
            if group in groups:
                continue
            if group != mine:
                os.killpg(group, signal.SIGKILL)
                groups.add(group)
            else:
                os.kill(pid, signal.SIGKILL)
            n += 1
        except (ProcessLookupError, PermissionError):
            pass
    return n


__all__ = ["register", "unregister", "tracked", "kill_group", "descendants", "kill_all"]
