"""The services' rules that the local servers enforce, each beside its public source, and reply
builders that issue what the rules later check (reasoning items, thinking blocks).

A rule returns ``(status, error body)`` for a request that breaks it, else None. Error texts are
the ones the services send, as reported publicly (cited); where no exact text is public, the
rule's source is cited and the text says so.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)")
_ids = itertools.count(1)


def _openai_error(message: str, param: str | None = None, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}}


def _anthropic_error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


class OpenAIRules:
    """Chat Completions and Responses rules for OpenAI reasoning models (o*, gpt-5*).

    Attributes:
        issued: reasoning item id -> (encrypted_content, call ids issued with it).
    """

    def __init__(self) -> None:
        self.issued: dict[str, tuple[str, list[str]]] = {}

    def __call__(self, path: str, body: Any) -> tuple[int, dict[str, Any]] | None:
        model = str(body.get("model", ""))
        reasoning_model = bool(_REASONING_MODEL.match(model))
        # Reasoning models reject sampling parameters: "Unsupported parameter: 'temperature' is
        # not supported with this model." (modxcms/modAI#84, soberlemur/autopo#57).
        for key in ("temperature", "top_p"):
            if reasoning_model and key in body:
                return 400, _openai_error(f"Unsupported parameter: '{key}' is not supported with this model.",
                                          key, "unsupported_parameter")
        if path.endswith("/chat/completions"):
            # "Function tools with reasoning_effort are not supported for gpt-5.4 in
            # /v1/chat/completions. Please use /v1/responses instead." (pipecat-ai/pipecat#4043,
            # openai/openai-openapi#541)
            if reasoning_model and body.get("tools") and body.get("reasoning_effort") not in (None, "none"):
                return 400, _openai_error(f"Function tools with reasoning_effort are not supported for {model} "
                                          "in /v1/chat/completions. Please use /v1/responses instead.",
                                          "reasoning_effort")
            return None
        if path.endswith("/responses"):
            return self._responses(body)
        return None

    def _responses(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        items = body.get("input") or []
        seen_reasoning: dict[str, dict[str, Any]] = {}
        call_ids: set[str] = set()
        for item in items:
            kind = item.get("type")
            if kind == "reasoning":
                rid = item.get("id", "")
                # With store=false nothing is kept server-side, so a reasoning item must carry its
                # encrypted_content: "Item with id 'rs_...' not found. Items are not persisted
                # when `store` is set to false. Try again with `store` set to true, or remove
                # this item from your input." (anomalyco/opencode#8987, can1357/oh-my-pi#41)
                expected = self.issued.get(rid, (None, []))[0]
                if body.get("store") is False and (expected is None or item.get("encrypted_content") != expected):
                    return 404, _openai_error(
                        f"Item with id '{rid}' not found. Items are not persisted when `store` is set to false. "
                        "Try again with `store` set to true, or remove this item from your input.", "input")
                seen_reasoning[rid] = item
            elif kind == "function_call":
                call_ids.add(item.get("call_id", ""))
                for rid, (_enc, calls) in self.issued.items():
                    if item.get("call_id") in calls and rid not in seen_reasoning:
                        # "Item 'fc_...' of type 'function_call' was provided without its
                        # required 'reasoning' item: 'rs_...'." (cline/cline#12242,
                        # continuedev/continue#10018)
                        return 400, _openai_error(
                            f"Item '{item.get('id', 'fc')}' of type 'function_call' was provided without its "
                            f"required 'reasoning' item: '{rid}'.", "input")
            elif kind == "function_call_output" and item.get("call_id") not in call_ids:
                # The output must follow its call (OpenAI function-calling guide: each
                # function_call_output answers a function_call by call_id).
                return 400, _openai_error(f"No tool call found for function call output with call_id "
                                          f"{item.get('call_id')}.", "input")
        return None

    def reply(self, calls: list[tuple[str, dict[str, Any] | str]], text: str = "", *, status: str = "completed",
              incomplete_reason: str | None = None, input_tokens: int = 1200, output_tokens: int = 300,
              reasoning_tokens: int = 200, model: str = "gpt-5.5") -> dict[str, Any]:
        """A ``response`` object: one reasoning item (issued, with encrypted_content), an optional
        message, and function calls ``(name, arguments)`` (a str is sent as-is: a cut-off call)."""
        import json

        k = next(_ids)
        rid, enc = f"rs_{k:04d}", f"gAAAA-encrypted-{k}-" + "x" * 40
        output: list[dict[str, Any]] = [{"id": rid, "type": "reasoning", "summary": [], "encrypted_content": enc}]
        if text:
            output.append({"id": f"msg_{k:04d}", "type": "message", "role": "assistant", "status": "completed",
                           "content": [{"type": "output_text", "text": text, "annotations": []}]})
        issued_calls = []
        for i, (name, args) in enumerate(calls):
            call_id = f"call_{k:04d}_{i}"
            issued_calls.append(call_id)
            output.append({"id": f"fc_{k:04d}_{i}", "type": "function_call", "call_id": call_id, "name": name,
                           "arguments": args if isinstance(args, str) else json.dumps(args),
                           "status": "incomplete" if status == "incomplete" else "completed"})
        self.issued[rid] = (enc, issued_calls)
        return {
            "id": f"resp_{k:04d}", "object": "response", "created_at": 1700000000, "model": model,
            "status": status, "incomplete_details": {"reason": incomplete_reason} if incomplete_reason else None,
            "error": None, "instructions": None, "metadata": {}, "output": output, "parallel_tool_calls": True,
            "temperature": None, "top_p": None, "tool_choice": "auto", "tools": [],
            "usage": {"input_tokens": input_tokens, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
                      "total_tokens": input_tokens + output_tokens},
        }


class AnthropicRules:
    """Messages-API rules with thinking, for models that accept only adaptive thinking.

    Attributes:
        issued: signature -> thinking text of every thinking block this server sent.
        adaptive_only: model ids that answer 400 to ``thinking.type: "enabled"``.
    """

    def __init__(self, adaptive_only: tuple[str, ...] = ("claude-opus-4-7",)) -> None:
        self.issued: dict[str, str] = {}
        self.adaptive_only = adaptive_only

    def __call__(self, path: str, body: Any) -> tuple[int, dict[str, Any]] | None:
        if not path.endswith("/messages"):
            return None
        thinking = (body.get("thinking") or {}).get("type")
        if body.get("model") in self.adaptive_only and thinking in ("enabled", "disabled"):
            # Opus 4.7 accepts only adaptive thinking; "enabled" with budget_tokens "will return a
            # 400 error" (AWS Bedrock user guide, "Adaptive thinking"). The exact text is not public.
            return 400, _anthropic_error(f"thinking.type: '{thinking}' is not supported for this model; "
                                         "use 'adaptive' with output_config.effort")
        if thinking in ("enabled", "adaptive") and any(k in body for k in ("temperature", "top_p")):
            # "temperature may only be set to 1 when thinking is enabled or in adaptive mode"
            # (dotCipher/opencode-claude-bridge#1; MartialBE/one-hub#529)
            return 400, _anthropic_error("`temperature` may only be set to 1 when thinking is enabled or in "
                                         "adaptive mode.")
        messages = body.get("messages") or []
        for i, m in enumerate(messages):
            blocks = m["content"] if isinstance(m.get("content"), list) else []
            for j, b in enumerate(blocks):
                # "messages: text content blocks must contain non-whitespace text"
                # (anthropics/claude-code#23440)
                if b.get("type") == "text" and not str(b.get("text", "")).strip():
                    return 400, _anthropic_error("messages: text content blocks must contain non-whitespace text")
                # "messages.1.content.0: Invalid `signature` in `thinking` block"
                # (lbjlaq/Antigravity-Manager#498, code-yeongyu/oh-my-openagent#2775)
                if b.get("type") == "thinking" and self.issued.get(b.get("signature", "")) != b.get("thinking"):
                    return 400, _anthropic_error(f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block")
        if thinking in ("enabled", "adaptive") and messages:
            last = messages[-1]
            tool_results = isinstance(last.get("content"), list) and any(
                b.get("type") == "tool_result" for b in last["content"])
            idx = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=None)
            if tool_results and idx is not None:
                first = messages[idx]["content"][0] if isinstance(messages[idx]["content"], list) else {"type": "text"}
                if first.get("type") not in ("thinking", "redacted_thinking"):
                    # epam/ai-dial-adapter-bedrock#290, OpenRouterTeam/ai-sdk-provider#162
                    return 400, _anthropic_error(
                        f"messages.{idx}.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
                        f"`{first.get('type')}`. When `thinking` is enabled, a final `assistant` message must start "
                        "with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). "
                        "We recommend you include thinking blocks from previous turns. To avoid this requirement, "
                        "disable `thinking`. Please consult our documentation at "
                        "https://docs.claude.com/en/docs/build-with-claude/extended-thinking")
        return None

    def reply(self, calls: list[tuple[str, dict[str, Any]]], text: str = "", *, stop_reason: str | None = None,
              thinking: bool = True, model: str = "claude-opus-4-7") -> dict[str, Any]:
        """A ``message`` with a signed thinking block, optional text (a whitespace-only text is
        sent as the API sometimes does before tool calls) and tool_use blocks."""
        k = next(_ids)
        content: list[dict[str, Any]] = []
        if thinking:
            sig = f"EqQBCkYIB{k:04d}signature"
            thought = f"Thinking about step {k}: inspect, then write the pass."
            self.issued[sig] = thought
            content.append({"type": "thinking", "thinking": thought, "signature": sig})
        if text:
            content.append({"type": "text", "text": text})
        for i, (name, args) in enumerate(calls):
            content.append({"type": "tool_use", "id": f"toolu_{k:04d}_{i}", "name": name, "input": args})
        return {
            "id": f"msg_{k:04d}", "type": "message", "role": "assistant", "model": model, "content": content,
            "stop_reason": stop_reason or ("tool_use" if calls else "end_turn"), "stop_sequence": None,
            "usage": {"input_tokens": 1500, "output_tokens": 400, "cache_read_input_tokens": 0,
                      "cache_creation_input_tokens": 0},
        }


class DeepSeekRules:
    """Chat-completions rule of DeepSeek's thinking mode: ``reasoning_content`` must come back.

    "Missing `reasoning_content` field in the assistant message at message index 2. For more
    information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls"
    (abhigyanpatwari/GitNexus#43, decolua/9router#355).
    """

    def __init__(self) -> None:
        self.issued: dict[str, str] = {}  # tool call id -> reasoning_content

    def __call__(self, path: str, body: Any) -> tuple[int, dict[str, Any]] | None:
        for i, m in enumerate(body.get("messages") or []):
            if m.get("role") != "assistant":
                continue
            for call in m.get("tool_calls") or []:
                want = self.issued.get(call.get("id"))
                if want is not None and m.get("reasoning_content") != want:
                    return 400, _openai_error(
                        f"Missing `reasoning_content` field in the assistant message at message index {i}. For more "
                        "information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls")
        return None


def hermes_text_completion(calls: list[tuple[str, dict[str, Any]]], text: str = "", *,
                           reasoning_content: str | None = None, rules: DeepSeekRules | None = None,
                           usage: bool = False, model: str = "qwen2.5-coder-7b") -> dict[str, Any]:
    """A ``chat.completion`` whose tool calls are Hermes ``<tool_call>`` text in ``content`` (a
    server without a tool-call parser), ``tool_calls`` empty, and no ``usage`` unless asked."""
    import json

    k = next(_ids)
    body = text + "".join(f"\n<tool_call>\n{json.dumps({'name': n, 'arguments': a})}\n</tool_call>" for n, a in calls)
    message: dict[str, Any] = {"role": "assistant", "content": body, "tool_calls": []}
    if reasoning_content is not None:
        message["reasoning_content"] = reasoning_content
    out: dict[str, Any] = {
        "id": f"chatcmpl-{k}", "object": "chat.completion", "created": 1700000000, "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}],
    }
    if usage:
        out["usage"] = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    return out


class ContextWindowRule:
    """A server with a ``window``-token context that counts the messages, the tools and the
    requested completion (``max_tokens``) against it, 4 characters per token of the JSON body.

    vLLM's answer: ``This model's maximum context length is 16384 tokens. However, you requested
    122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of
    the messages or completion.`` (vllm-project/vllm#20409; the body has ``message`` at the top
    level, llamastack/llama-stack discussion #981 as quoted in ogx-ai/ogx#4534).
    """

    def __init__(self, window: int) -> None:
        self.window = window
        self.largest = 0  # the largest request it accepted, in its tokens

    def __call__(self, path: str, body: Any) -> tuple[int, dict[str, Any]] | None:
        import json

        if not path.endswith("/chat/completions"):
            return None
        prompt = (len(json.dumps(body.get("messages") or [])) + len(json.dumps(body.get("tools") or []))) // 4
        completion = int(body.get("max_tokens") or 0)
        if prompt + completion > self.window:
            return 400, {"object": "error", "type": "BadRequestError", "param": None, "code": 400, "message": (
                f"This model's maximum context length is {self.window} tokens. However, you requested "
                f"{prompt + completion} tokens ({prompt} in the messages, {completion} in the completion). "
                "Please reduce the length of the messages or completion.")}
        self.largest = max(self.largest, prompt + completion)
        return None
