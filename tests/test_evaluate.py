"""End-to-end evaluations through real worker processes and real Inductor compiles on the CPU.

Most cases run on one small real subgraph (PassBench task b511, ``graphs/1``: BGE pooler tail,
float16 [1, 10, 768]) so that each evaluation costs seconds.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from pathlib import Path

from helpers import EXAMPLES, TEST_PASSES, passbench_task

from passagent.tools.evaluation.evaluate import EvalOptions, evaluate_pass
from passagent.tools.evaluation.schema import EvalConfig, EvalResult, SubgraphResult
from passagent.tools.measure.scoring import ScoringConfig
from passagent.agent.run.condense import describe_eval
from passagent.tools.evaluation.results import inductor_task_scores, task_scores
from passagent.tools.tasks.loader import load_task
from passagent.tools.measure.timing import TimingConfig

FAST_TIMING = TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1)


def small_task():
    return load_task(passbench_task("b511") / "graphs" / "1")


def run(task, pass_path: Path, cache_root: Path, **kw) -> EvalResult:
    kw.setdefault("timing", FAST_TIMING)
    kw.setdefault("timeout_s", 120)
    return evaluate_pass(task, pass_path, EvalOptions(cache_root=cache_root, **kw))


def only(result: EvalResult):
    assert len(result.subgraphs) == 1
    return result.subgraphs[0]


def test_correct_pass_matches_every_subgraph_of_a_shared_task(cache_root: Path) -> None:
    task = load_task(passbench_task("b511"))
    result = run(task, EXAMPLES / "b511_skip_single_cat.py", cache_root)
    assert len(result.subgraphs) == 4
    for s in result.subgraphs:
        assert s.status == "correct", s.message
        assert s.matches == 1
        assert s.candidate_error.min_correct_t <= -5
        assert s.inductor_error is not None
        assert s.speedup_vs_eager > 0 and s.speedup_vs_inductor > 0
        assert set(s.times) == {"eager", "inductor", "candidate"}
        assert s.profile is None  # profiling is off unless asked for
    assert result.scores.correct_at_minus5 == 1.0
    assert result.scores.baseline == "eager" and result.other_scores.baseline == "inductor"
    # The candidate process's peak memory, read from outside it: at least an interpreter with torch.
    assert result.worker_peak_rss_mb is not None and 100 < result.worker_peak_rss_mb < 8192
    # Default Inductor scored as a candidate from the same timings, and the paper's ratio to it.
    ind = inductor_task_scores(result.subgraphs, ScoringConfig(), result.config.time_statistic)
    assert result.inductor_scores == ind and ind.baseline == "eager"
    assert result.ratio_to_inductor() == pytest.approx(result.scores.aggregated / ind.aggregated)
    assert f"AS/AS(Inductor) = {result.ratio_to_inductor():.4f}" in describe_eval(result)
    # For people: one headline (AS against eager, AS / AS(Inductor)), rounded; other ratios labelled.
    table = rendered(result, width=200)
    assert f"AS {result.as_vs_eager():.3f} against eager  ·  AS / AS(Inductor) {result.ratio_to_inductor():.3f}" in table
    assert f"AS with Inductor's time as the baseline {result.other_scores.aggregated:.3f}" in table
    assert "vs inductor" not in table and f"{result.scores.aggregated:.4f}" not in table
    # The schema round-trips: what --json prints is what the agent parses.
    assert EvalResult.model_validate_json(result.model_dump_json()) == result
    # No CUDA-graph replay on the CPU: no device-time column in `passagent eval`'s table...
    assert all(t.graph_median_us is None for s in result.subgraphs for t in s.times.values())
    assert "device us" not in rendered(result)
    # ...and with graph replay times (as a CUDA evaluation records them) the column shows them.
    cuda_like = result.model_copy(deep=True)
    for k, t in cuda_like.subgraphs[0].times.items():
        t.graph_median_us = {"eager": 16.5, "inductor": 6.9, "candidate": 5.9}[k]
    assert "device us e/I/c" in rendered(cuda_like) and "16.5/6.9/5.9" in rendered(cuda_like)
    # The table fits an 80-column terminal uncut, and the result says in words what it means.
    narrow = rendered(result, width=80)
    assert "\u2026" not in narrow, narrow  # Rich's ellipsis marks a cut cell
    for s in result.subgraphs:
        assert s.name in narrow and f"{s.speedup_vs_inductor:.2f}x" in narrow
    from passagent.agent.run.render import verdict

    words = verdict(result)
    assert words.startswith(f"AS {result.scores.aggregated:.3f} against eager: correct at t=-5 on 4 of 4")
    assert f"AS / AS(Inductor) {result.ratio_to_inductor():.3f}" in words and "default Inductor" in words
    # The words follow the headline ratio: never "faster" where it says below, or the reverse.
    assert ("above" in words) == (result.ratio_to_inductor() > 1) or "the same score" in words
    assert "faster" not in words and "slower" not in words


def test_the_verdict_of_a_pass_that_failed_everywhere_says_so() -> None:
    from passagent.agent.run.render import verdict

    failed = SubgraphResult(index=0, name="graphs/0", source="x", dtypes=["float32"], status="compile", failure_class="compile")
    scores = task_scores([failed], "eager", ScoringConfig())  # compile is tolerated from t = 3: AS 0.111, not b
    result = EvalResult(task_id="t", task_path="t", pass_path="p", pass_sha256="0", config=EvalConfig(device="cpu"),
                        torch_version="x", device_name="cpu", subgraphs=[failed], scores=scores, other_scores=None, wall_s=1.0)
    assert verdict(result) == "AS 0.111 against eager: the pass failed on every subgraph (compile), so each scores the failure penalty."


def rendered(result: EvalResult, width: int = 250) -> str:
    import io

    from rich.console import Console

    from passagent.agent.run.render import eval_table

    console = Console(width=width, file=io.StringIO())
    console.print(eval_table(result))
    return console.file.getvalue()


def test_pass_dir_with_two_rules_in_order(cache_root: Path) -> None:
    result = run(small_task(), EXAMPLES / "b511_pooler_dir", cache_root)
    s = only(result)
    assert s.status == "correct", s.message
    assert [(r.rule, r.matches) for r in s.rules] == [("DropDeadPooler", 1), ("SkipSingleCat", 1)]
    assert s.matches == 2


def test_graph_pattern_pass_on_the_other_shared_task(cache_root: Path) -> None:
    task = load_task(passbench_task("623d") / "graphs" / "1")  # bfloat16 [1, 249, *]
    s = only(run(task, EXAMPLES / "623d_drop_dead_rand.py", cache_root))
    assert s.status == "correct", s.message
    assert s.matches == 1


def test_a_pass_that_changes_nothing_inductor_sees_is_no_change(cache_root: Path) -> None:
    # Eval-mode dropout removal matches both dropouts (p bound through a pattern input), but
    # dropout(training=False) already vanishes in ATen: the compiled program is unchanged.
    task = load_task(passbench_task("623d") / "graphs" / "1")
    s = only(run(task, TEST_PASSES / "no_change_dropout.py", cache_root))
    assert s.matches == 2
    assert s.status == "integrity" and "'no_change'" in s.message


def test_wrong_maths_is_an_accuracy_failure(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "wrong_maths.py", cache_root))
    assert s.status == "accuracy" and s.failure_class == "accuracy"
    assert s.matches == 1
    assert "wrong values" in s.message and "default Inductor itself is correct" in s.message
    assert s.candidate_error.max_abs > 1e-2


def test_no_match_is_a_compile_failure_with_a_diagnostic(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "no_match.py", cache_root))
    assert s.status == "compile" and s.matches == 0
    assert "matched nothing" in s.message
    # The diagnostic names the pattern node, the argument and both literals.
    assert "normalize" in s.message and "is 3" in s.message and "has 2" in s.message
    assert s.rules[0].diagnostic and "argument 1" in s.rules[0].diagnostic


def test_baselines_alone_are_timed_within_the_baseline_only_budget(cache_root: Path) -> None:
    """A candidate that failed before timing leaves the baselines to time, within
    ``baseline_only_budget_s``, not the full budget; they are still timed and reported."""
    timing = TimingConfig(warmup=1, min_calls=3, max_calls=2000, budget_s=60.0, baseline_only_budget_s=0.05)
    s = only(run(small_task(), TEST_PASSES / "no_match.py", cache_root, timing=timing))
    assert s.status == "compile" and set(s.times) == {"eager", "inductor"}
    assert 3 <= s.timing_stop["rounds"] <= 300  # sized and ended by 0.05 s, not 60 s (2000 rounds)
    # A candidate that is timed gets the full budget (it ends on its sized count here, not the cap).
    full = TimingConfig(warmup=1, min_calls=3, max_calls=12, budget_s=60.0, baseline_only_budget_s=0.001)
    t = only(run(small_task(), EXAMPLES / "b511_skip_single_cat.py", cache_root, timing=full))
    import math

    m = t.timing_stop["window_calls"]["candidate"]
    assert t.status == "correct" and t.timing_stop["reason"] == "max_calls"
    assert t.timing_stop["rounds"] == max(5, math.ceil(12 / m)), t.timing_stop  # 12 calls of each variant, in windows of m


def test_syntax_error_is_a_compile_failure_pointing_at_the_line(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "syntax_error.py", cache_root))
    assert s.status == "compile"
    assert "syntax_error.py:5" in s.message and "SyntaxError" in s.message


def test_missing_contract_function(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "missing_function.py", cache_root))
    assert s.status == "compile" and "does not define replacement_func" in s.message


@pytest.mark.parametrize("name, says, where", [
    ("syntax_error", "SyntaxError", "syntax_error.py\", line 5"),
    ("missing_function", "does not define replacement_func", None),
    ("raises_at_import", "KeyError", "raises_at_import.py\", line 5"),
])
def test_a_pass_that_does_not_load_fails_before_any_baseline(cache_root: Path, name: str, says: str, where: str | None) -> None:
    task = load_task(passbench_task("b511"))
    result = run(task, TEST_PASSES / f"{name}.py", cache_root, use_cache=False)
    assert len(result.subgraphs) == 4
    for s in result.subgraphs:
        assert s.status == "compile" and s.message.startswith("the pass failed to load: ") and says in s.message
        assert s.times == {} and s.phase_s == {}, "nothing was compiled or timed"
        if where:
            assert where in (s.traceback or ""), s.traceback
    # Scored exactly like any failed pass: b below t = 3, tolerated from t = 3 (SCORING.md).
    assert result.scores.es[-5] == pytest.approx(0.1) and result.scores.es[3] == pytest.approx(1.0)
    assert result.other_scores is not None and result.other_scores.aggregated == result.scores.aggregated


def test_exception_while_tracing_the_replacement(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "raises_in_replacement.py", cache_root))
    assert s.status == "compile"
    assert "ZeroDivisionError" in s.message
    assert 'File "raises_in_replacement.py", line 15, in broken' in s.traceback


def test_wrong_output_shape_is_a_runtime_failure(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "wrong_shape.py", cache_root))
    assert s.status == "runtime" and "shape" in s.message


# The crash, hang and memory passes use ctypes/time, which the static integrity checks refuse
# before anything runs; these tests switch the static checks off to exercise the isolation.


def test_segfault_is_a_runtime_failure_and_does_not_crash_the_caller(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "segfault_at_runtime.py", cache_root, static_checks=False))
    assert s.status == "runtime"
    assert "SIGSEGV" in s.message
    assert s.traceback and "segfault_at_runtime.py" in s.traceback  # faulthandler's stack


def test_hang_is_a_timeout(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "hang_at_runtime.py", cache_root, timeout_s=25, static_checks=False))
    assert s.status == "timeout" and "killed" in s.message


def test_memory_exhaustion_is_a_runtime_failure(cache_root: Path) -> None:
    s = only(run(small_task(), TEST_PASSES / "exhaust_memory.py", cache_root, memory_limit_bytes=6 * 2**30,
                 static_checks=False))
    assert s.status == "runtime"
    assert "memory" in s.message.lower()


def test_a_crash_in_one_subgraph_does_not_lose_the_others(cache_root: Path, tmp_path: Path) -> None:
    # Two copies of the small subgraph; the pass crashes on both, each gets its own class.
    root = tmp_path / "task"
    for i in range(2):
        shutil.copytree(passbench_task("b511") / "graphs" / "1", root / "graphs" / str(i))
    (root / "graph_list.txt").write_text("graphs/0\ngraphs/1\n")
    result = run(load_task(root), TEST_PASSES / "segfault_at_runtime.py", cache_root, static_checks=False)
    assert [s.status for s in result.subgraphs] == ["runtime", "runtime"]


# --- caches never serve a stale compile ------------------------------------------------------

STALE_TEMPLATE = '''
import torch

_lib = torch.library.Library("passagent_stale", "FRAGMENT")
_lib.define("scale(Tensor x) -> Tensor")
# CompositeImplicitAutograd: Dynamo records the op by name, AOT inlines its body, so a cache
# keyed on the Dynamo graph alone would replay the old body after an edit.
_lib.impl("scale", lambda x: x * {factor}, "CompositeImplicitAutograd")


def pattern(x):
    y = torch.cat([x], 1)
    return torch.nn.functional.normalize(y, p=2, dim=1)


def replacement_args(x):
    return (x,)


def scaled_normalize(x):
    return torch.ops.passagent_stale.scale(torch.nn.functional.normalize(x, p=2, dim=1))


def replacement_func():
    return scaled_normalize
'''


def test_edited_custom_op_under_the_same_name_is_what_runs(cache_root: Path, tmp_path: Path) -> None:
    pass_file = tmp_path / "stale.py"
    pass_file.write_text(STALE_TEMPLATE.format(factor="1.0"))
    first = only(run(small_task(), pass_file, cache_root))
    assert first.status == "correct", first.message
    pass_file.write_text(STALE_TEMPLATE.format(factor="2.0"))  # same op name, new body
    second = only(run(small_task(), pass_file, cache_root))
    assert second.status == "accuracy", "an edited pass was served a stale compiled graph"


def test_inputs_are_copied_for_each_variant(cache_root: Path, tmp_path: Path) -> None:
    # A real-graph idiom: the subgraph mutates its input in place (add_) before using it.
    sample = tmp_path / "mutating"
    sample.mkdir()
    (sample / "model.py").write_text(textwrap.dedent('''
        import torch

        class GraphModule(torch.nn.Module):
            def forward(self, x):
                x.add_(1.0)
                y = x * 2.0
                return (y,)
    '''))
    (sample / "weight_meta.py").write_text(textwrap.dedent('''
        class Program_weight_tensor_meta_x:
            name = "x"
            shape = [64, 64]
            dtype = "torch.float32"
            device = "cpu"
            mean = 0.0
            std = 1.0
            data = None
    '''))
    pass_file = tmp_path / "double.py"
    pass_file.write_text(textwrap.dedent('''
        import torch

        def pattern(x):
            return x * 2.0

        def replacement_args(x):
            return (x,)

        def doubled(x):
            return x + x

        def replacement_func():
            return doubled
    '''))
    s = only(run(load_task(sample), pass_file, cache_root))
    assert s.status == "correct", s.message
    assert s.candidate_error.max_abs == 0.0


def test_low_signal_subgraph_is_flagged(cache_root: Path) -> None:
    from helpers import GRAPHNET

    task = load_task(GRAPHNET / "hf__google__tapas-base-masklm")  # all inputs are literal data
    result = run(task, TEST_PASSES / "no_match.py", cache_root)
    assert only(result).low_signal
    assert any("low-signal" in w for w in result.warnings)


def test_baseline_cache_is_reused_only_when_asked_and_marked(cache_root: Path) -> None:
    run(small_task(), EXAMPLES / "b511_skip_single_cat.py", cache_root)
    # By default every evaluation times Inductor beside the candidate (the same neighbours each time).
    again = only(run(small_task(), EXAMPLES / "b511_skip_single_cat.py", cache_root))
    assert again.times["inductor"].source == "measured" and again.times["inductor"].n > 0
    reused = only(run(small_task(), EXAMPLES / "b511_skip_single_cat.py", cache_root, reuse_inductor_time=True))
    assert reused.times["inductor"].source == "cached"
    # A cached Inductor time was not timed in the candidate's rounds: no per-round ratio against it.
    assert reused.paired_speedup_vs_inductor is None and reused.paired_speedup_vs_eager is not None
    fresh = only(run(small_task(), EXAMPLES / "b511_skip_single_cat.py", cache_root, baseline="inductor"))
    assert fresh.times["inductor"].source == "measured"


def test_p10_statistic_scores_each_variants_lower_decile(cache_root: Path) -> None:
    result = run(small_task(), EXAMPLES / "b511_skip_single_cat.py", cache_root, time_statistic="p10")
    assert result.config.time_statistic == "p10"
    s = only(result)
    assert s.status == "correct"
    for name, t in s.times.items():
        assert t.p10_us is not None and t.p10_us <= t.median_us, name
    assert s.speedup_vs_eager == s.times["eager"].p10_us / s.times["candidate"].p10_us
    assert s.speedup_vs_inductor == s.times["inductor"].p10_us / s.times["candidate"].p10_us
    # The per-round paired speedups (the default's) are recorded whatever the statistic.
    assert s.paired_speedup_vs_eager is not None and s.paired_speedup_vs_inductor is not None
    assert s.paired_speedup_vs_eager != s.speedup_vs_eager
    table = _rendered(result)
    assert "µs per call (10th percentiles)" in table and f"{s.times['candidate'].p10_us:.1f}" in table
    from passagent.agent.run.condense import describe_eval

    assert f"time (p10): eager {s.times['eager'].p10_us:.1f} us" in describe_eval(result)


# --- the CLI -------------------------------------------------------------------------------


def _cli(*args: str, cache_root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "passagent.agent.cli.app", *args, "--cache-dir", str(cache_root)],
        capture_output=True, text=True, timeout=600,
    )


def test_cli_json_is_the_versioned_schema(cache_root: Path) -> None:
    proc = _cli("eval", str(passbench_task("b511") / "graphs" / "1"), "--pass", str(EXAMPLES / "b511_skip_single_cat.py"),
                "--json", "--timing-budget", "0.1", cache_root=cache_root)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["schema_version"] == "1.0"
    result = EvalResult.model_validate(data)
    assert result.subgraphs[0].status == "correct"
    assert result.config.sandbox and result.sandbox, "the worker is confined by default"
    assert result.config.time_statistic == "paired"  # SCORING.md's, unless asked otherwise
    s = result.subgraphs[0]
    assert s.speedup_vs_eager == s.paired_speedup_vs_eager and s.median_ratio_vs_eager is not None
    assert result.subgraphs[0].times["candidate"].p10_us is not None  # recorded either way
    assert "sandbox off" not in _rendered(result)
    unconfined = result.model_copy(update={"config": result.config.model_copy(update={"sandbox": False})})
    assert "sandbox off" in _rendered(unconfined)
    # The evaluation's time by step (SubgraphResult.phase_s) adds up to about its wall time.
    steps = result.subgraphs[0].phase_s
    assert {"references", "candidate_compile", "correctness", "timing"} <= set(steps), steps
    assert 0.5 * result.subgraphs[0].wall_s <= sum(steps.values()) <= result.subgraphs[0].wall_s + 0.05
    assert "time by step: " in _rendered(result)
    # Why the timed rounds ended (the wall budget or the round cap), with the rounds run, each
    # variant's calls per window and the request round trip subtracted from every window.
    stop = result.subgraphs[0].timing_stop
    assert stop is not None and stop["reason"] in ("max_calls", "budget") and stop["rounds"] == s.times["candidate"].n
    assert stop["warmup_s"] >= 0 and stop["seconds"] > 0 and stop["overhead_us"] > 0
    assert set(stop["window_calls"]) == {"eager", "inductor", "candidate"} and len(set(stop["window_calls"].values())) == 1
    # What the referee saw of each process: the candidate's CPU time in and around its windows.
    assert stop["watch"]["candidate"]["windows"] >= stop["rounds"] and stop["watch"]["candidate"]["window_cpu"] > 0
    assert stop["warmup_s"] + stop["seconds"] <= steps["timing"] + 0.05


def _rendered(result: EvalResult) -> str:
    from rich.console import Console

    from passagent.agent.run.render import eval_table

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(eval_table(result))
    return console.export_text()


def test_cli_bad_task_is_one_line_and_exit_2(cache_root: Path, tmp_path: Path) -> None:
    d = tmp_path / "bad"
    shutil.copytree(passbench_task("b511") / "graphs" / "1", d)
    (d / "weight_meta.py").write_text((d / "weight_meta.py").read_text().replace('"torch.float16"', '"torch.float17"', 1))
    proc = _cli("eval", str(d), "--pass", str(EXAMPLES / "b511_skip_single_cat.py"), cache_root=cache_root)
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
    assert len(lines) == 1 and "weight_meta.py" in lines[0] and "float17" in lines[0]


def test_cli_unknown_time_statistic_exit_2(cache_root: Path) -> None:
    proc = _cli("eval", str(passbench_task("b511") / "graphs" / "1"), "--pass", str(EXAMPLES / "b511_skip_single_cat.py"),
                "--time-statistic", "mean", cache_root=cache_root)
    assert proc.returncode == 2 and "time statistic must be one of paired, median, p10" in proc.stderr


def test_cli_exit_codes_tell_failure_and_integrity_apart(cache_root: Path) -> None:
    sub = str(passbench_task("b511") / "graphs" / "1")
    failed = _cli("eval", sub, "--pass", str(TEST_PASSES / "syntax_error.py"), cache_root=cache_root)
    assert failed.returncode == 1, failed.stderr  # failed on every subgraph (here: did not load)
    assert failed.stdout == "" and failed.stderr.strip() == (
        "error: the pass does not load: syntax_error.py:5: SyntaxError: '(' was never closed"), "one line, no score table"
    refused = _cli("eval", sub, "--pass", str(TEST_PASSES / "exploits" / "patch_timer.py"), cache_root=cache_root)
    assert refused.returncode == 3, refused.stderr  # a defence fired (here: the static checks)


def test_cli_guides_a_new_user() -> None:
    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", *args], capture_output=True, text=True, timeout=300)

    from passagent import __version__

    version = cli("--version")
    assert version.returncode == 0 and version.stdout.startswith(f"passagent {__version__} (torch ")
    typo = cli("tasks", "show", "task_42")
    assert typo.returncode == 2 and "did you mean task_042?" in typo.stderr
    category = cli("tasks", "list", "--category", "fusable")
    assert category.returncode == 2 and "fusible, sole, typical" in category.stderr
    code = cli("tasks", "show", "task_035", "--code", "--subgraph", "1")
    assert code.returncode == 0, code.stderr
    assert "tmp_1 = tmp_0.pow(2)" in code.stdout and "graphs/1" in code.stdout and "graphs/0" not in code.stdout


def test_cli_missing_pass_file_exit_2(cache_root: Path) -> None:
    proc = _cli("eval", str(passbench_task("b511")), "--pass", "/nope/pass.py", cache_root=cache_root)
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_cli_shape_that_does_not_match_the_code_exit_2(cache_root: Path, tmp_path: Path) -> None:
    d = tmp_path / "badshape"
    shutil.copytree(passbench_task("b511") / "graphs" / "1", d)
    # The weight's recorded shape no longer fits the linear layer in model.py.
    (d / "weight_meta.py").write_text((d / "weight_meta.py").read_text().replace("[768, 768]", "[768, 700]"))
    proc = _cli("eval", str(d), "--pass", str(EXAMPLES / "b511_skip_single_cat.py"), cache_root=cache_root)
    assert proc.returncode == 2
    assert "model.py" in proc.stderr and "eager run" in proc.stderr


def test_phase_durations_sum_recurring_steps_and_attribute_the_heldout_recompile() -> None:
    from passagent.tools.evaluation.steps import phase_durations

    marks = [("inputs", 0.0), ("eager", 1.0), ("candidate_inductor", 3.0), ("timing", 4.0), ("candidate_inductor", 6.0),
             ("heldout_shape", 6.5), ("candidate_inductor", 7.0)]
    assert phase_durations(marks, 10.0) == {"inputs": 1.0, "eager": 2.0, "candidate_inductor": 1.5, "timing": 2.0,
                                            "heldout_shape": 3.5}


def test_workers_sharing_a_device_pool_split_the_cores(tmp_path: Path, monkeypatch) -> None:
    import os

    import passagent.tools.evaluation.evaluate as evaluate_module
    from passagent.tools.evaluation.evaluate import worker_threads

    seen = []
    monkeypatch.setattr(evaluate_module, "_evaluate", lambda task, pass_path, options, **_kw: seen.append(options))
    task = load_task(passbench_task("b511") / "graphs" / "1")
    evaluate_pass(task, EXAMPLES / "b511_skip_single_cat.py",
                  EvalOptions(device_pool=["cuda:0", "cuda:1"], lock_dir=tmp_path / "locks"))
    cores = os.cpu_count() or 1
    assert seen[0].device in ("cuda:0", "cuda:1") and seen[0].gpu_host_threads == max(1, cores // 2)
    assert worker_threads(seen[0]) == max(1, cores // 2)
    assert worker_threads(EvalOptions(device="cuda:0")) == cores  # one GPU, no pool: every core
    assert worker_threads(EvalOptions(device="cuda", gpu_host_threads=3)) == 3
    assert worker_threads(EvalOptions(device="cpu")) == 1 and worker_threads(EvalOptions(device="cpu", cpu_threads=None)) is None


def test_the_worker_inductor_cache_is_the_cache_root_even_after_an_in_process_compile(tmp_path, monkeypatch) -> None:
    # Inductor writes its default cache folder into os.environ the first time it compiles in a
    # process (torch/_inductor/runtime/cache_dir_utils.py); an evaluation started afterwards must
    # still put its compiled graphs under its own cache root.
    from torch._inductor.runtime.cache_dir_utils import cache_dir

    from passagent.tools.evaluation.evaluate import worker_environment

    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    cache_dir()  # what any in-process compile does first
    assert "TORCHINDUCTOR_CACHE_DIR" in os.environ
    env = worker_environment(tmp_path / "root", tmp_path / "work")
    # A process that runs pass code gets the candidate role's cache, never the clean one.
    from passagent.tools.evaluation.child import scope_folder

    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "root" / "candidates" / scope_folder("shared") / "inductor")
