"""Frontier models end to end: the real ``passagent solve`` CLI and the real ``openai`` and
``anthropic`` SDKs against local servers that enforce the services' rules (``wire_rules``: each
rule cites its public source) and play outages.

Episodes: ``gpt-x`` over the Responses API with reasoning items carried back, ``claude-x`` with
adaptive thinking, a ``compat:`` model that writes its tool calls as Hermes text; plus truncated
replies, refusals, model errors and overloads (survived, or stopped resumable).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_llm_server import FakeLLMServer
from helpers import EXAMPLES, passbench_task
from wire_rules import AnthropicRules, OpenAIRules, hermes_text_completion

from passagent.agent.run.runstate import load_run

GOOD = (EXAMPLES / "b511_skip_single_cat.py").read_text()
SMALL_TASK = str(passbench_task("b511") / "graphs" / "1")
OPENAI_KEY = "sk-test-openai-0123456789"
ANTHROPIC_KEY = "sk-ant-test-0123456789"


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        srv.models = ["gpt-5.5", "claude-opus-4-7", "qwen2.5-coder-7b"]
        yield srv


def models_file(tmp_path: Path, server: FakeLLMServer, *, overload_budget_s: float = 600.0) -> Path:
    """The packaged entries' settings, pointed at the local server."""
    path = tmp_path / "models.toml"
    path.write_text(f"""
[models.gpt-x]
provider = "openai"
model = "gpt-5.5"
base_url = "{server.url}/v1"
reasoning_effort = "medium"
temperature = 0.2
max_tokens = 32000
overload_budget_s = {overload_budget_s}
price = {{ input = 5.00, cached_input = 0.50, output = 30.00 }}

[models.claude-x]
provider = "anthropic"
model = "claude-opus-4-7"
base_url = "{server.url}"
thinking = "adaptive"
effort = "high"
temperature = 0.3
max_tokens = 16000
prompt_cache = true
overload_budget_s = {overload_budget_s}
price = {{ input = 5.00, cached_input = 0.50, cache_write = 6.25, output = 25.00 }}

[models.local-qwen]
provider = "compat"
model = "qwen2.5-coder-7b"
base_url = "{server.url}/v1"
max_tokens = 4096
context_window = 32768
""")
    return path


def solve_cli(tmp_path: Path, cache_root: Path, model: str, mfile: Path, *extra: str,
              run_id: str = "e1") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": OPENAI_KEY, "ANTHROPIC_API_KEY": ANTHROPIC_KEY}
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "PASSAGENT_MODELS_FILE"):
        env.pop(var, None)
    args = [sys.executable, "-m", "passagent.agent.cli.app", "solve", SMALL_TASK, "--model", model,
            "--models-file", str(mfile), "--out", str(tmp_path / "runs"), "--run-id", run_id,
            "--cache-dir", str(cache_root), "--timing-budget", "0.1", "--quiet", *extra]
    return subprocess.run(args, capture_output=True, text=True, timeout=900, env=env)


def run_folder(tmp_path: Path, model: str, run_id: str = "e1") -> Path:
    return tmp_path / "runs" / run_id / "1" / model


def episode() -> list[tuple[str, dict]]:
    """inspect, write, evaluate, finish: one tool call per step."""
    return [("list_subgraphs", {}), ("write_pass", {"source": GOOD}), ("evaluate_pass", {}),
            ("finish", {"summary": "skip the single-input cat"})]


def assert_finished_with_a_score(proc: subprocess.CompletedProcess[str], run: Path) -> dict:
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads((run / "result.json").read_text())
    assert result["exit_reason"] == "finished" and result["evaluations"] == 1
    assert result["best_as"] is not None and result["best_subgraphs"][0]["status"] == "correct"
    return result


# --- full episodes ---------------------------------------------------------------------------


def test_gpt_x_episode_over_the_responses_api_carries_reasoning(tmp_path: Path, cache_root: Path,
                                                                  server: FakeLLMServer) -> None:
    rules = OpenAIRules()
    server.rules = rules
    replies = [rules.reply([call]) for call in episode()]
    for r in replies:
        server.reply(r)
    proc = solve_cli(tmp_path, cache_root, "gpt-x", models_file(tmp_path, server))
    result = assert_finished_with_a_score(proc, run_folder(tmp_path, "gpt-x"))
    posts = server.posts()
    assert [p.path for p in posts] == ["/v1/responses"] * 4 and server.rejected() == []
    first = posts[0].body
    assert first["store"] is False and first["include"] == ["reasoning.encrypted_content"]
    assert first["reasoning"] == {"effort": "medium"} and first["max_output_tokens"] == 32000
    assert "temperature" not in first and "max_tokens" not in first
    assert first["instructions"].startswith("You are an expert PyTorch compiler engineer")
    assert {t["name"] for t in first["tools"]} >= {"write_pass", "evaluate_pass", "finish"}
    # Every earlier reasoning item goes back unchanged, right before its function call.
    last_input = posts[3].body["input"]
    for reply in replies[:3]:
        reasoning, call = reply["output"][0], reply["output"][1]
        i = last_input.index(reasoning)
        assert last_input[i + 1] == call
    outputs = [it for it in last_input if it.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == [r["output"][1]["call_id"] for r in replies[:3]]
    assert "temperature not sent" in proc.stderr  # told once
    assert proc.stderr.count("temperature not sent") == 1
    # 4 calls x (1200 in at $5/M + 300 out at $30/M)
    assert result["cost_usd"] == pytest.approx(4 * (1200 * 5 + 300 * 30) / 1e6)


def test_claude_x_episode_with_adaptive_thinking(tmp_path: Path, cache_root: Path, server: FakeLLMServer) -> None:
    rules = AnthropicRules()
    server.rules = rules
    steps = episode()
    replies = [rules.reply([steps[0]], text="Let me look."), rules.reply([steps[1]], text=" \n"),
               rules.reply([steps[2]]), rules.reply([steps[3]], text="Done.")]
    for r in replies:
        server.reply(r)
    proc = solve_cli(tmp_path, cache_root, "claude-x", models_file(tmp_path, server))
    assert_finished_with_a_score(proc, run_folder(tmp_path, "claude-x"))
    posts = server.posts()
    assert len(posts) == 4 and server.rejected() == []
    first = posts[0].body
    assert first["thinking"] == {"type": "adaptive"} and first["output_config"] == {"effort": "high"}
    assert "temperature" not in first and "top_p" not in first
    assert "temperature not sent" in proc.stderr
    last = posts[3].body["messages"]
    assistants = [m for m in last if m["role"] == "assistant"]
    assert [a["content"][0] for a in assistants] == [r["content"][0] for r in replies[:3]], \
        "each thinking block goes back first and unchanged, signature included"
    assert all(b.get("text", "x").strip() for a in assistants for b in a["content"]), "no whitespace-only text"
    assert last[-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}


def test_compat_model_with_tool_calls_as_text_and_no_usage(tmp_path: Path, cache_root: Path,
                                                           server: FakeLLMServer) -> None:
    server.reply(hermes_text_completion([], text="ok"))  # the probe before the run
    for name, args in episode():
        server.reply(hermes_text_completion([(name, args)], text="Next step."))
    proc = solve_cli(tmp_path, cache_root, "local-qwen", models_file(tmp_path, server))
    result = assert_finished_with_a_score(proc, run_folder(tmp_path, "local-qwen"))
    assert [p.path for p in server.posts()] == ["/v1/chat/completions"] * 5
    probe, first = server.posts()[0].body, server.posts()[1].body
    assert probe["max_tokens"] == 64 and probe["tools"] == first["tools"], "the probe sends the run's real tools"
    # No usage from the server: estimated locally, so --max-tokens keeps working.
    assert result["input_tokens"] > 1000 and result["output_tokens"] > len(GOOD) // 4
    assert first["max_tokens"] == 4096 and "max_completion_tokens" not in first


def test_a_server_that_cannot_serve_the_tools_is_a_one_line_error_before_any_work(
        tmp_path: Path, cache_root: Path, server: FakeLLMServer) -> None:
    # llama.cpp without chat templates: "500 tools param requires --jinja flag" (defilantech/LLMKube#126)
    server.reply({"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}},
                 status=500)
    proc = solve_cli(tmp_path, cache_root, "local-qwen", models_file(tmp_path, server))
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "tools param requires --jinja flag" in lines[0], proc.stderr
    assert not (tmp_path / "runs").exists(), "nothing is written before the error"


# --- endings ---------------------------------------------------------------------------------


def test_truncated_tool_call_is_not_executed_and_the_model_is_told(tmp_path: Path, cache_root: Path,
                                                                   server: FakeLLMServer) -> None:
    rules = OpenAIRules()
    server.rules = rules
    cut = '{"source": "import torch\\n\\ndef pattern(x'
    server.reply(rules.reply([("write_pass", cut)], status="incomplete", incomplete_reason="max_output_tokens"))
    server.reply(rules.reply([("finish", {"summary": "gave up"})]))
    proc = solve_cli(tmp_path, cache_root, "gpt-x", models_file(tmp_path, server))
    assert proc.returncode == 1, proc.stderr[-2000:]  # finished, but no pass was evaluated (docs/cli.md)
    run = run_folder(tmp_path, "gpt-x")
    assert not (run / "workspace" / "main.py").exists(), "the cut-off write_pass was never executed"
    events = [json.loads(x) for x in (run / "events.jsonl").read_text().splitlines()]
    assert not any(e["kind"] == "tool_result" and e["step"] == 0 for e in events)
    feedback = [it for it in server.posts()[1].body["input"] if it.get("type") == "function_call_output"]
    assert len(feedback) == 1 and "output limit" in feedback[0]["output"] and "NOT executed" in feedback[0]["output"]


def test_refusal_ends_the_run_with_its_own_exit_reason_and_code(tmp_path: Path, cache_root: Path,
                                                                server: FakeLLMServer) -> None:
    rules = AnthropicRules()
    server.rules = rules
    server.reply(rules.reply([], text="I can't help with that.", stop_reason="refusal", thinking=False))
    proc = solve_cli(tmp_path, cache_root, "claude-x", models_file(tmp_path, server))
    assert proc.returncode == 4, proc.stderr[-2000:]  # model-side failure (docs/cli.md)
    result = json.loads((run_folder(tmp_path, "claude-x") / "result.json").read_text())
    assert result["exit_reason"] == "refusal" and "I can't help with that." in result["error"]


def test_model_error_exits_non_zero(tmp_path: Path, cache_root: Path, server: FakeLLMServer) -> None:
    server.reply({"error": {"message": "You exceeded your current quota, please check your plan and billing details.",
                            "type": "insufficient_quota", "param": None, "code": "insufficient_quota"}}, status=429)
    proc = solve_cli(tmp_path, cache_root, "gpt-x", models_file(tmp_path, server))
    assert proc.returncode == 4, proc.stderr[-2000:]  # model-side failure (docs/cli.md)
    result = json.loads((run_folder(tmp_path, "gpt-x") / "result.json").read_text())
    assert result["exit_reason"] == "model_error" and "not retried" in result["error"]
    assert len(server.posts()) == 1, "insufficient_quota is never retried"


# --- outages ---------------------------------------------------------------------------------

OVERLOADED = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


def test_claude_x_survives_a_70_second_overload(tmp_path: Path, cache_root: Path, server: FakeLLMServer) -> None:
    """529 with Retry-After 10 s for 70 s of real time: the old policy (6 attempts, ~33 s) gave up
    after 6 answers; the wall-clock budget (600 s) waits the outage out."""
    rules = AnthropicRules()
    server.rules = rules
    server.reply(rules.reply([("list_subgraphs", {})]))
    server.reply(rules.reply([("finish", {"summary": "listed"})], text="Done."))
    server.outage(70.0, 529, OVERLOADED, {"retry-after": "10"})
    proc = solve_cli(tmp_path, cache_root, "claude-x", models_file(tmp_path, server))
    assert proc.returncode == 1, proc.stderr[-2000:]  # finished; it evaluated no pass (docs/cli.md)
    result = json.loads((run_folder(tmp_path, "claude-x") / "result.json").read_text())
    assert result["exit_reason"] == "finished"
    overloaded = [p for p in server.posts() if p.answered == 529]
    assert len(overloaded) >= 7, "more overload answers than the old 6-attempt limit allowed"
    assert overloaded[-1].time - overloaded[0].time >= 60


def test_overload_past_the_budget_stops_resumable_and_resume_finishes(tmp_path: Path, cache_root: Path,
                                                                     server: FakeLLMServer) -> None:
    rules = OpenAIRules()
    server.rules = rules
    mfile = models_file(tmp_path, server, overload_budget_s=2.0)
    server.reply(rules.reply([("list_subgraphs", {})]))
    server.reply(rules.reply([("finish", {"summary": "after the outage"})]))
    server.outage(3600.0, 503, {"error": {"message": "The server is overloaded", "type": "server_error",
                                          "param": None, "code": None}}, {"retry-after": "1"})
    proc = solve_cli(tmp_path, cache_root, "gpt-x", mfile)
    assert proc.returncode == 75, proc.stderr[-2000:]
    assert "resumable" in proc.stderr and "--resume" in proc.stderr
    run = run_folder(tmp_path, "gpt-x")
    assert load_run(run).status == "partial", "no result.json: a sweep sees an unfinished run, never a failure"
    server.end_outage()
    again = solve_cli(tmp_path, cache_root, "gpt-x", mfile, "--resume")
    assert again.returncode == 1, again.stderr[-2000:]  # finished; it evaluated no pass (docs/cli.md)
    result = json.loads((run / "result.json").read_text())
    assert result["exit_reason"] == "finished" and result["summary"] == "after the outage"
    events = [json.loads(x) for x in (run / "events.jsonl").read_text().splitlines()]
    kinds = [e["kind"] for e in events]
    assert "model_unavailable" in kinds and "run_stopped" in kinds
    assert [e["id"] for e in events if e["kind"] == "model_response"] == ["s0:model", "s1:model"]


def test_the_prompt_names_the_device_the_evaluations_lease() -> None:
    from passagent.agent.run.prompting import render
    from passagent.agent.run.solve import prompt_device
    from passagent.tools.evaluation.evaluate import EvalOptions

    assert prompt_device(EvalOptions(device="cpu", device_pool=["cuda:0"])) == "cuda:0"
    assert prompt_device(EvalOptions(device_pool=["cuda:0", "cuda:1"])) == "one of cuda:0, cuda:1 (whichever is free)"
    assert prompt_device(EvalOptions(device_pool=["cpu:0", "cpu:1"])) == "cpu"
    assert prompt_device(EvalOptions(device="cuda:2")) == "cuda:2"
    system = render("system.md.j2", device="cuda:0", baseline="eager", failure_penalty=0.0, patience=3,
                    max_steps=40, budget_usd=None, discard_regressions=True)
    assert "TorchInductor on\n`cuda:0`" in system
