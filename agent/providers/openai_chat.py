"""OpenAI chat completions with native tool calling: ``openai:<model>`` and ``compat:<model>@<url>``.

The same wire format serves OpenAI itself and OpenAI-compatible servers (vLLM, SGLang, the
llama.cpp server); :class:`CompatChatModel` differs only in the output-cap field it sends and
in warning, at preflight, when the server does not list the model.
"""

from __future__ import annotations

import json
from typing import Any

import openai

from ..protocols import Message, ToolCall, ToolSpec
from .base import HostedModel, Reply, log, parse_arguments
from .config import ModelEntry, Price
from .retry import MalformedResponse, RetryPolicy


def to_openai_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Our messages in chat-completions form (``role``/``content``/``tool_calls``/``tool_call_id``)."""
    wire: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "assistant":
            # null content is only allowed next to tool calls
            item: dict[str, Any] = {"role": "assistant", "content": m.content or (None if m.tool_calls else "")}
            if m.tool_calls:
                item["tool_calls"] = [_wire_call(c) for c in m.tool_calls]
            wire.append(item)
        elif m.role == "tool":
            wire.append({"role": "tool", "tool_call_id": m.tool_call_id or "", "content": m.content})
        else:
            wire.append({"role": m.role, "content": m.content})
    return wire


def _wire_call(call: ToolCall) -> dict[str, Any]:
    # Malformed arguments go back as "{}": vLLM and SGLang chat templates parse them and answer
    # 400 to invalid JSON; the tool result already tells the model what was wrong.
    arguments = json.dumps(call.arguments) if call.arguments is not None else "{}"
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": arguments}}


def to_openai_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Tool specs as ``{"type": "function", "function": {name, description, parameters}}``."""
    return [{"type": "function", "function": {"name": t.name, "description": t.description,
                                              "parameters": t.parameters}} for t in tools]


def from_openai_message(message: Any, turn: int) -> Message:
    """An SDK ``ChatCompletionMessage`` as our assistant :class:`Message`; bad arguments kept raw."""
    calls = []
    for i, tc in enumerate(message.tool_calls or []):
        function = getattr(tc, "function", None)
        if function is None:  # custom (non-function) tools: we never offer them
            continue
        raw = function.arguments if isinstance(function.arguments, str) else json.dumps(function.arguments)
        arguments, error = parse_arguments(raw)
        calls.append(ToolCall(id=tc.id or f"call_{turn}_{i}", name=function.name or "",
                              arguments=arguments, raw_arguments=raw, parse_error=error))
    return Message(role="assistant", content=message.content or "", tool_calls=calls)


class OpenAIChatModel(HostedModel):
    """``openai:<model>``: the OpenAI chat-completions API via ``openai.OpenAI``.

    The key is read by :func:`~.registry.resolve_model` from ``$OPENAI_API_KEY`` (or the entry's
    ``api_key_env``) and handed straight to the SDK client; it is not stored on this object.
    """

    provider = "openai"
    _sdk = openai
    _max_tokens_field = "max_completion_tokens"  # OpenAI's reasoning models reject max_tokens

    def __init__(self, name: str, entry: ModelEntry, price: Price | None, api_key: str,
                 retry: RetryPolicy | None = None):
        extra = {"base_url": entry.base_url} if entry.base_url else {}
        self._client = openai.OpenAI(api_key=api_key, max_retries=0, timeout=entry.timeout_s, **extra)
        self._calls = 0
        super().__init__(name, entry, price, retry)

    def _send(self, messages: list[Message], tools: list[ToolSpec]) -> Any:
        e = self.entry
        kwargs: dict[str, Any] = {"model": e.model, "messages": to_openai_messages(messages)}
        if tools:
            kwargs["tools"] = to_openai_tools(tools)
        for key, value in (("temperature", e.temperature), ("top_p", e.top_p), ("seed", e.seed),
                           ("reasoning_effort", e.reasoning_effort),
                           (self._max_tokens_field, e.max_tokens)):
            if value is not None:
                kwargs[key] = value
        if e.extra_body:
            kwargs["extra_body"] = e.extra_body
        return self._client.chat.completions.create(**kwargs)

    def _parse(self, raw: Any) -> Reply:
        if not getattr(raw, "choices", None):
            raise MalformedResponse(f"{self.name}: response has no choices")
        self._calls += 1
        choice = raw.choices[0]
        reply = Reply(message=from_openai_message(choice.message, self._calls),
                      model=getattr(raw, "model", "") or "", finish_reason=choice.finish_reason)
        usage = getattr(raw, "usage", None)
        if usage is not None:
            reply.input_tokens = usage.prompt_tokens or 0
            reply.output_tokens = usage.completion_tokens or 0
            details = getattr(usage, "prompt_tokens_details", None)
            reply.cached_input_tokens = (getattr(details, "cached_tokens", None) or 0) if details else 0
        return reply

    def _list_models(self, timeout_s: float) -> list[str]:
        page = self._client.with_options(timeout=timeout_s, max_retries=0).models.list()
        return [m.id for m in (page.data or [])]


class CompatChatModel(OpenAIChatModel):
    """``compat:<model>@<base_url>``: any OpenAI-compatible chat-completions server.

    The key comes from ``$PASSAGENT_COMPAT_API_KEY`` when set, else ``"EMPTY"`` (what vLLM
    and SGLang accept when started without ``--api-key``).
    """

    provider = "compat"
    _max_tokens_field = "max_tokens"  # what vLLM, SGLang and llama.cpp all understand

    def _check_served(self, served: list[str]) -> None:
        # A warning, not an error: the llama.cpp server lists its model file's path and answers
        # to any name, while vLLM and SGLang answer 404 to a wrong one on the first request.
        if served and self.entry.model not in served:
            log.warning("%s: %s does not list model %r (it lists: %s)", self.name, self.base_url,
                        self.entry.model, ", ".join(served[:8]))
