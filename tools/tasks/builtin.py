"""Built-in benchmark tasks shipped with passagent (``task_000`` ...), resolved by id.

The tasks live in ``bench/tasks/<id>/`` of the package (PassNet task layout) with a manifest
``bench/manifest.json``; see ``passagent bench build`` for how they are produced.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: Folder holding the shipped tasks (inside the installed package).
BUILTIN_ROOT = Path(__file__).resolve().parents[2] / "bench"
_TASK_ID = re.compile(r"^task_\d{3,}$")


def builtin_tasks_dir() -> Path:
    """The folder with one sub-folder per built-in task."""
    return BUILTIN_ROOT / "tasks"


def resolve_builtin(task_id: str) -> Path | None:
    """The folder of built-in task ``task_id`` (``task_042``), or None if there is none."""
    if not _TASK_ID.match(task_id):
        return None
    path = builtin_tasks_dir() / task_id
    return path if path.is_dir() else None


def builtin_ids() -> list[str]:
    """The ids of the shipped built-in tasks, sorted."""
    root = builtin_tasks_dir()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and _TASK_ID.match(p.name)) if root.is_dir() else []


def nearest_ids(spec: str, n: int = 3) -> list[str]:
    """Up to ``n`` built-in ids that look like ``spec`` (``task_42`` -> ``task_042``; a typo'd
    id -> the closest by edit distance, :func:`difflib.get_close_matches`)."""
    import difflib

    ids = builtin_ids()
    digits = "".join(ch for ch in spec if ch.isdigit())
    if digits and spec.lower().startswith(("task", "t_", "t")):
        padded = f"task_{int(digits):03d}"
        if padded in ids:
            return [padded]
    return difflib.get_close_matches(spec, ids, n=n, cutoff=0.6)


def load_manifest() -> list[dict]:
    """The built-in manifest rows (one dict per task), or ``[]`` when none is shipped."""
    manifest = BUILTIN_ROOT / "manifest.json"
    if not manifest.is_file():
        return []
    return json.loads(manifest.read_text())["tasks"]
