"""Anthropic messages API with native tool use and extended thinking: ``anthropic:<model>``.

Differences from the OpenAI format that this module absorbs: the system prompt is a
top-level ``system`` field, tool results are ``tool_result`` blocks inside a *user* turn
(consecutive ones merged into one turn), and turns must alternate user/assistant.

Rules of the service that shape what is sent (Anthropic docs, "Building with extended
thinking", https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking, "Adaptive
thinking" and "Effort"):

* With thinking on, the assistant turn before a tool result must be sent back starting with
  its ``thinking`` / ``redacted_thinking`` blocks, unchanged (signatures included), else ``400
  messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When
  `thinking` is enabled, a final `assistant` message must start with a thinking block``
  (epam/ai-dial-adapter-bedrock#290, OpenRouterTeam/ai-sdk-provider#162). Every reply's
  content blocks are therefore kept verbatim on the message and replayed.
* Current Opus models accept only ``thinking={"type": "adaptive"}`` with
  ``output_config={"effort": ...}``; ``{"type": "enabled", "budget_tokens": N}`` answers 400
  there (AWS Bedrock's "Adaptive thinking" page for Claude Opus 4.7).
* A text block that is empty or whitespace only answers ``400 messages: text content blocks
  must contain non-whitespace text`` (anthropics/claude-code#23440): such blocks are never sent.
* The 2.x SDK's ``messages.create`` has no ``temperature``/``top_p`` keywords: they go in
  ``extra_body`` when thinking is off, and are not sent (with one notice) when it is on, since
  thinking is incompatible with sampling changes.
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
API = "anthropic"
_THINKING = ("thinking", "redacted_thinking")


def _keep(block: dict[str, Any]) -> bool:
    return not (block.get("type") == "text" and not str(block.get("text", "")).strip())


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
            add("user", [{"type": "text", "text": m.content}] if m.content.strip() else [])
        elif m.role == "tool":
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": m.tool_call_id or ""}
            if m.content:
                block["content"] = m.content
            add("user", [block])
        else:
            raw = m.provider_content or {}
            if raw.get("api") == API:  # thinking blocks and signatures exactly as received
                add("assistant", [dict(b) for b in raw["content"] if _keep(b)])
                continue
            blocks = [{"type": "text", "text": m.content}] if m.content.strip() else []
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
    """Response content blocks as our assistant :class:`Message`; the blocks themselves (thinking
    and redacted_thinking with their signatures) are kept verbatim on ``provider_content``."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    kept = [b.to_dict() if hasattr(b, "to_dict") else dict(b) for b in content]
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
    return Message(role="assistant", content="".join(texts), tool_calls=calls,
                   provider_content={"api": API, "content": kept})


class AnthropicModel(HostedModel):
    """``anthropic:<model>``: the Anthropic messages API via ``anthropic.Anthropic``.

    Sends ``max_tokens`` (the entry's, default 8192), ``thinking`` (``adaptive``, or
    ``enabled`` with ``thinking_budget_tokens``) and ``output_config.effort`` when the entry
    sets them. With ``prompt_cache = true`` the system prompt and the newest turn are marked
    cacheable, so each agent step re-reads the history at the cache price. The key is handed to
    the SDK client, not stored on this object.

    Raises:
        ModelConfigError: (at construction) settings Anthropic does not take (``seed``,
            ``reasoning_effort``: use ``thinking`` and ``effort``), or a thinking budget not
            below ``max_tokens``.
    """

    provider = "anthropic"
    _sdk = anthropic

    def __init__(self, name: str, entry: ModelEntry, price: Price | None, api_key: str,
                 retry: RetryPolicy | None = None):
        for field in ("seed", "reasoning_effort"):
            if getattr(entry, field) is not None:
                hint = " (use thinking and effort)" if field == "reasoning_effort" else ""
                raise ModelConfigError(f"{name}: anthropic models do not take {field!r}{hint}")
        if entry.thinking == "enabled" and entry.thinking_budget_tokens >= (entry.max_tokens or DEFAULT_MAX_TOKENS):
            raise ModelConfigError(f"{name}: thinking_budget_tokens must be below max_tokens")
        extra = {"base_url": entry.base_url} if entry.base_url else {}
        self._client = anthropic.Anthropic(api_key=api_key, max_retries=0, timeout=entry.timeout_s, **extra)
        super().__init__(name, entry, price, retry)

    @property
    def thinking_on(self) -> bool:
        return self.entry.thinking in ("adaptive", "enabled")

    def _request(self, messages: list[Message], tools: list[ToolSpec]) -> dict[str, Any]:
        e = self.entry
        system, turns = to_anthropic_messages(messages)
        kwargs: dict[str, Any] = {"model": e.model, "max_tokens": e.max_tokens or DEFAULT_MAX_TOKENS,
                                  "messages": turns}
        if system:
            kwargs["system"] = system
        if e.prompt_cache:
            if system:
                kwargs["system"] = [{"type": "text", "text": system, "cache_control": _CACHE}]
            if turns and turns[-1]["content"][-1].get("type") not in _THINKING:  # thinking blocks take no cache_control
                turns[-1]["content"][-1] = {**turns[-1]["content"][-1], "cache_control": _CACHE}
        if tools:
            kwargs["tools"] = to_anthropic_tools(tools)
        if e.thinking == "adaptive":
            kwargs["thinking"] = {"type": "adaptive"}
        elif e.thinking == "enabled":
            kwargs["thinking"] = {"type": "enabled", "budget_tokens": e.thinking_budget_tokens}
        elif e.thinking == "disabled":
            kwargs["thinking"] = {"type": "disabled"}
        if e.effort is not None:
            kwargs["output_config"] = {"effort": e.effort}
        extra = dict(e.extra_body)
        sampling = {k: getattr(e, k) for k in ("temperature", "top_p") if getattr(e, k) is not None}
        if sampling and self.thinking_on:
            self.notice_once(f"{self.name}: {' and '.join(sampling)} not sent: thinking is on, and the "
                             "API does not take sampling changes with thinking")
        elif sampling:
            extra.update(sampling)  # the 2.x SDK has no keywords for them
        if extra:
            kwargs["extra_body"] = extra
        return kwargs

    def _post(self, kwargs: dict[str, Any]) -> Any:
        if not self.entry.streamed:
            return self._client.messages.create(**kwargs)
        # The SDK's stream helper accumulates the deltas (thinking and signature included) into
        # the same Message a non-streamed call returns.
        with self._client.messages.stream(**kwargs) as stream:
            try:
                return stream.get_final_message()
            except AssertionError as exc:  # the SDK asserts a message_start arrived
                raise MalformedResponse(f"{self.name}: the stream held no message") from exc

    def _parse(self, raw: Any) -> Reply:
        content = getattr(raw, "content", None)
        if not isinstance(content, list):
            raise MalformedResponse(f"{self.name}: response has no content list")
        stop = getattr(raw, "stop_reason", None)
        message = from_anthropic_content(content)
        # stop_reason values: Anthropic's "Handling stop reasons" page
        # (https://docs.anthropic.com/en/api/handling-stop-reasons): max_tokens and
        # model_context_window_exceeded cut the reply off; refusal is the model declining.
        refusal = (message.content.strip() or "the model declined to continue (stop_reason: refusal)") \
            if stop == "refusal" else None
        reply = Reply(message=message, model=getattr(raw, "model", "") or "", finish_reason=stop,
                      truncated=stop in ("max_tokens", "model_context_window_exceeded"), refusal=refusal)
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
