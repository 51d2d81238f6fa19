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


class Usage(BaseModel):
    """Token usage of one model call and its cost.

    Attributes:
        input_tokens, output_tokens: as reported by the provider.
        cached_input_tokens: input tokens served from the provider's prompt cache.
        cost_usd: computed from the price table (US dollars); 0 for local/free models.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    cost_usd: float = 0.0


class ModelResponse(BaseModel):
    """What one call to a model returned."""

    message: Message
    usage: Usage = Usage()
    model: str = ""
    latency_s: float = 0.0
    finish_reason: str | None = None
    attempts: int = Field(1, description="HTTP attempts including retries")


@runtime_checkable
class ModelClient(Protocol):
    """A model the agent can drive.

    Attributes:
        name: a stable, filesystem-safe label (``openai:gpt-5``, ``builtin``) used in run paths.
    """

    name: str

    def complete(self, messages: list[Message], tools: list[ToolSpec]) -> ModelResponse:
        """Return the model's next assistant message (text and/or tool calls).

        Raises:
            ModelError: the provider failed permanently (after retries) or returned garbage
                that cannot be turned into a message.
        """
        ...


class ModelError(Exception):
    """A model call failed for good (retries exhausted, authentication, malformed response)."""


class ModelConfigError(PassagentError):
    """A model spec cannot be used: unknown name, missing API key, unreachable server.

    Raised before any work starts; the message is one line for the CLI (exit code 2).
    """
