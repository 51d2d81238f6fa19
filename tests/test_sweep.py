"""``passagent sweep``: task selectors, the scheduler (skip, resume, budgets), the real thing end to end.

The end-to-end test runs the built-in policy and a scripted model on five real GraphNet samples,
kills the whole sweep with SIGKILL mid-way, reruns it, and checks that finished runs were left
alone, unfinished ones resumed, and that the report of the sweep holds what it should.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import GRAPHNET, PASSBENCH, make_sample
from sweep_fixtures import assert_no_overlap, evaluated_sweep, evaluation_intervals, quitter_script

from passagent.agent.sweep.selectors import SelectorError, select_tasks
from passagent.agent.sweep.worker import UNFINISHED_RC
from passagent.agent.sweep.runner import (EVAL_SEED_STRIDE, SweepBudgets, SweepSpec, parse_devices, plan_runs, run_spec,
                                   run_sweep)

FIVE = ["hf__UAE-Large-V1", "torchgeometric__MetaPath2Vec", "hf__google__tapas-base-masklm",
        "hf__squeezebert_squeezebert-uncased", "hf__sadhaklal_mlp-iris"]


# --- selectors ----------------------------------------------------------------------------------


@pytest.fixture
def fake_builtin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for the shipped built-in tasks: three manifest rows and their folders."""
    import passagent.tools.tasks.builtin as bt

    root = tmp_path / "bench"
    rows = [{"id": "task_000", "category": "fusible", "op_sequence": ["linear", "relu", "linear"]},
            {"id": "task_001", "category": "sole", "op_sequence": ["cat", "normalize"]},
            {"id": "task_002", "category": "fusible", "op_sequence": ["getitem", "cat"]}]
    for r in rows:
        make_sample(root / "tasks", r["id"], "return (x + 1,)", {"x": ([2, 2], "float32")})
    (root / "manifest.json").write_text(json.dumps({"tasks": rows}))
    monkeypatch.setattr(bt, "BUILTIN_ROOT", root)
    return root


def ids(sel) -> list[str]:
    return [t.id for t in select_tasks(sel)]


def test_selectors_on_builtin_ids_ranges_categories_and_ops(fake_builtin: Path, tmp_path: Path) -> None:
    assert ids("task_001") == ["task_001"]
    assert ids("task_000-task_001") == ["task_000", "task_001"]
    assert ids("task_001-task_099") == ["task_001", "task_002"], "ids missing from a range are left out"
    assert ids("all") == ["task_000", "task_001", "task_002"]
    assert ids("category:fusible") == ["task_000", "task_002"]
    assert ids("category:fus*,category:sole") == ["task_000", "task_001", "task_002"]
    assert ids("op:cat") == ["task_001", "task_002"]
    assert ids("ops:linear>relu") == ["task_000"]
    with pytest.raises(SelectorError, match="matches no task"):
        select_tasks("ops:relu>linear>relu")
    assert ids(["task_000-task_002", "category:fusible", "op:cat"]) == ["task_002"], "kinds are AND-ed"
    listing = tmp_path / "ids.txt"
    listing.write_text("# picked by hand\ntask_002\ntask_000  # trailing comment\n")
    assert ids(f"@{listing}") == ["task_002", "task_000"]
    for bad, why in [("task_042", "no such built-in"), ("task_050-task_060", "no built-in task"),
                     ("category:nope", "matches no task"), ("op:", "no value"), ("@/no/such/file", "selector file")]:
        with pytest.raises(SelectorError, match=why):
            select_tasks(bad)


def test_selectors_on_folders_globs_and_their_operator_sequences() -> None:
    refs = select_tasks(f"{GRAPHNET}/hf__sadhaklal_mlp-*")
    assert [r.id for r in refs] == ["hf__sadhaklal_mlp-california-housing", "hf__sadhaklal_mlp-iris"]
    assert all(Path(r.spec).is_absolute() for r in refs)
    assert ids([f"{GRAPHNET}/hf__sadhaklal_mlp-*", "ops:linear>relu>linear"]) == [
        "hf__sadhaklal_mlp-california-housing", "hf__sadhaklal_mlp-iris"]
    assert ids([f"{GRAPHNET}/*", "ops:getitem>cat"]) == ["hf__UAE-Large-V1"]
    with pytest.raises(SelectorError, match="category"):
        select_tasks([f"{GRAPHNET}/hf__sadhaklal_mlp-iris", "category:fusible"])
    with pytest.raises(SelectorError, match="share the task id '1'"):
        select_tasks(f"{PASSBENCH}/*/graphs/1")
    with pytest.raises(SelectorError, match="not a task id"):
        select_tasks("/no/such/folder*")


# --- the scheduler, with a fake executor (no processes) ------------------------------------------


class FakeExecutor:
    """Writes a finished run folder at once: config.json, events with a cost, result.json."""

    def __init__(self, cost: float = 0.5, calls: int = 2):
        self.cost, self.calls = cost, calls
        self.started: list[tuple[str, bool]] = []

    def start(self, spec: dict, log: Path) -> int:
        self.started.append((spec["key"], spec["resume"]))
        d = Path(spec["sweep_dir"]) / spec["key"]
        d.mkdir(parents=True, exist_ok=True)
        (d / "config.json").write_text(json.dumps({"task_id": spec["key"].split("/")[0], "model": {
            "base_name": spec["model_spec"], "sweep_seed": spec["seed"]}, "eval_options": spec["eval_options"]}))
        with open(d / "events.jsonl", "a") as fh:
            for k in range(self.calls):
                fh.write(json.dumps({"id": f"s{k}:model", "seq": k + 1, "kind": "model_response",
                                     "usage": {"cost_usd": self.cost / self.calls, "input_tokens": 10, "output_tokens": 5}}) + "\n")
        (d / "result.json").write_text(json.dumps({"task_id": spec["key"].split("/")[0], "model": spec["model_spec"],
                                                   "exit_reason": "finished", "best_as": 1.5}))
        return 0

    def poll(self, handle: int) -> int:
        return handle

    def stop(self, handle: int) -> None:
        pass

    def close(self) -> None:
        pass


def _fake_spec(tmp_path: Path, **kw) -> SweepSpec:
    tasks = [{"spec": str(tmp_path / f"t{i}"), "id": f"t{i}"} for i in range(3)]
    return SweepSpec(sweep_id="fake", models=["m1", "m2"], tasks=tasks, **kw)


def test_scheduler_skips_finished_runs_and_resumes_partial_ones(tmp_path: Path) -> None:
    spec = _fake_spec(tmp_path)
    names = {"m1": "m1", "m2": "m2"}
    done = tmp_path / "fake" / "t0" / "m1"
    done.mkdir(parents=True)
    (done / "config.json").write_text("{}")
    (done / "result.json").write_text(json.dumps({"task_id": "t0", "model": "m1", "exit_reason": "finished", "best_as": 2.0}))
    partial = tmp_path / "fake" / "t1" / "m2"
    partial.mkdir(parents=True)
    (partial / "config.json").write_text("{}")
    broken = tmp_path / "fake" / "t2" / "m1"
    broken.mkdir(parents=True)
    (broken / "config.json").write_text("{not json")
    fake = FakeExecutor()
    outcome = run_sweep(spec, tmp_path, workers=2, executor=fake, model_names=names, poll_s=0)
    started = dict(fake.started)
    assert "t0/m1" not in started, "a finished run is never redone"
    assert started["t1/m2"] is True, "a started run is resumed from its checkpoint"
    assert started["t2/m1"] is False and (tmp_path / "fake" / "t2" / "m1.corrupt-1").is_dir(), \
        "an unreadable run is set aside and started again"
    assert outcome.total == 6 and outcome.finished == 6 and outcome.skipped == 1 and outcome.stop_reason is None
    status = json.loads((tmp_path / "fake" / "sweep_status.json").read_text())
    assert status["runs"]["t0/m1"] == "finished"


class OutageExecutor(FakeExecutor):
    """Run ``t1/m1`` stops as a worker does when the model service stays overloaded: its folder
    keeps config.json and events (no result.json) and the worker exits 75; other runs finish."""

    def __init__(self, outage: bool):
        super().__init__()
        self.outage = outage

    def start(self, spec: dict, log: Path) -> int:
        if not (self.outage and spec["key"] == "t1/m1"):
            return super().start(spec, log)
        self.started.append((spec["key"], spec["resume"]))
        d = Path(spec["sweep_dir"]) / spec["key"]
        d.mkdir(parents=True, exist_ok=True)
        (d / "config.json").write_text(json.dumps({"task_id": "t1", "model": {"base_name": "m1"}}))
        (d / "events.jsonl").write_text(json.dumps({"id": "s0:unavailable:0", "seq": 1, "kind": "model_unavailable",
                                                    "step": 0, "error": "still overloaded"}) + "\n")
        return UNFINISHED_RC


def test_a_run_stopped_by_a_model_outage_is_unfinished_not_failed_and_the_rerun_resumes_it(tmp_path: Path) -> None:
    names = {"m1": "m1", "m2": "m2"}
    spec = _fake_spec(tmp_path)
    outcome = run_sweep(spec, tmp_path, workers=2, executor=OutageExecutor(outage=True), model_names=names, poll_s=0)
    assert outcome.failed == [] and outcome.finished == 5 and outcome.interrupted == 1
    status = json.loads((tmp_path / "fake" / "sweep_status.json").read_text())
    assert status["runs"]["t1/m1"] == "interrupted"
    assert not (tmp_path / "fake" / "t1" / "m1" / "result.json").exists(), "never scored"
    again = OutageExecutor(outage=False)
    outcome = run_sweep(spec, tmp_path, workers=2, executor=again, model_names=names, poll_s=0)
    assert again.started == [("t1/m1", True)], "only the unfinished run runs again, resumed from its checkpoint"
    assert outcome.finished == 6 and outcome.failed == []


def test_global_budgets_stop_the_sweep_and_a_rerun_continues(tmp_path: Path) -> None:
    names = {"m1": "m1", "m2": "m2"}
    spec = _fake_spec(tmp_path, budgets=SweepBudgets(budget_usd=1.0))
    fake = FakeExecutor(cost=0.5)
    outcome = run_sweep(spec, tmp_path, workers=1, executor=fake, model_names=names, poll_s=0)
    assert outcome.stop_reason == "budget_usd" and outcome.finished == 2 and outcome.not_started == 4
    assert abs(outcome.spend.cost_usd - 1.0) < 1e-9 and outcome.spend.calls == 4
    # The spend is read back from the folders: the same budget starts nothing more.
    again = run_sweep(spec, tmp_path, workers=1, executor=FakeExecutor(), model_names=names, poll_s=0)
    assert again.stop_reason == "budget_usd" and again.finished == 2
    more = spec.model_copy(update={"budgets": SweepBudgets(max_calls=8)})
    third = run_sweep(more, tmp_path, workers=1, executor=FakeExecutor(), model_names=names, poll_s=0)
    assert third.stop_reason == "max_calls" and third.finished == 4 and third.skipped == 2
    wall = spec.model_copy(update={"budgets": SweepBudgets(max_wall_s=1e-9)})
    assert run_sweep(wall, tmp_path, executor=FakeExecutor(), model_names=names, poll_s=0).stop_reason == "wall_time"


def test_seeds_name_the_run_folders_and_offset_the_input_draws(tmp_path: Path) -> None:
    spec = _fake_spec(tmp_path, seeds=2, devices=parse_devices("0,1"))
    runs = plan_runs(spec, tmp_path, {"m1": "scripted:a", "m2": "builtin"})
    keys = [r.key for r in runs]
    assert keys[:2] == ["t0/scripted_a", "t0/builtin"] and "t0/builtin+s1" in keys and len(keys) == 12
    s1 = run_spec(spec, tmp_path, runs[-1], resume=False)
    assert s1["seed"] == 1 and s1["eval_options"]["seed"] == EVAL_SEED_STRIDE
    assert s1["eval_options"]["device_pool"] == ["cuda:0", "cuda:1"] and "locks" in s1["eval_options"]["lock_dir"]
    assert parse_devices(None) == ["cpu"] and parse_devices("cuda:3,cpu") == ["cuda:3", "cpu"]


def test_seeded_client_names_seeds_and_sets_a_sampling_seed() -> None:
    from passagent.agent.providers import ScriptedModel
    from passagent.agent.providers.config import ModelEntry
    from passagent.agent.sweep.worker import SeededClient

    base = ScriptedModel([], name="scripted:x")
    assert SeededClient(base, 0, 1).name == "scripted:x"
    wrapped = SeededClient(base, 2, 3)
    assert wrapped.name == "scripted:x+s2" and wrapped.config()["base_name"] == "scripted:x"

    class Compat:  # stands in for an OpenAI-compatible client (only its entry matters here)
        name = "compat:m"
        priced = True
        entry = ModelEntry(provider="compat", model="m", base_url="http://localhost:1/v1", seed=10)

    c = Compat()
    SeededClient(c, 2, 3)
    assert c.entry.seed == 12


def test_progress_view_renders_per_model_counts_spend_and_scores(tmp_path: Path) -> None:
    from rich.console import Console

    from passagent.agent.run.runstate import Tally
    from passagent.agent.sweep.runner import SweepState
    from passagent.agent.sweep.view import SweepView, model_rows

    spec = _fake_spec(tmp_path)
    runs = plan_runs(spec, tmp_path, {"m1": "m1", "m2": "m2"})
    state = SweepState(spec, runs, status={runs[0].key: "finished", runs[1].key: "running"},
                       results={runs[0].key: {"best_as": 1.25}}, tallies={runs[0].key: Tally(calls=3, cost_usd=0.25)})
    rows = {r["model"]: r for r in model_rows(state)}
    assert rows["m1"]["finished"] == 1 and rows["m1"]["best_as"] == 1.25 and rows["m1"]["cost_usd"] == 0.25
    assert rows["m2"]["running"] == 1 and rows["m2"]["best_as"] is None
    buf = io.StringIO()
    with SweepView(len(runs), "sweep fake", Console(file=buf, force_terminal=True, width=120)) as view:
        view.update(state)
    assert "m1" in buf.getvalue() and "1.250" in buf.getvalue() and "1.2500" not in buf.getvalue()


# --- real runs -----------------------------------------------------------------------------------


def _sweep_cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "passagent.agent.cli.app", "sweep", *args, "--quiet"]


def test_cli_budget_stop_exits_75_with_a_clear_message_and_rerun_finishes(tmp_path: Path, cache_root: Path) -> None:
    script = quitter_script(tmp_path)
    tasks = f"{GRAPHNET}/hf__UAE-Large-V1,{GRAPHNET}/torchgeometric__MetaPath2Vec"
    base = ["--tasks", tasks, "--out", str(tmp_path / "runs"), "--sweep-id", "b", "--workers", "1",
            "--cache-dir", str(cache_root)]
    first = subprocess.run(_sweep_cli("--models", f"scripted:{script}", *base, "--max-calls", "2"),
                           capture_output=True, text=True, timeout=600)
    assert first.returncode == 75, first.stderr  # unfinished, resumable (docs/cli.md)
    assert "global budget reached (max_calls)" in first.stderr and "--sweep-id b" in first.stderr
    finished = list((tmp_path / "runs" / "b").rglob("result.json"))
    assert len(finished) <= 1
    second = subprocess.run(_sweep_cli("--sweep-id", "b", "--out", str(tmp_path / "runs"), "--max-calls", "100"),
                            capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    assert len(list((tmp_path / "runs" / "b").rglob("result.json"))) == 2


def test_evaluations_of_a_local_sweep_take_turns_on_the_device(tmp_path_factory, cache_root: Path) -> None:
    sweep_dir = evaluated_sweep(tmp_path_factory, cache_root)
    intervals = evaluation_intervals(sweep_dir)
    assert len(intervals) == 2, intervals
    from passagent.tools.process.device_lease import busy_profile, read_leases

    # The device steps take turns: the leases (held from the first device step to the last
    # never overlap, while the evaluations' start-ups may (docs/evaluation.md, the device lease).
    leases = read_leases(sweep_dir)
    assert len(leases) == 2 and {r["device"] for r in leases} == {"cpu"}
    assert_no_overlap([(r["start"], r["end"], r["task"]) for r in leases])
    assert busy_profile(leases)["max_per_device"] == {"cpu": 1}
    assert all(r["lease_scope"] == "device" and "start_up" in r["before_lease_s"] for r in leases)


def _snapshot(run: Path) -> dict:
    return {name: ((run / name).stat().st_mtime_ns, (run / name).read_bytes()) for name in ("result.json", "events.jsonl")}


@pytest.mark.slow
def test_two_models_five_tasks_killed_and_resumed_then_reported(tmp_path: Path, cache_root: Path) -> None:
    pytest.importorskip("matplotlib")
    script = quitter_script(tmp_path)
    out = tmp_path / "runs"
    tasks = ",".join(str(GRAPHNET / name) for name in FIVE)
    args = _sweep_cli("--models", f"builtin,scripted:{script}", "--tasks", tasks, "--out", str(out), "--sweep-id", "e2e",
                      "--workers", "2", "--cache-dir", str(cache_root), "--timing-budget", "0.05", "--max-steps", "20")
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    sweep = out / "e2e"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        done = [p.parent for p in sweep.rglob("result.json")]
        started = [p.parent for p in sweep.rglob("config.json") if not (p.parent / "result.json").exists()]
        if len(done) >= 3 and started:
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its run processes: nothing gets to clean up
    proc.wait()
    finished = {p.parent: _snapshot(p.parent) for p in sweep.rglob("result.json")}
    partial = {p.parent: (p.parent / "events.jsonl").read_text().splitlines()
               for p in sweep.rglob("config.json") if not (p.parent / "result.json").exists()}
    assert 3 <= len(finished) < 10 and partial

    rerun = subprocess.run(_sweep_cli("--sweep-id", "e2e", "--out", str(out), "--workers", "2"),
                           capture_output=True, text=True, timeout=900)
    assert rerun.returncode == 0, rerun.stderr
    assert f"10/10 runs finished ({len(finished)} already were)" in rerun.stderr
    for run, snap in finished.items():
        assert _snapshot(run) == snap, f"{run} was redone"
    for run, before in partial.items():
        after = (run / "events.jsonl").read_text().splitlines()
        kept = max(len(before) - 1, 0)  # the last line may be cut mid-write; a run killed before its first event has none
        assert after[:kept] == before[:kept], f"{run} was restarted, not resumed"
    results = [json.loads(p.read_text()) for p in sweep.rglob("result.json")]
    assert len(results) == 10 and {r["model"] for r in results} == {"builtin", "scripted:quitter"}
    assert all(r["exit_reason"] == "finished" for r in results)

    rep = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", "report", str(sweep), "--bootstrap", "200"],
                         capture_output=True, text=True, timeout=300)
    assert rep.returncode == 0, rep.stderr
    report = sweep / "report"
    md = (report / "leaderboard.md").read_text()
    assert "| builtin | 5 (" in md and "| scripted:quitter | 5 (0 with a pass) | 0.100 [0.100, 0.100]" in md
    import csv

    rows = {r["model"]: r for r in csv.DictReader(open(report / "leaderboard.csv"))}
    # Default Inductor is a row of its own, scored from the evaluations the runs made (PassNet's comparison).
    assert set(rows) == {"builtin", "scripted:quitter", "Inductor (default)"} and rows["builtin"]["tasks"] == "5"
    assert float(rows["scripted:quitter"]["as_eager"]) == pytest.approx(0.1)
    assert len(list(csv.DictReader(open(report / "per_task.csv")))) == 10
    for png in ("es_curves.png", "speedups.png", "score_vs_cost.png"):
        data = (report / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, png


def test_a_sweep_over_two_stand_in_devices_logs_one_lease_per_evaluation(tmp_path: Path, cache_root: Path) -> None:
    """``cpu:0,cpu:1`` stand in for two GPUs: each evaluation leases one slot, runs on the CPU,
    and its lease (slot, times, task, pass digest) is in the sweep's lease log."""
    from passagent.agent.run.loop import SolveConfig
    from passagent.agent.sweep.runner import prepare
    from passagent.tools.process.device_lease import busy_profile, read_leases
    from sweep_fixtures import fast_options, solver_script, tiny_tasks

    assert parse_devices("cpu:0,cpu:1") == ["cpu:0", "cpu:1"]
    out = tmp_path / "runs"
    task = tiny_tasks(tmp_path / "tasks")[0]
    spec = prepare(out, "two", [f"scripted:{solver_script(tmp_path)}"], select_tasks([str(task)]), seeds=2,
                   devices=parse_devices("cpu:0,cpu:1"), solve_config=SolveConfig(max_steps=10),
                   eval_options=fast_options(cache_root))
    outcome = run_sweep(spec, out, workers=2)
    assert outcome.finished == 2 and not outcome.failed, outcome
    evaluations = [e["evaluation"] for p in (out / "two").rglob("events.jsonl") for e in map(json.loads, p.read_text().splitlines())
                   if e.get("kind") == "tool_result" and e.get("evaluation")]
    leases = read_leases(out / "two")
    assert len(evaluations) == len(leases) == 2
    assert sorted((r["task"], r["pass_sha256"]) for r in leases) == sorted((e["task_id"], e["pass_sha256"]) for e in evaluations)
    assert {r["device"] for r in leases} <= {"cpu:0", "cpu:1"} and {e["config"]["device"] for e in evaluations} == {"cpu"}
    assert all(n == 1 for n in busy_profile(leases)["max_per_device"].values())


def test_a_sweeps_timing_budget_keeps_each_devices_own_timing_defaults() -> None:
    # --timing-budget used to become TimingConfig(budget_s=...), the CPU's defaults, for every
    # device of the pool: on a GPU that dropped the confidence-interval rule and graph replays.
    import dataclasses

    from passagent.agent.cli.sweep import eval_options_from_args
    from passagent.tools.measure.timing import TimingConfig

    args = {"baseline": "eager", "timing_budget": 3.0, "cache_dir": None, "integrity_mode": "permissive"}
    options = eval_options_from_args(args)
    assert options.timing is None and options.timing_budget_s == 3.0
    on_gpu = dataclasses.replace(options, device="cuda:1").timing_config()  # as after a lease of cuda:1
    assert on_gpu == dataclasses.replace(TimingConfig.for_device("cuda"), budget_s=3.0)
    assert on_gpu.target_ci == 0.005 and on_gpu.graph_replay and on_gpu.min_calls == 100
    on_cpu = options.timing_config()
    assert on_cpu == TimingConfig(budget_s=3.0) and on_cpu.target_ci is None
    assert eval_options_from_args({**args, "timing_budget": None}).timing_config() == TimingConfig.for_device("cpu")
    with pytest.raises(ValueError, match="timing budget must be > 0"):
        eval_options_from_args({**args, "timing_budget": 0.0})
