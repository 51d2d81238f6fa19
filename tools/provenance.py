"""Which passagent code produced a result: a digest of the harness and agent sources, and the git
commit where the checkout has one.

A GPU machine may get a copy of the working tree without ``.git`` (this project's device runs do),
so the digest, not the commit, is what identifies the code everywhere; the commit is recorded
where it can be read, and ``dirty`` says whether tracked files differed from it.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path
from typing import Any

#: The package root (``passagent`` is installed from this folder, ``package-dir {"passagent": "."}``).
ROOT = Path(__file__).resolve().parent.parent
#: The folders whose Python sources make up the harness and the agent (not the tests, not the tasks).
SOURCE_DIRS = ("tools", "agent", "benchmarks")


def source_sha256(root: Path = ROOT, dirs: tuple[str, ...] = SOURCE_DIRS) -> str:
    """SHA-256 (hex) over the ``*.py`` files under ``root/dir`` for each of ``dirs``: each file's
    path relative to ``root`` and its bytes, in sorted path order (so a rename changes it too).
    ``__pycache__`` is skipped. Raises OSError if a file cannot be read."""
    h = hashlib.sha256()
    files = sorted(p for d in dirs for p in (root / d).rglob("*.py") if "__pycache__" not in p.parts)
    for path in files:
        rel = path.relative_to(root).as_posix().encode()
        data = path.read_bytes()
        h.update(len(rel).to_bytes(8, "little") + rel + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def source_identity(root: Path = ROOT) -> dict[str, Any]:
    """``{"source_sha256": ..., "git_commit": str | None, "dirty": bool | None}`` for the code at
    ``root``: the digest of :func:`source_sha256`, the checkout's HEAD commit (None without git or
    a ``.git``), and whether tracked files differ from it (None where the commit is None)."""
    commit = _git(root, "rev-parse", "HEAD") if (root / ".git").exists() else None
    status = _git(root, "status", "--porcelain", "--untracked-files=no") if commit else None
    return {"source_sha256": source_sha256(root), "git_commit": commit,
            "dirty": None if status is None else bool(status)}
