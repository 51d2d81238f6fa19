"""``passagent report --html``: default Inductor scored like a candidate, the AS ratio to it, and
the static site (pages, links, trajectory contents). Browser checks are in test_report_browser.py.

Inductor's scores are checked against ES(t) values worked out by hand from SCORING.md's rules;
the site is checked on the session's real scripted sweep and on synthetic run folders written in
the format the loop records (benchmarks/report_html_load.py)."""

from __future__ import annotations

import csv
import importlib.util
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sweep_fixtures import evaluated_sweep

from passagent.agent.report.build import collect, leaderboard, write_report
from passagent.agent.report.html.trajectory import load_trajectory
from passagent.agent.report.inductor import INDUCTOR_MODEL
from passagent.tools.evaluation.results import inductor_outcome, inductor_task_scores
from passagent.tools.evaluation.schema import ErrorStats, EvalResult, SubgraphResult, Timing
from passagent.tools.measure.scoring import AS_WEIGHTS, ScoringConfig

ROOT = Path(__file__).resolve().parents[1]
B = 0.1


def _load_bench():
    spec = importlib.util.spec_from_file_location("report_html_load", ROOT / "benchmarks" / "report_html_load.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _t(us: float, p10: float | None = None) -> Timing:
    return Timing(median_us=us, q1_us=us, q3_us=us, n=10, p10_us=p10)


def _sg(i: int, eager: float, inductor: float | None, ind_t: int | None, p10=(None, None)) -> SubgraphResult:
    times = {"eager": _t(eager, p10[0])}
    if inductor is not None:
        times["inductor"] = _t(inductor, p10[1])
    return SubgraphResult(index=i, name=f"g{i}", source="m", dtypes=["float32"], status="compile", times=times,
                          inductor_error=ErrorStats(min_correct_t=ind_t, max_abs=0.0, max_rel=0.0) if inductor else None)


def _as(es: dict[int, float]) -> float:
    return 10 ** (sum(AS_WEIGHTS[t] * math.log10(v) for t, v in es.items()) / sum(AS_WEIGHTS.values()))


def test_inductor_is_scored_like_a_candidate_from_its_own_times_and_correctness() -> None:
    subs = [_sg(0, 100.0, 50.0, -6),    # 2x, correct from t = -6
            _sg(1, 100.0, 200.0, -3),   # 0.5x, correct only from t = -3 (accuracy below)
            _sg(2, 100.0, None, None)]  # Inductor raised: compile failure, tolerated from t = 3
    scores = inductor_task_scores(subs, ScoringConfig(failure_penalty=B))
    g = lambda *v: math.exp(sum(math.log(x) for x in v) / len(v))  # noqa: E731
    expected = {t: g(2.0 if t >= -6 else B, 0.5 if t >= -3 else B, 1.0 if t >= 3 else B) for t in range(-10, 5)}
    assert scores.baseline == "eager"
    for t in range(-10, 5):
        assert scores.es[t] == pytest.approx(expected[t]), t
    assert scores.aggregated == pytest.approx(_as(expected))
    assert scores.correct_at_minus5 == pytest.approx(1 / 3) and scores.fast_1 == pytest.approx(1 / 3)
    assert inductor_outcome(subs[2]).failure_class == "compile" and inductor_outcome(subs[1]).failure_class == "accuracy"
    # Inductor's speedup recorded by the score's estimator (median of per-round ratios) wins over
    # the ratio of medians; without it, the evaluation's time statistic decides (p10: 100/25 = 4x).
    recorded = _sg(0, 100.0, 50.0, -6).model_copy(update={"inductor_speedup_vs_eager": 2.5})
    assert inductor_outcome(recorded).speedup == pytest.approx(2.5)
    p10 = _sg(0, 100.0, 50.0, -6, p10=(100.0, 25.0))
    assert inductor_outcome(p10, "p10").speedup == pytest.approx(4.0)
    assert inductor_outcome(p10, "median").speedup == pytest.approx(2.0)


def _run(bench, root: Path, task: str, model: str, as_: float | None, inductor_x: float, seed: int = 0) -> Path:
    """A finished run whose best evaluation scores AS ``as_`` and where Inductor is ``inductor_x``
    times faster than eager and correct everywhere (so Inductor's AS is ``inductor_x``);
    ``as_=None``: the run evaluated nothing."""
    import json
    import random

    d = bench.synthetic_run(root / task / f"{model}+s{seed}", task, model, random.Random(0), 4, 2)
    events = [json.loads(x) for x in (d / "events.jsonl").read_text().splitlines()]
    result = json.loads((d / "result.json").read_text())
    for e in events:
        if e.get("evaluation"):
            ev = e["evaluation"]
            for s in ev["subgraphs"]:
                s.update(status="correct", failure_class=None, integrity_rule=None, message=None)
                s["times"]["inductor"] = dict(s["times"]["eager"], median_us=s["times"]["eager"]["median_us"] / inductor_x)
                s["inductor_error"]["min_correct_t"] = -10
            ev["scores"]["aggregated"] = e["aggregated"] = as_ or 0.1
            EvalResult.model_validate(ev)
    result.update(best_as=as_, best_version=2 if as_ else None, best_scores=events[-2]["evaluation"]["scores"] if as_ else None,
                  evaluations=2 if as_ else 0)
    if as_ is None:
        events = [e for e in events if not e.get("evaluation")]
    cfg = json.loads((d / "config.json").read_text())
    cfg["model"]["sweep_seed"] = seed
    (d / "config.json").write_text(json.dumps(cfg))
    (d / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    (d / "result.json").write_text(json.dumps(result))
    return d


def test_leaderboard_has_inductor_and_each_models_ratio_to_it(tmp_path: Path) -> None:
    bench = _load_bench()
    _run(bench, tmp_path, "t1", "model-a", 2.0, inductor_x=4.0)   # ratio 0.5, from its own evaluation
    _run(bench, tmp_path, "t2", "model-a", None, inductor_x=1.0)  # no pass: b / Inductor's AS on t2
    _run(bench, tmp_path, "t2", "model-b", 1.0, inductor_x=0.5)   # Inductor on t2: 0.5 -> ratio 2
    _run(bench, tmp_path, "t1", "model-b", 8.0, inductor_x=4.0, seed=0)
    _run(bench, tmp_path, "t1", "model-b", 2.0, inductor_x=2.0, seed=1)  # seeds: ratios 2 and 1
    collected = collect(tmp_path)
    assert len(collected.inductor_runs) == 4, "one Inductor record per evaluated run"
    rows = {r.model: r for r in leaderboard(collected.runs, n_boot=200, inductor_runs=collected.inductor_runs)}
    ind, a, b = rows[INDUCTOR_MODEL], rows["model-a"], rows["model-b"]
    assert ind.reference and not a.reference
    # Inductor's task AS: geometric mean over the runs that timed it (t1: 4, 4, 2; t2: 0.5).
    assert ind.task_as("t1") == pytest.approx((4 * 4 * 2) ** (1 / 3)) and ind.task_as("t2") == pytest.approx(0.5)
    assert ind.as_["eager"].value == pytest.approx(math.sqrt((4 * 4 * 2) ** (1 / 3) * 0.5))
    assert ind.correct.value == pytest.approx(1.0) and ind.ratio.value == pytest.approx(1.0)
    assert a.task_ratio == pytest.approx({"t1": 0.5, "t2": 0.1 / 0.5})
    assert a.ratio.value == pytest.approx(math.sqrt(0.5 * 0.2))
    assert b.task_ratio == pytest.approx({"t1": math.sqrt(2 * 1), "t2": 2.0})
    assert b.ratio.lo <= b.ratio.value <= b.ratio.hi

    written = write_report(tmp_path, n_boot=200, plots=False)
    md = written.leaderboard_md.read_text()
    assert "| **Inductor (default)** | 2 |" in md and "AS / AS(Inductor)" in md and "AS vs Inductor" not in md
    line = next(ln for ln in md.splitlines() if ln.startswith("| model-a |"))
    assert line.split(" | ")[3].startswith(f"{math.sqrt(0.1):.3f}")
    per_task = list(csv.DictReader(open(written.per_task_csv)))
    first = next(r for r in per_task if r["model"] == "model-a" and r["task_id"] == "t1")
    assert float(first["inductor_as"]) == pytest.approx(4.0) and float(first["as_ratio_to_inductor"]) == pytest.approx(0.5)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.refs.append(a[key])


def check_links(site: Path) -> int:
    """Every href/src of every page is relative and resolves to a file of the site (or an id of
    its page); returns how many links were checked."""
    checked = 0
    pages = {p: _Links() for p in site.rglob("*.html")}
    for p, parser in pages.items():
        parser.feed(p.read_text())
    for p, parser in pages.items():
        for ref in parser.refs:
            assert not re.match(r"^[a-z]+:", ref), f"{p.name}: absolute or network link {ref}"
            path, _, frag = ref.partition("#")
            target = (p.parent / path).resolve() if path else p
            assert target.is_file(), f"{p.relative_to(site)}: broken link {ref}"
            if frag and target in pages:
                assert frag in pages[target].ids, f"{p.relative_to(site)}: no #{frag} in {path or 'itself'}"
            checked += 1
    return checked


def test_site_of_a_real_sweep(tmp_path_factory, cache_root: Path, tmp_path: Path) -> None:
    sweep = evaluated_sweep(tmp_path_factory, cache_root)
    written = write_report(sweep, tmp_path / "report", n_boot=200, plots=False, html=True)
    site = written.html_index.parent
    index = written.html_index.read_text()
    for model in ("scripted:solver", "scripted:quitter", INDUCTOR_MODEL):
        assert f'data-model="{model}"' in index
    assert check_links(site) > 10
    run_pages = sorted((site / "runs").rglob("*.html"))
    assert len(run_pages) == 4 and len(list((site / "tasks").glob("*.html"))) == 2
    # Inductor's AS on the page is recomputed here from the solver's own recorded evaluation.
    solver = next(r for r in collect(sweep).runs if r.model == "scripted:solver" and r.task_id == "tiny_cat_norm")
    traj = load_trajectory(solver.path)
    ev_event = next(t for s in traj.steps for t in s.tools if t.evaluation)
    import json

    raw = next(json.loads(x) for x in (solver.path / "events.jsonl").read_text().splitlines() if '"evaluation"' in x)
    ind = inductor_task_scores(EvalResult.model_validate(raw["evaluation"]).subgraphs, ScoringConfig())
    assert solver.inductor_as == pytest.approx(ind.aggregated)
    page = (site / "runs" / "tiny_cat_norm" / "scripted_solver.html").read_text()
    assert f"default Inductor's AS {ind.aggregated:.3f}" in page and "AS / AS(Inductor) " in page
    assert '<span class="add">+def pattern(x):</span>' in page, "the first version's diff adds the pattern"
    assert "<svg" in page and 'id="step-1"' in page and ev_event.evaluation.rows[0].name in page
    task_page = (site / "tasks" / "tiny_cat_norm.html").read_text()
    assert "x: float32[4, 16]" in task_page, "shapes and dtypes from the task folder"
    assert "def replacement_func" in task_page, "the best pass's source"


def test_integrity_failures_and_errors_are_flagged_in_the_viewer(tmp_path: Path) -> None:
    bench = _load_bench()
    bench.synthetic_sweep(tmp_path / "sw", tasks=2, models=2, steps=6)
    import json

    with open(tmp_path / "sw" / "task_000" / "synthetic-0" / "events.jsonl", "a") as fh:  # model text is escaped
        fh.write(json.dumps({"id": "s6:model", "seq": 999, "kind": "model_response", "step": 6, "usage": {},
                             "response": {"message": {"role": "assistant", "content": "<script>alert(1)</script>"}}}) + "\n")
    written = write_report(tmp_path / "sw", n_boot=100, plots=False, html=True)
    site = written.html_index.parent
    flagged = (site / "runs" / "task_000" / "synthetic-0.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in flagged and "<script>alert" not in flagged
    assert 'class="step page-item flag-integrity" id="step-3"' in flagged
    assert "integrity failures at step(s)" in flagged and "timer_access" in flagged
    clean = (site / "runs" / "task_001" / "synthetic-1.html").read_text()
    assert "flag-integrity" not in clean
    traj = load_trajectory(tmp_path / "sw" / "task_000" / "synthetic-0")
    assert traj.integrity_steps == [3] and [p[0] for p in traj.as_points] == [1, 3, 5]
    assert check_links(site) > 0


def test_page_weight_does_not_grow_with_trajectories(tmp_path: Path) -> None:
    """The leaderboard holds one row per model and one cell per (task, model); trajectories are
    separate pages. Doubling the steps per run leaves the index and task pages' size unchanged."""
    bench = _load_bench()
    sizes = {}
    for steps in (4, 16):
        root = tmp_path / f"s{steps}"
        bench.synthetic_sweep(root / "sw", tasks=12, models=3, steps=steps)
        site = write_report(root / "sw", n_boot=100, plots=False, html=True).html_index.parent
        sizes[steps] = {"index": (site / "index.html").stat().st_size,
                        "task": (site / "tasks" / "task_000.html").stat().st_size,
                        "run": (site / "runs" / "task_000" / "synthetic-1.html").stat().st_size}
    assert abs(sizes[16]["index"] - sizes[4]["index"]) < 200
    assert sizes[16]["run"] > 2 * sizes[4]["run"], "the trajectory page does hold every step"
    assert sizes[16]["index"] < 60_000, "12 tasks x 3 models: a light leaderboard"


def test_a_second_report_leaves_no_page_of_the_first(tmp_path: Path) -> None:
    bench = _load_bench()
    bench.synthetic_sweep(tmp_path / "sw", tasks=2, models=1, steps=2)
    first = write_report(tmp_path / "sw", tmp_path / "rep", n_boot=100, plots=False, html=True).html_index.parent
    assert (first / "runs" / "task_001" / "synthetic-0.html").is_file()
    import shutil

    shutil.rmtree(tmp_path / "sw" / "task_001")
    (first / "notes.txt").write_text("mine")
    write_report(tmp_path / "sw", tmp_path / "rep", n_boot=100, plots=False, html=True)
    assert not (first / "runs" / "task_001").exists() and not (first / "tasks" / "task_001.html").exists()
    assert "task_001" not in (first / "index.html").read_text()
    assert (first / "notes.txt").read_text() == "mine", "files the report did not write are left alone"


def test_site_of_runs_without_events_or_evaluations(tmp_path: Path) -> None:
    """Runs whose events.jsonl is empty (result.json only): no Inductor row, pages still render."""
    from test_report import fake_run

    fake_run(tmp_path, "t1", "model-a", 2.0, 1.5, [("correct", 2.0, 1.5)])
    fake_run(tmp_path, "t2", "model-a", None)
    written = write_report(tmp_path / "sw", n_boot=100, plots=False, html=True)
    assert [r.model for r in written.rows] == ["model-a"], "no evaluation recorded: no Inductor row"
    site = written.html_index.parent
    assert "Steps (0)" in (site / "runs" / "t2" / "model-a.html").read_text()
    assert "AS / AS(Inductor)" in written.html_index.read_text()
    assert check_links(site) > 0
