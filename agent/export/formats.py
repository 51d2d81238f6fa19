"""Trajectories in the shapes training stacks read: OpenAI chat, Anthropic, ShareGPT, Parquet rows.

Every converter takes a :class:`~passagent.agent.export.record.TrajectoryRecord` (provider-neutral messages:
``role`` system/user/assistant/tool, ``content``, ``tool_calls`` of ``{id, name, arguments,
raw_arguments}``) and returns one record:

* ``openai``: the fine-tuning chat format with tools: ``{"messages": [...], "tools": [{"type":
  "function", "function": {name, description, parameters}}]}``; assistant ``tool_calls`` with
  ``arguments`` as a JSON string, ``tool`` messages with ``tool_call_id``.
* ``anthropic``: ``{"system": str, "messages": [{"role", "content": str}]}`` with strictly
  alternating turns, user first, assistant last (the Claude fine-tuning shape, which takes text
  only): tool calls become ``<tool_call name="...">{json}</tool_call>`` in the assistant's text,
  tool results ``<tool_result name="...">...</tool_result>`` in the next user turn, and the tools
  (name, description, JSON schema) and that syntax are appended to the system prompt.
* ``sharegpt``: LLaMA-Factory's ShareGPT with tools: ``{"conversations": [{"from": human | gpt |
  function_call | observation, "value": str}], "system": str, "tools": "<JSON list>"}``. A
  ``function_call`` value is the JSON of the call (a list for several calls); ShareGPT has no
  place for text beside a call, so that text is left out (the openai and anthropic formats keep it).
* ``parquet``: one row per trajectory with the neutral messages as a list of structs, the tools
  as a JSON string and the metadata as columns (see :data:`PARQUET_FIELDS`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .record import TrajectoryRecord

FORMATS = ("openai", "anthropic", "sharegpt", "parquet")


def _arguments(call: dict[str, Any]) -> str:
    # The model's own text when it wrote some (even malformed: it is the trajectory); the
    # built-in policy passes objects, never text.
    if call.get("raw_arguments"):
        return str(call["raw_arguments"])
    return json.dumps(call.get("arguments") or {}, ensure_ascii=False)


def to_openai(t: TrajectoryRecord) -> dict[str, Any]:
    """The OpenAI fine-tuning chat record (metadata goes to the sidecar file, not in here)."""
    messages = []
    for m in t.messages:
        if m["role"] == "assistant":
            msg: dict[str, Any] = {"role": "assistant", "content": m["content"] or None}
            if m["tool_calls"]:
                msg["tool_calls"] = [{"id": c["id"], "type": "function",
                                      "function": {"name": c["name"], "arguments": _arguments(c)}} for c in m["tool_calls"]]
            elif msg["content"] is None:
                msg["content"] = ""
            messages.append(msg)
        elif m["role"] == "tool":
            messages.append({"role": "tool", "tool_call_id": m["tool_call_id"], "content": m["content"]})
        else:
            messages.append({"role": m["role"], "content": m["content"]})
    tools = [{"type": "function", "function": {"name": s["name"], "description": s["description"],
                                               "parameters": s["parameters"]}} for s in t.tools]
    return {"messages": messages, "tools": tools}


def _tools_text(tools: list[dict[str, Any]]) -> str:
    lines = ["# Tools", "", "Call a tool by writing, in your reply:", "",
             '<tool_call name="TOOL_NAME">{"argument": "value"}</tool_call>', "",
             "One reply may hold several calls. Each result comes back in the next user turn as "
             '<tool_result name="TOOL_NAME">...</tool_result>.', ""]
    for s in tools:
        lines += [f"## {s['name']}", s["description"], "", "Arguments (JSON schema): " + json.dumps(s["parameters"]), ""]
    return "\n".join(lines).strip()


def to_anthropic(t: TrajectoryRecord) -> dict[str, Any]:
    """Strictly alternating user/assistant text turns, tool use flattened into the text."""
    system = "\n\n".join(m["content"] for m in t.messages if m["role"] == "system")
    system = (system + "\n\n" + _tools_text(t.tools)).strip()
    turns: list[dict[str, str]] = []

    def add(role: str, text: str) -> None:
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += "\n\n" + text
        else:
            turns.append({"role": role, "content": text})

    for m in t.messages:
        if m["role"] == "system":
            continue
        if m["role"] == "assistant":
            parts = [m["content"]] if m["content"] else []
            parts += [f'<tool_call name="{c["name"]}">{_arguments(c)}</tool_call>' for c in m["tool_calls"]]
            add("assistant", "\n".join(parts) or "(empty reply)")
        elif m["role"] == "tool":
            add("user", f'<tool_result name="{m.get("name") or ""}">\n{m["content"]}\n</tool_result>')
        else:
            add("user", m["content"])
    return {"system": system, "messages": turns}


def to_sharegpt(t: TrajectoryRecord) -> dict[str, Any]:
    """LLaMA-Factory ShareGPT with tools; metadata as extra keys (ignored by trainers)."""
    system = "\n\n".join(m["content"] for m in t.messages if m["role"] == "system")
    conv: list[dict[str, str]] = []
    for m in t.messages:
        if m["role"] == "system":
            continue
        if m["role"] == "assistant":
            if m["tool_calls"]:
                calls = [{"name": c["name"], "arguments": c.get("arguments") if c.get("arguments") is not None
                          else c.get("raw_arguments", "")} for c in m["tool_calls"]]
                conv.append({"from": "function_call", "value": json.dumps(calls[0] if len(calls) == 1 else calls,
                                                                           ensure_ascii=False)})
            else:
                conv.append({"from": "gpt", "value": m["content"] or "(empty reply)"})
            continue
        kind = "observation" if m["role"] == "tool" else "human"
        if conv and conv[-1]["from"] in ("observation", "human"):
            conv[-1]["value"] += "\n\n" + m["content"]  # several results (or feedback) form one turn
        else:
            conv.append({"from": kind, "value": m["content"]})
    tools = [{"name": s["name"], "description": s["description"], "parameters": s["parameters"]} for s in t.tools]
    return {"conversations": conv, "system": system, "tools": json.dumps(tools, ensure_ascii=False), **t.metadata()}


#: Parquet columns besides ``messages`` (list of structs) and ``tools`` (JSON string).
PARQUET_FIELDS = ("id", "split", "task_id", "model", "seed", "run_id", "best_as", "exit_reason", "cost_usd",
                  "input_tokens", "output_tokens", "steps", "evaluations", "es_steps", "source", "integrity_rules",
                  "exploit_attempt")


def parquet_schema() -> Any:
    """The pyarrow schema of a Parquet export (explicit, so empty and sparse fields type alike)."""
    import pyarrow as pa

    call = pa.struct([("id", pa.string()), ("name", pa.string()), ("arguments", pa.string())])
    message = pa.struct([("role", pa.string()), ("content", pa.string()), ("tool_calls", pa.list_(call)),
                         ("tool_call_id", pa.string()), ("name", pa.string())])
    step = pa.struct([("step", pa.int64()), ("version", pa.int64()), ("as", pa.float64()), ("baseline", pa.string()),
                      ("es", pa.list_(pa.float64())), ("integrity_rules", pa.list_(pa.string()))])
    return pa.schema([
        ("id", pa.string()), ("split", pa.string()), ("task_id", pa.string()), ("model", pa.string()),
        ("seed", pa.int64()), ("run_id", pa.string()), ("best_as", pa.float64()), ("exit_reason", pa.string()),
        ("cost_usd", pa.float64()), ("input_tokens", pa.int64()), ("output_tokens", pa.int64()), ("steps", pa.int64()),
        ("evaluations", pa.int64()), ("es_steps", pa.list_(step)), ("source", pa.string()),
        ("integrity_rules", pa.list_(pa.string())), ("exploit_attempt", pa.bool_()),
        ("messages", pa.list_(message)), ("tools", pa.string()),
    ])


def to_parquet_row(t: TrajectoryRecord) -> dict[str, Any]:
    """One Parquet row (ES(t) lists run t = -10..4)."""
    meta = t.metadata()
    meta["es_steps"] = [{**s, "es": [s["es"][str(lv)] for lv in range(-10, 5)]} for s in meta["es_steps"]]
    messages = [{"role": m["role"], "content": m["content"], "tool_call_id": m.get("tool_call_id"), "name": m.get("name"),
                 "tool_calls": [{"id": c["id"], "name": c["name"], "arguments": _arguments(c)} for c in m["tool_calls"]]}
                for m in t.messages]
    return {**{k: meta[k] for k in PARQUET_FIELDS}, "messages": messages, "tools": json.dumps(t.tools, ensure_ascii=False)}


CONVERTERS = {"openai": to_openai, "anthropic": to_anthropic, "sharegpt": to_sharegpt}
