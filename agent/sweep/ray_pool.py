"""The Ray backend of ``passagent sweep`` (``--backend ray``): the same runs on a Ray cluster.

Each run is a Ray task that starts the same worker process as the local backend
(:mod:`.worker`) on whichever node Ray picks, so resumability, the run folders and the
stop behaviour are identical. The scheduler (budgets, skipping finished runs, the progress
view) stays in the driver. Requirements on a cluster of several machines: ``--out`` on a
filesystem every node mounts at the same path (the run folders and the device locks live
there; locks are per host, ``locks/<hostname>/``, since ``cuda:0`` of each host is its own
device), and passagent installed in the same Python on every node.

Ray's own GPU accounting is not used for the devices: runs request only CPUs, so several runs
per GPU overlap their model calls, while each evaluation leases its device through the lock
folder, exactly as on one machine.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _run_in_ray(spec: dict[str, Any], log: str) -> int:
    """Body of the Ray task: run the worker process, stop it if the task is cancelled."""
    Path(log).parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "passagent.agent.sweep.worker", json.dumps(spec)],
                                stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    _pid_file(log).write_text(json.dumps({"host": socket.gethostname(), "pid": proc.pid}))
    try:
        while proc.poll() is None:
            time.sleep(0.2)  # a short sleep, not wait(): ray.cancel's KeyboardInterrupt lands here
        return int(proc.returncode)
    except BaseException:
        proc.terminate()  # SIGTERM: the worker kills its evaluation workers and exits; resumable
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        raise
    finally:
        _pid_file(log).unlink(missing_ok=True)


def _pid_file(log: str | Path) -> Path:
    """Where a Ray task records its run process (host and pid), next to the run's log."""
    return Path(f"{log}.pid")


class RayExecutor:
    """:class:`~passagent.agent.sweep.runner.Executor` on Ray.

    Args:
        address: a running cluster (``ray://host:10001``, ``host:6379``, ``auto``); None: connect to
            the local one if there is one, else start one for this sweep (shut down at the end).
        num_cpus: CPUs of a cluster started here (None: all).
        cpus_per_run: CPUs Ray reserves for each run (its placement; the run uses what it needs).

    Raises:
        PassagentError: ray is not installed.
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None, cpus_per_run: float = 1.0):
        try:
            import ray
        except ImportError:
            from ...tools.errors import PassagentError

            raise PassagentError("--backend ray needs ray: pip install 'passagent[sweep]' (or pip install ray)") from None
        self.ray = ray
        self.owned = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address is None:
                kwargs["num_cpus"] = num_cpus
            ray.init(address=address, **kwargs)
            self.owned = True
        self.remote = ray.remote(num_cpus=cpus_per_run, max_retries=0)(_run_in_ray)
        self._logs: dict[str, Path] = {}

    def start(self, spec: dict[str, Any], log: Path) -> Any:
        handle = self.remote.remote(spec, str(log))
        self._logs[handle.hex()] = Path(log)
        return handle

    def poll(self, handle: Any) -> int | None:
        ready, _ = self.ray.wait([handle], timeout=0)
        if not ready:
            return None
        self._logs.pop(handle.hex(), None)
        try:
            return int(self.ray.get(handle))
        except Exception:  # noqa: BLE001  (a Ray-level failure: the scheduler reads the folder)
            return 1

    def stop(self, handle: Any) -> None:
        """Cancel the run's task; if Ray's cancellation has not ended it within 30 s and its run
        process is on this host, SIGTERM that process (the worker kills its evaluations and exits,
        resumable), after which the task ends by itself."""
        self.ray.cancel(handle)
        ready, _ = self.ray.wait([handle], timeout=30)
        log = self._logs.pop(handle.hex(), None)
        if ready or log is None:
            return
        # Ray interrupts a running task by raising KeyboardInterrupt in its Python code, which
        # was seen not to land at all on a loaded machine; a run left going would finish or take
        # a device lease after the sweep has stopped.
        try:
            where = json.loads(_pid_file(log).read_text())
        except (OSError, ValueError):
            return
        if where.get("host") == socket.gethostname():
            try:
                os.kill(int(where["pid"]), signal.SIGTERM)
            except ProcessLookupError:
                pass
            self.ray.wait([handle], timeout=30)

    def close(self) -> None:
        if self.owned:
            self.ray.shutdown()
