"""Providers against local servers that enforce the services' documented and publicly reported
rules (``wire_rules``, each rule citing its source), through the real SDKs: what is sent, what
is carried back, what is retried, and that each rule bites when it is broken.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_llm_server import FakeLLMServer
from wire_rules import AnthropicRules, DeepSeekRules, OpenAIRules, hermes_text_completion

from passagent.agent.run.context import fit_to_window
from passagent.agent.protocols import (
    ContextTooLong,
    Message,
    ModelError,
    ModelUnavailable,
    ToolSpec,
)
from passagent.agent.providers import RetryPolicy, resolve_model
from passagent.agent.providers.openai_chat import parse_text_tool_calls

TOOLS = [ToolSpec(name="write_pass", description="Write the pass.",
                  parameters={"type": "object", "properties": {"source": {"type": "string"}}, "required": ["source"]})]
SYSTEM = Message(role="system", content="You write passes.")
TASK = Message(role="user", content="Task t1.")


class FakeClock:
    def __init__(self) -> None:
        self.now, self.sleeps = 0.0, []

    def sleep(self, s: float) -> None:
        self.sleeps.append(s)
        self.now += s

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeLLMServer]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "PASSAGENT_MODELS_FILE", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    with FakeLLMServer() as srv:
        yield srv


def client(server: FakeLLMServer, tmp_path: Path, body: str, clock: FakeClock | None = None, max_attempts: int = 6):
    path = tmp_path / "m.toml"
    path.write_text(body.replace("URL", server.url))
    clock = clock or FakeClock()
    name = body.split("[models.")[1].split("]")[0]
    return resolve_model(name, path, retry=RetryPolicy(max_attempts=max_attempts, base_wait_s=0.01, sleep=clock.sleep,
                                                       clock=clock, overload_budget_s=600))


GPT = """[models.gpt]
provider = "openai"
model = "gpt-5.5"
base_url = "URL/v1"
reasoning_effort = "high"
top_p = 0.9
max_tokens = 2000
price = { input = 5.0, output = 30.0 }
"""

CLAUDE = """[models.claude]
provider = "anthropic"
model = "claude-opus-4-7"
base_url = "URL"
thinking = "adaptive"
effort = "medium"
max_tokens = 4000
"""


def step(c, history: list[Message]) -> Message:
    response = c.complete(history, TOOLS)
    history.append(response.message)
    for call in response.message.tool_calls:
        history.append(Message(role="tool", content="ok: written", tool_call_id=call.id, name=call.name))
    return response.message


# --- OpenAI Responses ------------------------------------------------------------------------


def test_reasoning_model_defaults_to_the_responses_api_and_carries_reasoning(server, tmp_path) -> None:
    rules = OpenAIRules()
    server.rules = rules
    c = client(server, tmp_path, GPT)
    first = rules.reply([("write_pass", {"source": "a"})])
    server.reply(first)
    server.reply(rules.reply([("write_pass", {"source": "b"})]))
    server.reply(rules.reply([], text="done"))
    history = [SYSTEM, TASK]
    for _ in range(3):
        step(c, history)
    assert server.rejected() == [] and [p.path for p in server.posts()] == ["/v1/responses"] * 3
    sent = server.posts()[2].body
    assert sent["input"][1] == first["output"][0], "the reasoning item goes back byte for byte"
    assert sent["input"][2] == first["output"][1] and sent["input"][3]["type"] == "function_call_output"
    assert "top_p" not in sent and sent["reasoning"] == {"effort": "high"} and sent["max_output_tokens"] == 2000
    assert history[-1].content == "done"


def test_the_reasoning_item_rule_bites_when_it_is_not_carried(server, tmp_path) -> None:
    rules = OpenAIRules()
    server.rules = rules
    c = client(server, tmp_path, GPT)
    server.reply(rules.reply([("write_pass", {"source": "a"})]))
    history = [SYSTEM, TASK]
    step(c, history)
    history[2] = history[2].model_copy(update={"provider_content": None})  # as a provider that drops it would
    server.reply(rules.reply([], text="never"))
    with pytest.raises(ModelError, match="without its required 'reasoning' item"):
        c.complete(history, TOOLS)


def test_chat_completions_with_tools_and_effort_is_what_the_service_rejects(server, tmp_path) -> None:
    server.rules = OpenAIRules()
    c = client(server, tmp_path, GPT.replace('provider = "openai"', 'provider = "openai"\napi = "chat"'))
    with pytest.raises(ModelError, match="Please use /v1/responses instead"):
        c.complete([SYSTEM, TASK], TOOLS)


def test_responses_usage_and_long_context_price(server, tmp_path) -> None:
    rules = OpenAIRules()
    server.rules = rules
    c = client(server, tmp_path, GPT.replace("price = { input = 5.0, output = 30.0 }",
                                             "price = { input = 5.0, output = 30.0, long_context_above = 272000, "
                                             "long_context = { input = 10.0, output = 45.0 } }"))
    server.reply(rules.reply([], text="x", input_tokens=300_000, output_tokens=1000, reasoning_tokens=800))
    r = c.complete([SYSTEM, TASK], TOOLS)
    assert r.usage.reasoning_tokens == 800 and r.usage.output_tokens == 1000
    assert r.usage.cost_usd == pytest.approx((300_000 * 10 + 1000 * 45) / 1e6)


# --- Anthropic thinking ----------------------------------------------------------------------


def test_thinking_blocks_go_back_verbatim_and_blank_text_never_does(server, tmp_path) -> None:
    rules = AnthropicRules()
    server.rules = rules
    c = client(server, tmp_path, CLAUDE)
    first = rules.reply([("write_pass", {"source": "a"})], text="\n\n")
    server.reply(first)
    server.reply(rules.reply([], text="done"))
    history = [SYSTEM, TASK]
    step(c, history)
    step(c, history)
    assert server.rejected() == []
    sent = server.posts()[1].body
    assert sent["thinking"] == {"type": "adaptive"} and sent["output_config"] == {"effort": "medium"}
    assistant = sent["messages"][1]["content"]
    assert assistant[0] == first["content"][0] and [b["type"] for b in assistant] == ["thinking", "tool_use"]


def test_the_thinking_rule_bites_when_blocks_are_dropped(server, tmp_path) -> None:
    rules = AnthropicRules()
    server.rules = rules
    c = client(server, tmp_path, CLAUDE)
    server.reply(rules.reply([("write_pass", {"source": "a"})], text="writing"))
    history = [SYSTEM, TASK]
    step(c, history)
    history[2] = history[2].model_copy(update={"provider_content": None})
    with pytest.raises(ModelError, match="a final `assistant` message must start with a thinking block"):
        c.complete(history, TOOLS)


def test_sampling_parameters_go_in_the_body_without_thinking_and_not_at_all_with_it(server, tmp_path) -> None:
    rules = AnthropicRules()
    server.rules = rules
    plain = client(server, tmp_path, CLAUDE.replace('thinking = "adaptive"\neffort = "medium"\n', "temperature = 0.2\n")
                   .replace("claude-opus-4-7", "claude-haiku-4-5"))
    server.reply(rules.reply([], text="hi", thinking=False))
    plain.complete([SYSTEM, TASK], TOOLS)  # the 2.x SDK has no temperature keyword: no TypeError
    assert server.posts()[-1].body["temperature"] == 0.2
    thinking = client(server, tmp_path, CLAUDE.replace("max_tokens = 4000", "max_tokens = 4000\ntop_p = 0.9"))
    server.reply(rules.reply([], text="hi"))
    r = thinking.complete([SYSTEM, TASK], TOOLS)
    assert "top_p" not in server.posts()[-1].body and any("top_p not sent" in n for n in r.notices)
    assert r.message.provider_content["content"][0]["type"] == "thinking"


def test_refusal_and_max_tokens_are_read(server, tmp_path) -> None:
    rules = AnthropicRules()
    server.rules = rules
    c = client(server, tmp_path, CLAUDE)
    server.reply(rules.reply([], text="I won't.", stop_reason="refusal"))
    r = c.complete([SYSTEM, TASK], TOOLS)
    assert r.refusal == "I won't." and not r.truncated
    server.reply(rules.reply([("write_pass", {"source": "par"})], stop_reason="max_tokens"))
    r = c.complete([SYSTEM, TASK], TOOLS)
    assert r.truncated and r.refusal is None


# --- compatible servers ----------------------------------------------------------------------

COMPAT = """[models.ds]
provider = "compat"
model = "deepseek-reasoner"
base_url = "URL/v1"
"""


def test_reasoning_content_is_carried_back(server, tmp_path) -> None:
    rules = DeepSeekRules()
    server.rules = rules
    c = client(server, tmp_path, COMPAT)
    rules.issued["call_1"] = "I should write the pass."
    server.reply({"id": "x", "object": "chat.completion", "created": 0, "model": "deepseek-reasoner",
                  "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                      "role": "assistant", "content": "", "reasoning_content": "I should write the pass.",
                      "tool_calls": [{"id": "call_1", "type": "function",
                                      "function": {"name": "write_pass", "arguments": '{"source": "a"}'}}]}}],
                  "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
    server.reply(hermes_text_completion([], text="done", usage=True))
    history = [SYSTEM, TASK]
    step(c, history)
    step(c, history)
    assert server.rejected() == []
    assert server.posts()[1].body["messages"][2]["reasoning_content"] == "I should write the pass."


def test_tool_calls_written_as_text_are_parsed_and_tokens_estimated(server, tmp_path) -> None:
    c = client(server, tmp_path, COMPAT)
    server.reply(hermes_text_completion([("write_pass", {"source": "def pattern(x): ..."})], text="Plan."))
    r = c.complete([SYSTEM, TASK], TOOLS)
    assert [(t.name, t.arguments) for t in r.message.tool_calls] == [("write_pass", {"source": "def pattern(x): ..."})]
    assert r.message.content == "Plan." and r.usage.estimated and r.usage.input_tokens > 0
    text, calls = parse_text_tool_calls('<tool_call>{"name": "x", "arguments": {bad}</tool_call>', 3)
    assert calls[0].arguments is None and "not valid JSON" in calls[0].parse_error and text == ""


# --- errors and retries ----------------------------------------------------------------------


def test_overload_is_retried_for_the_wall_clock_budget_then_unavailable(server, tmp_path) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    clock = FakeClock()
    c = client(server, tmp_path, CLAUDE, clock)
    for _ in range(20):  # 20 x Retry-After 10 s = 200 s: past the old 6-attempt limit, within 600 s
        server.reply(overloaded, status=529, headers={"retry-after": "10"})
    server.reply(AnthropicRules().reply([], text="back"))
    assert c.complete([SYSTEM, TASK], TOOLS).attempts == 21 and clock.sleeps == [10.0] * 20
    for _ in range(70):
        server.reply(overloaded, status=529, headers={"retry-after": "10"})
    with pytest.raises(ModelUnavailable, match="still overloaded after 600 s"):
        c.complete([SYSTEM, TASK], TOOLS)
    assert clock.sleeps[20:] == [10.0] * 60


def test_quota_and_spend_limits_are_not_retried(server, tmp_path) -> None:
    c = client(server, tmp_path, CLAUDE)
    server.reply({"type": "error", "error": {"type": "rate_limit_error", "message": "spend limit reached",
                                             "details": {"error_code": "enforced_spend_limit_reached"}}}, status=429)
    with pytest.raises(ModelError, match="not retried"):
        c.complete([SYSTEM, TASK], TOOLS)
    assert len(server.posts()) == 1


def test_context_length_errors_are_their_own_kind(server, tmp_path) -> None:
    c = client(server, tmp_path, GPT)
    server.reply({"error": {"message": "Your input exceeds the context window of this model.",
                            "type": "invalid_request_error", "param": "input", "code": "context_length_exceeded"}},
                 status=400)
    with pytest.raises(ContextTooLong):
        c.complete([SYSTEM, TASK], TOOLS)


def test_timed_out_attempts_count_their_worst_case_cost(server, tmp_path) -> None:
    c = client(server, tmp_path, GPT.replace("max_tokens = 2000", "max_tokens = 2000\ntimeout_s = 0.3"))
    rules = OpenAIRules()
    server.reply(rules.reply([], text="late"), delay_s=1.0)
    server.reply(rules.reply([], text="on time", input_tokens=100, output_tokens=10))
    r = c.complete([SYSTEM, TASK], TOOLS)
    assert r.message.content == "on time" and r.attempts == 2
    assert r.usage.cost_usd == pytest.approx((100 * 5 + 10 * 30) / 1e6)
    assert r.usage.unconfirmed_cost_usd >= 2000 * 30 / 1e6, "the full output cap of the timed-out attempt"


# --- context window --------------------------------------------------------------------------


def test_history_is_condensed_oldest_first_keeping_task_calls_and_latest_evaluation() -> None:
    big = "line one\n" + "x" * 4000
    msgs = [SYSTEM, TASK]
    for i in range(6):
        name = "evaluate_pass" if i in (1, 4) else "inspect_ir"
        msgs.append(Message(role="assistant", content="", tool_calls=[
            {"id": f"c{i}", "name": name, "arguments": {}, "raw_arguments": "{}"}]))
        msgs.append(Message(role="tool", content=big, tool_call_id=f"c{i}", name=name))
    sent, n = fit_to_window(msgs, window_tokens=5000)
    assert n > 0 and sent[0] == SYSTEM and sent[1] == TASK
    assert all(a == b for a, b in zip(msgs, sent) if a.role == "assistant"), "calls are never touched"
    assert sent[3].content.startswith("[condensed") and "line one" in sent[3].content
    assert sent[11].content == big, "the latest evaluation stays whole"
    assert sent[-1].content == big
    assert fit_to_window(msgs, window_tokens=10**6) == (msgs, 0)


@pytest.mark.parametrize("window_known", [True, False])
def test_a_long_run_stays_inside_a_small_context_window(server, tmp_path, cache_root, window_known: bool) -> None:
    """Fourteen steps whose tool results outgrow an 8000-token window (vLLM's rule, counted with
    the completion cap). With ``context_window`` set, condensed older results keep every request
    inside it; without, each context-length error condenses and sends once more."""
    from helpers import EXAMPLES, passbench_task
    from wire_rules import ContextWindowRule

    from passagent.agent.run.loop import SolveConfig
    from passagent.agent.run.solve import solve
    from passagent.tools.evaluation.evaluate import EvalOptions

    rule = ContextWindowRule(8000)
    server.rules = rule
    source = (EXAMPLES / "b511_skip_single_cat.py").read_text() + "\n# padding\n" * 150
    server.reply(hermes_text_completion([("write_pass", {"source": source})], usage=True))
    for _ in range(12):
        server.reply(hermes_text_completion([("read_pass", {})], usage=True))
    server.reply(hermes_text_completion([("finish", {"summary": "read it twelve times"})], usage=True))
    c = client(server, tmp_path, COMPAT + "max_tokens = 512\n" + ("context_window = 8000\n" if window_known else ""))
    result = solve(str(passbench_task("b511") / "graphs" / "1"), out=tmp_path / "runs", run_id="ctx", client=c,
                   config=SolveConfig(max_steps=20, patience=3),
                   eval_options=EvalOptions(cache_root=cache_root), check_reachable=False)
    assert result["exit_reason"] == "finished" and result["steps"] == 14, result.get("error")
    rejected = server.rejected()
    assert rule.largest <= 8000
    if not window_known:
        assert rejected and all(r.answered == 400 for r in rejected)
        events = (tmp_path / "runs" / "ctx" / "1" / "ds" / "events.jsonl").read_text()
        assert events.count('"context_condensed"') == len(rejected), "one condensed retry per rejection"
        return
    assert rejected == []
    last = server.posts()[-1].body["messages"]
    stubs = [m for m in last if m["role"] == "tool" and m["content"].startswith("[condensed")]
    assert len(stubs) >= 5 and last[1]["role"] == "user" and last[1]["content"].startswith("Task")
    written = [json.loads(c["function"]["arguments"]) for m in last for c in m.get("tool_calls") or []
               if c["function"]["name"] == "write_pass"]
    assert written == [{"source": source}], "the pass written stays whole"


def test_a_streamed_generation_longer_than_the_timeout_is_one_request(server, tmp_path) -> None:
    """The timeout bounds the wait for the next chunk, so a reply that takes 3 s in chunks 0.25 s
    apart survives a 1-second timeout in one (billed) request; unstreamed, the same reply times out."""
    rules = AnthropicRules()
    c = client(server, tmp_path, CLAUDE.replace("max_tokens = 4000", "max_tokens = 4000\ntimeout_s = 1.0"))
    reply = rules.reply([("write_pass", {"source": "a"}), ("write_pass", {"source": "b"})], text="two edits")
    server.reply(reply, event_gap_s=0.25)  # 14 events: 3.5 s in all
    r = c.complete([SYSTEM, TASK], TOOLS)
    assert r.attempts == 1 and len(r.message.tool_calls) == 2 and server.posts()[0].body["stream"] is True
    assert r.message.provider_content["content"] == reply["content"], "thinking and signature rebuilt from deltas"
    plain = client(server, tmp_path, CLAUDE.replace("max_tokens = 4000", "max_tokens = 4000\ntimeout_s = 1.0\n"
                                                    "stream = false"), max_attempts=1)
    server.reply(reply, delay_s=3.5)
    with pytest.raises(ModelError, match="timed out"):
        plain.complete([SYSTEM, TASK], TOOLS)


def test_an_error_event_inside_a_stream_is_judged_by_its_type() -> None:
    import anthropic
    import httpx

    from passagent.agent.providers.retry import OverloadedError, classify_sdk_error

    def streamed_error(kind: str) -> anthropic.APIStatusError:
        response = httpx.Response(200, request=httpx.Request("POST", "http://127.0.0.1/v1/messages"))
        return anthropic.APIStatusError(kind, response=response, body={"type": "error", "error": {"type": kind,
                                                                                                  "message": kind}})

    assert isinstance(classify_sdk_error(streamed_error("overloaded_error"), anthropic, "m"), OverloadedError)
    mapped = classify_sdk_error(streamed_error("invalid_request_error"), anthropic, "m")
    assert isinstance(mapped, ModelError) and "HTTP 400" in str(mapped)
