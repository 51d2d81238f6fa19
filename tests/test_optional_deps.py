"""A missing optional dependency is a one-line error naming the extra, before anything is written."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from passagent.agent.export.build import export_runs
from passagent.agent.report.build import write_report
from passagent.tools.errors import PassagentError, require_module


def _hide(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a, **k: None if n == name else real(n, *a, **k))


def test_require_module_names_the_extra() -> None:
    require_module("json", "sweep", "anything")  # present: no error
    with pytest.raises(PassagentError, match=r"pip install 'passagent\[bench\]' \(or else\)"):
        require_module("passagent_no_such_module", "bench", "a test", "or else")


def test_report_without_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _hide(monkeypatch, "matplotlib")
    with pytest.raises(PassagentError, match=r"matplotlib.*passagent\[sweep\].*--no-plots"):
        write_report(tmp_path)
    assert not (tmp_path / "report").exists()  # nothing half-written


def test_parquet_export_without_pyarrow(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _hide(monkeypatch, "pyarrow")
    with pytest.raises(PassagentError, match=r"Parquet export needs pyarrow.*passagent\[sweep\]"):
        export_runs(tmp_path, "parquet")
    assert not (tmp_path / "export-parquet").exists()
