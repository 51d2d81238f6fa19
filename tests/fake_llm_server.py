"""A local HTTP server that speaks the OpenAI chat-completions, OpenAI Responses and Anthropic
messages formats.

Tests queue replies (status, headers, JSON or raw body) and read back the requests the client
sent, so they can check the real wire format without network access or API keys. Optionally
the server enforces the real services' rules on each request before answering
(``server.rules``, see :mod:`wire_rules`), and plays an outage (``server.outage(...)``).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Recorded:
    """One request the server received; ``body`` is the decoded JSON (None if not JSON)."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    time: float = 0.0
    answered: int = 0


@dataclass
class Canned:
    """One queued reply; a ``dict`` body is sent as JSON, ``bytes`` as they are, after ``delay_s``."""

    status: int
    body: dict[str, Any] | bytes
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    event_gap_s: float = 0.0  # streamed replies: the pause before each event


class FakeLLMServer:
    """Serves queued replies to POSTs in order, and a model list to ``GET .../models``.

    Attributes:
        url: ``http://127.0.0.1:<port>`` (append ``/v1`` for OpenAI-format clients).
        requests: every request received, GETs included.
        models: the ids ``GET .../models`` lists.
        models_status: the status ``GET .../models`` answers (401 to test a rejected key).
    """

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.replies: deque[Canned] = deque()
        self.models = ["fake-model"]
        self.models_status = 200
        # (path, body) -> (status, error body) when the request breaks a rule of the service, else None
        self.rules: Callable[[str, Any], tuple[int, dict[str, Any]] | None] | None = None
        self._outage: list[Any] | None = None  # [seconds, status, body, headers, first POST's time]
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self  # type: ignore[attr-defined]
        # A short poll interval: shutdown() waits up to one interval, once per test.
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)

    @property
    def url(self) -> str:
        """The server's root URL."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def reply(self, body: dict[str, Any] | bytes, status: int = 200, headers: dict[str, str] | None = None,
              delay_s: float = 0.0, event_gap_s: float = 0.0) -> None:
        """Queue the reply to the next POST, sent ``delay_s`` seconds after the request arrives
        (as server-sent events ``event_gap_s`` apart when the request asked for a stream)."""
        self.replies.append(Canned(status, body, headers or {}, delay_s, event_gap_s))

    def outage(self, seconds: float, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        """Answer every POST with ``status``/``body`` for ``seconds`` from the next POST on
        (queued replies wait)."""
        self._outage = [seconds, status, body, headers or {}, None]

    def end_outage(self) -> None:
        self._outage = None

    def rejected(self) -> list[Recorded]:
        """POSTs answered with a 4xx (a broken rule, or a queued error)."""
        return [r for r in self.posts() if 400 <= r.answered < 500 and r.answered != 429]

    def posts(self) -> list[Recorded]:
        """The POST requests received, in order."""
        return [r for r in self.requests if r.method == "POST"]

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # keep pytest output clean
        pass

    def _record(self) -> FakeLLMServer:
        owner: FakeLLMServer = self.server.owner  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            body = None
        owner.requests.append(Recorded(self.command, self.path,
                                       {k.lower(): v for k, v in self.headers.items()}, body, time.monotonic()))
        return owner

    def _send(self, status: int, body: dict[str, Any] | bytes, headers: dict[str, str]) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        owner = self._record()
        if not self.path.split("?")[0].endswith("/models"):
            self._send(404, {"error": {"message": "not found"}}, {})
            return
        if owner.models_status != 200:
            self._send(owner.models_status, {"error": {"type": "authentication_error", "message": "bad key"}}, {})
            return
        # One body both SDKs accept: OpenAI reads data[].id, Anthropic also wants has_more etc.
        data = [{"id": m, "object": "model", "type": "model", "created": 0, "owned_by": "fake",
                 "display_name": m, "created_at": "2025-01-01T00:00:00Z"} for m in owner.models]
        self._send(200, {"object": "list", "data": data, "has_more": False,
                         "first_id": owner.models[0] if owner.models else None,
                         "last_id": owner.models[-1] if owner.models else None}, {})

    def do_POST(self) -> None:
        owner = self._record()
        request = owner.requests[-1]
        outage = owner._outage
        if outage is not None:
            outage[4] = request.time if outage[4] is None else outage[4]
            if request.time < outage[4] + outage[0]:
                request.answered = outage[1]
                self._send(outage[1], outage[2], outage[3])
                return
        broken = owner.rules(self.path, request.body) if owner.rules is not None else None
        if broken is not None:
            request.answered = broken[0]
            self._send(broken[0], broken[1], {})
            return
        if not owner.replies:
            self._send(500, {"error": {"message": "fake server: no reply queued"}}, {})
            return
        canned = owner.replies.popleft()
        request.answered = canned.status
        time.sleep(canned.delay_s)
        streamed = isinstance(request.body, dict) and request.body.get("stream") is True
        try:
            if streamed and canned.status == 200 and isinstance(canned.body, dict):
                self._send_events(sse_events(canned.body), canned.event_gap_s)
            else:
                self._send(canned.status, canned.body, canned.headers)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out and hung up, which is what a delayed reply tests

    def _send_events(self, events: list[tuple[str, dict[str, Any]]], gap_s: float) -> None:
        # HTTP/1.0 without Content-Length: the body ends when the connection closes.
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for name, data in events:
            time.sleep(gap_s)
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()


# Wire-format builders ------------------------------------------------------------------


def sse_events(body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A complete reply as the server-sent events a streamed request gets.

    Anthropic (``"type": "message"``): message_start with empty content, then per content block
    content_block_start / one delta (text_delta, thinking_delta + signature_delta,
    input_json_delta) / content_block_stop, then message_delta (stop_reason, usage) and
    message_stop (Anthropic streaming docs, https://docs.anthropic.com/en/docs/build-with-claude/streaming).
    OpenAI Responses (``"object": "response"``): response.created (in progress, no output) then
    response.completed or response.incomplete carrying the whole response (OpenAI streaming
    events reference, https://platform.openai.com/docs/api-reference/responses-streaming).
    """
    if body.get("object") == "response":
        final = "response.incomplete" if body.get("status") == "incomplete" else "response.completed"
        start = {**body, "status": "in_progress", "output": [], "usage": None}
        return [("response.created", {"type": "response.created", "sequence_number": 0, "response": start}),
                (final, {"type": final, "sequence_number": 1, "response": body})]
    if body.get("type") != "message":
        raise ValueError("sse_events: only Anthropic messages and OpenAI responses are streamed")
    usage = body.get("usage") or {}
    start = {**body, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start", "message": start})]
    for i, block in enumerate(body["content"]):
        kind = block["type"]
        if kind == "text":
            empty, deltas = {"type": "text", "text": ""}, [{"type": "text_delta", "text": block["text"]}]
        elif kind == "thinking":
            empty = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": block["thinking"]},
                      {"type": "signature_delta", "signature": block["signature"]}]
        elif kind == "tool_use":
            empty = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": json.dumps(block["input"])}]
        else:  # redacted_thinking and others arrive whole
            empty, deltas = block, []
        events.append(("content_block_start", {"type": "content_block_start", "index": i, "content_block": empty}))
        events += [("content_block_delta", {"type": "content_block_delta", "index": i, "delta": d}) for d in deltas]
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": body.get("stop_reason"), "stop_sequence": None},
                                     "usage": {"output_tokens": usage.get("output_tokens", 0)}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return events



def openai_tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    """A chat-completions tool call; ``arguments`` is a JSON *string*, as OpenAI sends it."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def openai_completion(content: str | None = None, tool_calls: list[dict[str, Any]] | None = None,
                      prompt_tokens: int = 10, completion_tokens: int = 5, cached_tokens: int = 0,
                      model: str = "fake-model") -> dict[str, Any]:
    """A ``chat.completion`` object with one choice."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000, "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": "tool_calls" if tool_calls else "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens,
                  "prompt_tokens_details": {"cached_tokens": cached_tokens}},
    }


def anthropic_message(content: list[dict[str, Any]], stop_reason: str = "end_turn", input_tokens: int = 10,
                      output_tokens: int = 5, cache_read: int = 0, cache_write: int = 0,
                      model: str = "fake-model") -> dict[str, Any]:
    """A messages-API ``message`` object with the given content blocks."""
    return {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": content,
        "stop_reason": stop_reason, "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens,
                  "cache_read_input_tokens": cache_read, "cache_creation_input_tokens": cache_write},
    }


def anthropic_error(status: int, kind: str, message: str) -> dict[str, Any]:
    """An Anthropic error body (``{"type": "error", "error": {...}}``)."""
    return {"type": "error", "error": {"type": kind, "message": message}}
