"""Entry point of a sandboxed worker process of ``passagent coverage`` (where passes match), and
the confinement every evaluation process applies first (:func:`confine`, also used by
:mod:`..evaluation.serve`).

Deliberately imports neither torch nor the worker at module level: Landlock confines the calling
thread and whatever it starts afterwards, so it must be applied while the process is still
single-threaded, before torch's import can start thread pools.

Run as ``python -m passagent.tools.inspection.match_entry REQUEST.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..process.sandbox import confine


def run_request(request: dict[str, Any], applied: list[str]) -> int:
    """Run a request: where passes match (``mode: match``, :mod:`.match_stage`, for
    ``passagent coverage``). Evaluations run in the clean-room processes (:mod:`..evaluation.serve`)."""
    if request.get("mode") != "match":
        sys.stderr.write("worker_entry runs match requests only; evaluations use passagent.tools.evaluation.serve\n")
        return 2
    from .match_stage import MatchWorker

    MatchWorker(request, sandbox=applied).run()
    return 0


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[1]).read_text())
    return run_request(request, confine(request.get("sandbox")))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
