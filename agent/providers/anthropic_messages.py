"""Anthropic messages API with native tool use: ``anthropic:<model>``.

Differences from the OpenAI format that this module absorbs: the system prompt is a
top-level ``system`` field, tool results are ``tool_result`` blocks inside a *user* turn
(consecutive ones merged into one turn), and turns must alternate user/assistant.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic

from ..protocols import Message, ModelConfigError, ToolCall, ToolSpec
from .base import HostedModel, Reply
from .config import ModelEntry, Price
from .retry import MalformedResponse, RetryPolicy

DEFAULT_MAX_TOKENS = 8192
_CACHE = {"type": "ephemeral"}


def to_anthropic_messages(messages: list[Message]) -> tuple[str, list[dict[str, Any]]]:
    """Split our messages into ``(system_text, turns)`` in messages-API form.

    System messages are joined into one system text. Tool results and user text that follow
    each other become one user turn, tool results first (the API rejects text before them).
    """
    system: list[str] = []
    turns: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if not blocks:
            return
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})

    for m in messages:
        if m.role == "system":
            system.append(m.content)
        elif m.role == "user":
            add("user", [{"type": "text", "text": m.content}] if m.content else [])
        elif m.role == "tool":
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": m.tool_call_id or ""}
            if m.content:
                block["content"] = m.content
            add("user", [block])
        else:
            blocks = [{"type": "text", "text": m.content}] if m.content else []
            # Malformed arguments cannot be echoed: the API wants an object, so send {}; the
            # tool result tells the model what was wrong.
            blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments or {}}
                       for c in m.tool_calls]
            add("assistant", blocks)
    for turn in turns:
        if turn["role"] == "user":
            turn["content"].sort(key=lambda b: b["type"] != "tool_result")
    return "\n\n".join(s for s in system if s), turns


def to_anthropic_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Tool specs as ``{"name", "description", "input_schema"}``."""
    return [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]


def from_anthropic_content(content: list[Any]) -> Message:
    """Response content blocks as our assistant :class:`Message` (thinking blocks dropped)."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in content:
        kind = getattr(block, "type", None)
        if kind == "text":
            texts.append(block.text)
        elif kind == "tool_use":
            value = block.input
            ok = isinstance(value, dict)
            error = None if ok else f"input must be an object, got {type(value).__name__}"
            calls.append(ToolCall(id=block.id, name=block.name, arguments=value if ok else None,
                                  raw_arguments=json.dumps(value), parse_error=error))
    return Message(role="assistant", content="".join(texts), tool_calls=calls)


class AnthropicModel(HostedModel):
    """``anthropic:<model>``: the Anthropic messages API via ``anthropic.Anthropic``.

    Sends ``max_tokens`` (the entry's, default 8192). With ``prompt_cache = true`` the system
    prompt and the newest turn are marked cacheable, so each agent step re-reads the history
    at the cache price. The key is handed to the SDK client, not stored on this object.

    Raises:
        ModelConfigError: (at construction) settings Anthropic does not take (``seed``,
            ``reasoning_effort``: thinking blocks cannot round-trip through our messages).
    """

    provider = "anthropic"
    _sdk = anthropic

    def __init__(self, name: str, entry: ModelEntry, price: Price | None, api_key: str,
                 retry: RetryPolicy | None = None):
        for field in ("seed", "reasoning_effort"):
            if getattr(entry, field) is not None:
                raise ModelConfigError(f"{name}: anthropic models do not take {field!r}")
        extra = {"base_url": entry.base_url} if entry.base_url else {}
        self._client = anthropic.Anthropic(api_key=api_key, max_retries=0, timeout=entry.timeout_s, **extra)
        super().__init__(name, entry, price, retry)

    def _send(self, messages: list[Message], tools: list[ToolSpec]) -> Any:
        e = self.entry
        system, turns = to_anthropic_messages(messages)
        kwargs: dict[str, Any] = {"model": e.model, "max_tokens": e.max_tokens or DEFAULT_MAX_TOKENS,
                                  "messages": turns}
        if system:
            kwargs["system"] = system
        if e.prompt_cache:
            if system:
                kwargs["system"] = [{"type": "text", "text": system, "cache_control": _CACHE}]
            if turns:
                turns[-1]["content"][-1] = {**turns[-1]["content"][-1], "cache_control": _CACHE}
        if tools:
            kwargs["tools"] = to_anthropic_tools(tools)
        for key, value in (("temperature", e.temperature), ("top_p", e.top_p)):
            if value is not None:
                kwargs[key] = value
        if e.extra_body:
            kwargs["extra_body"] = e.extra_body
        return self._client.messages.create(**kwargs)

    def _parse(self, raw: Any) -> Reply:
        content = getattr(raw, "content", None)
        if not isinstance(content, list):
            raise MalformedResponse(f"{self.name}: response has no content list")
        reply = Reply(message=from_anthropic_content(content), model=getattr(raw, "model", "") or "",
                      finish_reason=getattr(raw, "stop_reason", None))
        usage = getattr(raw, "usage", None)
        if usage is not None:
            read = getattr(usage, "cache_read_input_tokens", None) or 0
            write = getattr(usage, "cache_creation_input_tokens", None) or 0
            # Anthropic's input_tokens excludes cache reads and writes; ours includes them.
            reply.input_tokens = (usage.input_tokens or 0) + read + write
            reply.cached_input_tokens = read
            reply.cache_write_tokens = write
            reply.output_tokens = usage.output_tokens or 0
        return reply

    def _list_models(self, timeout_s: float) -> list[str]:
        page = self._client.with_options(timeout=timeout_s, max_retries=0).models.list(limit=100)
        return [m.id for m in (page.data or [])]
