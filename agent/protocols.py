"""The interfaces of the agent in one place: messages, tool calls, model clients, tools.

Every model provider (OpenAI, Anthropic, any OpenAI-compatible server, the scripted test
model, the built-in offline policy) implements :class:`ModelClient`; the LangGraph loop only
talks to that protocol. Messages are pydantic models so that they round-trip through the
LangGraph checkpointer and the trajectory archive unchanged.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from ..tools.errors import PassagentError


class ToolSpec(BaseModel):
    """A tool offered to the model: name, description (from ``prompts/``) and JSON schema."""

    name: str
    description: str
    parameters: dict[str, Any] = Field(description="JSON schema of the arguments object")


class ToolCall(BaseModel):
    """One tool call the model made.

    Attributes:
        id: the provider's call id (echoed back in the tool result).
        name: the tool's name as the model wrote it (may be unknown to us).
        arguments: the parsed arguments object, or None if they did not parse.
        raw_arguments: the arguments exactly as received (a JSON string for OpenAI).
        parse_error: why ``raw_arguments`` did not parse into an object, else None.
    """

    id: str
    name: str
    arguments: dict[str, Any] | None = None
    raw_arguments: str = ""
    parse_error: str | None = None


class Message(BaseModel):
    """One chat message in provider-neutral form.

    ``role="tool"`` messages carry ``tool_call_id`` and the tool's result text in ``content``.
    Assistant messages may carry ``tool_calls`` (and optionally text).
    """

    role: Literal["system", "user", "assistant", "tool"]
    content: str = ""
    tool_calls: list[ToolCall] = []
    tool_call_id: str | None = None
    name: str | None = Field(None, description="tool name, for role='tool'")
    provider_content: dict[str, Any] | None = Field(
        None, description="assistant only: the reply exactly as the provider sent it, to be sent back "
        "unchanged: {'api': 'openai-responses', 'items': [...]} (reasoning items with encrypted_content), "
        "{'api': 'anthropic', 'content': [...]} (thinking blocks with signatures), or "
        "{'api': 'openai-chat', 'reasoning_content': '...'} (DeepSeek-style reasoning)")


class Usage(BaseModel):
    """Token usage of one model call and its cost.

    Attributes:
        input_tokens, output_tokens: as reported by the provider.
        cached_input_tokens: input tokens served from the provider's prompt cache.
        reasoning_tokens: the part of ``output_tokens`` spent on hidden reasoning, where reported.
        cost_usd: computed from the price table (US dollars); 0 for local/free models.
        unconfirmed_cost_usd: worst-case US dollars of failed attempts that may still have been
            billed (a request that timed out after it was sent): counted by budgets.
        estimated: True when the server reported no usage and the token counts are local
            estimates (about 4 characters per token).
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0
    unconfirmed_cost_usd: float = 0.0
    estimated: bool = False


class ModelResponse(BaseModel):
    """What one call to a model returned."""

    message: Message
    usage: Usage = Usage()
    model: str = ""
    latency_s: float = 0.0
    finish_reason: str | None = None
    attempts: int = Field(1, description="HTTP attempts including retries")
    truncated: bool = Field(False, description="the reply hit its output-token cap (finish_reason "
                            "'length', status 'incomplete', stop_reason 'max_tokens'): its tool calls may be cut off")
    refusal: str | None = Field(None, description="the model refused (OpenAI refusal content, Anthropic "
                                "stop_reason 'refusal'): the refusal text")
    notices: list[str] = Field(default_factory=list, description="one-time notes for the user (settings not sent)")


@runtime_checkable
class ModelClient(Protocol):
    """A model the agent can drive: everything the loop, ``solve`` and a sweep ask of one.

    Attributes:
        name: a stable, filesystem-safe label (``openai:gpt-5``, ``builtin``) used in run paths.
        priced: whether ``Usage.cost_usd`` is a real price (False: the models file has none, and
            every cost is reported as 0).
        context_window: the model's context window in tokens, or None where it is unknown or
            unlimited (the loop fits the history to it).
        max_tokens: the most output tokens a call may produce, or None (reserved from the window).
    """

    name: str
    priced: bool
    context_window: int | None
    max_tokens: int | None

    def config(self) -> dict[str, Any]:
        """The client's settings as plain JSON data for the run's ``config.json``; never an API key."""
        ...

    def preflight(self, timeout_s: float = 10.0) -> None:
        """Check, before a run, that the model's server answers and accepts the key.

        Raises:
            ModelConfigError: unreachable server or rejected key (one line). Offline clients never raise.
        """
        ...

    def probe(self, tools: list[ToolSpec], timeout_s: float = 60.0) -> None:
        """Ask the server once whether it serves these tools (function calling).

        Raises:
            ModelConfigError: it cannot (one line). Offline clients never raise.
        """
        ...

    def complete(self, messages: list[Message], tools: list[ToolSpec]) -> ModelResponse:
        """Return the model's next assistant message (text and/or tool calls).

        Raises:
            ModelError: the provider failed permanently (after retries) or returned garbage
                that cannot be turned into a message.
        """
        ...


class ModelError(Exception):
    """A model call failed for good (retries exhausted, authentication, malformed response)."""


class ModelUnavailable(ModelError):
    """The service stayed overloaded (429/503/529) for the whole retry budget.

    Not the run's fault: the loop stops *resumable* (no ``result.json``), ``--resume``
    continues it, and a sweep retries it on its next invocation.
    """


class ContextTooLong(ModelError):
    """The request exceeded the model's context window (a non-retryable 400 as sent).

    The loop condenses the history and sends once more before giving up.
    """


class ModelConfigError(PassagentError):
    """A model spec cannot be used: unknown name, missing API key, unreachable server.

    Raised before any work starts; the message is one line for the CLI (exit code 2).
    """
