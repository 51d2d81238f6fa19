"""``passagent export RUNS_DIR --format F``: trajectories as training data.

Each finished run becomes one record: its conversation rebuilt from ``events.jsonl`` (the
system and task messages ``s0:init:*``, each ``model_response``'s assistant message, each
``tool_result`` as a tool message, each ``format_error`` feedback as a user message) and the
tools the model was offered (recorded in ``config.json``; for runs from before that was
recorded, rebuilt from ``TOOL_PARAMETERS`` and the current ``prompts/tools`` templates). The
conversation ends at the last assistant message (a trailing tool result teaches nothing).

Metadata per record: task id, model, seed, run id, best AS, exit reason, cost and tokens,
and ``es_steps``: for each evaluation, the step, pass version, AS and ES(t) at t = -10..4.

Then: ``--min-as`` keeps runs whose best AS reaches X (a run without a pass has AS b);
``--best-only`` keeps the best run of each task; duplicates (the same model actions on the same
task, e.g. a deterministic policy over several seeds) are dropped, keeping the best-scoring;
the tasks are split into train and eval (whole tasks: no task is on both sides), by a seeded
hash of the task id. Written: ``train.*``, ``eval.*`` (openai/anthropic: also
``*.metadata.jsonl``, one line per record, same order, as those formats take no extra keys),
and ``README.md``, the dataset card. Unfinished or corrupt runs are listed and skipped.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...tools.errors import PassagentError, require_module
from ...tools.measure.scoring import DEFAULT_FAILURE_PENALTY
from .formats import CONVERTERS, FORMATS, parquet_schema, to_parquet_row
from ..run.runstate import RunInfo, find_runs, load_run, read_events
from .record import TrajectoryRecord
from ..run.events import EventKind


def tool_specs(config: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """The tools a run offered: as recorded in ``config.json``, else rebuilt (second value False)."""
    if isinstance(config.get("tools"), list) and config["tools"]:
        return config["tools"], True
    from ..run.prompting import render
    from ..run.toolbox import TOOL_PARAMETERS

    draws = int((config.get("eval_options") or {}).get("draws", 3))
    return [{"name": n, "description": render(f"tools/{n}.md.j2", draws=draws), "parameters": p}
            for n, p in TOOL_PARAMETERS.items()], False


def _message(m: dict[str, Any]) -> dict[str, Any]:
    return {"role": m["role"], "content": m.get("content") or "", "tool_call_id": m.get("tool_call_id"), "name": m.get("name"),
            "tool_calls": [{"id": c["id"], "name": c["name"], "arguments": c.get("arguments"),
                            "raw_arguments": c.get("raw_arguments", "")} for c in m.get("tool_calls") or []]}


def trajectory(info: RunInfo) -> TrajectoryRecord:
    """Rebuild one finished run's conversation and metadata from its folder.

    Raises:
        ValueError: the event log has no initial messages or no assistant message, or is damaged.
    """
    events, problems = read_events(info.path)
    if problems:
        raise ValueError("; ".join(problems[:3]))
    events.sort(key=lambda e: e.get("seq", 0))
    messages: list[dict[str, Any]] = []
    es_steps = []
    rules: set[str] = set()
    for e in events:
        kind = e.get("kind")
        if kind == EventKind.MESSAGE and str(e.get("id", "")).startswith("s0:init:"):
            messages.append(_message(e["message"]))
        elif kind == EventKind.MODEL_RESPONSE:
            messages.append(_message(e["response"]["message"]))
        elif kind == EventKind.TOOL_RESULT:
            call = e["call"]
            messages.append(_message({"role": "tool", "content": e["result"], "tool_call_id": call["id"], "name": call["name"]}))
            if e.get("version") is not None and e.get("evaluation"):
                step_rules = e.get("integrity_rules")
                if step_rules is None:  # recorded before the label: read it from the evaluation
                    step_rules = [s.get("integrity_rule") for s in e["evaluation"].get("subgraphs", []) if s.get("integrity_rule")]
                rules.update(step_rules)
                scores = e["evaluation"]["scores"]
                es_steps.append({"step": int(e["step"]), "version": int(e["version"]), "as": float(e["aggregated"]),
                                 "baseline": scores["baseline"], "es": {str(int(t)): float(v) for t, v in scores["es"].items()},
                                 "integrity_rules": sorted(set(step_rules))})
        elif kind == EventKind.FORMAT_ERROR:
            messages.append(_message({"role": "user", "content": e["message"]}))
    if not any(m["role"] == "system" for m in messages) or not any(m["role"] == "assistant" for m in messages):
        raise ValueError("events.jsonl lacks the initial messages or any assistant message")
    while messages[-1]["role"] != "assistant":
        messages.pop()
    r, c = info.result or {}, info.config or {}
    tools, recorded = tool_specs(c)
    b = float((c.get("eval_options") or {}).get("scoring", {}).get("failure_penalty", DEFAULT_FAILURE_PENALTY))
    run_id = str(r.get("run_id") or c.get("run_id") or "")
    key = f"{run_id}/{info.task_id}/{info.path.name}"
    return TrajectoryRecord(
        id=hashlib.sha256(key.encode()).hexdigest()[:16], task_id=info.task_id, model=info.model, seed=info.seed,
        run_id=run_id, messages=messages, tools=tools, best_as=r.get("best_as"), exit_reason=str(r.get("exit_reason")),
        es_steps=es_steps, cost_usd=float(r.get("cost_usd") or 0.0), input_tokens=int(r.get("input_tokens") or 0),
        output_tokens=int(r.get("output_tokens") or 0), steps=int(r.get("steps") or 0),
        evaluations=int(r.get("evaluations") or 0), source=str(info.path), failure_penalty=b, tools_recorded=recorded,
        integrity_rules=sorted(rules),
    )


def split_tasks(task_ids: list[str], eval_fraction: float, seed: int = 0) -> set[str]:
    """The task ids of the eval split: a seeded hash order, ``round(n * fraction)`` of them (at
    least one when the fraction is positive and there are two tasks or more; never all)."""
    tasks = sorted(set(task_ids), key=lambda t: hashlib.sha256(f"{seed}:{t}".encode()).hexdigest())
    n = len(tasks)
    if n < 2 or eval_fraction <= 0:
        return set()
    k = min(max(1, round(n * eval_fraction)), n - 1)
    return set(tasks[:k])


@dataclass
class Exported:
    """What an export wrote and why some runs are not in it."""

    out: Path
    files: list[Path]
    counts: dict[str, int]
    duplicates: int
    filtered: int
    skipped: list[str] = field(default_factory=list)
    records: list[TrajectoryRecord] = field(default_factory=list)


def collect_trajectories(runs_dir: Path) -> tuple[list[TrajectoryRecord], list[str]]:
    """Every finished run under ``runs_dir`` as a :class:`TrajectoryRecord`, and the skipped folders.

    Raises:
        PassagentError: ``runs_dir`` does not exist.
    """
    runs_dir = Path(runs_dir)
    if not runs_dir.is_dir():
        raise PassagentError(f"{runs_dir}: no such folder")
    out, skipped = [], []
    for folder in find_runs(runs_dir):
        info = load_run(folder)
        rel = folder.relative_to(runs_dir) if folder != runs_dir else Path(folder.name)
        if info.status != "finished":
            skipped.append(f"{rel}: " + ("unfinished (no result.json)" if info.status == "partial" else f"corrupt ({info.problem})"))
            continue
        try:
            out.append(trajectory(info))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            skipped.append(f"{rel}: corrupt (events.jsonl: {type(exc).__name__}: {exc})")
    return out, skipped


def select(records: list[TrajectoryRecord], min_as: float | None = None, best_only: bool = False) -> tuple[list[TrajectoryRecord], int, int]:
    """Filter (``min_as``, ``best_only``) and deduplicate; returns (kept, filtered out, duplicates)."""
    n0 = len(records)
    if min_as is not None:
        records = [r for r in records if r.score >= min_as]
    if best_only:
        best: dict[str, TrajectoryRecord] = {}
        for r in records:
            cur = best.get(r.task_id)
            if cur is None or (r.score, -r.steps) > (cur.score, -cur.steps):
                best[r.task_id] = r
        records = list(best.values())
    filtered = n0 - len(records)
    unique: dict[str, TrajectoryRecord] = {}
    for r in sorted(records, key=lambda r: (-r.score, r.steps, r.id)):
        unique.setdefault(r.action_digest(), r)
    kept = sorted(unique.values(), key=lambda r: (r.task_id, r.model, r.seed, r.id))
    return kept, filtered, len(records) - len(kept)


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def export_runs(runs_dir: Path, fmt: str, out: Path | None = None, *, min_as: float | None = None,
                best_only: bool = False, eval_fraction: float = 0.1, split_seed: int = 0) -> Exported:
    """Export the finished runs under ``runs_dir`` in format ``fmt`` (see the module docstring).

    Args:
        runs_dir: a sweep folder or any folder of run folders.
        fmt: ``openai``, ``anthropic``, ``sharegpt`` or ``parquet``.
        out: output folder (default ``runs_dir/export-<fmt>``).
        min_as: keep runs whose best AS is at least this (None: all).
        best_only: keep only the best run of each task.
        eval_fraction: share of tasks in the eval split (0: everything in train).
        split_seed: seed of the task split.

    Raises:
        PassagentError: unknown format, no such folder, or nothing left to export.
    """
    if fmt not in FORMATS:
        raise PassagentError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if fmt == "parquet":
        require_module("pyarrow", "sweep", "a Parquet export")
    runs_dir = Path(runs_dir)
    records, skipped = collect_trajectories(runs_dir)
    kept, filtered, duplicates = select(records, min_as, best_only)
    if not kept:
        raise PassagentError(f"{runs_dir}: nothing to export ({len(records)} finished runs, {filtered} filtered out, "
                             f"{len(skipped)} skipped)")
    eval_tasks = split_tasks([r.task_id for r in kept], eval_fraction, split_seed)
    for r in kept:
        r.split = "eval" if r.task_id in eval_tasks else "train"
    out = Path(out) if out else runs_dir / f"export-{fmt}"
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    counts = {}
    for split in ("train", "eval"):
        part = [r for r in kept if r.split == split]
        counts[split] = len(part)
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            path = out / f"{split}.parquet"
            pq.write_table(pa.Table.from_pylist([to_parquet_row(r) for r in part], schema=parquet_schema()), path)
            files.append(path)
            continue
        path = out / f"{split}.jsonl"
        _write_jsonl(path, [CONVERTERS[fmt](r) for r in part])
        files.append(path)
        if fmt in ("openai", "anthropic"):
            meta = out / f"{split}.metadata.jsonl"
            _write_jsonl(meta, [r.metadata() for r in part])
            files.append(meta)
    from .dataset_card import write_card

    files.append(write_card(out, fmt, kept, runs_dir=runs_dir, duplicates=duplicates, filtered=filtered,
                            skipped=skipped, min_as=min_as, best_only=best_only, eval_fraction=eval_fraction,
                            split_seed=split_seed))
    return Exported(out, files, counts, duplicates, filtered, skipped, kept)
