"""The solve loop end to end: the real LangGraph graph, real evaluations, a scripted model.

The scripted model is the project's documented test provider (``scripted:<file>``); what it
"says" is fixed by each test, and everything else (tools, harness, archive) is real.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import EXAMPLES, TEST_PASSES, passbench_task

from passagent.agent.run.loop import SolveConfig
from passagent.agent.providers import ScriptedModel
from passagent.agent.run.solve import solve
from passagent.tools.evaluation.evaluate import EvalOptions
from passagent.tools.measure.timing import TimingConfig

GOOD = (EXAMPLES / "b511_skip_single_cat.py").read_text()
BAD = (TEST_PASSES / "wrong_maths.py").read_text()
SMALL_TASK = str(passbench_task("b511") / "graphs" / "1")


def fast_options(cache_root: Path) -> EvalOptions:
    return EvalOptions(cache_root=cache_root, timing=TimingConfig(warmup=1, min_calls=3, max_calls=20, budget_s=0.1))


def call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def turn(*calls: dict, text: str = "") -> dict:
    return {"text": text, "tool_calls": list(calls)}


def events(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]


def test_scripted_run_keeps_the_best_pass_and_stops_on_patience(tmp_path: Path, cache_root: Path) -> None:
    model = ScriptedModel([
        turn(call("list_subgraphs")),
        turn(call("inspect_ir", subgraph=0)),
        turn(call("write_pass", source=BAD), call("evaluate_pass")),    # v1: wrong maths
        turn(call("write_pass", source=GOOD), call("evaluate_pass")),   # v2: correct and faster
        turn(call("write_pass", source=BAD), call("evaluate_pass")),    # v3: worse
        turn(call("evaluate_pass")),                                    # v4: worse -> patience 2
        turn(call("finish", summary="never reached")),
    ])
    result = solve(SMALL_TASK, out=tmp_path, run_id="r1", client=model,
                   config=SolveConfig(patience=2), eval_options=fast_options(cache_root))
    assert result["exit_reason"] == "patience"
    assert result["evaluations"] == 4 and result["best_version"] == 2
    assert result["best_subgraphs"][0]["status"] == "correct"
    run = tmp_path / "r1" / "1" / "scripted"
    assert (run / "best_pass.py").read_text() == GOOD, "the best version is kept, not the last"
    evs = events(run)
    evals = [e for e in evs if e.get("version") is not None]
    assert [e["version"] for e in evals] == [1, 2, 3, 4]
    assert evals[0]["evaluation"]["subgraphs"][0]["status"] == "accuracy"
    assert evals[1]["evaluation"]["subgraphs"][0]["status"] == "correct"
    assert evals[1]["pass_sources"] == {"main": GOOD}
    assert (run / "passes" / "v001" / "main.py").read_text() == BAD
    assert evs[-1]["kind"] == "run_end"
    config = json.loads((run / "config.json").read_text())
    assert config["solve"]["patience"] == 2 and config["model"]["provider"] == "scripted"


def test_bad_replies_are_reported_to_the_model_and_repeated_ones_end_the_run(tmp_path: Path, cache_root: Path) -> None:
    model = ScriptedModel([
        turn(call("no_such_tool")),                                   # unknown tool: told, loop continues
        turn(call("list_subgraphs")),
        {"text": "thinking out loud, no tool"},                       # format error 1
        turn({"name": "inspect_ir", "raw_arguments": '{"subgraph": '}),  # format error 2
        {"text": ""},                                                 # format error 3 -> end
    ])
    result = solve(SMALL_TASK, out=tmp_path, run_id="r2", client=model, eval_options=fast_options(cache_root))
    assert result["exit_reason"] == "format_errors"
    run = tmp_path / "r2" / "1" / "scripted"
    evs = events(run)
    unknown = next(e for e in evs if e["id"] == "s0:tool:0")
    assert unknown["is_error"] and "unknown tool 'no_such_tool'" in unknown["result"]
    assert [e["kind"] for e in evs if e["kind"] == "format_error"] == ["format_error", "format_error"]
    malformed = next(e for e in evs if e["id"] == "s3:tool:0")
    assert malformed["format_error"] and "not a JSON object" in malformed["result"]
    # What the model was told comes back in its next request.
    told = [m.content for m in model.requests[3] if m.role == "user"]
    assert any("called no tool" in t for t in told)


def test_step_budget_ends_the_run(tmp_path: Path, cache_root: Path) -> None:
    model = ScriptedModel([turn(call("list_subgraphs"))] * 5)
    result = solve(SMALL_TASK, out=tmp_path, run_id="r3", client=model,
                   config=SolveConfig(max_steps=2), eval_options=fast_options(cache_root))
    assert result["exit_reason"] == "max_steps" and result["steps"] == 2
    assert result["best_as"] is None


def test_finish_ends_the_run_with_its_summary(tmp_path: Path, cache_root: Path) -> None:
    model = ScriptedModel([turn(call("finish", summary="nothing to do"))])
    result = solve(SMALL_TASK, out=tmp_path, run_id="r4", client=model, eval_options=fast_options(cache_root))
    assert result["exit_reason"] == "finished" and result["summary"] == "nothing to do"


def test_existing_run_is_not_overwritten(tmp_path: Path, cache_root: Path) -> None:
    from passagent.tools.errors import PassagentError

    model = ScriptedModel([turn(call("finish", summary="x"))])
    solve(SMALL_TASK, out=tmp_path, run_id="same", client=model, eval_options=fast_options(cache_root))
    with pytest.raises(PassagentError, match="already holds a run"):
        solve(SMALL_TASK, out=tmp_path, run_id="same", client=model, eval_options=fast_options(cache_root))


# --- kill and resume -------------------------------------------------------------------------


def _cli(*args: str, cache_root: Path) -> list[str]:
    return [sys.executable, "-m", "passagent.agent.cli.app", "solve", *args, "--cache-dir", str(cache_root),
            "--timing-budget", "0.1", "--quiet"]


def test_sigkill_mid_run_then_resume_loses_and_duplicates_nothing(tmp_path: Path, cache_root: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps([
        turn(call("list_subgraphs")),
        turn(call("write_pass", source=GOOD), call("evaluate_pass")),
        turn(call("evaluate_pass")),
        turn(call("write_pass", source=BAD), call("evaluate_pass")),
        turn(call("evaluate_pass")),
        turn(call("finish", summary="done")),
    ]))
    out = tmp_path / "runs"
    args = _cli(SMALL_TASK, "--model", f"scripted:{script}", "--out", str(out), "--run-id", "k1",
                "--patience", "10", cache_root=cache_root)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    run = out / "k1" / "1" / "scripted_script"
    deadline = time.monotonic() + 300
    # Kill once the first evaluation is on record: the second one is then being computed.
    while time.monotonic() < deadline:
        if (run / "events.jsonl").exists() and any(e.get("version") == 1 for e in events(run)):
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = events(run)
    assert not (run / "result.json").exists(), "the run must have been killed before it finished"

    resumed = subprocess.run(_cli(SMALL_TASK, "--model", f"scripted:{script}", "--out", str(out), "--run-id", "k1",
                                  "--resume", cache_root=cache_root), capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert "best AS: " in resumed.stdout and "correct@-5 " in resumed.stdout, resumed.stdout
    after = events(run)
    ids = [e["id"] for e in after]
    assert len(ids) == len(set(ids)), "no event is duplicated"
    assert [e["seq"] for e in after] == list(range(1, len(after) + 1))
    assert after[: len(before)] == before, "nothing recorded before the kill is lost or rewritten"
    assert [e["version"] for e in after if e.get("version") is not None] == [1, 2, 3, 4], "each evaluation ran once"
    expected_steps = {f"s{k}:model" for k in range(6)}
    assert expected_steps <= set(ids)
    result = json.loads((run / "result.json").read_text())
    assert result["exit_reason"] == "finished" and result["best_version"] in (1, 2)
    # Resuming a finished run changes nothing.
    again = subprocess.run(_cli(SMALL_TASK, "--model", f"scripted:{script}", "--out", str(out), "--run-id", "k1",
                                "--resume", cache_root=cache_root), capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert events(run) == after


def test_unknown_model_is_a_one_line_error_before_any_work(tmp_path: Path, cache_root: Path) -> None:
    proc = subprocess.run(_cli(SMALL_TASK, "--model", "no-such-model", "--out", str(tmp_path), cache_root=cache_root),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "no-such-model" in lines[0]
    assert not any(tmp_path.iterdir()), "nothing is written before the error"


def test_missing_api_key_is_a_one_line_error(tmp_path: Path, cache_root: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    proc = subprocess.run(_cli(SMALL_TASK, "--model", "openai:gpt-test", "--out", str(tmp_path), cache_root=cache_root),
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 2 and "OPENAI_API_KEY" in proc.stderr


def test_live_view_off_a_terminal_ends_its_last_line() -> None:
    import io

    from rich.console import Console

    from passagent.agent.run.live import LiveView

    buf = io.StringIO()
    with LiveView("task_000", "builtin", console=Console(file=buf, force_terminal=False, width=100)):
        pass
    assert buf.getvalue().endswith("\n"), repr(buf.getvalue()[-80:])


def test_live_view_shows_each_steps_own_evaluation_only() -> None:
    import io

    from rich.console import Console

    from passagent.agent.run.live import LiveView

    buf = io.StringIO()
    view = LiveView("task_000", "builtin", console=Console(file=buf, force_terminal=False, width=120))
    call = {"messages": [{"tool_calls": [{"name": "evaluate_pass"}]}]}
    look = {"messages": [{"tool_calls": [{"name": "read_pass"}]}]}
    with view:
        view.update("model", {**call, "step": 1, "evaluations": 0, "last_as": None})
        view.update("tools", {"step": 1, "evaluations": 1, "last_as": 1.2345, "best_as": 1.2345})
        view.update("model", {**look, "step": 2, "evaluations": 1, "last_as": 1.2345, "best_as": 1.2345})
        view.update("tools", {"step": 2, "evaluations": 1, "last_as": 1.2345, "best_as": 1.2345})
    assert view.rows[0][2] == f"{1.2345:.3f}", "AS for people: three decimals"
    assert view.rows[1][:3] == ("2", "read_pass", "-"), "a step that evaluated nothing shows no AS of its own"


def test_the_printed_summary_keeps_square_brackets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The policy labels rules "`Rule` [library form]"; printed through Rich, that is text, not markup."""
    from passagent.agent.cli.solve import print_solve_result

    result = {"run_id": "r", "task_id": "task_109", "model": "builtin", "best_as": 0.18, "best_version": 1,
              "best_scores": {}, "exit_reason": "finished", "steps": 10, "evaluations": 1, "cost_usd": 0.0, "wall_s": 14.0,
              "summary": "Kept `NegAsMulByMinusOne` [library form]: the negation ... [bold]x[/bold]",
              "error": "bad [red] value"}
    print_solve_result(result, tmp_path)
    out = capsys.readouterr().out
    assert "`NegAsMulByMinusOne` [library form]:" in out and "[bold]x[/bold]" in out and "bad [red] value" in out
