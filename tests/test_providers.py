"""Model providers against a local server that speaks the real OpenAI and Anthropic wire formats.

Every test talks HTTP to :class:`FakeLLMServer` on 127.0.0.1 (no network, fake keys) and checks
both what the client returned and what it sent. Retry waits go to a recording ``sleep``.
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

import pytest
from fake_llm_server import (
    FakeLLMServer,
    anthropic_error,
    anthropic_message,
    openai_completion,
    openai_tool_call,
)

from passagent.agent.protocols import (
    Message,
    ModelClient,
    ModelConfigError,
    ModelError,
    ModelUnavailable,
    ToolCall,
    ToolSpec,
)
from passagent.agent.providers import (
    RetryPolicy,
    ScriptedModel,
    find_models_file,
    load_models_file,
    preflight,
    resolve_model,
)
from passagent.agent.providers.config import PACKAGED_MODELS_FILE
from passagent.agent.providers.retry import parse_retry_after

OPENAI_KEY = "sk-test-openai-0123456789"
ANTHROPIC_KEY = "sk-ant-test-0123456789"
FORMATS = ["openai", "anthropic"]
TOOLS = [ToolSpec(name="read_task", description="Show a task.",
                  parameters={"type": "object", "properties": {"task": {"type": "string"}},
                              "required": ["task"]})]


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no stray configuration from the developer's shell, an empty working dir."""
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
    for var in ("PASSAGENT_MODELS_FILE", "PASSAGENT_COMPAT_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL",
                "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def server(env: None) -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


@pytest.fixture
def models_file(server: FakeLLMServer, tmp_path: Path) -> Path:
    """Short names ``openai`` and ``anthropic`` pointing at the fake server, with prices."""
    path = tmp_path / "test-models.toml"
    path.write_text(f"""
[models.openai]
provider = "openai"
model = "gpt-test"
base_url = "{server.url}/v1"
temperature = 0.5
price = {{ input = 2.0, cached_input = 0.5, output = 10.0 }}

[models.anthropic]
provider = "anthropic"
model = "claude-test"
base_url = "{server.url}"
max_tokens = 1234
price = {{ input = 3.0, cached_input = 0.3, cache_write = 3.75, output = 15.0 }}

[models.slow]
provider = "compat"
model = "fake-model"
base_url = "{server.url}/v1"
timeout_s = 0.2

[prices."compat:fake-model"]
input = 1.0
output = 1.0
""")
    return path


@pytest.fixture
def sleeps() -> list[float]:
    return []


class FakeClock:
    """A monotonic clock that only moves when the retry loop sleeps (recorded in ``sleeps``)."""

    def __init__(self, sleeps: list[float]):
        self.now = 1000.0
        self.sleeps = sleeps

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def make(models_file: Path, sleeps: list[float]):
    """Build a client from a spec, with retry waits recorded (on a fake clock) instead of slept."""
    def build(spec: str, max_attempts: int = 4, overload_budget_s: float = 600.0):
        clock = FakeClock(sleeps)
        return resolve_model(spec, models_file,
                             retry=RetryPolicy(max_attempts=max_attempts, base_wait_s=0.01, sleep=clock.sleep,
                                               clock=clock, overload_budget_s=overload_budget_s))
    return build


def reply_tool_calls(server: FakeLLMServer, fmt: str, calls: list[tuple[str, str, object]]) -> None:
    """Queue a reply with tool calls ``(id, name, arguments)``; OpenAI arguments must be strings."""
    if fmt == "openai":
        server.reply(openai_completion("thinking", [openai_tool_call(i, n, a) for i, n, a in calls]))
    else:
        blocks = [{"type": "text", "text": "thinking"}]
        blocks += [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls]
        server.reply(anthropic_message(blocks, stop_reason="tool_use"))


def reply_text(server: FakeLLMServer, fmt: str, text: str = "done") -> None:
    if fmt == "openai":
        server.reply(openai_completion(text))
    else:
        server.reply(anthropic_message([{"type": "text", "text": text}]))


def reply_error(server: FakeLLMServer, fmt: str, status: int, headers: dict[str, str] | None = None) -> None:
    body = ({"error": {"message": f"status {status}", "type": "x", "code": None}} if fmt == "openai"
            else anthropic_error(status, "api_error", f"status {status}"))
    server.reply(body, status=status, headers=headers)


def key_sent(headers: dict[str, str], key: str) -> bool:
    # Older anthropic SDKs send x-api-key, newer ones a bearer token: either proves the key went.
    return headers.get("authorization") == f"Bearer {key}" or headers.get("x-api-key") == key


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Round trips ---------------------------------------------------------------------------


def test_openai_tool_calls_round_trip(server: FakeLLMServer, make) -> None:
    client = make("openai")
    reply_tool_calls(server, "openai", [("call_1", "read_task", '{"task": "t1"}'),
                                        ("call_2", "read_task", '{"task": "t2"}')])
    reply_text(server, "openai")
    convo = [Message(role="system", content="You write passes."), Message(role="user", content="Go.")]

    first = client.complete(convo, TOOLS)
    assert first.finish_reason == "tool_calls" and first.attempts == 1
    assert first.message.content == "thinking"
    assert [(c.id, c.name, c.arguments) for c in first.message.tool_calls] == [
        ("call_1", "read_task", {"task": "t1"}), ("call_2", "read_task", {"task": "t2"})]
    convo += [first.message,
              Message(role="tool", tool_call_id="call_1", name="read_task", content="result one"),
              Message(role="tool", tool_call_id="call_2", name="read_task", content="result two")]
    second = client.complete(convo, TOOLS)
    assert second.message.content == "done" and not second.message.tool_calls

    req1, req2 = server.posts()
    assert req1.path == "/v1/chat/completions" and key_sent(req1.headers, OPENAI_KEY)
    assert req1.body["model"] == "gpt-test" and req1.body["temperature"] == 0.5
    assert req1.body["messages"][0] == {"role": "system", "content": "You write passes."}
    assert req1.body["tools"] == [{"type": "function", "function": {
        "name": "read_task", "description": "Show a task.", "parameters": TOOLS[0].parameters}}]
    assistant, tool1, tool2 = req2.body["messages"][2:]
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_1", "call_2"]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"task": "t1"}
    assert tool1 == {"role": "tool", "tool_call_id": "call_1", "content": "result one"}
    assert tool2 == {"role": "tool", "tool_call_id": "call_2", "content": "result two"}


def test_anthropic_tool_use_round_trip(server: FakeLLMServer, make) -> None:
    client = make("anthropic")
    reply_tool_calls(server, "anthropic", [("toolu_1", "read_task", {"task": "t1"}),
                                           ("toolu_2", "read_task", {"task": "t2"})])
    reply_text(server, "anthropic")
    convo = [Message(role="system", content="You write passes."), Message(role="user", content="Go.")]

    first = client.complete(convo, TOOLS)
    assert first.finish_reason == "tool_use"
    assert [(c.id, c.arguments) for c in first.message.tool_calls] == [("toolu_1", {"task": "t1"}),
                                                                      ("toolu_2", {"task": "t2"})]
    convo += [first.message,
              Message(role="tool", tool_call_id="toolu_1", content="result one"),
              Message(role="tool", tool_call_id="toolu_2", content="result two")]
    assert client.complete(convo, TOOLS).message.content == "done"

    req1, req2 = server.posts()
    assert req1.path == "/v1/messages" and key_sent(req1.headers, ANTHROPIC_KEY)
    assert req1.body["system"] == "You write passes."
    assert req1.body["max_tokens"] == 1234
    assert all(m["role"] != "system" for m in req1.body["messages"])
    assert req1.body["tools"] == [{"name": "read_task", "description": "Show a task.",
                                   "input_schema": TOOLS[0].parameters}]
    user, assistant, results = req2.body["messages"]
    assert user == {"role": "user", "content": [{"type": "text", "text": "Go."}]}
    assert assistant["role"] == "assistant"
    assert assistant["content"][1:] == [
        {"type": "tool_use", "id": "toolu_1", "name": "read_task", "input": {"task": "t1"}},
        {"type": "tool_use", "id": "toolu_2", "name": "read_task", "input": {"task": "t2"}}]
    # Both results in ONE user turn, as the API requires.
    assert results == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "result one"},
        {"type": "tool_result", "tool_use_id": "toolu_2", "content": "result two"}]}


def test_anthropic_prompt_cache_marks_system_and_last_turn(server: FakeLLMServer, models_file: Path) -> None:
    models_file.write_text(models_file.read_text().replace('max_tokens = 1234', 'prompt_cache = true'))
    client = resolve_model("anthropic", models_file)
    reply_text(server, "anthropic")
    client.complete([Message(role="system", content="S"), Message(role="user", content="U")], [])
    body = server.posts()[0].body
    assert body["max_tokens"] == 8192  # the default when the entry sets none
    assert body["system"] == [{"type": "text", "text": "S", "cache_control": {"type": "ephemeral"}}]
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}


# Retries ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_429_honours_retry_after(server: FakeLLMServer, make, sleeps: list[float], fmt: str) -> None:
    client = make(fmt)
    reply_error(server, fmt, 429, {"Retry-After": "7"})
    reply_text(server, fmt, "after the wait")
    response = client.complete([Message(role="user", content="hi")], [])
    assert response.message.content == "after the wait"
    assert response.attempts == 2 and len(server.posts()) == 2
    assert sleeps == [7.0]


def test_retry_after_http_date_and_cap(server: FakeLLMServer, make, sleeps: list[float]) -> None:
    client = make("openai")
    soon = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=30), usegmt=True)
    reply_error(server, "openai", 429, {"Retry-After": soon})
    reply_error(server, "openai", 500, {"Retry-After": "3600"})
    reply_text(server, "openai")
    assert client.complete([Message(role="user", content="hi")], []).attempts == 3
    assert 25 <= sleeps[0] <= 30
    assert sleeps[1] == 60.0  # a plain 5xx's wait is capped
    # An overload whose Retry-After outlasts the overload budget ends the call at once, resumable.
    reply_error(server, "openai", 503, {"Retry-After": "3600"})
    with pytest.raises(ModelUnavailable, match="overload budget 600 s"):
        client.complete([Message(role="user", content="hi")], [])
    assert len(sleeps) == 2
    assert parse_retry_after({"retry-after-ms": "1500"}) == 1.5
    assert parse_retry_after({"Retry-After": "soon-ish"}) is None


@pytest.mark.parametrize("fmt,status", [("openai", 500), ("anthropic", 500), ("anthropic", 529)])
def test_5xx_then_success(server: FakeLLMServer, make, sleeps: list[float], fmt: str, status: int) -> None:
    client = make(fmt)
    reply_error(server, fmt, status)
    reply_text(server, fmt, "recovered")
    response = client.complete([Message(role="user", content="hi")], [])
    assert response.message.content == "recovered" and response.attempts == 2
    assert len(sleeps) == 1 and 0 < sleeps[0] < 1  # exponential backoff from base_wait_s, jittered


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("status", [400, 401, 403, 404])
def test_client_errors_fail_at_once(server: FakeLLMServer, make, sleeps: list[float], fmt: str,
                                    status: int) -> None:
    client = make(fmt)
    reply_error(server, fmt, status)
    with pytest.raises(ModelError, match=f"HTTP {status}") as info:
        client.complete([Message(role="user", content="hi")], [])
    assert len(server.posts()) == 1 and sleeps == []
    assert "\n" not in str(info.value)


def test_persistent_5xx_gives_up_after_max_attempts(server: FakeLLMServer, make, sleeps: list[float]) -> None:
    client = make("openai", max_attempts=3)
    for _ in range(3):
        reply_error(server, "openai", 502)
    with pytest.raises(ModelError, match="gave up after 3 attempt"):
        client.complete([Message(role="user", content="hi")], [])
    assert len(server.posts()) == 3 and len(sleeps) == 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_garbage_body_retried_then_model_error(server: FakeLLMServer, make, fmt: str) -> None:
    client = make(fmt, max_attempts=6)
    server.reply(b"")
    reply_text(server, fmt, "fine now")
    assert client.complete([Message(role="user", content="hi")], []).attempts == 2
    for body in (b"not json at all", b"{}", b"null"):
        server.reply(body)
    with pytest.raises(ModelError, match="gave up after 3 attempt"):
        client.complete([Message(role="user", content="hi")], [])


def test_timeout_is_retried(server: FakeLLMServer, make, sleeps: list[float]) -> None:
    server.reply(openai_completion("too late"), delay_s=0.6)
    reply_text(server, "openai", "in time")
    response = make("slow").complete([Message(role="user", content="hi")], [])
    assert response.message.content == "in time" and response.attempts == 2 and len(sleeps) == 1


def test_connection_refused_is_retried_then_model_error(env: None, sleeps: list[float]) -> None:
    client = resolve_model(f"compat:m@http://127.0.0.1:{free_port()}/v1",
                           retry=RetryPolicy(max_attempts=2, base_wait_s=0.01, sleep=sleeps.append))
    with pytest.raises(ModelError, match="connection failed"):
        client.complete([Message(role="user", content="hi")], [])
    assert len(sleeps) == 1


# Parsing, usage and cost -----------------------------------------------------------------


def test_openai_malformed_arguments_become_a_parse_error(server: FakeLLMServer, make) -> None:
    client = make("openai")
    reply_tool_calls(server, "openai", [("call_bad", "read_task", '{"task": "t1"'),
                                        ("call_list", "read_task", '["t1"]')])
    reply_text(server, "openai")
    first = client.complete([Message(role="user", content="hi")], TOOLS)
    bad, listy = first.message.tool_calls
    assert bad.arguments is None and bad.raw_arguments == '{"task": "t1"' and "not valid JSON" in bad.parse_error
    assert listy.arguments is None and "JSON object" in listy.parse_error
    convo = [Message(role="user", content="hi"), first.message,
             Message(role="tool", tool_call_id="call_bad", content="error: bad JSON"),
             Message(role="tool", tool_call_id="call_list", content="error: not an object")]
    client.complete(convo, TOOLS)
    sent = server.posts()[1].body["messages"][1]["tool_calls"]
    assert [c["function"]["arguments"] for c in sent] == ["{}", "{}"]  # never echo invalid JSON


def test_anthropic_non_object_input_becomes_a_parse_error(server: FakeLLMServer, make) -> None:
    reply_tool_calls(server, "anthropic", [("toolu_x", "read_task", "t1")])
    call = make("anthropic").complete([Message(role="user", content="hi")], TOOLS).message.tool_calls[0]
    assert call.arguments is None and call.raw_arguments == '"t1"' and "object" in call.parse_error


def test_openai_usage_and_cost(server: FakeLLMServer, make) -> None:
    server.reply(openai_completion("x", prompt_tokens=1000, completion_tokens=200, cached_tokens=400,
                                   model="gpt-test-2026"))
    client = make("openai")
    response = client.complete([Message(role="user", content="hi")], [])
    usage = response.usage
    assert (usage.input_tokens, usage.cached_input_tokens, usage.output_tokens) == (1000, 400, 200)
    assert usage.cost_usd == pytest.approx((600 * 2.0 + 400 * 0.5 + 200 * 10.0) / 1e6)
    assert client.priced and response.model == "gpt-test-2026" and response.latency_s > 0


def test_anthropic_usage_and_cost(server: FakeLLMServer, make) -> None:
    server.reply(anthropic_message([{"type": "text", "text": "x"}], input_tokens=600, output_tokens=200,
                                   cache_read=300, cache_write=100))
    usage = make("anthropic").complete([Message(role="user", content="hi")], []).usage
    # Anthropic's input_tokens excludes the cache; ours counts all input.
    assert (usage.input_tokens, usage.cached_input_tokens, usage.output_tokens) == (1000, 300, 200)
    assert usage.cost_usd == pytest.approx((600 * 3.0 + 300 * 0.3 + 100 * 3.75 + 200 * 15.0) / 1e6)


def test_unpriced_model_costs_zero_and_says_so(server: FakeLLMServer, models_file: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1")  # the SDK's own override still works
    with caplog.at_level(logging.WARNING, logger="passagent.providers"):
        client = resolve_model("openai:some-new-model", models_file)
    assert not client.priced and "no price" in caplog.text
    server.reply(openai_completion("x", prompt_tokens=1000, completion_tokens=1000))
    response = client.complete([Message(role="user", content="hi")], [])
    assert response.usage.cost_usd == 0.0 and response.usage.input_tokens == 1000
    assert server.posts()[0].body["model"] == "some-new-model"


# Configuration errors and preflight ------------------------------------------------------


@pytest.mark.parametrize("fmt,var", [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")])
def test_missing_key_fails_before_any_request(server: FakeLLMServer, models_file: Path,
                                              monkeypatch: pytest.MonkeyPatch, fmt: str, var: str) -> None:
    monkeypatch.delenv(var)
    for spec in (fmt, f"{fmt}:some-model"):
        with pytest.raises(ModelConfigError, match=var) as info:
            resolve_model(spec, models_file)
        assert "\n" not in str(info.value)
    assert server.requests == []


@pytest.mark.parametrize("spec", ["nope", "mistral:large", "compat:no-url", "openai:", ""])
def test_unknown_spec_is_a_config_error(models_file: Path, spec: str) -> None:
    with pytest.raises(ModelConfigError) as info:
        resolve_model(spec, models_file)
    message = str(info.value)
    assert "\n" not in message and ("unknown model" in message or "bad model spec" in message)


@pytest.mark.parametrize("fmt", FORMATS)
def test_preflight(server: FakeLLMServer, make, fmt: str) -> None:
    preflight(make(fmt))
    assert server.requests[-1].method == "GET" and server.requests[-1].path.startswith("/v1/models")
    server.models_status = 401
    with pytest.raises(ModelConfigError, match="rejected the API key"):
        preflight(make(fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_preflight_unreachable_server(env: None, tmp_path: Path, fmt: str) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    path = tmp_path / "dead.toml"
    path.write_text(f'[models.openai]\nprovider = "openai"\nmodel = "m"\nbase_url = "{dead}/v1"\n'
                    f'[models.anthropic]\nprovider = "anthropic"\nmodel = "m"\nbase_url = "{dead}"\n')
    client = resolve_model(fmt, path)
    start = time.monotonic()
    with pytest.raises(ModelConfigError, match="cannot reach") as info:
        preflight(client, timeout_s=5)
    assert time.monotonic() - start < 5 and dead in str(info.value)


def test_compat_spec(server: FakeLLMServer, make, monkeypatch: pytest.MonkeyPatch,
                     caplog: pytest.LogCaptureFixture) -> None:
    client = make(f"compat:fake-model@{server.url}/v1")
    assert isinstance(client, ModelClient)
    assert client.name == "compat:fake-model" and client.priced  # priced via [prices."compat:fake-model"]
    preflight(client)
    reply_tool_calls(server, "openai", [("c1", "read_task", '{"task": "t"}')])
    response = client.complete([Message(role="user", content="hi")], TOOLS)
    assert response.message.tool_calls[0].arguments == {"task": "t"}
    assert key_sent(server.posts()[0].headers, "EMPTY")
    monkeypatch.setenv("PASSAGENT_COMPAT_API_KEY", "local-secret")
    reply_text(server, "openai")
    make(f"compat:fake-model@{server.url}/v1").complete([Message(role="user", content="hi")], [])
    assert key_sent(server.posts()[1].headers, "local-secret")
    with caplog.at_level(logging.WARNING, logger="passagent.providers"):
        preflight(make(f"compat:other-model@{server.url}/v1"))  # llama.cpp lists a file path
    assert "does not list model 'other-model'" in caplog.text


def test_keys_are_never_in_repr_or_config(server: FakeLLMServer, make) -> None:
    for spec, key in (("openai", OPENAI_KEY), ("anthropic", ANTHROPIC_KEY)):
        client = make(spec)
        assert key not in repr(client) and key not in json.dumps(client.config())
        assert client.config()["api_key_env"].endswith("_API_KEY")


# Models file ---------------------------------------------------------------------------


def test_models_file_lookup_order(env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert find_models_file() == PACKAGED_MODELS_FILE
    packaged = load_models_file()
    assert {"gpt-x", "claude-x", "local-qwen"} <= set(packaged.models)
    assert all(packaged.price_for(e) is not None for e in packaged.models.values())
    (tmp_path / "models.toml").write_text("")
    assert find_models_file() == tmp_path / "models.toml"
    from_env = tmp_path / "env.toml"
    from_env.write_text("")
    monkeypatch.setenv("PASSAGENT_MODELS_FILE", str(from_env))
    assert find_models_file() == from_env
    explicit = tmp_path / "explicit.toml"
    explicit.write_text("")
    assert find_models_file(explicit) == explicit
    with pytest.raises(ModelConfigError, match="does not exist"):
        find_models_file(tmp_path / "missing.toml")


def test_models_file_typo_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[models.x]\nprovider = "openai"\nmodel = "m"\ntemprature = 0.1\n')
    with pytest.raises(ModelConfigError, match=r"models\.x\.temprature") as info:
        load_models_file(bad)
    assert "\n" not in str(info.value)


def test_providers_import_no_sdk() -> None:
    code = ("import sys, passagent.agent.providers; "
            "assert not {'openai', 'anthropic'} & set(sys.modules), 'SDK imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


# Scripted model --------------------------------------------------------------------------


def test_scripted_model_replays_turns() -> None:
    model = ScriptedModel([
        {"text": "look", "tool_calls": [{"name": "read_task", "arguments": {"task": "t1"}}]},
        {"tool_calls": [{"name": "read_task", "raw_arguments": '{"task": ', "id": "mine"}]},
    ])
    assert isinstance(model, ModelClient)
    first = model.complete([Message(role="user", content="x" * 40)], TOOLS)
    assert first.message.content == "look" and first.finish_reason == "tool_calls"
    assert first.message.tool_calls[0] == ToolCall(id="call_0_0", name="read_task", arguments={"task": "t1"},
                                                   raw_arguments='{"task": "t1"}')
    assert first.usage.input_tokens == 10 and first.usage.cost_usd == 0.0
    # The turn is chosen by how many assistant messages the conversation holds, so a resumed
    # run (new process, same conversation) continues the script where it was.
    one = [Message(role="assistant", content="look")]
    bad = model.complete(one, TOOLS).message.tool_calls[0]
    assert bad.id == "mine" and bad.arguments is None and bad.parse_error
    assert model.complete(one, TOOLS).message.tool_calls[0].id == "mine"  # same conversation, same turn
    final = model.complete(one * 2, TOOLS)
    assert final.message.tool_calls == [] and final.finish_reason == "stop"
    assert len(model.requests) == 4 and model.requests[0][0].content == "x" * 40


def test_scripted_spec_from_file(env: None, tmp_path: Path) -> None:
    script = tmp_path / "demo.json"
    script.write_text(json.dumps({"turns": [{"text": "hello"}], "final_text": "bye"}))
    model = resolve_model(f"scripted:{script}")
    assert model.name == "scripted:demo"
    assert model.complete([], []).message.content == "hello"
    assert model.complete([Message(role="assistant", content="hello")], []).message.content == "bye"
    script.write_text(json.dumps([{"text": "x", "tool_calls": [{"arguments": {}}]}]))
    with pytest.raises(ModelConfigError, match="turn 0"):
        resolve_model(f"scripted:{script}")
    with pytest.raises(ModelConfigError):
        resolve_model(f"scripted:{tmp_path / 'missing.json'}")
