"""A deterministic model that replays a script: for tests, demos and debugging the loop.

``scripted:<file.json>`` reads the script from a JSON file; :class:`ScriptedModel` also takes
the turns directly in Python. A script is a list of assistant turns (or an object
``{"turns": [...], "final_text": "..."}``)::

    [
      {"text": "Let me look at the task.",
       "tool_calls": [{"name": "show_task", "arguments": {"task": "task_001"}}]},
      {"tool_calls": [{"name": "write_pass", "raw_arguments": "{\\"code\\": oops"}]},
      {"text": "Done."}
    ]

Each call has ``name`` and either ``arguments`` (an object) or ``raw_arguments`` (a string
that is parsed like a provider's, so it may be malformed on purpose), and optionally ``id``.
Turn k answers a conversation that already holds k assistant messages, whatever else was
sent; so a resumed run (a new process, the same conversation) gets the same next turn. Once
the script is exhausted every call returns ``final_text`` with no tool calls.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from ..protocols import Message, ModelConfigError, ModelResponse, ToolCall, ToolSpec, Usage
from .base import parse_arguments

EXHAUSTED_TEXT = "(scripted model: script exhausted)"


class ScriptedCall(BaseModel):
    """One scripted tool call; ``raw_arguments`` wins over ``arguments`` when both are given."""

    model_config = ConfigDict(extra="forbid")

    name: str
    arguments: dict[str, Any] | None = None
    raw_arguments: str | None = None
    id: str | None = None


class ScriptedTurn(BaseModel):
    """One scripted assistant turn: optional text, tool calls, optional finish reason."""

    model_config = ConfigDict(extra="forbid")

    text: str = ""
    tool_calls: list[ScriptedCall] = []
    finish_reason: str | None = None


class ScriptedModel:
    """Replays scripted assistant turns; implements :class:`~passagent.agent.protocols.ModelClient`.

    Usage is estimated at one token per 4 characters (``len(text) // 4``) and costs 0 USD.

    Attributes:
        name: ``scripted`` or ``scripted:<file stem>``.
        requests: the messages of every call received, in order (copies), for assertions.
        priced: always True: a scripted model is known to be free.
    """

    provider = "scripted"
    priced = True

    def __init__(self, turns: list[ScriptedTurn | dict[str, Any]], name: str = "scripted",
                 final_text: str = EXHAUSTED_TEXT):
        """Raises ModelConfigError when a turn is malformed (the message names the turn)."""
        self.name = name
        self.final_text = final_text
        self.turns: list[ScriptedTurn] = []
        for k, turn in enumerate(turns):
            try:
                self.turns.append(turn if isinstance(turn, ScriptedTurn) else ScriptedTurn.model_validate(turn))
            except ValidationError as exc:
                err = exc.errors()[0]
                where = ".".join(str(p) for p in err["loc"])
                raise ModelConfigError(f"{name}: turn {k}: {where}: {err['msg']}") from exc
        self.requests: list[list[Message]] = []

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedModel:
        """Load a script from a JSON file (see the module docstring for the format).

        Raises:
            ModelConfigError: the file is missing, not JSON, or not a script.
        """
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ModelConfigError(f"scripted model {path}: {exc}") from exc
        final_text = EXHAUSTED_TEXT
        if isinstance(data, dict):
            final_text = str(data.get("final_text", EXHAUSTED_TEXT))
            data = data.get("turns")
        if not isinstance(data, list):
            raise ModelConfigError(f"scripted model {path}: expected a list of turns or {{\"turns\": [...]}}")
        return cls(data, name=f"scripted:{path.stem}", final_text=final_text)

    #: An offline client: its cost is real (nothing), it has no window and no server to check.
    priced = True
    context_window: int | None = None
    max_tokens: int | None = None

    def preflight(self, timeout_s: float = 10.0) -> None:
        """Nothing to reach: passes at once."""

    def probe(self, tools: list[ToolSpec], timeout_s: float = 60.0) -> None:
        """No server: passes at once."""

    def config(self) -> dict[str, Any]:
        """Settings as plain data for the run record."""
        return {"name": self.name, "provider": "scripted", "turns": len(self.turns), "priced": True}

    def complete(self, messages: list[Message], tools: list[ToolSpec]) -> ModelResponse:
        """Return the scripted turn for this conversation (``tools`` is ignored); never raises."""
        start = time.monotonic()
        k = sum(1 for m in messages if m.role == "assistant")
        self.requests.append([m.model_copy(deep=True) for m in messages])
        if k >= len(self.turns):
            message, finish = Message(role="assistant", content=self.final_text), "stop"
        else:
            turn = self.turns[k]
            message = Message(role="assistant", content=turn.text,
                              tool_calls=[_tool_call(c, k, i) for i, c in enumerate(turn.tool_calls)])
            finish = turn.finish_reason or ("tool_calls" if message.tool_calls else "stop")
        usage = Usage(input_tokens=sum(_chars(m) for m in messages) // 4, output_tokens=_chars(message) // 4)
        return ModelResponse(message=message, usage=usage, model=self.name,
                             latency_s=time.monotonic() - start, finish_reason=finish, attempts=1)

    def __repr__(self) -> str:
        return f"ScriptedModel(name={self.name!r}, turns={len(self.turns)}, calls={len(self.requests)})"


def _tool_call(call: ScriptedCall, turn: int, index: int) -> ToolCall:
    raw = call.raw_arguments if call.raw_arguments is not None else json.dumps(call.arguments or {})
    arguments, error = parse_arguments(raw)
    return ToolCall(id=call.id or f"call_{turn}_{index}", name=call.name,
                    arguments=arguments, raw_arguments=raw, parse_error=error)


def _chars(m: Message) -> int:
    return len(m.content) + sum(len(c.name) + len(c.raw_arguments) for c in m.tool_calls)
