"""What the model reads about noise and Inductor's own correctness: speedups with their spread,
the best version confirmed by re-evaluation, show_baseline's correctness level and its weight."""

from __future__ import annotations

from types import SimpleNamespace

import torch

from passagent.agent.condense import describe_inductor_correctness, speedup_range
from passagent.agent.confirm import candidates, confirm_best
from passagent.tools.ir import inductor_error
from passagent.tools.schema import Timing


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
    import passagent.tools.inputs as inputs

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

    from passagent.agent.archive import RunArchive
    from passagent.agent.loop import SolveConfig, SolveLoop

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
        seen.append(v)
        return SimpleNamespace(scores=SimpleNamespace(aggregated=retimed[v]), model_dump=lambda mode: {})

    toolbox = SimpleNamespace(specs=lambda: [], evaluator=evaluator, task=None, options=None)
    loop = SolveLoop(None, toolbox, archive, SolveConfig())  # type: ignore[arg-type]
    state = loop._confirm({"best_version": 1, "best_as": 1.30})
    assert (state["best_version"], state["best_as"]) == (2, 1.21) and seen == [1, 2]
    assert (archive.root / "best_pass.py").read_text() == "# version 2\n"
    assert archive.get("confirm:best")["previous_best_version"] == 1
    off = SolveLoop(None, toolbox, archive, SolveConfig(confirm_top=1))  # type: ignore[arg-type]
    assert off._confirm({"best_version": 1, "best_as": 1.30})["best_version"] == 1
