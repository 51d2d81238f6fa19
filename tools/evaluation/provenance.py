"""Which passagent code produced a result: a digest of the harness, agent, benchmark, built-in task
and prompt files, and the git commit where the checkout has one.

A GPU machine may get a copy of the working tree without ``.git`` (this project's device runs do),
so the digest, not the commit, is what identifies the code everywhere; the commit is recorded
where it can be read, and ``dirty`` says whether tracked files differed from it.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path
from typing import Any

#: The checkout root (``passagent`` is installed from this folder, ``package-dir {"passagent": "."}``).
ROOT = Path(__file__).resolve().parents[2]
#: Folders whose files make up the code a result depends on: the harness, the agent, the
#: benchmark scripts, the built-in tasks (``bench/``) and the prompt templates.
SOURCE_DIRS = ("tools", "agent", "benchmarks", "bench", "prompts")
#: The file types counted in them (sources, templates, model tables, task data and manifests).
SOURCE_SUFFIXES = (".py", ".j2", ".toml", ".json", ".txt")
#: Left out: measurements kept in the repository are results, not code (adding one must not
#: change the identity of the code that produced it).
EXCLUDED_DIRS = ("benchmarks/results",)
#: Files at the root that are part of the package.
ROOT_FILES = ("__init__.py", "pyproject.toml")


def source_files(root: Path = ROOT) -> list[Path]:
    """The files :func:`source_sha256` reads under ``root``, sorted by path (``__pycache__`` and
    :data:`EXCLUDED_DIRS` left out). Missing folders or root files are skipped."""
    excluded = [root / d for d in EXCLUDED_DIRS]
    files = [p for d in SOURCE_DIRS for p in (root / d).rglob("*")
             if p.suffix in SOURCE_SUFFIXES and p.is_file() and "__pycache__" not in p.parts
             and not any(p.is_relative_to(e) for e in excluded)]
    files += [root / f for f in ROOT_FILES if (root / f).is_file()]
    return sorted(files)


def source_sha256(root: Path = ROOT) -> str:
    """SHA-256 (64 hex digits) over :func:`source_files` of ``root``: each file's path relative to
    ``root`` and its bytes, length-prefixed, in path order (so a rename changes it too).

    Raises FileNotFoundError when ``root`` holds none of those files (a wrong root would otherwise
    give the digest of nothing), OSError when a file cannot be read."""
    files = source_files(root)
    if not files:
        raise FileNotFoundError(f"{root}: none of {', '.join(SOURCE_DIRS)} holds source files; not a passagent checkout")
    h = hashlib.sha256()
    for path in files:
        rel = path.relative_to(root).as_posix().encode()
        data = path.read_bytes()
        h.update(len(rel).to_bytes(8, "little") + rel + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def _git(root: Path, *args: str) -> str | None:
    """``git -C root args`` stdout, or None if git is missing, fails or takes over 10 s."""
    try:
        out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def source_identity(root: Path = ROOT) -> dict[str, Any]:
    """The code at ``root`` (a passagent checkout or copy of one):

    - ``source_sha256``: :func:`source_sha256`;
    - ``git_commit``: HEAD's 40-hex commit, or None (no ``.git`` there, no git, or git failed);
    - ``dirty``: whether any tracked file of the checkout (any file, a README edit included)
      differs from that commit; None where that cannot be read (no commit, or ``git status`` failed).

    Runs up to two ``git`` subprocesses (10 s limit each). Raises what :func:`source_sha256` raises."""
    commit = _git(root, "rev-parse", "HEAD") if (root / ".git").exists() else None
    status = _git(root, "status", "--porcelain", "--untracked-files=no") if commit else None
    return {"source_sha256": source_sha256(root), "git_commit": commit,
            "dirty": None if status is None else bool(status)}
