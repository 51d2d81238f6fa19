"""Shared fixtures: where ``../shared`` is, an isolated cache for evaluations, GPU skipping."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from helpers import SHARED


def pytest_configure(config: pytest.Config) -> None:
    # Before collection: test modules read the shared data when they are imported, and a
    # missing folder must be one line, not a wall of collection errors.
    if not (SHARED / "data").is_dir():
        pytest.exit(f"the shared data (real graphs and PassBench tasks) is missing: no {SHARED / 'data'}; "
                    "put the project's shared/ folder beside this repository or set PASSAGENT_SHARED", returncode=2)


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
