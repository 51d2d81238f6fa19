"""What the OS says about another process: its CPU time, its threads, its descendants.

The referee reads these from outside the candidate process, so nothing the pass does inside it
(patching clocks, hiding threads from Python, lying in its replies) changes them:

* CPU time: the process's CPU-time clock (``clock_getcpuclockid(3)``, read with
  ``clock_gettime``): nanoseconds over every thread the process has had, those that already
  exited included (Linux accumulates them in the thread group; ``man 3 clock_getcpuclockid``,
  ``man 7 time``). A read costs well under a microsecond.
* threads: the entries of ``/proc/<pid>/task`` (``man 5 proc``).
* descendants: every process whose parent chain (``/proc/<pid>/stat`` field 4) reaches the
  process. A candidate runs as the first process of its own PID namespace where the OS allows
  (:mod:`passagent.tools.process.sandbox`), so an orphan it leaves is re-parented to it, never to the
  machine's init, and stays its descendant.
"""

from __future__ import annotations

import ctypes
import functools
import os
import time
from dataclasses import dataclass


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def cpu_clock_id(pid: int) -> int | None:
    """The CPU-time clock id of process ``pid`` (all its threads), or None where unavailable."""
    clock = ctypes.c_int()
    try:
        fn = _libc().clock_getcpuclockid
    except AttributeError:
        return None
    if fn(ctypes.c_int(pid), ctypes.byref(clock)) != 0:
        return None
    return clock.value


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode(errors="replace")
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    close = raw.rfind(")")
    return [raw[: raw.find(" ")], raw[raw.find("(") + 1: close]] + raw[close + 2:].split()


def parent_pid(pid: int) -> int | None:
    """``pid``'s parent (``/proc/<pid>/stat`` field 4), None if the process is gone."""
    fields = _stat_fields(pid)
    return int(fields[3]) if fields else None


def children_of(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (one scan of ``/proc``)."""
    return [p for p, parent in _parents().items() if parent == pid]


def _parents() -> dict[int, int]:
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat_fields(int(name))
            if fields:
                out[int(name)] = int(fields[3])
    return out


def descendants(pid: int) -> list[int]:
    """Every live process whose parent chain reaches ``pid`` (one scan of ``/proc``, about a
    millisecond per few hundred processes), ``pid`` itself excluded."""
    parents = _parents()
    found: list[int] = []
    for p in parents:
        seen, q = 0, p
        while q in parents and seen < 64:
            q = parents[q]
            seen += 1
            if q == pid:
                found.append(p)
                break
    return sorted(found)


@dataclass
class Reading:
    """One look at a process: CPU time (ns, all threads), live threads, wall clock (ns)."""

    cpu_ns: int
    threads: int
    wall_ns: int


class ProcessObserver:
    """Reads one process's CPU time and thread count from outside it.

    The CPU time comes from the process's CPU-time clock (nanoseconds) where the OS lets another
    process read it; else from ``/proc/<pid>/stat`` (user and system time, in clock ticks of
    ``1/CLK_TCK`` s: ``precise`` is then False, and a caller should judge only sums over many
    readings); else it is unknown (``available`` False, :meth:`cpu_ns` returns 0).

    Args:
        pid: the process (in the caller's PID namespace).
    """

    def __init__(self, pid: int):
        self.pid = pid
        self.clock = cpu_clock_id(pid)
        self.precise = False
        self.available = True
        if self.clock is not None:
            try:
                time.clock_gettime_ns(self.clock)
                self.precise = True
                return
            except OSError:
                self.clock = None
        self._tick_ns = 10**9 // max(1, os.sysconf("SC_CLK_TCK"))
        if _stat_fields(pid) is None:
            self.available = False

    def cpu_ns(self) -> int:
        """CPU time the process has used so far (ns, every thread it ever had); 0 where unknown."""
        if self.clock is not None:
            try:
                return time.clock_gettime_ns(self.clock)
            except OSError:  # the process is gone
                return 0
        fields = _stat_fields(self.pid)
        if fields is None:
            return 0
        return (int(fields[13]) + int(fields[14])) * self._tick_ns

    def describe(self) -> str:
        if self.precise:
            return "CPU time read from the process's CPU-time clock (ns)"
        if self.available:
            return "CPU time read from /proc/<pid>/stat (clock ticks): only sums over many windows are judged"
        return "unavailable: the OS shows neither the process's CPU clock nor /proc/<pid>/stat"

    def threads(self) -> int:
        """Live threads (entries of ``/proc/<pid>/task``); 0 once the process is gone."""
        try:
            return len(os.listdir(f"/proc/{self.pid}/task"))
        except OSError:
            return 0

    def peak_rss_kb(self) -> int:
        """The process's peak resident memory so far (KiB, ``VmHWM`` of ``/proc/<pid>/status``,
        proc(5)); 0 once the process is gone or where the OS does not show it."""
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            pass
        return 0

    def read(self) -> Reading:
        return Reading(cpu_ns=self.cpu_ns(), threads=self.threads(), wall_ns=time.perf_counter_ns())

    def descendants(self) -> list[int]:
        return descendants(self.pid)
