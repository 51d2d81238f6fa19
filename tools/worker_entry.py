"""Entry point of the evaluation worker process: confine it first, then run the worker.

Deliberately imports neither torch nor the worker at module level: Landlock confines the
calling thread and whatever it starts afterwards, so it must be applied while the process is
still single-threaded, before torch's import can start thread pools.

Run as ``python -m passagent.tools.worker_entry REQUEST.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[1]).read_text())
    from .sandbox import apply_resource_limits, restrict_writes

    applied: list[str] = []
    box = request.get("sandbox")
    if box:
        applied += apply_resource_limits(
            address_space_bytes=box.get("address_space_bytes"),
            cpu_seconds=box.get("cpu_seconds"),
            open_files=box.get("open_files"),
            file_size_bytes=box.get("file_size_bytes"),
        )
        applied.append("writes: " + restrict_writes([Path(p) for p in box["writable_dirs"]]))
        applied.append("network: " + box.get("network", "not isolated"))
    if request.get("mode") == "match":  # where passes match, no Inductor (passagent coverage)
        from .match_worker import MatchWorker

        MatchWorker(request, sandbox=applied).run()
        return 0
    from .worker import Worker

    Worker(request, sandbox=applied).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
