"""OpenAI Responses API with function tools: the default for OpenAI reasoning models (o*, gpt-5*).

Chat Completions answers a reasoning model that is given both function tools and a
``reasoning_effort`` with ``400 Function tools with reasoning_effort are not supported for
gpt-5.4 in /v1/chat/completions. Please use /v1/responses instead.`` (pipecat-ai/pipecat#4043,
openai/openai-openapi#541), so these models go through ``client.responses.create``.

What is sent (OpenAI API reference, "Create a model response",
https://platform.openai.com/docs/api-reference/responses/create, and the reasoning guide,
https://platform.openai.com/docs/guides/reasoning, "Encrypted reasoning items"):

* ``instructions``: the system prompt; ``input``: the conversation as items;
* ``tools``: ``{"type": "function", "name", "description", "parameters", "strict": false}``;
* ``reasoning={"effort": ...}`` when the entry sets ``reasoning_effort``;
* ``max_output_tokens`` (reasoning tokens included);
* ``store=false`` with ``include=["reasoning.encrypted_content"]``: nothing is kept on OpenAI's
  side, so every reasoning item comes back with its ``encrypted_content`` and is sent back
  unchanged, next to its function calls. The service rejects a ``function_call`` item sent
  back without its reasoning item (``Item 'fc_...' of type 'function_call' was provided without
  its required 'reasoning' item``: cline/cline#12242, continuedev/continue#10018), and a
  reasoning item without its content when ``store`` is false (``Item with id 'rs_...' not
  found. Items are not persisted when `store` is set to false``: anomalyco/opencode#8987).
* ``temperature`` / ``top_p`` are not sent to reasoning models (they reject them); the user is
  told once.

Truncation: ``status: "incomplete"`` with ``incomplete_details.reason: "max_output_tokens"``
marks the reply truncated; a ``refusal`` content part is the model refusing.
"""

from __future__ import annotations

import json
from typing import Any

import openai

from ..protocols import Message, ToolCall, ToolSpec
from .base import HostedModel, Reply, parse_arguments
from .config import ModelEntry, Price
from .retry import MalformedResponse, OverloadedError, RetryPolicy, TransientError

API = "openai-responses"


def _stream_error(name: str, event: Any) -> TransientError:
    # An error event mid-stream: retried like its HTTP equivalent (busy: against the overload budget).
    code = str(getattr(event, "code", "") or "")
    message = f"{name}: error event in the stream: {code} {getattr(event, 'message', '')}".strip()
    busy = code in ("rate_limit_exceeded", "server_is_overloaded", "slow_down")
    return OverloadedError(message) if busy else TransientError(message)


def to_responses_input(messages: list[Message]) -> tuple[str, list[dict[str, Any]]]:
    """Our messages as ``(instructions, input items)``.

    An assistant message recorded from this API is replayed as its output items, verbatim;
    one from elsewhere (another provider, a scripted model) becomes an assistant message item
    and ``function_call`` items. Tool results are ``function_call_output`` items.
    """
    system: list[str] = []
    items: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "system":
            system.append(m.content)
        elif m.role == "user":
            items.append({"role": "user", "content": m.content})
        elif m.role == "tool":
            items.append({"type": "function_call_output", "call_id": m.tool_call_id or "", "output": m.content})
        else:
            raw = m.provider_content or {}
            if raw.get("api") == API:
                items.extend(raw["items"])
                continue
            if m.content.strip():
                items.append({"role": "assistant", "content": m.content})
            for c in m.tool_calls:
                arguments = json.dumps(c.arguments) if c.arguments is not None else "{}"
                items.append({"type": "function_call", "call_id": c.id, "name": c.name, "arguments": arguments})
    return "\n\n".join(s for s in system if s), items


def to_responses_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Tool specs as Responses function tools (flat: name/description/parameters at top level)."""
    return [{"type": "function", "name": t.name, "description": t.description, "parameters": t.parameters,
             "strict": False} for t in tools]


def from_responses_output(output: list[Any]) -> tuple[Message, str | None]:
    """Output items as ``(assistant message, refusal text or None)``; the items are kept verbatim
    on ``message.provider_content``."""
    texts: list[str] = []
    refusals: list[str] = []
    calls: list[ToolCall] = []
    kept: list[dict[str, Any]] = []
    for item in output:
        kind = getattr(item, "type", None)
        kept.append(item.to_dict() if hasattr(item, "to_dict") else dict(item))
        if kind == "message":
            for part in getattr(item, "content", None) or []:
                ptype = getattr(part, "type", None)
                if ptype == "output_text":
                    texts.append(part.text)
                elif ptype == "refusal":
                    refusals.append(part.refusal)
        elif kind == "function_call":
            raw = item.arguments if isinstance(item.arguments, str) else json.dumps(item.arguments)
            arguments, error = parse_arguments(raw)
            if getattr(item, "status", None) == "incomplete":
                error = error or "the call was cut off before it was complete"
            calls.append(ToolCall(id=item.call_id, name=item.name, arguments=arguments, raw_arguments=raw,
                                  parse_error=error))
    message = Message(role="assistant", content="".join(texts), tool_calls=calls,
                      provider_content={"api": API, "items": kept})
    return message, ("\n".join(refusals) if refusals else None)


class OpenAIResponsesModel(HostedModel):
    """``openai:<model>`` for reasoning models (or ``api = "responses"``): ``client.responses.create``.

    Also usable with servers that implement the Responses API (``provider = "compat"``,
    ``api = "responses"``; vLLM serves ``/v1/responses``).
    """

    provider = "openai"
    _sdk = openai
    _probe_cap_field = "max_output_tokens"

    def __init__(self, name: str, entry: ModelEntry, price: Price | None, api_key: str,
                 retry: RetryPolicy | None = None):
        extra = {"base_url": entry.base_url} if entry.base_url else {}
        self._client = openai.OpenAI(api_key=api_key, max_retries=0, timeout=entry.timeout_s, **extra)
        self.provider = entry.provider
        super().__init__(name, entry, price, retry)

    def _request(self, messages: list[Message], tools: list[ToolSpec]) -> dict[str, Any]:
        e = self.entry
        instructions, items = to_responses_input(messages)
        kwargs: dict[str, Any] = {"model": e.model, "input": items, "store": False}
        if instructions:
            kwargs["instructions"] = instructions
        if tools:
            kwargs["tools"] = to_responses_tools(tools)
        if e.reasoning:
            kwargs["include"] = ["reasoning.encrypted_content"]
            if e.reasoning_effort is not None:
                kwargs["reasoning"] = {"effort": e.reasoning_effort}
            dropped = [k for k in ("temperature", "top_p") if getattr(e, k) is not None]
            if dropped:
                self.notice_once(f"{self.name}: {' and '.join(dropped)} not sent: {e.model} is a reasoning "
                                 "model and rejects sampling parameters")
        else:
            for key in ("temperature", "top_p"):
                if getattr(e, key) is not None:
                    kwargs[key] = getattr(e, key)
        if e.max_tokens is not None:
            kwargs["max_output_tokens"] = e.max_tokens
        if e.seed is not None:
            self.notice_once(f"{self.name}: seed not sent: the Responses API does not take one")
        if e.extra_body:
            kwargs["extra_body"] = e.extra_body
        return kwargs

    def _post(self, kwargs: dict[str, Any]) -> Any:
        if not self.entry.streamed:
            return self._client.responses.create(**kwargs)
        # The terminal event (response.completed / .incomplete / .failed) carries the whole
        # response (OpenAI streaming events reference); the deltas before it are not needed.
        final = None
        for event in self._client.responses.create(**kwargs, stream=True):
            kind = getattr(event, "type", "")
            if kind in ("response.completed", "response.incomplete", "response.failed"):
                final = event.response
            elif kind == "error":
                raise _stream_error(self.name, event)
        if final is None:
            raise TransientError(f"{self.name}: the stream ended before the response was complete")
        return final

    def _parse(self, raw: Any) -> Reply:
        output = getattr(raw, "output", None)
        if not isinstance(output, list):
            raise MalformedResponse(f"{self.name}: response has no output list")
        status = getattr(raw, "status", None)
        if status == "failed":
            error = getattr(raw, "error", None)
            raise MalformedResponse(f"{self.name}: response failed: {getattr(error, 'message', error)}")
        message, refusal = from_responses_output(output)
        reason = getattr(getattr(raw, "incomplete_details", None), "reason", None)
        truncated = status == "incomplete" and reason != "content_filter"
        if status == "incomplete" and reason == "content_filter" and refusal is None:
            refusal = message.content or "the response was stopped by the provider's content filter"
        finish = "length" if truncated else ("tool_calls" if message.tool_calls else (status or "completed"))
        reply = Reply(message=message, model=getattr(raw, "model", "") or "", finish_reason=finish,
                      truncated=truncated, refusal=refusal)
        usage = getattr(raw, "usage", None)
        if usage is not None:
            reply.input_tokens = usage.input_tokens or 0
            reply.output_tokens = usage.output_tokens or 0
            cached = getattr(getattr(usage, "input_tokens_details", None), "cached_tokens", None)
            reasoning = getattr(getattr(usage, "output_tokens_details", None), "reasoning_tokens", None)
            reply.cached_input_tokens = cached or 0
            reply.reasoning_tokens = reasoning or 0
        else:
            reply.has_usage = False
        return reply

    def _list_models(self, timeout_s: float) -> list[str]:
        page = self._client.with_options(timeout=timeout_s, max_retries=0).models.list()
        return [m.id for m in (page.data or [])]
