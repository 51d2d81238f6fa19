"""Shared fixtures: where ``../shared`` is, an isolated cache for evaluations, GPU skipping."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from helpers import SHARED


@pytest.fixture(scope="session", autouse=True)
def _shared_data_present() -> None:
    if not SHARED.is_dir():
        pytest.exit(f"../shared not found at {SHARED}; set PASSAGENT_SHARED", returncode=2)


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
