"""Running sandboxed worker processes that report through an event file: spawn, watch the file,
kill on timeout, classify deaths. ``passagent coverage`` finds where passes match this way
(:mod:`..inspection.match_stage`); evaluations run in the clean-room processes (:mod:`..evaluation`), and
share :class:`WorkerRun` and :func:`_crash_report` from here.

A worker is a fresh interpreter (never a fork) in its own process group. Its event file is the
only channel back; what it reported before dying survives, and the step it was in decides the
failure class of the subgraph in progress (``compile`` while compiling, ``runtime`` while
running, ``timeout`` when the per-subgraph limit passed). A new worker then carries on with the
remaining subgraphs.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .lease_gate import LeaseGate
from .children import kill_group, register, unregister
from .runner import start_child

#: Worker steps in which a crash or hang is the pass's or the compiler's fault before anything ran.
_COMPILE_PHASES = {"candidate_load", "candidate_rewrite", "candidate_inductor"}
_RUN_PHASES = {"candidate_compiled", "candidate_run", "correctness", "timing"}


@dataclass
class WorkerRun:
    results: dict[int, dict[str, Any]]
    task_errors: dict[int, dict[str, Any]]
    failed: dict[int, tuple[str, str, str | None]]  # index -> (class, message, log tail)
    max_rss_kb: int = 0
    sandbox: list[str] = field(default_factory=list)
    profiles: dict[int, dict[str, Any]] = field(default_factory=dict)  # index -> profile event


def _read_events(path: Path, offset: int) -> tuple[list[dict[str, Any]], int]:
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return [], offset
    events, consumed = [], 0
    for line in data.splitlines(keepends=True):
        if not line.endswith(b"\n"):
            break  # partial line: read it next time
        consumed += len(line)
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return events, offset + consumed


def _describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"signal {-returncode}"
    return f"exit code {returncode}"


def _crash_report(path: Path, pass_paths: list[str], lines: int = 15) -> str | None:
    """What the dead worker left in its log: faulthandler's Python stack if it printed one
    (the frames in the pass's files first), else the last lines of output."""
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return None
    if any(ln.startswith("Fatal Python error") for ln in text):
        start = max(i for i, ln in enumerate(text) if ln.startswith("Fatal Python error"))
        block = text[start:]
        header = block[0]
        frames = [ln.strip() for ln in block if ln.strip().startswith('File "')]
        mine = [f for f in frames if any(p in f for p in pass_paths)]
        shown = mine + [f for f in frames if f not in mine][: max(0, 6 - len(mine))]
        return "\n".join([header, "most recent call first:", *shown])
    keep = [ln for ln in text if ln.strip()][-lines:]
    return "\n".join(keep) or None


def run_workers(request: dict[str, Any], indices: list[int], workdir: Path, timeout_s: float, env: dict[str, str],
                isolate_network: bool = False, gate: LeaseGate | None = None) -> WorkerRun:
    """Evaluate subgraphs ``indices`` in as many workers as crashes require.

    Args:
        request: the worker request (see :mod:`..inspection.match_stage`), without indices and paths.
        indices: subgraphs to evaluate.
        workdir: the workers' folder (request, event and log files).
        timeout_s: wall-clock limit per subgraph (seconds).
        env: the workers' environment.
        isolate_network: start workers in a fresh network namespace where the OS allows.
        gate: the device lease, taken for each worker when it reports ``ready`` and released
            when it reports ``device_done`` or ends (:mod:`.lease_gate`). None: no handshake,
            the worker goes straight on (the caller holds whatever lease it needs). A worker's
            start-up until ``ready`` has the per-subgraph time limit too.

    Returns:
        The results reported, task errors, the class and message of each subgraph whose
        worker died or was killed, and the profiles reported.
    """
    run = WorkerRun({}, {}, {})
    remaining = list(indices)
    attempt = 0
    while remaining:
        attempt += 1
        events_path = workdir / f"events-{attempt}.jsonl"
        log_path = workdir / f"worker-{attempt}.log"
        req_path = workdir / f"request-{attempt}.json"
        req_path.write_text(json.dumps({**request, "subgraph_indices": remaining, "events_path": str(events_path),
                                        "handshake": gate is not None}))
        with open(log_path, "wb") as log:
            proc = start_child(worker_command(req_path), cwd=workdir, env=env, handshake=gate is not None,
                               isolate_network=isolate_network, stdout=log)
        register(proc)  # an interrupt of this process kills the worker's group (:mod:`.children`)
        offset, current, phase, started = 0, None, None, time.monotonic()
        measured: dict[int, dict[str, Any]] = {}  # results reported before the held-out step
        profiling: int | None = None  # the subgraph being profiled (its result is already in)
        timed_out = False
        awaiting_go = gate is not None  # start-up: until the go line is written, no lease is held
        try:
            while True:
                events, offset = _read_events(events_path, offset)
                for ev in events:
                    kind = ev.get("event")
                    if gate is not None:
                        _lease_step(gate, ev)
                    if kind == "ready" and gate is not None:
                        gate.acquire(before_lease_s=ev.get("before_lease_s"))
                        try:
                            proc.stdin.write(gate.go_line(env).encode())  # type: ignore[union-attr]
                            proc.stdin.flush()  # type: ignore[union-attr]
                        except OSError:  # it died meanwhile: found below, like any death
                            pass
                        awaiting_go, started = False, time.monotonic()
                        current, phase = None, None  # the compiles before the lease are done
                    elif kind == "precompile":
                        # A compile before the lease (:mod:`.compile_ahead`): a crash or hang now is
                        # this subgraph's, in this step, with the per-subgraph limit from here.
                        current, phase, started = ev["subgraph"], ev["phase"], time.monotonic()
                    elif kind == "start":
                        current, phase, started = ev["subgraph"], "start", time.monotonic()
                        profiling = None
                    elif kind == "profile_start":
                        profiling, started = ev["subgraph"], time.monotonic()
                    elif kind == "profile":
                        run.profiles[ev["subgraph"]] = _profile_fields(ev)
                        profiling = None
                    elif kind == "phase":
                        phase = ev["phase"]
                    elif kind == "measured":
                        measured[ev["subgraph"]] = ev
                    elif kind == "result":
                        run.results[ev["subgraph"]] = ev
                        current = None
                    elif kind == "task_error":
                        run.task_errors[ev["subgraph"]] = ev
                        current = None
                    elif kind == "sandbox":
                        run.sandbox = ev.get("applied", [])
                    elif kind == "done":
                        run.max_rss_kb = max(run.max_rss_kb, int(ev.get("max_rss_kb", 0)))
                        # Everything is reported: end the group now rather than wait for the
                        # interpreter's teardown (and Inductor's compile-worker pool) to finish.
                        _end(proc)
                if proc.poll() is not None:
                    events, offset = _read_events(events_path, offset)
                    for ev in events:
                        if gate is not None:
                            _lease_step(gate, ev)
                        if ev.get("event") == "result":
                            run.results[ev["subgraph"]] = ev
                            current = None
                        elif ev.get("event") == "task_error":
                            run.task_errors[ev["subgraph"]] = ev
                            current = None
                        elif ev.get("event") == "profile":
                            run.profiles[ev["subgraph"]] = _profile_fields(ev)
                            profiling = None
                        elif ev.get("event") == "done":
                            run.max_rss_kb = max(run.max_rss_kb, int(ev.get("max_rss_kb", 0)))
                    break
                if (current is not None or profiling is not None or awaiting_go) and time.monotonic() - started > timeout_s:
                    timed_out = True
                    phase = phase or ("start-up" if awaiting_go else None)
                    _end(proc)
                    break
                time.sleep(0.05)
        finally:
            unregister(proc)
            if gate is not None:
                gate.release()  # the worker ended (or died): whatever it held is released, nothing else
                if proc.stdin is not None:
                    try:
                        proc.stdin.close()
                    except OSError:  # the worker is gone: nothing to tell it
                        pass
        done = set(run.results) | set(run.task_errors)
        remaining = [i for i in remaining if i not in done]
        if profiling is not None and current is None:
            # The result is in; only its profile is lost. Carry on with the rest, blaming nobody.
            how = f"exceeded the {timeout_s:.0f} s limit" if timed_out else f"the worker died ({_describe_exit(proc.returncode)})"
            run.profiles[profiling] = {"error": f"profiling {how}; the subgraph's result is unaffected"}
            continue
        if not remaining:
            break
        victim = current if current is not None else remaining[0]
        if (phase or "").startswith("heldout_shape") and victim not in measured and request.get("heldout_ahead", True) \
                and request.get("compile_before_lease"):
            # It broke compiling a held-out shape before the lease (:mod:`.compile_ahead`), before
            # anything was measured: once more without that, so it is measured first and then fails
            # the held-out step under the lease, as it would have without compiling ahead.
            request = {**request, "heldout_ahead": False}
            continue
        tail = _crash_report(log_path, request["pass_files"])
        if timed_out:
            cls = "timeout"
            msg = f"exceeded the {timeout_s:.0f} s limit per subgraph during step '{phase}'; the worker was killed"
        else:
            how = _describe_exit(proc.returncode)
            if phase in _COMPILE_PHASES:
                cls, msg = "compile", f"the worker died ({how}) while {phase.replace('_', ' ')}"
            elif proc.returncode == -signal.SIGKILL:
                cls, msg = "runtime", f"the worker was killed ({how}), most likely out of memory, during step '{phase}'"
            else:
                cls, msg = "runtime", f"the worker died ({how}) during step '{phase}'"
        if victim in measured and (phase or "").startswith("heldout_shape"):
            # The measurement stands; the candidate broke on a shape it was not measured on.
            run.results[victim] = {**measured[victim], "event": "result", "failure_class": "integrity",
                                   "integrity_rule": "shape_special_case",
                                   "message": f"integrity rule 'shape_special_case': {msg}", "traceback": tail}
            run.results[victim].get("times", {}).pop("candidate", None)
        else:
            run.failed[victim] = (cls, msg, tail)
        remaining.remove(victim)
    return run


def worker_command(request_path: Path) -> list[str]:
    """The command line of one worker process (a fresh interpreter running :mod:`..inspection.match_entry`)."""
    return [sys.executable, "-m", "passagent.tools.inspection.match_entry", str(request_path)]


def _lease_step(gate: LeaseGate, ev: dict[str, Any]) -> None:
    """Record a worker event's device time on the held lease; release it after the last device step."""
    kind = ev.get("event")
    if kind == "device_setup":
        gate.add_in_lease({"device_setup": float(ev.get("seconds", 0.0))})
    elif kind == "result" and isinstance(ev.get("phase_s"), dict):
        gate.add_in_lease(ev["phase_s"])
    elif kind == "device_done":
        gate.release()


def _profile_fields(ev: dict[str, Any]) -> dict[str, Any]:
    return {k: ev[k] for k in ("time", "inductor", "candidate", "error") if k in ev}


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Kill the worker's group and reap it."""
    kill_group(proc.pid)
    proc.wait()
