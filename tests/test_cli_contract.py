"""One contract for every command (docs/cli.md): the exit code from the table, one line on stderr
and no traceback, nothing left behind, nothing recorded lost.

Most cells run the real CLI in-process (Typer's runner: the same ContractGroup, signal handling
and error printing as the console script) and fail before any compile. The cells that must run
a pass (a syntax error, a wrong-shape replacement) evaluate a one-subgraph task with a short
timing budget; signals and the console script's own stderr go through subprocesses.
"""

from __future__ import annotations

import json
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import EXAMPLES, GRAPHNET, TEST_PASSES, passbench_task
from typer.testing import CliRunner

from passagent.agent.cli.app import app
from passagent.agent.exit_codes import ExitCode
from passagent.tools.process.children import descendants

SMALL_TASK = str(passbench_task("b511") / "graphs" / "1")  # one subgraph: cat + normalize
GOOD = str(EXAMPLES / "b511_skip_single_cat.py")
SYNTAX = str(TEST_PASSES / "syntax_error.py")
WRONG_SHAPE = str(TEST_PASSES / "wrong_shape.py")
NO_GPU = "cuda:99"  # no machine has it: on a CPU-only one "no CUDA", on a GPU one "has N devices"
FAST = ["--timing-budget", "0.1"]

OK, FAILED, BAD, INTEGRITY = ExitCode.OK, ExitCode.FAILED, ExitCode.BAD_INPUT, ExitCode.INTEGRITY


@pytest.fixture()
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_root: Path) -> Path:
    """An empty working folder (what a command leaves behind shows there) and a crash folder of
    its own (an internal error would leave a file in it)."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("PASSAGENT_CACHE_DIR", str(tmp_path / "home-cache"))
    return cwd


def invoke(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


def assert_one_line(stderr: str, code: int, got: int, says: str = "") -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert got == code, f"exit {got}, expected {code}: {stderr[-2000:]}"
    assert len(lines) == 1, f"stderr is not one line: {stderr[-2000:]}"
    assert "Traceback" not in stderr and "File \"" not in stderr
    assert says in lines[0], lines[0]
    return lines[0]


def _cells(cache: str) -> list[tuple[str, list[str], int, str]]:
    """(name, argv, exit code, a phrase of the one stderr line) for every command and bad input
    that fails before any work."""
    c = ["--cache-dir", cache]
    return [
        # eval
        ("eval missing task", ["eval", "/no/such/task", "--pass", GOOD, *c], BAD, "no such task"),
        ("eval typo'd task", ["eval", "task_42", "--pass", GOOD, *c], BAD, "did you mean task_042?"),
        ("eval missing pass", ["eval", SMALL_TASK, "--pass", "nope.py", *c], BAD, "does not exist"),
        ("eval no GPU", ["eval", SMALL_TASK, "--pass", GOOD, "--device", NO_GPU, *c], BAD, f"--device {NO_GPU}"),
        ("eval cpu:7", ["eval", SMALL_TASK, "--pass", GOOD, "--device", "cpu:7", *c], BAD, "not a device"),
        # check
        ("check missing task", ["check", "/no/such/task", "--pass", GOOD], BAD, "no such task"),
        ("check typo'd task", ["check", "task_42", "--pass", GOOD], BAD, "did you mean task_042?"),
        ("check missing pass", ["check", SMALL_TASK, "--pass", "nope.py"], BAD, "does not exist"),
        ("check no GPU", ["check", SMALL_TASK, "--pass", GOOD, "--device", NO_GPU], BAD, f"--device {NO_GPU}"),
        ("check level alone", ["check", SMALL_TASK, "--pass", GOOD, "--level", "-3"], BAD, "used only with --divergence"),
        # solve: every check before the live view, the archive or the run folder
        ("solve missing task", ["solve", "/no/such/task", "--out", "runs", *c], BAD, "no such task"),
        ("solve typo'd task", ["solve", "task_42", "--out", "runs", *c], BAD, "did you mean task_042?"),
        ("solve unknown model", ["solve", SMALL_TASK, "--model", "builtn", "--out", "runs", *c], BAD,
         "did you mean builtin?"),
        ("solve no GPU", ["solve", SMALL_TASK, "--device", NO_GPU, "--out", "runs", *c], BAD, f"--device {NO_GPU}"),
        ("solve unknown run id", ["solve", SMALL_TASK, "--resume", "--run-id", "nope", "--out", "runs", *c], BAD,
         "no run 'nope'"),
        ("solve resume without id", ["solve", SMALL_TASK, "--resume", "--out", "runs", *c], BAD, "--run-id"),
        # sweep: nothing, not even the sweep's folder, before the models and devices are checked
        ("sweep typo'd task", ["sweep", "--models", "builtin", "--tasks", "task_0420", "--out", "runs"], BAD,
         "did you mean task_042"),
        ("sweep missing task", ["sweep", "--models", "builtin", "--tasks", "/no/such/task", "--out", "runs"], BAD,
         "/no/such/task"),
        ("sweep unknown model", ["sweep", "--models", "builtn", "--tasks", "task_000", "--out", "runs"], BAD,
         "did you mean builtin?"),
        ("sweep no GPU", ["sweep", "--models", "builtin", "--tasks", "task_000", "--devices", NO_GPU, "--out", "runs"],
         BAD, f"--devices {NO_GPU}"),
        # report, export: an unknown sweep or run folder
        ("report unknown run", ["report", "runs/nope"], BAD, "no such folder"),
        ("export unknown run", ["export", "runs/nope"], BAD, "no such folder"),
        # apply, export-pass, coverage
        ("apply missing pass", ["apply", "nope.py", "--model-graph", SMALL_TASK, *c], BAD, "does not exist"),
        ("apply missing graph", ["apply", GOOD, "--model-graph", "/no/such/graph", *c], BAD, "no such task"),
        ("apply typo'd graph", ["apply", GOOD, "--model-graph", "task_42", *c], BAD, "did you mean task_042?"),
        ("apply no GPU", ["apply", GOOD, "--model-graph", SMALL_TASK, "--device", NO_GPU, *c], BAD, f"--device {NO_GPU}"),
        ("export-pass missing pass", ["export-pass", "nope.py", "-o", "pkg"], BAD, "does not exist"),
        ("export-pass syntax error", ["export-pass", SYNTAX, "-o", "pkg"], BAD, "does not load"),
        ("coverage missing pass", ["coverage", "nope.py", "--graphs", str(GRAPHNET)], BAD, "does not exist"),
        ("coverage missing graphs", ["coverage", GOOD, "--graphs", "/no/such/graphs"], BAD, "no such folder"),
        ("coverage no GPU", ["coverage", GOOD, "--graphs", str(GRAPHNET), "--device", NO_GPU], BAD, f"--device {NO_GPU}"),
        # redteam, tasks
        ("redteam no GPU", ["redteam", "--device", NO_GPU], BAD, f"--device {NO_GPU}"),
        ("redteam no such pass", ["redteam", "--only", "no-such-attack"], BAD, "no corpus pass matches"),
        ("redteam near miss", ["redteam", "--only", "return_inputs"], BAD, "did you mean return_input"),
        ("time typo'd task", ["time", "task_42", "--pass", GOOD, *c], BAD, "did you mean task_042?"),
        ("time missing pass", ["time", SMALL_TASK, "--pass", "nope.py", *c], BAD, "does not exist"),
        ("time no GPU", ["time", SMALL_TASK, "--pass", GOOD, "--device", NO_GPU, *c], BAD, f"--device {NO_GPU}"),
        ("time no such subgraph", ["time", SMALL_TASK, "--pass", GOOD, "-s", "1", *c], BAD, "--subgraph must be 0..0"),
        ("inspect typo'd task", ["inspect", "task_42", *c], BAD, "did you mean task_042?"),
        ("inspect no GPU", ["inspect", SMALL_TASK, "--device", NO_GPU, *c], BAD, f"--device {NO_GPU}"),
        ("inspect bad view", ["inspect", SMALL_TASK, "--view", "kernels", *c], BAD, "--view must be"),
        ("inspect no such subgraph", ["inspect", SMALL_TASK, "-s", "3", *c], BAD, "--subgraph must be 0..0"),
        ("tasks show typo", ["tasks", "show", "task_42"], BAD, "did you mean task_042?"),
        ("tasks show missing", ["tasks", "show", "/no/such/task"], BAD, "no such task"),
        ("tasks list category", ["tasks", "list", "--category", "fusable"], BAD, "fusible, sole, typical"),
    ]


def test_every_command_rejects_bad_input_in_one_line_before_any_work(workdir: Path, cache_root: Path) -> None:
    failures = []
    for name, argv, code, says in _cells(str(cache_root)):
        result = invoke(*argv)
        try:
            assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
            assert_one_line(result.stderr, code, result.exit_code, says)
            assert result.stdout == "", f"printed before failing: {result.stdout[:500]}"
            assert not any(workdir.iterdir()), f"left behind: {sorted(p.name for p in workdir.iterdir())}"
        except AssertionError as exc:
            failures.append(f"{name}: {exc}")
    assert not failures, "\n".join(failures)
    assert not (workdir.parent / "home-cache" / "crashes").exists(), "no internal error anywhere"


def test_usage_errors_keep_typers_own_message_and_exit_2(workdir: Path) -> None:
    for argv in (["coverage", "--graphs", "x"], ["eval", "task_000", "--no-such-option"], ["no-such-command"],
                 ["eval", "task_000", "--pass", GOOD, "--cpu-threads", "-1"]):
        r = invoke(*argv)
        assert r.exit_code == BAD and "Traceback" not in r.output and "Usage:" in r.output, (argv, r.output)
    assert not any(workdir.iterdir()) and not (workdir.parent / "home-cache" / "crashes").exists()


def test_a_pass_that_does_not_load_or_gives_the_wrong_shape_is_a_negative_verdict(workdir: Path,
                                                                                   cache_root: Path) -> None:
    c = ["--cache-dir", str(cache_root)]
    # eval: one line naming the file and line, no score table, exit 1.
    r = invoke("eval", SMALL_TASK, "--pass", SYNTAX, *c)
    assert_one_line(r.stderr, FAILED, r.exit_code, "the pass does not load: syntax_error.py:5: SyntaxError")
    assert r.stdout == ""
    # check: said before anything else, the pass's own frames only, commands (not tool names).
    r = invoke("check", SMALL_TASK, "--pass", SYNTAX)
    assert r.exit_code == FAILED and r.stderr == ""
    assert r.stdout.startswith("the pass does not load: syntax_error.py:5: SyntaxError")
    assert "importlib" not in r.stdout and "static checks: clean" not in r.stdout
    assert "passagent eval" in r.stdout and "evaluate_pass" not in r.stdout
    r = invoke("apply", SYNTAX, "--model-graph", SMALL_TASK, *c)
    assert_one_line(r.stderr, FAILED, r.exit_code, "the pass does not load")
    # A replacement of the wrong shape: it ran, and failed. check and apply agree with eval.
    for argv in (["eval", SMALL_TASK, "--pass", WRONG_SHAPE, *c, *FAST],
                 ["check", SMALL_TASK, "--pass", WRONG_SHAPE],
                 ["apply", WRONG_SHAPE, "--model-graph", SMALL_TASK, *c, *FAST]):
        r = invoke(*argv)
        assert r.exit_code == FAILED, (argv[0], r.exit_code, r.stdout[-1500:], r.stderr[-1500:])
        assert "Traceback" not in r.stderr and (r.exception is None or isinstance(r.exception, SystemExit))
    # The static checks refusing a pass: an integrity defence, 3 in check as in eval.
    r = invoke("check", SMALL_TASK, "--pass", str(TEST_PASSES / "exploits" / "patch_timer.py"))
    assert r.exit_code == INTEGRITY and "passagent eval would refuse" in r.stdout
    assert not any(workdir.iterdir())


def test_a_bug_is_one_line_naming_the_file_with_its_traceback(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import passagent.agent.report.build as report

    def broken(*_a, **_k):
        raise RuntimeError("boom: an unexpected state")

    monkeypatch.setattr(report, "write_report", broken)
    r = invoke("report", str(workdir))
    line = assert_one_line(r.stderr, ExitCode.SOFTWARE, r.exit_code, "internal error")
    path = Path(re.search(r"the traceback is in (\S+)", line).group(1))
    assert path.is_file() and path.is_relative_to(workdir.parent / "home-cache" / "crashes")
    text = path.read_text()
    assert "Traceback" in text and "RuntimeError: boom: an unexpected state" in text


def test_the_console_script_prints_one_line_for_a_device_it_lacks(tmp_path: Path) -> None:
    """The entry point itself (not the in-process runner): `check --device cuda` was a traceback."""
    proc = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", "check", SMALL_TASK, "--pass", GOOD,
                           "--device", NO_GPU], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert_one_line(proc.stderr, BAD, proc.returncode, f"--device {NO_GPU}")
    assert not any(tmp_path.iterdir())


def test_the_exit_code_table_is_documented(tmp_path: Path) -> None:
    from helpers import REPO

    doc = (REPO / "docs" / "cli.md").read_text()
    for code in ExitCode:
        assert re.search(rf"^\| {code.value} \| `{code.name}` \|", doc, re.M), f"docs/cli.md lacks {code!r}"
        assert code.__doc__ and code.__doc__ != ExitCode.__doc__, f"{code!r} has no docstring of its own"
    readme = (REPO / "README.md").read_text()
    assert "docs/cli.md" in readme


def test_report_prints_a_summary_that_fits_the_terminal() -> None:
    from passagent.agent.report.model import Metric, ModelRow
    from passagent.agent.report.tables import terminal_summary

    def row(name: str, ref: bool = False) -> ModelRow:
        m = Metric(0.91399207259, 0.81234, 1.0123)
        return ModelRow(model=name, tasks=12, runs=12, evaluated_tasks=11, as_={"eager": m, "inductor": m}, correct=m,
                        speedup={"eager": m, "inductor": m}, fast_1={"eager": m, "inductor": m}, cost_per_task=0.1,
                        tokens_per_task=100.0, steps_per_run=3.0, evaluations_per_run=2.0, ratio=m, reference=ref)

    rows = [row("compat:qwen2.5-coder-32b-instruct@http://localhost:8000/v1"), row("Inductor (default)", True)]
    for width in (60, 80, 200):
        text = terminal_summary(rows, width)
        assert all(len(line) <= width for line in text.splitlines()), (width, text)
        assert "0.914" in text and "0.91399" not in text, "rounded for people"
    assert "[0.812, 1.012]" in terminal_summary(rows, 200), "intervals where there is room"


def test_a_confirmed_best_says_both_numbers_wherever_it_is_shown() -> None:
    import io

    from rich.console import Console

    from passagent.agent.run.live import LiveView
    from passagent.agent.cli.solve import result_line

    result = {"best_as": 0.92970311, "best_step_as": 0.95551, "best_version": 3, "best_ratio_to_inductor": 0.99812,
              "best_scores": {"baseline": "eager", "correct_at_minus5": 1.0}, "versions_correct": 3}
    line = result_line(result)
    assert line.startswith("best AS: 0.930 (confirmed; the step measured 0.956) against eager")
    assert "AS / AS(Inductor) 0.998" in line and "0.9297" not in line
    assert "confirmed" not in result_line({**result, "best_step_as": 0.9297})
    view = LiveView("t", "m", console=Console(file=io.StringIO(), force_terminal=False, width=200))
    with view:
        view.update("model", {"messages": [{"tool_calls": [{"name": "evaluate_pass"}]}], "step": 1, "evaluations": 0})
        view.update("tools", {"step": 1, "evaluations": 1, "last_as": 0.95551, "best_as": 0.95551})
        view.finish(result)
    assert view.rows[-1][3] == "0.930 (confirmed; the step measured 0.956)"


def test_a_sweeps_exit_code_is_the_first_that_applies() -> None:
    import io

    from rich.console import Console

    from passagent.agent.run.runstate import Tally
    from passagent.agent.sweep.runner import SweepOutcome
    from passagent.agent.cli.sweep import _summarize

    def code(**kw) -> int:
        base = dict(sweep_dir=Path("/s/x"), total=4, finished=4, skipped=0, failed=[], interrupted=0, not_started=0,
                    stop_reason=None, spend=Tally(), wall_s=1.0, model_failures=[])
        return _summarize(SweepOutcome(**{**base, **kw}), Console(file=io.StringIO()))

    assert code() == ExitCode.OK
    assert code(model_failures=["t/m"]) == ExitCode.MODEL
    assert code(interrupted=1, finished=3) == ExitCode.TEMPFAIL  # a model outage left a run unfinished
    assert code(stop_reason="max_calls", not_started=2, finished=2, model_failures=["t/m"]) == ExitCode.TEMPFAIL
    assert code(failed=["t/m"], stop_reason="max_calls", not_started=1) == ExitCode.SOFTWARE
    assert code(stop_reason="interrupted", interrupted=2, failed=["t/m"]) == ExitCode.INTERRUPTED


# --- interruption ----------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_for_child(proc: subprocess.Popen[str], what: str, timeout: float = 240.0) -> list[int]:
    """Descendants of ``proc`` once one whose command line contains ``what`` runs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"it ended before {what} started: {proc.communicate()}"
        kids = descendants(proc.pid)
        for pid in kids:
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if what in cmd:
                return kids
        time.sleep(0.1)
    raise AssertionError(f"no {what} child within {timeout} s")


def _assert_gone(pids: list[int]) -> None:
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in pids if _alive(p)], "child processes outlived the interrupted command"


def _events(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]


def test_sigint_mid_solve_stops_children_keeps_every_event_and_resume_continues(tmp_path: Path,
                                                                                cache_root: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps([
        {"tool_calls": [{"name": "inspect_ir", "arguments": {"subgraph": 0}}]},   # interrupted here
        {"tool_calls": [{"name": "finish", "arguments": {"summary": "looked only"}}]},
    ]))
    out = tmp_path / "runs"
    argv = [sys.executable, "-m", "passagent.agent.cli.app", "solve", SMALL_TASK, "--model", f"scripted:{script}",
            "--out", str(out), "--run-id", "r1", "--cache-dir", str(tmp_path / "ir-cache"), *FAST, "--quiet"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Ctrl-C reaches the command, not its children (they run in sessions of their own).
    kids = _wait_for_child(proc, "passagent.tools.inspection.ir")
    time.sleep(1.0)  # well into the child's imports and compile
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    line = assert_one_line(stderr, ExitCode.INTERRUPTED, proc.returncode, "interrupted (SIGINT): run r1 stopped")
    assert f"--out {out} --run-id r1 --resume" in line and f"--model scripted:{script}" in line
    _assert_gone(kids)
    run = out / "r1" / "1" / "scripted_script"
    before = _events(run)  # every line parses: nothing torn
    assert [e["seq"] for e in before] == list(range(1, len(before) + 1))
    assert before[-1]["kind"] == "run_stopped" and before[-1]["reason"] == "interrupted"
    assert not (run / "result.json").exists()

    # The printed command resumes it: nothing lost, nothing repeated, the run finishes.
    command = shlex.split(line.split("resume it with: ", 1)[1])
    assert command[:2] == ["passagent", "solve"]
    resumed = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", *command[1:], "--quiet"],
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == FAILED, resumed.stderr[-2000:]  # finished, but no pass was evaluated
    assert "Traceback" not in resumed.stderr and "best AS: none" in resumed.stdout
    after = _events(run)
    assert after[: len(before)] == before, "every event recorded before the interrupt is kept as it was"
    ids = [e["id"] for e in after]
    assert len(ids) == len(set(ids)) and "s0:tool:0" in ids and "s1:model" in ids
    result = json.loads((run / "result.json").read_text())
    assert result["exit_reason"] == "finished" and result["versions_correct"] == 0


def test_sigterm_mid_eval_stops_its_workers_and_exits_130(tmp_path: Path, cache_root: Path) -> None:
    argv = [sys.executable, "-m", "passagent.agent.cli.app", "eval", SMALL_TASK, "--pass", GOOD,
            "--cache-dir", str(cache_root), *FAST]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    _wait_for_child(proc, "passagent.tools.")  # an evaluation's process, whatever its module
    time.sleep(1.0)
    kids = descendants(proc.pid)
    assert kids
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert_one_line(stderr, ExitCode.INTERRUPTED, proc.returncode, "interrupted (SIGTERM)")
    assert stdout == ""
    _assert_gone(kids)
    assert not any(tmp_path.iterdir())


def test_inspect_prints_what_the_agents_tools_show(workdir: Path, cache_root: Path) -> None:
    """``passagent inspect``: inspect_ir's and show_baseline's text for a model, from one inspection
    (the second view is served from the cache)."""
    r = invoke("inspect", SMALL_TASK, "--view", "all", "--cache-dir", str(cache_root))
    assert r.exit_code == OK, r.output
    assert "Subgraph [0]" in r.stdout and "Dynamo FX graph (what a pattern must match)" in r.stdout
    assert "torch.cat" in r.stdout and "normalize" in r.stdout and "## Nodes" in r.stdout
    r = invoke("inspect", SMALL_TASK, "--view", "baseline", "--cache-dir", str(cache_root))
    assert r.exit_code == OK, r.output
    assert r.stdout.startswith("Default Inductor on subgraph [0]") and "correctness against eager" in r.stdout
    assert not any(workdir.iterdir())


def test_time_prints_paired_speedups_and_is_not_a_score(workdir: Path, cache_root: Path) -> None:
    r = invoke("time", SMALL_TASK, "--pass", GOOD, *FAST, "--cache-dir", str(cache_root))
    assert r.exit_code == OK, r.output
    assert r.stdout.startswith("Quick timing of pass") and "not a score" in r.stdout and "passagent eval scores it" in r.stdout
    assert re.search(r"\[0\] \S+ \(float16\): correct, matches 1; eager [\d.]+ us, Inductor [\d.]+ us, yours [\d.]+ us -> "
                     r"[\d.]+x \[[\d.]+-[\d.]+\] vs eager, [\d.]+x \[[\d.]+-[\d.]+\] vs Inductor", r.stdout), r.stdout
    assert not any(workdir.iterdir())
