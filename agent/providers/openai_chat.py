"""OpenAI chat completions with native tool calling: ``compat:<model>@<url>`` and older OpenAI models.

The same wire format serves OpenAI itself and OpenAI-compatible servers (vLLM, SGLang, the
llama.cpp server, DeepSeek); :class:`CompatChatModel` differs in the output-cap field it sends
and in warning, at preflight, when the server does not list the model. OpenAI's reasoning models
use the Responses API instead (:mod:`.openai_responses`).

What compatible servers do differently, and what this module does about it:

* DeepSeek's thinking mode returns ``reasoning_content`` and requires it back on assistant
  turns that made tool calls (DeepSeek API docs, "Thinking Mode", tool calls:
  https://api-docs.deepseek.com/guides/thinking_mode): it is kept on the message and sent back.
* A server started without a tool-call parser (vLLM without ``--enable-auto-tool-choice
  --tool-call-parser hermes``) returns Hermes/Qwen-style calls as text,
  ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` (the format vLLM's ``hermes``
  parser reads: https://docs.vllm.ai/en/latest/features/tool_calling.html): when
  ``tool_calls`` is empty such blocks are parsed into tool calls.
* No ``usage`` in the response: tokens are estimated locally (see :func:`.base.estimate_tokens`).
"""

from __future__ import annotations

import json
import re
from typing import Any

import openai

from ..protocols import Message, ToolCall, ToolSpec
from .base import HostedModel, Reply, log, parse_arguments
from .config import ModelEntry, Price
from .retry import MalformedResponse, RetryPolicy

_HERMES = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)


def to_openai_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Our messages in chat-completions form (``role``/``content``/``tool_calls``/``tool_call_id``)."""
    wire: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "assistant":
            # null content is only allowed next to tool calls
            item: dict[str, Any] = {"role": "assistant", "content": m.content or (None if m.tool_calls else "")}
            if m.tool_calls:
                item["tool_calls"] = [_wire_call(c) for c in m.tool_calls]
            raw = m.provider_content or {}
            if raw.get("api") == "openai-chat" and raw.get("reasoning_content"):
                item["reasoning_content"] = raw["reasoning_content"]
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


def parse_text_tool_calls(text: str, turn: int) -> tuple[str, list[ToolCall]]:
    """Hermes/Qwen ``<tool_call>{"name", "arguments"}</tool_call>`` blocks in ``text`` as tool calls.

    Returns ``(text without the blocks, calls)``; a block that is not a JSON object with a
    ``name`` becomes a call with a ``parse_error`` (the model is told), never an exception.
    """
    calls: list[ToolCall] = []
    for i, m in enumerate(_HERMES.finditer(text)):
        body = m.group(1).strip()
        call_id = f"call_text_{turn}_{i}"
        try:
            value = json.loads(body)
        except json.JSONDecodeError as exc:
            calls.append(ToolCall(id=call_id, name="", raw_arguments=body,
                                  parse_error=f"<tool_call> is not valid JSON: {exc.msg} at char {exc.pos}"))
            continue
        if not isinstance(value, dict) or not isinstance(value.get("name"), str):
            calls.append(ToolCall(id=call_id, name="", raw_arguments=body,
                                  parse_error='<tool_call> must hold {"name": ..., "arguments": {...}}'))
            continue
        args = value.get("arguments", value.get("parameters", {}))
        raw = args if isinstance(args, str) else json.dumps(args)
        arguments, error = parse_arguments(raw)
        calls.append(ToolCall(id=call_id, name=value["name"], arguments=arguments, raw_arguments=raw,
                              parse_error=error))
    return (_HERMES.sub("", text).strip() if calls else text), calls


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
    text = message.content or ""
    if not calls and "<tool_call>" in text:
        text, calls = parse_text_tool_calls(text, turn)
    extra = getattr(message, "model_extra", None) or {}
    reasoning = extra.get("reasoning_content") or getattr(message, "reasoning_content", None)
    raw_content = {"api": "openai-chat", "reasoning_content": reasoning} if reasoning else None
    return Message(role="assistant", content=text, tool_calls=calls, provider_content=raw_content)


class OpenAIChatModel(HostedModel):
    """``openai:<model>`` with ``api = "chat"``: the chat-completions API via ``openai.OpenAI``.

    For a reasoning model (o-series, gpt-5*) ``temperature`` and ``top_p`` are not sent (those
    models reject them: "Unsupported parameter: 'temperature' is not supported with this model",
    reported in langgenius/dify#33171, modxcms/modAI#84); the user is told once.

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

    @property
    def _probe_cap_field(self) -> str:  # type: ignore[override]
        return self._max_tokens_field

    def _sampling(self) -> list[tuple[str, Any]]:
        e = self.entry
        if e.reasoning and self.provider == "openai":
            dropped = [k for k in ("temperature", "top_p") if getattr(e, k) is not None]
            if dropped:
                self.notice_once(f"{self.name}: {' and '.join(dropped)} not sent: {e.model} is a reasoning "
                                 "model and rejects sampling parameters")
            return []
        return [("temperature", e.temperature), ("top_p", e.top_p)]

    def _request(self, messages: list[Message], tools: list[ToolSpec]) -> dict[str, Any]:
        e = self.entry
        kwargs: dict[str, Any] = {"model": e.model, "messages": to_openai_messages(messages)}
        if tools:
            kwargs["tools"] = to_openai_tools(tools)
        for key, value in (*self._sampling(), ("seed", e.seed), ("reasoning_effort", e.reasoning_effort),
                           (self._max_tokens_field, e.max_tokens)):
            if value is not None:
                kwargs[key] = value
        if e.extra_body:
            kwargs["extra_body"] = e.extra_body
        return kwargs

    def _post(self, kwargs: dict[str, Any]) -> Any:
        return self._client.chat.completions.create(**kwargs)

    def _parse(self, raw: Any) -> Reply:
        if not getattr(raw, "choices", None):
            raise MalformedResponse(f"{self.name}: response has no choices")
        self._calls += 1
        choice = raw.choices[0]
        message = from_openai_message(choice.message, self._calls)
        refusal = getattr(choice.message, "refusal", None) or None
        if choice.finish_reason == "content_filter" and refusal is None:
            refusal = message.content or "the response was stopped by the provider's content filter"
        reply = Reply(message=message, model=getattr(raw, "model", "") or "", finish_reason=choice.finish_reason,
                      truncated=choice.finish_reason == "length", refusal=refusal)
        usage = getattr(raw, "usage", None)
        if usage is not None and (usage.prompt_tokens or usage.completion_tokens):
            reply.input_tokens = usage.prompt_tokens or 0
            reply.output_tokens = usage.completion_tokens or 0
            details = getattr(usage, "prompt_tokens_details", None)
            reply.cached_input_tokens = (getattr(details, "cached_tokens", None) or 0) if details else 0
            out_details = getattr(usage, "completion_tokens_details", None)
            reply.reasoning_tokens = (getattr(out_details, "reasoning_tokens", None) or 0) if out_details else 0
        else:
            reply.has_usage = False
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
