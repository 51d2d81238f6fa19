"""Entry point of the evaluation worker process: confine it first, then run the worker.

Deliberately imports neither torch nor the worker at module level: Landlock confines the
calling thread and whatever it starts afterwards, so it must be applied while the process is
still single-threaded, before torch's import can start thread pools.

Run as ``python -m passagent.tools.worker_entry REQUEST.json``, or, pre-started
(:mod:`.standby`), as ``python -m passagent.tools.worker_entry --standby SPEC.json``: confined by
the spec's sandbox at once, then the imports, then it reads its request's path from standard input.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any


def confine(box: dict[str, Any] | None) -> list[str]:
    """Apply a request's ``sandbox`` entry (resource limits, write confinement, the network note)."""
    from .sandbox import apply_resource_limits, restrict_writes

    applied: list[str] = []
    if box:
        applied += apply_resource_limits(
            address_space_bytes=box.get("address_space_bytes"),
            cpu_seconds=box.get("cpu_seconds"),
            open_files=box.get("open_files"),
            file_size_bytes=box.get("file_size_bytes"),
        )
        applied.append("writes: " + restrict_writes([Path(p) for p in box["writable_dirs"]]))
        applied.append("network: " + box.get("network", "not isolated"))
    return applied


def run_request(request: dict[str, Any], applied: list[str]) -> int:
    if request.get("mode") == "match":  # where passes match, no Inductor (passagent coverage)
        from .match_worker import MatchWorker

        MatchWorker(request, sandbox=applied).run()
        return 0
    from .worker import Worker

    Worker(request, sandbox=applied).run()
    return 0


def standby(spec_path: str) -> int:
    """Confine, import, report ready, wait for a request path on standard input, run it.

    The spec (written by :class:`.standby.StandbyPool`) is the sandbox every request it may
    receive shares, without the CPU-time limit (it depends on the request's subgraph count):
    that limit is applied when the request arrives, plus the CPU time the imports used. A
    request whose sandbox differs otherwise is refused (the parent never sends one: the pool
    is keyed by it).
    """
    spec = json.loads(Path(spec_path).read_text())
    box = spec.get("sandbox")
    applied = confine(box)
    from .worker import preload

    preload(spec["device_type"])
    Path(spec["ready_path"]).write_text(json.dumps({"ready": time.time()}))
    line = sys.stdin.readline()
    if not line.strip():
        return 0  # the parent is gone or closed the pool: nothing to run
    request = json.loads(Path(line.strip()).read_text())
    wanted = dict(request.get("sandbox") or {})
    cpu_seconds = wanted.pop("cpu_seconds", None)
    if wanted != (box or {}):
        sys.stderr.write("standby worker: the request's sandbox is not the one this worker was started with\n")
        return 3
    if cpu_seconds is not None:
        import resource

        used = resource.getrusage(resource.RUSAGE_SELF)
        from .sandbox import apply_resource_limits

        spent = int(used.ru_utime + used.ru_stime) + 1
        applied = [ln for ln in applied if not ln.startswith("RLIMIT_CPU")]
        applied += apply_resource_limits(cpu_seconds=int(cpu_seconds) + spent)
    applied.append("pre-started: confined before its imports, then handed this request")
    return run_request(request, applied)


def main(argv: list[str]) -> int:
    if len(argv) > 2 and argv[1] == "--standby":
        return standby(argv[2])
    request = json.loads(Path(argv[1]).read_text())
    return run_request(request, confine(request.get("sandbox")))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
