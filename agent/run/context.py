"""Keeping a conversation inside the model's context window.

The loop keeps the whole history (it is the trajectory); what is *sent* may be condensed. Before
a request whose estimated size passes ``fraction`` (75%) of the model's context window, older
tool results and feedback messages are replaced, oldest first, by a one-line stub until the
estimate fits. What always stays whole:

* system messages and the task (the first user message);
* every assistant message: its text, its tool calls (the current pass is the latest
  ``write_pass`` call's ``source``) and its provider content (reasoning/thinking items must be
  sent back unchanged); since only results' *text* changes, a tool call is never separated from
  its result;
* the latest ``evaluate_pass`` result and the latest call with its result.

Token counts are estimates at 4 characters per token (:func:`..providers.base.estimate_tokens`):
coarse, which is why the threshold leaves a quarter of the window free.
"""

from __future__ import annotations

import json

from ..protocols import Message

CONDENSE_AT = 0.75
_STUB = "[condensed: {n} chars of an earlier {what}; it began: {head}]"
# Characters each message and each tool call adds on the wire around its content (role, ids,
# "type": "function", ...), as measured on the chat-completions JSON of our messages.
_MESSAGE_OVERHEAD, _CALL_OVERHEAD = 40, 80


def estimate_message_tokens(messages: list[Message]) -> int:
    """Estimated tokens of ``messages`` as sent: the JSON-encoded content and tool-call arguments
    (arguments are a JSON string inside JSON, so escapes count twice), per-message and per-call
    framing, and provider items; 4 characters per token."""
    chars = 0
    for m in messages:
        chars += len(json.dumps(m.content)) + _MESSAGE_OVERHEAD
        chars += sum(len(json.dumps(c.raw_arguments)) + len(c.name) + _CALL_OVERHEAD for c in m.tool_calls)
        if m.provider_content:
            chars += len(json.dumps(m.provider_content, default=str))
    return -(-chars // 4)


def fit_to_window(messages: list[Message], window_tokens: int | None, *, fraction: float = CONDENSE_AT,
                  reserve_tokens: int = 0, fixed_tokens: int = 0, keep_recent: int = 2,
                  force: bool = False) -> tuple[list[Message], int]:
    """Condense ``messages`` to fit ``fraction`` of ``window_tokens``.

    Args:
        window_tokens: the model's context window in tokens; None: no limit (returned as is).
        reserve_tokens: the output cap; servers such as vLLM count it against the window
            ("However, you requested N tokens (M in the messages, K in the completion)"), so the
            budget is at most ``window_tokens - reserve_tokens``.
        fixed_tokens: what every request carries besides the messages (the tool schemas).
        keep_recent: the newest messages never condensed (2: the latest call and its result).
        force: condense every condensable message (after the service said the request was too long).

    Returns:
        ``(messages to send, number of messages condensed)``; the input list is not modified.
    """
    if window_tokens is None and not force:
        return messages, 0
    budget = int((window_tokens or 0) * fraction)
    if reserve_tokens:
        budget = min(budget, (window_tokens or 0) - reserve_tokens)
    budget -= fixed_tokens
    if not force and estimate_message_tokens(messages) <= budget:
        return messages, 0
    first_user = next((i for i, m in enumerate(messages) if m.role == "user"), None)
    last_eval = max((i for i, m in enumerate(messages) if m.role == "tool" and m.name == "evaluate_pass"),
                    default=None)
    protected = {first_user, last_eval, *range(max(len(messages) - keep_recent, 0), len(messages))}
    out = list(messages)
    condensed = 0
    total = estimate_message_tokens(out)
    for i, m in enumerate(out):
        if not force and total <= budget:
            break
        if i in protected or m.role not in ("tool", "user") or len(m.content) < 200:
            continue
        head = m.content.strip().splitlines()[0][:80] if m.content.strip() else ""
        what = f"{m.name} result" if m.role == "tool" else "message"
        stub = _STUB.format(n=len(m.content), what=what, head=head)
        total -= (len(json.dumps(m.content)) - len(json.dumps(stub))) // 4
        out[i] = m.model_copy(update={"content": stub})
        condensed += 1
    return out, condensed
