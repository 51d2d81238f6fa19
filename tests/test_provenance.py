"""The code identity recorded with benchmark results (``tools/provenance.py``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from passagent.tools.provenance import source_identity, source_sha256


def make_tree(root: Path) -> None:
    for rel, text in {"tools/a.py": "x = 1\n", "agent/b.py": "y = 2\n", "benchmarks/c.py": "z = 3\n",
                      "tests/t.py": "ignored\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_the_digest_follows_source_bytes_and_paths_only(tmp_path: Path) -> None:
    make_tree(tmp_path)
    first = source_sha256(tmp_path)
    assert len(first) == 64 and source_sha256(tmp_path) == first
    (tmp_path / "tests" / "t.py").write_text("changed\n")  # not a source folder
    (tmp_path / "tools" / "__pycache__").mkdir()
    (tmp_path / "tools" / "__pycache__" / "a.cpython-311.py").write_text("cache\n")
    assert source_sha256(tmp_path) == first
    (tmp_path / "tools" / "a.py").write_text("x = 2\n")
    edited = source_sha256(tmp_path)
    assert edited != first
    (tmp_path / "tools" / "a.py").rename(tmp_path / "tools" / "renamed.py")  # same bytes, other path
    assert source_sha256(tmp_path) not in (first, edited)


def test_identity_without_git_has_the_digest_and_no_commit(tmp_path: Path) -> None:
    make_tree(tmp_path)
    assert source_identity(tmp_path) == {"source_sha256": source_sha256(tmp_path), "git_commit": None, "dirty": None}


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_identity_in_a_checkout_names_the_commit_and_whether_tracked_files_changed(tmp_path: Path) -> None:
    make_tree(tmp_path)

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, text=True).stdout.strip()

    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    head = git("rev-parse", "HEAD")
    assert source_identity(tmp_path) == {"source_sha256": source_sha256(tmp_path), "git_commit": head, "dirty": False}
    (tmp_path / "agent" / "b.py").write_text("y = 3\n")
    assert source_identity(tmp_path)["dirty"] is True
