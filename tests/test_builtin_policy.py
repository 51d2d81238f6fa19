"""The built-in policy's search, driven by evaluation texts as ``describe_eval`` writes them
(no compile): verdicts, what is kept and discarded, the evaluation budget, the summary."""

from __future__ import annotations

from typing import Any

import pytest

from passagent.agent.builtin import policy as policy_mod
from passagent.agent.builtin.drafts import RuleDraft
from passagent.agent.builtin.policy import BuiltinPolicy, _Exchange
from passagent.agent.builtin.verdicts import judge, read_verdict
from passagent.agent.run.condense import describe_eval, describe_ir
from passagent.tools.evaluation.schema import ErrorStats, EvalConfig, EvalResult, SubgraphResult, TaskScores, Timing


def scores(baseline: str, value: float) -> TaskScores:
    return TaskScores(baseline=baseline, es={-5: value}, s={-5: value}, aggregated=value, correct_at_minus5=1.0,
                      geomean_speedup_correct=value, fast_1=1.0)


def eval_text(as_eager: float, as_inductor: float, statuses: list[str], inductor_t: int = -6,
              ratio: float | None = None) -> str:
    return describe_eval(eval_result(as_eager, as_inductor, statuses, inductor_t, ratio=ratio))


def eval_result(as_eager: float, as_inductor: float, statuses: list[str], inductor_t: int = -6,
                eager_us: float = 10.0, ratio: float | None = None) -> EvalResult:
    """A result with AS ``as_eager`` against eager, ``as_inductor`` with speedups against Inductor,
    and default Inductor's own AS ``as_eager / ratio`` (``ratio`` defaults to ``as_inductor``: the
    pass as correct as Inductor)."""
    subgraphs = []
    for i, status in enumerate(statuses):
        t = Timing(median_us=10.0, q1_us=9.0, q3_us=11.0, p10_us=9.0, n=5)
        e = Timing(median_us=eager_us, q1_us=eager_us, q3_us=eager_us, p10_us=eager_us, n=5)
        subgraphs.append(SubgraphResult(
            index=i, name=f"sg{i}", source="m", dtypes=["float32"], status=status, matches=1,
            candidate_error=ErrorStats(min_correct_t=-6 if status == "correct" else 2, max_abs=0.0, max_rel=0.0),
            inductor_error=ErrorStats(min_correct_t=inductor_t, max_abs=0.0, max_rel=0.0),
            times={"eager": e, "inductor": t, "candidate": t}, speedup_vs_eager=as_eager, speedup_vs_inductor=as_inductor))
    result = EvalResult(task_id="t", task_path="p", pass_path="q", pass_sha256="0", config=EvalConfig(device="cpu"),
                        torch_version="x", device_name="cpu", subgraphs=subgraphs, scores=scores("eager", as_eager),
                        other_scores=scores("inductor", as_inductor),
                        inductor_scores=scores("eager", as_eager / (as_inductor if ratio is None else ratio)), wall_s=1.0)
    return result


def test_verdict_reads_both_baselines_and_regressions() -> None:
    v = read_verdict(eval_text(1.5, 1.2, ["correct", "accuracy"]))
    assert (v.score, v.vs_inductor, v.correct, v.total, v.regressions) == (1.5, 1.2, 1, 2, (1,))
    keep, why = judge(v, None)
    assert not keep and "subgraph(s) 1 where default Inductor is correct" in why


def test_a_failure_inductor_shares_is_not_a_regression() -> None:
    v = read_verdict(eval_text(1.5, 1.2, ["correct", "accuracy"], inductor_t=-3))  # Inductor fails t=-5 too
    assert v.regressions == () and judge(v, None)[0]


@pytest.mark.parametrize("as_eager, as_inductor, best, keep, phrase", [
    (1.30, 1.05, None, True, "AS 1.3000, AS / AS(Inductor) 1.0500"),
    (1.30, 0.97, None, False, "does not beat default Inductor (AS / AS(Inductor) 0.970"),
    (1.30, 1.05, 1.20, True, "+8.3%"),
    (1.205, 1.05, 1.20, False, "no gain"),
])
def test_judge(as_eager: float, as_inductor: float, best: float | None, keep: bool, phrase: str) -> None:
    ok, why = judge(read_verdict(eval_text(as_eager, as_inductor, ["correct"])), best)
    assert ok is keep and phrase in why


def test_the_first_rule_is_judged_by_the_ratio_of_the_two_AS_against_eager() -> None:
    # Faster than Inductor (speedup-only AS 1.08) but less accurate than Inductor's own outputs:
    # Inductor's AS against eager from the same timings is higher, so the pass does not beat it.
    text = eval_text(1.30, 1.08, ["correct"], ratio=0.91)
    assert "default Inductor AS = 1.4286, AS/AS(Inductor) = 0.9100" in text
    v = read_verdict(text)
    assert v.vs_inductor == pytest.approx(0.91)
    keep, why = judge(v, None)
    assert not keep and "AS / AS(Inductor) 0.910" in why
    # A text without Inductor's own AS (older results) falls back to the speedup-only AS.
    bare = eval_result(1.30, 1.08, ["correct"])
    bare.inductor_scores = None
    assert read_verdict(describe_eval(bare)).vs_inductor == pytest.approx(1.08)


def test_an_error_text_is_a_failed_evaluation() -> None:
    v = read_verdict("error: the pass has no rules yet")
    assert v.error and not judge(v, 1.0)[0]


def draft(name: str, family: str, recipe: str = "silu") -> RuleDraft:
    return RuleDraft(recipe, name, f"# {name}\n", f"rewrites {name}", family=family)


def history(evals: list[str]) -> list[_Exchange]:
    listing = "[0] sg0 (from m), dtypes float32\n    args: x: float32[4]\n    ops: mul -> sigmoid"
    ex = [_Exchange("list_subgraphs", {}, listing),
          _Exchange("inspect_ir", {"subgraph": 0, "view": "fx"}, "Subgraph [0] sg0 (from m) on cpu\n"),
          _Exchange("show_baseline", {"subgraph": 0}, "")]
    return ex + [_Exchange("evaluate_pass", {}, text) for text in evals]


def decide(monkeypatch: pytest.MonkeyPatch, drafts: list[RuleDraft], evals: list[str]) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    monkeypatch.setattr(BuiltinPolicy, "_drafts", staticmethod(lambda h, c, d: list(drafts)))
    return BuiltinPolicy()._decide(history(evals))


def test_search_keeps_winners_on_top_of_each_other_and_explains(monkeypatch: pytest.MonkeyPatch) -> None:
    drafts = [draft("B", "simplification", "single_cat"), draft("A", "library form"), draft("C", "library form")]
    # Library forms are tried before simplifications; A wins, C loses, B wins on top of A.
    text, calls = decide(monkeypatch, drafts, [])
    assert [c[0] for c in calls] == ["write_pass", "evaluate_pass"] and calls[0][1]["rule"] == "A"
    text, calls = decide(monkeypatch, drafts, [eval_text(1.3, 1.1, ["correct"])])
    assert "`A` [library form] kept: AS 1.3000, AS / AS(Inductor) 1.1000" in text and calls[0][1]["rule"] == "C" and "on top of 1 kept rule" in text
    text, calls = decide(monkeypatch, drafts, [eval_text(1.3, 1.1, ["correct"]), eval_text(1.2, 1.0, ["correct"])])
    assert "`C` [library form] discarded: no gain" in text
    assert calls[0] == ("delete_rule", {"rule": "C"}) and calls[1][1]["rule"] == "B"
    evals = [eval_text(1.3, 1.1, ["correct"]), eval_text(1.2, 1.0, ["correct"]), eval_text(1.5, 1.25, ["correct"])]
    text, calls = decide(monkeypatch, drafts, evals)
    [(name, args)] = calls
    assert name == "finish"
    summary = args["summary"]
    assert "`A` [library form]" in summary and "`B` [simplification]" in summary and "AS 1.3000 -> 1.5000" in summary
    assert "library form: 2 tried, 1 kept; lost: `C` [library form]: no gain" in summary
    assert "Kept by family: generated kernel: -; library form: A; simplification: B." in summary
    assert "generated kernel: not tried: generated Triton kernels run on CUDA devices only and this run is on cpu" in summary


def test_dtype_variants_of_a_generated_kernel_are_written_and_kept_together(monkeypatch: pytest.MonkeyPatch) -> None:
    # One region of a task with float32 and float16 subgraphs: two pass files that differ only in
    # the cast literal. Alone, each matches nothing in the other dtype's subgraphs (a compile
    # failure there); the policy writes both and evaluates them as one candidate.
    src = ("def pattern(x):\n    return x.to(torch.{})\n\n\ndef replacement_args(x):\n    return (x,)\n\n\n"
           "def replacement_func():\n    return fused_fusedkernel\n")
    k32 = RuleDraft("generated_kernel", "FusedKernel", src.format("float32"), "fuses", family="generated kernel")
    k16 = RuleDraft("generated_kernel", "FusedKernel_2", src.format("float16"), "fuses", family="generated kernel")
    drafts = [k32, draft("A", "library form"), k16]
    text, calls = decide(monkeypatch, drafts, [])
    assert [(c[0], c[1].get("rule")) for c in calls] == [("write_pass", "FusedKernel"), ("write_pass", "FusedKernel_2"),
                                                          ("evaluate_pass", None)]
    text, calls = decide(monkeypatch, drafts, [eval_text(1.3, 1.1, ["correct", "correct"]), eval_text(1.2, 1.0, ["correct"])])
    [(name, args)] = calls[1:]
    assert calls[0] == ("delete_rule", {"rule": "A"}) and name == "finish"
    assert "Kept `FusedKernel` [generated kernel], `FusedKernel_2` [generated kernel]: fuses (AS 1.300" in args["summary"]
    assert "Kept by family: generated kernel: FusedKernel, FusedKernel_2;" in args["summary"]


def test_cleanups_alone_are_named_not_evaluated(monkeypatch: pytest.MonkeyPatch) -> None:
    # Alone they change nothing Inductor compiles: an evaluation would be flagged no_change.
    drafts = [draft("Drop", "simplification", "eval_dropout"), draft("Cast", "simplification", "redundant_cast")]
    _, [(name, args)] = decide(monkeypatch, drafts, [])
    assert name == "finish"
    assert "Clean-ups that apply (eval_dropout, redundant_cast) were not evaluated" in args["summary"]
    assert "simplification: only clean-ups apply" in args["summary"] and "budget" not in args["summary"]
    assert "nothing was evaluated" in args["summary"]


def test_cleanups_are_tried_on_top_of_a_kept_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    drafts = [draft("Drop", "simplification", "eval_dropout"), draft("A", "library form")]
    _, calls = decide(monkeypatch, drafts, [eval_text(1.3, 1.1, ["correct"])])
    assert calls[0] == ("write_pass", {"rule": "Drop", "source": "# Drop\n"})


def test_nothing_applies_says_why_per_family(monkeypatch: pytest.MonkeyPatch) -> None:
    _, [(name, args)] = decide(monkeypatch, [], [])
    assert name == "finish"
    for phrase in ("library form: no match", "simplification: no match", "nothing was evaluated"):
        assert phrase in args["summary"]


def test_evaluation_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(policy_mod, "MAX_EVALUATIONS", 2)
    drafts = [draft(f"R{k}", "library form") for k in range(4)]
    losing = eval_text(0.9, 0.8, ["correct"])
    _, calls = decide(monkeypatch, drafts, [losing, losing])
    assert calls[-1][0] == "finish" and "R2" not in str(calls[:-1])
    assert "candidates found but not evaluated" not in calls[-1][1]["summary"]  # library form was tried


def test_policy_bench_reads_kept_rules_by_family_from_the_summary(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from passagent.agent.sweep import policy_bench as bench
    drafts = [draft("K", "generated kernel", "generated_kernel"), draft("A", "library form")]
    evals = [eval_text(1.3, 1.1, ["correct"]), eval_text(1.5, 1.3, ["correct"])]
    monkeypatch.setattr(BuiltinPolicy, "_device", staticmethod(lambda h: "cuda"))
    _, [(_, args)] = decide(monkeypatch, drafts, evals)
    families = bench.kept_families(tmp_path, args["summary"])
    assert families == {"generated kernel": ["K"], "library form": ["A"], "simplification": []}
    row = {"task": "t", "inductor_as": 1.2, "policy_as": 1.5, "ratio": 1.25, "families": families,
           "evaluations": 2, "wall_s": 3.0, "exit": "finished", "subgraphs": 2, "correct": 1, "inductor_correct": 2,
           "ratio_no_regression": 1.1}
    # A result carries Inductor's own AS (the harness fills it); older results get it recomputed.
    assert bench.inductor_as(eval_result(3.0, 1.5, ["correct"], ratio=1.2)) == pytest.approx(2.5)

    def recorded_without(inductor_t: int, eager_us: float = 10.0, speedup: float | None = 2.0) -> EvalResult:
        r = eval_result(3.0, 1.5, ["correct", "correct"], inductor_t, eager_us=eager_us)
        r.inductor_scores = None
        for sg in r.subgraphs:
            sg.inductor_speedup_vs_eager = speedup
        return r
    # Default Inductor scored like a pass: 2x eager on both subgraphs, correct at every level -> AS 2;
    # correct only from t=-3 on -> scored b = 0.1 at the stricter levels, so below 2.
    assert bench.inductor_as(recorded_without(-10)) == pytest.approx(2.0)
    assert bench.inductor_as(recorded_without(-3)) < 2.0
    # Without Inductor's recorded speedup, from the two times: 20 us / 10 us.
    assert bench.inductor_as(recorded_without(-10, eager_us=20.0, speedup=None)) == pytest.approx(2.0)
    text = bench.table([row])
    assert "| t | 1.200 | 1.500 | 1.250 | 1/2 / 2/2 | 1.100 | kernel: 1, library: 1 | 2 | 3 | finished |" in text
    assert "1/1 tasks with a pass evaluated" in text
    assert "policy 1/2, Inductor 2/2; 1 task(s) whose best version is correct on fewer subgraphs" in text
    # A regression is a t=-5 failure where Inductor is correct; the counts come from one evaluation.
    mixed = eval_result(1.3, 1.1, ["correct", "accuracy", "accuracy"])
    mixed.subgraphs[2].inductor_error.min_correct_t = -3  # Inductor fails t=-5 there too
    assert mixed.regressions() == [1] and bench.correct_count(mixed) == (1, 2)
    # The text a model reads names the regression and what it costs; the policy's reading is unchanged.
    text = describe_eval(mixed)
    assert "Regression: subgraph(s) 1 fail t=-5 where default Inductor is correct" in text
    assert read_verdict(text).regressions == (1,)
    assert "Regression:" not in describe_eval(eval_result(1.3, 1.1, ["correct"]))



def test_policy_bench_task_file_finds_the_shared_tasks_without_the_variable(monkeypatch: pytest.MonkeyPatch,
                                                                             tmp_path) -> None:
    """``$PASSAGENT_SHARED`` in a task list means ../shared beside the repository when unset, as in
    the rest of the project (the shipped lists name the two PassBench tasks that way)."""
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    from passagent.agent.sweep import policy_bench as bench
    monkeypatch.delenv("PASSAGENT_SHARED", raising=False)
    seen = []
    monkeypatch.setattr(bench, "bench_task", lambda task, *a: seen.append(task) or {
        "task": task, "inductor_as": 1.0, "policy_as": 1.0, "ratio": 1.0, "families": {}, "evaluations": 1,
        "wall_s": 0.0, "exit": "finished"})
    assert bench.main(["--tasks-file", str(repo / "benchmarks" / "tasks" / "policy_cpu.txt"), "--out", str(tmp_path)]) == 0
    shared = [t for t in seen if not t.startswith("task_")]
    assert len(shared) == 2 and len(seen) == 40
    assert all(Path(t).is_dir() and Path(t).parent == repo.parent / "shared" / "data" / "passbench" / "typical"
               for t in shared), shared


def test_policy_bench_spreads_tasks_over_gpus_one_child_each(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """``--gpus 0,1``: every task solved once, by a child process of the script that sees one GPU
    (as ``cuda``), rows in the list's order; a child that crashes gives the task an error row."""
    import json
    import subprocess
    import threading
    from pathlib import Path

    from passagent.agent.sweep import policy_bench as bench
    calls, lock = [], threading.Lock()

    def fake_run(cmd, env, **_kw):
        task, part = cmd[cmd.index("--tasks") + 1], Path(cmd[cmd.index("--json") + 1])
        with lock:
            calls.append((task, env["CUDA_VISIBLE_DEVICES"], cmd))
        if task == "task_bad":
            return subprocess.CompletedProcess(cmd, 1, "", "Traceback ...\nRuntimeError: CUDA error: out of memory\n")
        part.write_text(json.dumps([{"task": task, "inductor_as": 1.0, "policy_as": 1.2, "ratio": 1.2, "families": {},
                                     "evaluations": 2, "wall_s": 5.0, "exit": "finished"}]))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(bench.subprocess, "run", fake_run)
    tasks = ["task_000", "task_bad", "task_002", "task_003", "task_004"]
    out = tmp_path / "rows.json"
    assert bench.main(["--tasks", ",".join(tasks), "--device", "cuda", "--gpus", "0,1", "--max-wall", "60",
                       "--out", str(tmp_path / "runs"), "--json", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert [r["task"] for r in rows] == tasks and sorted(c[0] for c in calls) == sorted(tasks)
    assert {c[1] for c in calls} <= {"0", "1"}
    for _task, _gpu, cmd in calls:
        assert cmd[cmd.index("--device") + 1] == "cuda" and cmd[cmd.index("--max-wall") + 1] == "60.0"
        assert "--gpus" not in cmd  # a child solves its one task itself
    bad = rows[1]
    assert bad["exit"] == "error: exit 1" and bad["policy_as"] == 0.1 and "out of memory" in bad["summary"]
    with pytest.raises(SystemExit):  # each child sees its GPU as plain cuda
        bench.main(["--tasks", "task_000", "--device", "cuda:1", "--gpus", "0,1"])

def test_policy_bench_workers_share_one_device_lease_and_resume_keeps_finished_rows(monkeypatch: pytest.MonkeyPatch,
                                                                                   tmp_path) -> None:
    """``--workers 2`` on one device: two children at a time, both leasing that device from one lock
    folder (so only their device steps take turns); ``--resume`` solves only the tasks without a row
    (an error row counts as none); the JSON file holds every finished row after each task."""
    import json
    import subprocess
    import threading
    from pathlib import Path

    from passagent.agent.sweep import policy_bench as bench
    calls, running, peak, lock = [], [0], [0], threading.Lock()
    gate = threading.Barrier(2, timeout=10)  # the first two tasks must be in flight together
    out = tmp_path / "rows.json"

    def fake_run(cmd, env, **_kw):
        task, part = cmd[cmd.index("--tasks") + 1], Path(cmd[cmd.index("--json") + 1])
        with lock:
            calls.append((task, cmd))
            running[0] += 1
            peak[0] = max(peak[0], running[0])
            first_two = len(calls) <= 2
        if first_two:
            gate.wait()
        # the child's own options: what bench_task would evaluate with
        opts = bench.argparse.Namespace(**{k: cmd[cmd.index(f"--{k.replace('_', '-')}") + 1]
                                           for k in ("lease_pool", "lock_dir", "device")})
        part.write_text(json.dumps([{"task": task, "inductor_as": 1.0, "policy_as": 1.5, "ratio": 1.5, "families": {},
                                     "evaluations": 1, "wall_s": 1.0, "exit": "finished", "child": vars(opts)}]))
        with lock:
            running[0] -= 1
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(bench.subprocess, "run", fake_run)
    tasks = ["task_000", "task_001", "task_002", "task_003"]
    out.write_text(json.dumps([
        {"task": "task_001", "inductor_as": 1.0, "policy_as": 2.0, "ratio": 2.0, "families": {}, "evaluations": 3,
         "wall_s": 9.0, "exit": "finished"},
        {"task": "task_003", "inductor_as": None, "policy_as": 0.1, "ratio": None, "families": {}, "evaluations": 0,
         "wall_s": 0.0, "exit": "error: exit 137"}]))
    assert bench.main(["--tasks", ",".join(tasks), "--device", "cuda", "--workers", "2", "--resume",
                       "--out", str(tmp_path / "runs"), "--json", str(out)]) == 0
    assert sorted(c[0] for c in calls) == ["task_000", "task_002", "task_003"]  # task_001 kept, the error row re-run
    assert peak[0] == 2
    rows = json.loads(out.read_text())
    assert [r["task"] for r in rows] == tasks
    assert rows[1]["policy_as"] == 2.0 and rows[3]["exit"] == "finished"
    children = [r["child"] for r in rows if "child" in r]
    assert {c["lease_pool"] for c in children} == {"cuda"} and {c["device"] for c in children} == {"cuda"}
    assert len({c["lock_dir"] for c in children}) == 1  # one lock folder: one lease for the device
    # A child's own options carry the lease: its evaluations go through the device's gate.
    seen = {}
    monkeypatch.setattr(bench, "bench_task", lambda task, out_, options, config: seen.update(options=options) or {
        "task": task, "inductor_as": 1.0, "policy_as": 1.0, "ratio": 1.0, "families": {}, "evaluations": 1,
        "wall_s": 0.0, "exit": "finished"})
    locks = tmp_path / "locks"
    assert bench.main(["--tasks", "task_000", "--device", "cuda", "--lease-pool", "cuda", "--lock-dir", str(locks),
                       "--out", str(tmp_path / "runs")]) == 0
    assert seen["options"].device_pool == ["cuda"] and seen["options"].lock_dir == locks
    assert seen["options"].lease_scope == "device"
    with pytest.raises(SystemExit):
        bench.main(["--tasks", "task_000", "--resume"])  # nothing to resume from without --json


def test_policy_bench_lease_scope_reaches_the_children_and_the_run_ends_with_its_leases(monkeypatch: pytest.MonkeyPatch,
                                                                                         tmp_path, capsys) -> None:
    """``--lease-scope evaluation`` (the lease around each whole evaluation, every compile under it)
    is handed to every child and becomes its EvalOptions; after the run the script prints this run's
    leases from the lock folder: evaluations and IR inspections apart, leases from before the run left out."""
    import json
    import subprocess
    import time
    from pathlib import Path

    from passagent.tools.process.device_lease import LEASE_LOG

    from passagent.agent.sweep import policy_bench as bench
    runs = tmp_path / "runs"
    commands = []

    def lease(log: Path, start: float, seconds: float, **info) -> None:
        with log.open("a") as f:
            f.write(json.dumps({"device": "cuda", "start": start, "end": start + seconds, **info}) + "\n")

    def fake_run(cmd, env, **_kw):
        commands.append(cmd)
        log = Path(cmd[cmd.index("--lock-dir") + 1]) / LEASE_LOG
        log.parent.mkdir(parents=True, exist_ok=True)
        now = time.time()
        lease(log, now, 20.0, task=cmd[cmd.index("--tasks") + 1], lease_scope="evaluation")
        lease(log, now + 20.0, 30.0, task=cmd[cmd.index("--tasks") + 1], lease_scope="evaluation", purpose="confirmation")
        lease(log, now + 50.0, 4.0, task=cmd[cmd.index("--tasks") + 1], purpose="inspect_ir")
        lease(log, now + 54.0, 6.0, task=cmd[cmd.index("--tasks") + 1], purpose="check_pass")
        part = Path(cmd[cmd.index("--json") + 1])
        part.write_text(json.dumps([{"task": cmd[cmd.index("--tasks") + 1], "inductor_as": 1.0, "policy_as": 1.0,
                                     "ratio": 1.0, "families": {}, "evaluations": 2, "wall_s": 1.0, "exit": "finished"}]))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(bench.subprocess, "run", fake_run)
    # A lease from an earlier run in the same folder is not this run's.
    old = runs / "locks" / "cuda" / LEASE_LOG
    old.parent.mkdir(parents=True)
    lease(old, time.time() - 3600, 100.0, task="task_009")
    assert bench.main(["--tasks", "task_000,task_001", "--device", "cuda", "--workers", "2", "--out", str(runs),
                       "--lease-scope", "evaluation"]) == 0
    assert len(commands) == 2 and all(c[c.index("--lease-scope") + 1] == "evaluation" for c in commands)
    out = capsys.readouterr().out
    # 4 evaluations of 20 + 30 s (the 30 s ones re-evaluations), 2 check_pass runs of 6 s and 2 inspections
    # of 4 s: 120 s leased, 4 / 120 s x 3600 = 120 evaluations per device-hour; 4 / 100 s x 3600 = 144 per
    # hour of evaluation leases; (4 - 2) / 120 s x 3600 = 60 new versions per device-hour.
    assert "device leases: 4 evaluations (2 of them confirmations; median 25.0 s), 2 check_pass runs (median 6.0 s), " \
           "2 IR inspections (median 4.0 s), 120 s leased (100 s by evaluations); 120 evaluations per device-hour " \
           "(144 per hour of evaluation leases; 60 new versions per device-hour)" in out and "(lease scope: evaluation)" in out
    summary = bench.lease_summary(runs / "locks")
    assert summary["evaluations"] == 5 and summary["checks"] == 2 and summary["lease_s"] == pytest.approx(220.0)  # without since: every record
    assert summary["confirmations"] == 2 and summary["versions_per_device_hour"] == pytest.approx(3 / 220.0 * 3600)

    seen = {}
    monkeypatch.setattr(bench, "bench_task", lambda task, out_, options, config: seen.update(options=options) or {
        "task": task, "inductor_as": 1.0, "policy_as": 1.0, "ratio": 1.0, "families": {}, "evaluations": 1,
        "wall_s": 0.0, "exit": "finished"})
    assert bench.main(["--tasks", "task_000", "--device", "cuda", "--lease-pool", "cuda", "--lock-dir", str(tmp_path / "l"),
                       "--out", str(runs), "--lease-scope", "evaluation"]) == 0
    assert seen["options"].lease_scope == "evaluation" and seen["options"].compile_before_lease is False
    with pytest.raises(SystemExit):  # no shared lease without --workers
        bench.main(["--tasks", "task_000", "--device", "cuda", "--lease-scope", "evaluation"])


def inspected(irs: list[dict[str, Any]]) -> list[_Exchange]:
    """The exchanges of a run that listed and inspected these subgraph IRs (as ``inspect_ir`` writes them)."""
    listing = "\n".join(f"[{i}] sg{i} (from m), dtypes -\n    args: -\n    ops: -" for i in range(len(irs)))
    ex = [_Exchange("list_subgraphs", {}, listing)]
    for i, ir in enumerate(irs):
        full = {"index": i, "name": f"sg{i}", "source": "m", "device": "cpu", **ir}
        ex.append(_Exchange("inspect_ir", {"subgraph": i, "view": "fx"}, describe_ir(full, "fx")))
    return ex + [_Exchange("show_baseline", {"subgraph": 0}, "")]


def test_a_rule_that_would_run_the_original_ops_on_a_sibling_subgraph_is_not_proposed() -> None:
    # The hand-written LayerNorm of subgraph 0 (float32) also matches subgraph 1, in float16, where
    # the replacement keeps the chain's ops: the harness would score subgraph 1 no_change.
    from test_recipes import F32, LN_CODE, fake_ir, ln_meta

    mixed = inspected([fake_ir(LN_CODE, ln_meta(F32)), fake_ir(LN_CODE, ln_meta("float16"))])
    policy = BuiltinPolicy()
    assert policy._drafts(mixed, 2, "cpu") == []
    [(name, (d, where))] = policy._withheld(mixed, 2, "cpu").items()
    assert (name, d.recipe, where) == ("LayerNormFromChain", "layer_norm", {1: "float16"})
    _, [(call, args)] = policy._decide(mixed)
    assert call == "finish"
    assert ("library form: `LayerNormFromChain` not proposed: its replacement would run the original ops on "
            "subgraph(s) 1 (float16)") in args["summary"]
    assert "library form: no match" not in args["summary"]
    # Two float32 subgraphs: proposed and evaluated.
    same = inspected([fake_ir(LN_CODE, ln_meta(F32))] * 2)
    assert [d.rule_name for d in policy._drafts(same, 2, "cpu")] == ["LayerNormFromChain"]
    _, calls = policy._decide(same)
    assert [c[0] for c in calls] == ["write_pass", "evaluate_pass"]


def test_scalar_identity_alone_is_evaluated_on_task_028() -> None:
    # task_028 (T5's `scores * 1.0 + bias + mask -> softmax -> eval dropout`): removing `* 1.0`
    # changes the ATen graph Inductor receives (tracing keeps aten.mul by 1), so the policy
    # evaluates it instead of finishing with nothing evaluated; eval dropout is traced away.
    from passagent.tools.tasks.builtin import builtin_tasks_dir
    from passagent.tools.inspection.ir import inspect_subgraph

    path = str(builtin_tasks_dir() / "task_028")
    irs = [inspect_subgraph(path, i, "cpu", profile=False) for i in range(2)]
    _, calls = BuiltinPolicy()._decide(inspected(irs))
    assert [c[0] for c in calls] == ["write_pass", "evaluate_pass"]
    # Library forms go first (the softmax's row reciprocal); the identity is among the candidates.
    assert calls[0][1]["rule"] == "SoftmaxRowReciprocal"
    drafts = BuiltinPolicy._drafts(inspected(irs), len(irs), "cpu")
    assert any(d.rule_name == "FoldScalarIdentity" and "x * 1.0" in d.source for d in drafts)


def test_policy_bench_pairs_inductor_with_the_evaluation_the_confirmed_as_came_from(tmp_path) -> None:
    """A confirmed version's AS is the lower of its two evaluations: Inductor's AS comes from that
    evaluation, not the first; ``--retabulate`` re-derives rows from the archive, keeping wall times."""
    import json

    from passagent.agent.sweep import policy_bench as bench
    run = tmp_path / "20261205-000000-000" / "t" / "builtin"
    run.mkdir(parents=True)
    first = eval_result(1.5, 1.25, ["correct"], ratio=1.25)      # Inductor AS 1.2 in these timings
    retimed = eval_result(1.2, 1.2, ["correct"], ratio=1.2)      # Inductor AS 1.0 in these
    regressing = eval_result(2.0, 2.0, ["accuracy"], ratio=2.0)  # faster, fails t=-5 where Inductor passes
    events = [{"kind": "tool_result", "version": 1, "evaluation": first.model_dump(mode="json")},
              {"kind": "tool_result", "version": 2, "evaluation": regressing.model_dump(mode="json")},
              {"kind": "confirm", "version": 1, "evaluation": retimed.model_dump(mode="json")}]
    (run / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    result = {"task_id": "t", "run_id": "20261205-000000-000", "best_as": 1.2, "best_version": 1, "evaluations": 2,
              "exit_reason": "patience", "summary": ""}
    (run / "result.json").write_text(json.dumps(result))
    row = bench.row_from_run("t", result, run, "eager", 7.0)
    assert row["inductor_as"] == pytest.approx(1.0) and row["ratio"] == pytest.approx(1.2)
    # v2 regresses; v1 is scored by its lower-AS evaluation, as the confirmation scores it.
    assert row["ratio_no_regression"] == pytest.approx(1.2)
    old = {**row, "inductor_as": 1.2, "ratio": 1.0, "wall_s": 9.0}
    [again] = bench.retabulate([old], tmp_path)
    assert again["ratio"] == pytest.approx(1.2) and again["wall_s"] == 9.0
    missing = {"task": "other", "ratio": 0.5}
    assert bench.retabulate([old, missing], tmp_path)[1] == missing  # kept, with a warning
    with pytest.raises(ValueError, match="no task of the rows has an archived run"):
        bench.retabulate([missing], tmp_path)  # a wrong --out: nothing re-derived is an error, not the old table
