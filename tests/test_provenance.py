"""The code identity recorded with benchmark results (``tools/evaluation/provenance.py``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from passagent.tools.evaluation.provenance import ROOT, source_files, source_identity, source_sha256


def make_tree(root: Path) -> None:
    for rel, text in {"tools/a.py": "x = 1\n", "agent/models.toml": "[m]\n", "benchmarks/c.py": "z = 3\n",
                      "bench/tasks/t1/graphs/0/model.py": "g\n", "prompts/p.j2": "{{ x }}\n", "__init__.py": "",
                      "tests/t.py": "ignored\n", "benchmarks/results/r.json": "{}\n", "README.md": "ignored\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_the_digest_covers_code_tasks_and_prompts_not_tests_results_or_docs(tmp_path: Path) -> None:
    make_tree(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in source_files(tmp_path)] == [
        "__init__.py", "agent/models.toml", "bench/tasks/t1/graphs/0/model.py", "benchmarks/c.py", "prompts/p.j2", "tools/a.py"]
    first = source_sha256(tmp_path)
    assert len(first) == 64 and source_sha256(tmp_path) == first
    for rel in ("tests/t.py", "benchmarks/results/r.json", "README.md"):  # not code: no change
        (tmp_path / rel).write_text("changed\n")
    (tmp_path / "tools" / "__pycache__").mkdir()
    (tmp_path / "tools" / "__pycache__" / "a.cpython-311.py").write_text("cache\n")
    assert source_sha256(tmp_path) == first
    seen = {first}
    for rel in ("bench/tasks/t1/graphs/0/model.py", "prompts/p.j2", "tools/a.py"):  # each one changes it
        (tmp_path / rel).write_text("edited\n")
        assert source_sha256(tmp_path) not in seen
        seen.add(source_sha256(tmp_path))
    (tmp_path / "tools" / "a.py").rename(tmp_path / "tools" / "renamed.py")  # same bytes, other path
    assert source_sha256(tmp_path) not in seen


def test_a_folder_without_sources_is_an_error_not_the_digest_of_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not a passagent checkout"):
        source_sha256(tmp_path)
    assert len(source_files(ROOT)) > 100  # this checkout: harness, agent and the built-in tasks


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
    (tmp_path / "README.md").write_text("edited\n")  # any tracked file makes the checkout dirty
    assert source_identity(tmp_path)["dirty"] is True
