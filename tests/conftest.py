"""Shared fixtures: where ``../shared`` is, an isolated cache for evaluations, GPU skipping."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
# pytest imports the checkout's root package (it has an __init__.py: pyproject's package-dir maps
# passagent to ".") under the checkout folder's own name when the first test is set up. Where that
# name is a library Dynamo never traces (THIRDPARTY_SKIPLIST in torch/_dynamo/trace_rules.py:
# "tree", "numpy", "pandas"...), Dynamo, if it reads that list only afterwards, finds the checkout
# under that name, adds it to its skip directories, and every in-process compile of a file in it
# (the built-in tasks' model.py) then runs eagerly without reaching its backend. Dynamo reads the
# list once, when trace_rules is imported: importing it here, before any test, keeps the checkout
# out of it whatever the folder is called.
import torch._dynamo.trace_rules
from helpers import REPO, SHARED


def pytest_configure(config: pytest.Config) -> None:
    # Before collection: test modules read the shared data when they are imported, and a
    # missing folder must be one line, not a wall of collection errors.
    if not (SHARED / "data").is_dir():
        pytest.exit(f"the shared data (real graphs and PassBench tasks) is missing: no {SHARED / 'data'}; "
                    "put the project's shared/ folder beside this repository or set PASSAGENT_SHARED", returncode=2)


@pytest.fixture(scope="session", autouse=True)
def checkout_is_traced_by_dynamo() -> None:
    """Fail at once, with the reason, where Dynamo would skip this checkout's files anyway."""
    check_file = getattr(torch._dynamo.trace_rules, "check_file", None)
    verdict = check_file(str(REPO / "bench" / "tasks" / "model.py")) if check_file is not None else None
    if verdict is not None and verdict.skipped:
        pytest.exit(f"Dynamo skips every file in this checkout ({verdict.reason}), so in-process compiles "
                    f"would never reach their backend; the checkout's folder is named {REPO.name!r}: "
                    "clone or copy it into a folder of another name", returncode=2)


@pytest.fixture(scope="session")
def cache_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the whole session: baselines and Inductor artifacts are shared by tests."""
    return tmp_path_factory.mktemp("passagent-cache")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA device")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
