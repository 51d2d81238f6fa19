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
        self._outage: tuple[float, int, dict[str, Any], dict[str, str]] | None = None
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
              delay_s: float = 0.0) -> None:
        """Queue the reply to the next POST, sent ``delay_s`` seconds after the request arrives."""
        self.replies.append(Canned(status, body, headers or {}, delay_s))

    def outage(self, seconds: float, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        """Answer every POST with ``status``/``body`` for the next ``seconds`` (queued replies wait)."""
        self._outage = (time.monotonic() + seconds, status, body, headers or {})

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
        if outage is not None and time.monotonic() < outage[0]:
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
        try:
            self._send(canned.status, canned.body, canned.headers)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out and hung up, which is what a delayed reply tests


# Wire-format builders ------------------------------------------------------------------


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
