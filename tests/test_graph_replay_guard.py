"""``benchmarks/graph_replay_guard.py``: its summary and check on hand-made medians (the
measurement itself needs CUDA and runs on the H200, README "Timing")."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import torch

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "graph_replay_guard.py"


@pytest.fixture(scope="module")
def guard_bench():
    spec = importlib.util.spec_from_file_location(SCRIPT.stem, SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def result(loaded_guarded: list[float]) -> dict:
    """Two variants; idle medians 6 and 20 us whatever the guard, loaded unguarded 12 and 24 us,
    loaded guarded ``loaded_guarded`` (first variant; the second 20 us)."""
    def runs(a: list[float], b: float, dropped: int = 0) -> list[dict]:
        return [{"medians": {"small": x, "big": b}, "dropped": dropped, "guard_us": 50.0} for x in a]
    return {"variants": ["small", "big"], "runs": {
        "idle, guard off": runs([6.0, 6.2, 5.8], 20.0), "idle, guard on": runs([6.0, 6.1, 5.9], 20.0),
        "loaded, guard off": runs([12.0, 9.0, 14.0], 24.0), "loaded, guard on": runs(loaded_guarded, 20.0, dropped=2)}}


def test_summary_ratios_are_against_the_idle_guarded_medians(guard_bench) -> None:
    s = guard_bench.summarise(result([6.1, 6.0, 6.15]))
    t = s["table"]
    assert t["loaded, guard off"]["small"]["median"] == 12.0 and t["loaded, guard off"]["small"]["ratio"] == 2.0
    assert (t["loaded, guard off"]["small"]["min"], t["loaded, guard off"]["small"]["max"]) == (9.0, 14.0)
    assert t["loaded, guard off"]["big"]["ratio"] == pytest.approx(1.2)
    assert t["loaded, guard on"]["small"]["ratio"] == pytest.approx(6.1 / 6.0)
    assert t["loaded, guard on"]["small"]["dropped"] == 6  # 2 in each of 3 repeats
    assert s["worst_loaded_guarded_diff"] == pytest.approx(0.1 / 6.0) and s["check"] is True


def test_check_fails_when_the_guarded_loaded_median_drifts_past_3_percent(guard_bench) -> None:
    s = guard_bench.summarise(result([6.3, 6.25, 6.2]))  # median 6.25: +4.2%
    assert s["check"] is False and s["worst_loaded_guarded_diff"] == pytest.approx(0.25 / 6.0)
    text = guard_bench.markdown({"device": "test", "torch": "x", "cpus": 2, "load_procs": 4, "repeats": 3}, s)
    assert "| FAIL | worst 4.2% |" in text and "| loaded, guard off | small | 12.00 | 9.00 | 14.00 | 2.00 | - |" in text


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message given without CUDA")
def test_without_cuda_it_says_so_and_exits_2() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "--repeats", "1"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "needs CUDA" in proc.stderr
