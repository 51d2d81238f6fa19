"""``passagent report``: metrics per model from run folders, bootstrap intervals, bad folders, plots.

Most tests build run folders by hand (result.json / config.json / events.jsonl as ``solve``
writes them), so every number can be checked exactly; one reads the session's real sweep.
"""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from sweep_fixtures import evaluated_sweep

from passagent.agent.report.build import collect, leaderboard, write_report
from passagent.tools.errors import PassagentError

LEVELS = range(-10, 5)
pytest.importorskip("matplotlib")  # the `sweep` extra; the plots are part of every report here


def _scores(baseline: str, as_: float, correct: float, speedup: float | None, fast: float) -> dict:
    return {"baseline": baseline, "es": {str(t): as_ for t in LEVELS}, "s": {str(t): as_ for t in LEVELS},
            "aggregated": as_, "correct_at_minus5": correct, "geomean_speedup_correct": speedup, "fast_1": fast}


def fake_run(root: Path, task: str, model: str, as_eager: float | None, as_inductor: float | None = None,
             subgraphs: list[tuple[str, float | None, float | None]] = (), cost: float = 0.0, tokens: int = 0,
             seed: int = 0, b: float = 0.1) -> Path:
    """A finished run folder. ``as_eager=None``: the run never evaluated a pass."""
    name = model.replace(":", "_") + (f"+s{seed}" if seed else "")
    d = root / "sw" / task / name
    d.mkdir(parents=True)
    sgs = [{"name": f"g{i}", "status": st, "matches": 1, "speedup_vs_eager": se, "speedup_vs_inductor": si}
           for i, (st, se, si) in enumerate(subgraphs)]
    n = max(len(sgs), 1)
    correct = [s for s in sgs if s["status"] == "correct"]
    evaluated = as_eager is not None
    result = {
        "schema_version": "1.0", "run_id": "sw", "task_id": task, "model": model + (f"+s{seed}" if seed else ""),
        "exit_reason": "finished" if evaluated else "max_steps", "best_as": as_eager, "best_version": 1 if evaluated else None,
        "best_scores": _scores("eager", as_eager, len(correct) / n, None, 0.0) if evaluated else None,
        "best_other_scores": _scores("inductor", as_inductor, len(correct) / n, None, 0.0) if evaluated else None,
        "best_subgraphs": sgs if evaluated else None, "evaluations": int(evaluated), "steps": 4,
        "input_tokens": tokens // 2, "output_tokens": tokens - tokens // 2, "cost_usd": cost, "wall_s": 1.0,
    }
    config = {"run_id": "sw", "task_id": task, "model": {"name": result["model"], "base_name": model, "sweep_seed": seed},
              "eval_options": {"scoring": {"failure_penalty": b, "slowdown_penalty": 0.0}, "draws": 3}}
    (d / "result.json").write_text(json.dumps(result))
    (d / "config.json").write_text(json.dumps(config))
    (d / "events.jsonl").write_text("")
    return d


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    fake_run(tmp_path, "t1", "model-a", 2.0, 1.5, [("correct", 2.0, 1.5), ("correct", 2.0, 1.5)], cost=0.2, tokens=1000)
    fake_run(tmp_path, "t2", "model-a", 0.5, 0.25, [("correct", 8.0, 0.5), ("accuracy", None, None)], cost=0.4, tokens=3000)
    fake_run(tmp_path, "t1", "model-b", 4.0, 2.0, [("correct", 4.0, 2.0)], cost=1.0, tokens=500)
    fake_run(tmp_path, "t2", "model-b", None)  # gave up: counts as b
    # Two seeds of one task: the task's AS is their geometric mean.
    fake_run(tmp_path, "t1", "model-c", 1.0, 1.0, [("correct", 1.0, 1.0)])
    fake_run(tmp_path, "t1", "model-c", 4.0, 4.0, [("correct", 4.0, 4.0)], seed=1)
    return tmp_path / "sw"


def test_metrics_per_model_follow_the_documented_definitions(runs: Path) -> None:
    rows = {r.model: r for r in leaderboard(collect(runs).runs, n_boot=300)}
    a, b, c = rows["model-a"], rows["model-b"], rows["model-c"]
    assert a.tasks == 2 and a.runs == 2 and a.evaluated_tasks == 2
    assert a.as_["eager"].value == pytest.approx(1.0)                       # geomean(2, 0.5)
    assert a.as_["inductor"].value == pytest.approx(math.sqrt(1.5 * 0.25))
    assert a.correct.value == pytest.approx((1.0 + 0.5) / 2)                # averaged over tasks
    assert a.speedup["eager"].value == pytest.approx((2 * 2 * 8) ** (1 / 3))  # pooled correct subgraphs
    assert a.fast_1["eager"].value == pytest.approx((1.0 + 0.5) / 2)
    assert a.fast_1["inductor"].value == pytest.approx((1.0 + 0.0) / 2)     # 0.5x vs Inductor is not fast
    assert a.cost_per_task == pytest.approx(0.3) and a.tokens_per_task == pytest.approx(2000)
    assert b.as_["eager"].value == pytest.approx(math.sqrt(4.0 * 0.1)), "a run without a pass counts with b"
    assert b.evaluated_tasks == 1 and b.correct.value == pytest.approx(0.5)
    assert c.tasks == 1 and c.runs == 2 and c.as_["eager"].value == pytest.approx(2.0)
    assert b.es_curve["eager"][-5] == pytest.approx(math.sqrt(4.0 * 0.1))
    for m in (a.as_["eager"], a.correct, b.as_["eager"]):
        assert m.lo <= m.value <= m.hi
    assert b.as_["eager"].lo == pytest.approx(0.1) and b.as_["eager"].hi == pytest.approx(4.0)


def test_bootstrap_is_seeded_and_reproducible(runs: Path) -> None:
    first = [(r.model, r.as_["eager"].lo, r.as_["eager"].hi) for r in leaderboard(collect(runs).runs, 500, seed=3)]
    again = [(r.model, r.as_["eager"].lo, r.as_["eager"].hi) for r in leaderboard(collect(runs).runs, 500, seed=3)]
    assert first == again


def test_report_files_hold_the_leaderboard_and_skip_bad_folders(runs: Path) -> None:
    bad = runs / "t3" / "torn"
    bad.mkdir(parents=True)
    (bad / "result.json").write_text('{"task_id": "t3", "mod')           # half-written
    (runs / "t3" / "running").mkdir()
    (runs / "t3" / "running" / "config.json").write_text("{}")            # unfinished
    (runs / "t3" / "odd").mkdir()
    (runs / "t3" / "odd" / "result.json").write_text('{"task_id": "t3"}')  # fields missing
    (runs / "t3" / "typo").mkdir()
    (runs / "t3" / "typo" / "result.json").write_text(json.dumps(
        {"task_id": "t3", "model": "m", "exit_reason": "x", "best_as": 1.0, "best_scores": {"baseline": "eager"}}))
    written = write_report(runs, n_boot=200)
    skipped = "\n".join(written.skipped)
    assert "t3/torn: corrupt" in skipped and "t3/running: unfinished" in skipped
    assert "t3/odd: corrupt" in skipped and "t3/typo: corrupt" in skipped
    md = written.leaderboard_md.read_text()
    lines = [ln for ln in md.splitlines() if ln.startswith("| model-")]
    assert [ln.split(" | ")[0] for ln in lines] == ["| model-c", "| model-a", "| model-b"], "sorted by AS vs eager"
    assert "| model-a | 2 (2 with a pass) | 1.000 [" in md and "Skipped run folders (4)" in md
    rows = list(csv.DictReader(open(written.leaderboard_csv)))
    assert {r["model"] for r in rows} == {"model-a", "model-b", "model-c"}
    assert {"as_eager", "as_eager_lo", "as_eager_hi", "as_inductor_baseline", "as_ratio_to_inductor", "correct_at_minus5", "fast_1_eager",
            "fast_1_inductor", "geomean_speedup_correct_eager", "cost_usd_per_task", "tokens_per_task"} <= set(rows[0])
    assert len(list(csv.DictReader(open(written.per_task_csv)))) == 6
    assert [p.name for p in written.plots] == ["es_curves.png", "speedups.png", "score_vs_cost.png"]
    for p in written.plots:
        assert p.read_bytes()[:4] == b"\x89PNG"
    from matplotlib import image

    assert image.imread(written.plots[0]).shape[1] > 800, "a real figure, not an empty file"


def test_report_cli_on_a_folder_without_runs_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(PassagentError, match="no run folders"):
        write_report(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", "report", str(tmp_path / "nope")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "no such folder" in proc.stderr


def test_report_of_a_real_sweep(tmp_path_factory, cache_root: Path, tmp_path: Path) -> None:
    sweep = evaluated_sweep(tmp_path_factory, cache_root)
    written = write_report(sweep, tmp_path / "report", n_boot=200)
    rows = {r.model: r for r in written.rows}
    assert set(rows) == {"scripted:solver", "scripted:quitter", "Inductor (default)"}
    assert rows["Inductor (default)"].reference and rows["Inductor (default)"].tasks == 2, "timed by the solver's runs"
    solver, quitter = rows["scripted:solver"], rows["scripted:quitter"]
    assert solver.tasks == 2 and solver.evaluated_tasks == 2 and quitter.evaluated_tasks == 0
    assert quitter.as_["eager"].value == pytest.approx(0.1)
    assert solver.correct.value == pytest.approx(0.5), "the pass matches one of the two tasks"
    assert solver.speedup["eager"].value is not None and len(solver.es_curve["eager"]) == 15
    assert not written.skipped
