"""Paths and small helpers shared by the tests (importable because pytest's pythonpath has tests/)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PASSAGENT_SHARED", REPO.parent / "shared"))
GRAPHNET = SHARED / "data" / "graphnet"
PASSBENCH = SHARED / "data" / "passbench" / "typical"
TEST_PASSES = Path(__file__).resolve().parent / "passes"
EXAMPLES = REPO / "examples" / "passes"


def passbench_task(prefix: str) -> Path:
    """The shared PassBench task folder whose hash starts with ``prefix``."""
    matches = sorted(PASSBENCH.glob(f"{prefix}*"))
    assert matches, f"no PassBench task {prefix}* under {PASSBENCH}"
    return matches[0]
