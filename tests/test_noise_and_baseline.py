"""What the model reads about noise and Inductor's own correctness: speedups with their spread,
the best version confirmed by re-evaluation, show_baseline's correctness level and its weight."""

from __future__ import annotations

from types import SimpleNamespace

import torch

from passagent.agent.run.condense import describe_inductor_correctness, speedup_range
from passagent.agent.run.confirm import candidates, confirm_best
from passagent.tools.evaluation.evaluate import EvalOptions
from passagent.tools.inspection.ir import inductor_error
from passagent.tools.evaluation.schema import Timing


def _timing(q1: float, med: float, q3: float) -> Timing:
    return Timing(median_us=med, q1_us=q1, q3_us=q3, n=50)


def test_speedup_range_comes_from_both_interquartile_ranges() -> None:
    lo, hi = speedup_range(_timing(90, 100, 110), _timing(45, 50, 60))
    assert (round(lo, 3), round(hi, 3)) == (1.5, round(110 / 45, 3))
    assert speedup_range(_timing(0, 1, 1), _timing(1, 1, 1)) is None


# --- confirming the best version ---------------------------------------------------------------


def _events(scores: dict[int, tuple[float, str]]) -> list[dict]:
    return [{"kind": "tool_result", "version": v, "aggregated": a, "evaluation": {"pass_sha256": d}}
            for v, (a, d) in scores.items()]


def test_candidates_are_distinct_passes_near_the_best() -> None:
    versions = {1: (1.00, "a"), 2: (1.30, "b"), 3: (1.25, "c"), 4: (1.30, "b"), 5: (0.90, "d"), 6: (1.20, "e")}
    assert candidates(versions, top=3, margin=0.15) == [2, 3, 6]  # v4 repeats v2's pass; v1, v5 too far below
    assert candidates(versions, top=3, margin=0.01) == []  # only one version near the best: nothing to re-time
    assert candidates({1: (1.2, "a")}, top=3, margin=0.5) == []


def test_the_luckiest_draw_does_not_win() -> None:
    # v2 topped the run by a lucky draw (1.30), re-times at 1.05; v3 is 1.25 then 1.22
    retimed = {2: 1.05, 3: 1.22}
    recorded: dict[str, dict] = {}
    calls = []

    def reevaluate(v):
        calls.append(v)
        return SimpleNamespace(scores=SimpleNamespace(aggregated=retimed[v]), model_dump=lambda mode: {})

    def record(event_id, kind, **payload):
        recorded[event_id] = {"kind": kind, **payload}
        return recorded[event_id]

    events = _events({1: (1.0, "a"), 2: (1.30, "b"), 3: (1.25, "c")})
    done = confirm_best(events, reevaluate, record, recorded.get, (2, 1.30), top=3, margin=0.15)
    assert (done.best_version, done.best_as) == (3, 1.22)
    assert done.scores == {2: (1.30, 1.05), 3: (1.25, 1.22)}
    assert calls == [2, 3]
    again = confirm_best(events, reevaluate, record, recorded.get, (2, 1.30), top=3, margin=0.15)
    assert calls == [2, 3] and again.best_version == 3  # a resumed run repeats no re-evaluation


# --- Inductor's own correctness ----------------------------------------------------------------


def test_inductor_error_is_the_worst_level_over_draws_and_outputs() -> None:
    class Eager(torch.nn.Module):
        def forward(self, x):
            return (x * 2, x + 1)

    def rounded(x):  # stands for a compiled graph that rounds its second output differently
        return (x * 2, x + 1 + 1e-3)

    sg = SimpleNamespace(args=())
    import passagent.tools.tasks.inputs as inputs

    original = inputs.synthesize_inputs
    inputs.synthesize_inputs = lambda sg, k, device=None: [torch.full((4,), float(k))]
    try:
        err = inductor_error(sg, Eager(), rounded, torch.device("cpu"))
    finally:
        inputs.synthesize_inputs = original
    assert err["per_output"][0] == -10
    assert err["per_output"][1] == err["min_correct_t"] and -3 <= err["min_correct_t"] <= -2
    assert abs(err["max_abs"] - 1e-3) < 1e-6


def test_the_scoring_consequence_names_the_weight_of_the_failed_levels() -> None:
    text = describe_inductor_correctness({"min_correct_t": -3, "per_output": [-3], "max_abs": 1e-3})
    # t = -10..-4 carry 5 * 0.001 + 1 + 1 of the weights' sum 5.96 (SCORING.md): 34%
    assert "failed at t < -3 (34% of AS's weight)" in text and "fails the headline level t=-5" in text
    assert "the score depends on speed" in describe_inductor_correctness({"min_correct_t": -10, "per_output": [-10], "max_abs": 0.0})


def test_the_loop_keeps_the_confirmed_version_as_best_pass(tmp_path) -> None:
    """SolveLoop's end-of-run hook: the re-evaluated versions are recorded and best_pass/ is the
    version with the best lower-of-two AS, not the single luckiest evaluation."""
    import json

    from passagent.agent.run.archive import RunArchive
    from passagent.agent.run.loop import SolveConfig, SolveLoop

    archive = RunArchive(tmp_path / "run")
    first = {1: (1.30, "b"), 2: (1.25, "c")}
    retimed = {1: 1.02, 2: 1.21}
    for v, (score, digest) in first.items():
        vdir = archive.version_dir(v)
        vdir.mkdir(parents=True)
        (vdir / "main.py").write_text(f"# version {v}\n")
        (vdir / "sorted_output_pass_rule_names.json").write_text(json.dumps(["main"]))
        archive.record(f"s{v}:tool:0", "tool_result", version=v, aggregated=score, evaluation={"pass_sha256": digest})
    archive.save_best(1)
    seen = []

    def evaluator(task, path, options):
        v = int(path.name.removeprefix("v"))
        seen.append((v, options.lease_purpose, options.draws))
        return SimpleNamespace(scores=SimpleNamespace(aggregated=retimed[v]), model_dump=lambda mode: {})

    run_options = EvalOptions(draws=5)
    toolbox = SimpleNamespace(specs=lambda: [], evaluator=evaluator, task=None, options=run_options)
    loop = SolveLoop(None, toolbox, archive, SolveConfig())  # type: ignore[arg-type]
    state = loop._confirm({"best_version": 1, "best_as": 1.30})
    # Re-evaluated with the run's options, marked as confirmations for the lease log; the run's own unchanged.
    assert (state["best_version"], state["best_as"]) == (2, 1.21) and seen == [(1, "confirmation", 5), (2, "confirmation", 5)]
    assert run_options.lease_purpose is None
    assert (archive.root / "best_pass.py").read_text() == "# version 2\n"
    assert archive.get("confirm:best")["previous_best_version"] == 1
    off = SolveLoop(None, toolbox, archive, SolveConfig(confirm_top=1))  # type: ignore[arg-type]
    assert off._confirm({"best_version": 1, "best_as": 1.30})["best_version"] == 1


# --- a version that breaks what Inductor gets right is not the best --------------------------


def _evaluation(digest: str, statuses: list[str]) -> dict:
    """An evaluation's JSON with one subgraph per status; Inductor is correct at t=-5 on each."""
    return {"pass_sha256": digest, "subgraphs": [
        {"index": i, "name": f"graphs/{i}", "source": "s", "dtypes": ["float16"], "status": st,
         "inductor_error": {"min_correct_t": -5, "max_abs": 0.0, "max_rel": 0.0}}
        for i, st in enumerate(statuses)]}


def _tracked(config, runs: list[tuple[float, list[str]]]) -> list[tuple]:
    from passagent.agent.run.loop import SolveLoop

    loop = SolveLoop(None, SimpleNamespace(specs=lambda: []), SimpleNamespace(save_best=lambda v: None), config)  # type: ignore[arg-type]
    update = {"evaluations": 0, "best_as": None, "best_version": None, "best_regresses": False, "last_as": None,
              "evals_since_improvement": 0}
    seen = []
    for v, (score, statuses) in enumerate(runs, start=1):
        loop._track_score(update, {"version": v, "aggregated": score, "evaluation": _evaluation(str(v), statuses)})
        seen.append((update["best_version"], update["best_regresses"], update["evals_since_improvement"]))
    return seen


def test_a_faster_version_that_regresses_against_inductor_is_not_the_best() -> None:
    from passagent.agent.run.loop import SolveConfig

    runs = [(3.29, ["accuracy", "correct"]),   # fast, but fails t=-5 where Inductor is correct
            (0.99, ["correct", "correct"]),    # the first version that breaks nothing: best, however slow
            (1.50, ["correct", "accuracy"]),   # faster than the best but regresses: not an improvement
            (1.20, ["correct", "correct"])]    # a clean improvement
    assert _tracked(SolveConfig(), runs) == [(1, True, 0), (2, False, 0), (2, False, 1), (4, False, 0)]
    # With the rule off the highest AS wins, as the paper's leaderboard alone would have it.
    assert [b for b, _r, _n in _tracked(SolveConfig(discard_regressions=False), runs)] == [1, 1, 1, 1]
    # Inductor failing t=-5 itself is not the pass's regression.
    inherited = _evaluation("x", ["accuracy"])
    inherited["subgraphs"][0]["inductor_error"]["min_correct_t"] = -3
    from passagent.agent.run.loop import SolveLoop
    loop = SolveLoop(None, SimpleNamespace(specs=lambda: []), None, SolveConfig())  # type: ignore[arg-type]
    assert not loop._regresses(inherited)
    assert loop._regresses(_evaluation("y", ["correct", "runtime"]))


def test_confirmation_keeps_a_clean_best_among_clean_versions(tmp_path) -> None:
    """The re-timing before a run ends neither re-runs a regressing version against a clean best
    nor picks a version whose re-evaluation regresses while a re-run one stays clean."""
    import json

    from passagent.agent.run.archive import RunArchive
    from passagent.agent.run.loop import SolveConfig, SolveLoop

    archive = RunArchive(tmp_path / "run")
    first = {1: (1.40, ["accuracy"]), 2: (1.30, ["correct"]), 3: (1.25, ["correct"])}
    # v2 re-times higher than v3 but its second input draw fails t=-5 (a marginal rounding).
    retimed = {2: (1.29, ["accuracy"]), 3: (1.22, ["correct"])}
    for v, (score, statuses) in first.items():
        vdir = archive.version_dir(v)
        vdir.mkdir(parents=True)
        (vdir / "main.py").write_text(f"# version {v}\n")
        (vdir / "sorted_output_pass_rule_names.json").write_text(json.dumps(["main"]))
        archive.record(f"s{v}:tool:0", "tool_result", version=v, aggregated=score, evaluation=_evaluation(str(v), statuses))
    archive.save_best(2)
    seen = []

    def evaluator(task, path, options):
        v = int(path.name.removeprefix("v"))
        seen.append(v)
        score, statuses = retimed[v]
        return SimpleNamespace(scores=SimpleNamespace(aggregated=score),
                               model_dump=lambda mode: _evaluation(str(v), statuses))

    toolbox = SimpleNamespace(specs=lambda: [], evaluator=evaluator, task=None, options=EvalOptions())
    loop = SolveLoop(None, toolbox, archive, SolveConfig())  # type: ignore[arg-type]
    state = loop._confirm({"best_version": 2, "best_as": 1.30, "best_regresses": False})
    assert seen == [2, 3]  # v1 regresses: not re-run against a clean best
    assert (state["best_version"], state["best_as"]) == (3, 1.22)
    assert (archive.root / "best_pass.py").read_text() == "# version 3\n"


def test_the_result_record_reports_the_evaluation_the_confirmed_as_came_from() -> None:
    """A confirmed version has two evaluations and keeps the lower AS: result.json's scores and
    subgraphs (and the report's Inductor pairing) come from that evaluation, not the later one."""
    from passagent.agent.run.confirm import evaluation_of
    from passagent.agent.run.solve import _result_record

    def ev(score: float, speedup: float) -> dict:
        return {"scores": {"aggregated": score, "baseline": "eager"}, "subgraphs": [
            {"name": "graphs/0", "status": "correct", "matches": 1, "speedup_vs_eager": speedup, "speedup_vs_inductor": 1.0}]}

    events = [{"kind": "tool_result", "version": 1, "aggregated": 4.37, "evaluation": ev(4.37, 40.0)},
              {"kind": "tool_result", "version": 2, "aggregated": 4.32, "evaluation": ev(4.32, 39.0)},
              {"kind": "confirm", "version": 2, "retimed_as": 4.36, "evaluation": ev(4.36, 41.1)}]
    assert evaluation_of(events, 2, 4.32)["scores"]["aggregated"] == 4.32
    assert evaluation_of(events, 2, 4.36)["scores"]["aggregated"] == 4.36
    assert evaluation_of(events, 3, 1.0) is None and evaluation_of(events, None, None) is None
    record = _result_record("r", SimpleNamespace(id="t"), SimpleNamespace(name="m"),
                            {"best_version": 2, "best_as": 4.32}, SimpleNamespace(events=events))  # type: ignore[arg-type]
    assert record["best_scores"]["aggregated"] == 4.32 and record["best_subgraphs"][0]["speedup_vs_eager"] == 39.0
