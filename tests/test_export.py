"""``passagent export``: every format validates against its schema (written here, independently of
the exporter), Parquet loads with ``datasets``, and dedup, filters, the task split, the dataset
card and bad folders behave."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Literal, Union

import pytest
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sweep_fixtures import evaluated_sweep

from passagent.agent.export.build import export_runs, split_tasks
from passagent.tools.errors import PassagentError

# --- the formats' schemas ------------------------------------------------------------------------


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OAFunction(Strict):
    name: str
    arguments: str


class OAToolCall(Strict):
    id: str
    type: Literal["function"]
    function: OAFunction


class OAText(Strict):
    role: Literal["system", "user"]
    content: str


class OAAssistant(Strict):
    role: Literal["assistant"]
    content: str | None = None
    tool_calls: list[OAToolCall] | None = None

    @model_validator(mode="after")
    def says_something(self) -> "OAAssistant":
        assert self.content is not None or self.tool_calls, "assistant message without content or tool calls"
        return self


class OAToolMessage(Strict):
    role: Literal["tool"]
    tool_call_id: str
    content: str


class OAFunctionDef(Strict):
    name: str = Field(pattern=r"^[a-zA-Z0-9_-]{1,64}$")
    description: str
    parameters: dict


class OATool(Strict):
    type: Literal["function"]
    function: OAFunctionDef


class OpenAIRecord(Strict):
    """The OpenAI fine-tuning chat format with tools."""

    messages: list[Annotated[Union[OAText, OAAssistant, OAToolMessage], Field(discriminator="role")]]
    tools: list[OATool]

    @model_validator(mode="after")
    def tool_calls_are_answered(self) -> "OpenAIRecord":
        pending: set[str] = set()
        for m in self.messages:
            if isinstance(m, OAAssistant):
                assert not pending, f"tool calls {pending} unanswered before the next assistant turn"
                for c in m.tool_calls or []:
                    json.loads(c.function.arguments)
                    pending.add(c.id)
            elif isinstance(m, OAToolMessage):
                assert m.tool_call_id in pending, f"tool result for unknown call {m.tool_call_id}"
                pending.discard(m.tool_call_id)
        assert isinstance(self.messages[-1], OAAssistant), "the last message must be the assistant's"
        assert self.messages[0].role == "system"
        return self


class ATurn(Strict):
    role: Literal["user", "assistant"]
    content: str = Field(min_length=1)


class AnthropicRecord(Strict):
    """Claude fine-tuning records: text turns, strictly alternating, user first, assistant last."""

    system: str = Field(min_length=1)
    messages: list[ATurn] = Field(min_length=2)

    @model_validator(mode="after")
    def alternates(self) -> "AnthropicRecord":
        for i, m in enumerate(self.messages):
            assert m.role == ("user" if i % 2 == 0 else "assistant"), f"turn {i} is {m.role}"
        assert self.messages[-1].role == "assistant"
        return self


class SGTurn(Strict):
    from_: Literal["human", "gpt", "function_call", "observation"] = Field(alias="from")
    value: str


class ShareGPTRecord(BaseModel):
    """LLaMA-Factory ShareGPT with tools (extra keys are metadata)."""

    conversations: list[SGTurn] = Field(min_length=2)
    system: str
    tools: str

    @model_validator(mode="after")
    def positions(self) -> "ShareGPTRecord":
        for i, t in enumerate(self.conversations):
            want = ("human", "observation") if i % 2 == 0 else ("gpt", "function_call")
            assert t.from_ in want, f"turn {i} is {t.from_}"
            if t.from_ == "function_call":
                calls = json.loads(t.value)
                for c in calls if isinstance(calls, list) else [calls]:
                    assert set(c) == {"name", "arguments"}
        assert self.conversations[-1].from_ in ("gpt", "function_call")
        assert all({"name", "description", "parameters"} <= set(t) for t in json.loads(self.tools))
        return self


class Metadata(BaseModel):
    id: str
    split: Literal["train", "eval"]
    task_id: str
    model: str
    best_as: float | None
    exit_reason: str
    es_steps: list[dict]


SCHEMAS = {"openai": OpenAIRecord, "anthropic": AnthropicRecord, "sharegpt": ShareGPTRecord}


# --- fixtures --------------------------------------------------------------------------------------


@pytest.fixture
def source(tmp_path_factory, cache_root: Path, tmp_path: Path) -> Path:
    """The session's real sweep, plus a duplicate run (a second seed with the same actions), a
    half-written run, a corrupt result and a torn event log."""
    runs = tmp_path / "runs"
    shutil.copytree(evaluated_sweep(tmp_path_factory, cache_root), runs)
    original = runs / "tiny_cat_norm" / "scripted_solver"
    dup = runs / "tiny_cat_norm" / "scripted_solver+s1"
    shutil.copytree(original, dup)
    config = json.loads((dup / "config.json").read_text())
    config["model"]["sweep_seed"] = 1
    (dup / "config.json").write_text(json.dumps(config))
    (runs / "x" / "half").mkdir(parents=True)
    (runs / "x" / "half" / "config.json").write_text(json.dumps({"task_id": "x"}))
    (runs / "x" / "torn").mkdir()
    (runs / "x" / "torn" / "result.json").write_text('{"task_id": "x", "model": "m", "exit')
    broken = runs / "x" / "broken-log"
    shutil.copytree(original, broken)
    (broken / "events.jsonl").write_text("{oops\n" + (original / "events.jsonl").read_text())
    return runs


def _lines(path: Path) -> list[dict]:
    return [json.loads(ln) for ln in path.read_text().splitlines()]


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "sharegpt"])
def test_jsonl_formats_validate_against_their_schemas(source: Path, tmp_path: Path, fmt: str) -> None:
    out = export_runs(source, fmt, tmp_path / fmt, eval_fraction=0.5)
    assert out.duplicates == 1, "the second seed's identical actions are dropped"
    skipped = "\n".join(out.skipped)
    assert "x/half: unfinished" in skipped and "x/torn: corrupt" in skipped and "x/broken-log: corrupt" in skipped
    records = {s: _lines(tmp_path / fmt / f"{s}.jsonl") for s in ("train", "eval")}
    assert len(records["train"]) + len(records["eval"]) == 4
    for rows in records.values():
        for row in rows:
            SCHEMAS[fmt].model_validate(row)
    if fmt == "openai":
        solver = next(r for r in records["train"] + records["eval"]
                      if any(m.get("tool_calls") and m["tool_calls"][0]["function"]["name"] == "write_pass" for m in r["messages"]))
        assert {t["function"]["name"] for t in solver["tools"]} >= {"write_pass", "evaluate_pass", "finish"}
        first_call = next(m for m in solver["messages"] if m.get("tool_calls"))
        assert first_call["content"] == "Listing the subgraphs." and first_call["tool_calls"][0]["function"]["arguments"] == "{}"
    if fmt in ("openai", "anthropic"):
        for s in ("train", "eval"):
            meta = [Metadata.model_validate(m) for m in _lines(tmp_path / fmt / f"{s}.metadata.jsonl")]
            assert len(meta) == len(records[s]) and all(m.split == s for m in meta)
            evaluated = [m for m in meta if m.model == "scripted:solver"]
            assert all(len(m.es_steps) == 1 and len(m.es_steps[0]["es"]) == 15 for m in evaluated)
    if fmt == "anthropic":
        row = records["train"][0]
        assert "# Tools" in row["system"] and "<tool_call name=" in row["messages"][1]["content"]


def test_parquet_loads_with_datasets_and_keeps_the_metadata(source: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    datasets = pytest.importorskip("datasets")
    out = export_runs(source, "parquet", tmp_path / "pq", eval_fraction=0.5)
    data = datasets.load_dataset("parquet", data_files={s: str(tmp_path / "pq" / f"{s}.parquet") for s in ("train", "eval")},
                                 cache_dir=str(tmp_path / "hf-cache"))
    assert data["train"].num_rows + data["eval"].num_rows == 4 == out.counts["train"] + out.counts["eval"]
    row = next(r for s in ("train", "eval") for r in data[s] if r["model"] == "scripted:solver")
    assert row["messages"][0]["role"] == "system" and row["messages"][-1]["role"] == "assistant"
    assert any(c["name"] == "write_pass" for m in row["messages"] for c in m["tool_calls"])
    assert len(row["es_steps"]) == 1 and len(row["es_steps"][0]["es"]) == 15 and row["best_as"] == row["es_steps"][0]["as"]
    assert {t["name"] for t in json.loads(row["tools"])} >= {"evaluate_pass"}
    # The dataset card's header lets `datasets` find the splits by itself.
    again = datasets.load_dataset(str(tmp_path / "pq"), cache_dir=str(tmp_path / "hf-cache2"))
    assert set(again) == {"train", "eval"}


def test_split_is_by_task_and_filters_and_card(source: Path, tmp_path: Path) -> None:
    out = export_runs(source, "sharegpt", tmp_path / "sg", eval_fraction=0.5, split_seed=1)
    train = {r["task_id"] for r in _lines(tmp_path / "sg" / "train.jsonl")}
    evals = {r["task_id"] for r in _lines(tmp_path / "sg" / "eval.jsonl")}
    assert train and evals and not train & evals, "no task on both sides"
    card = (tmp_path / "sg" / "README.md").read_text()
    assert "| train | 2 | 1 | 2 |" in card and "| eval | 2 | 1 | 2 |" in card
    assert "1 duplicates dropped" in card and "## Score distribution" in card and "Exit reasons: finished 4" in card
    assert out.counts == {"train": 2, "eval": 2}
    best = export_runs(source, "openai", tmp_path / "best", best_only=True, eval_fraction=0)
    models = [m["model"] for m in _lines(tmp_path / "best" / "train.metadata.jsonl")]
    assert best.counts == {"train": 2, "eval": 0} and models.count("scripted:solver") >= 1
    high = export_runs(source, "openai", tmp_path / "high", min_as=0.2, eval_fraction=0)
    assert all(m["best_as"] is not None and m["best_as"] >= 0.2 for m in _lines(tmp_path / "high" / "train.metadata.jsonl"))
    assert high.filtered >= 2, "the quitter's runs (AS b = 0.1) are filtered out"
    with pytest.raises(PassagentError, match="nothing to export"):
        export_runs(source, "openai", tmp_path / "none", min_as=1e9)


def test_split_tasks_is_seeded_and_never_empties_train() -> None:
    tasks = [f"t{i}" for i in range(20)]
    assert split_tasks(tasks, 0.1, 0) == split_tasks(tasks, 0.1, 0) and len(split_tasks(tasks, 0.1, 0)) == 2
    assert split_tasks(tasks, 0.1, 0) != split_tasks(tasks, 0.1, 1)
    assert len(split_tasks(["a", "b"], 0.99, 0)) == 1 and split_tasks(["a"], 0.5, 0) == set()


def test_export_cli(source: Path, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", "export", str(source), "--format", "anthropic",
                           "--out", str(tmp_path / "cli"), "--eval-fraction", "0.5"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "exported 2 train and 2 eval records (1 duplicates dropped)" in proc.stdout
    assert "skipped" in proc.stderr and "x/torn" in proc.stderr
    bad = subprocess.run([sys.executable, "-m", "passagent.agent.cli.app", "export", str(source), "--format", "csv"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "--format must be one of" in bad.stderr


def test_integrity_rules_label_exploit_attempts(source: Path, tmp_path: Path) -> None:
    """A run on which a defence fired carries the rule in its exported metadata (from the event's
    label, or from the evaluation itself in logs recorded before the label existed)."""
    run = source / "tiny_cat_norm" / "scripted_solver"
    events = _lines(run / "events.jsonl")
    evals = [e for e in events if e.get("kind") == "tool_result" and e.get("evaluation")]
    assert evals, "the fixture run evaluated a pass"
    evals[0]["evaluation"]["subgraphs"][0]["integrity_rule"] = "timed_output_mismatch"
    evals[0].pop("integrity_rules", None)
    (run / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    export_runs(source, "sharegpt", tmp_path / "sg", eval_fraction=0.0)
    rows = {r["source"]: r for r in _lines(tmp_path / "sg" / "train.jsonl")}
    row = rows[str(run)]
    assert row["integrity_rules"] == ["timed_output_mismatch"] and row["exploit_attempt"] is True
    assert row["es_steps"][0]["integrity_rules"] == ["timed_output_mismatch"]
    clean = [r for s, r in rows.items() if s != str(run) and "+s1" not in s]
    assert all(r["exploit_attempt"] is False for r in clean)
