"""The dataset card (``README.md``) of an export: what is in it, how it was made, score distributions.

The YAML header follows the Hugging Face dataset-card convention (``configs`` with the split
files), so ``datasets.load_dataset(<folder>)`` finds the splits by itself.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..numbers import fmt_as

if TYPE_CHECKING:
    from .record import TrajectoryRecord

_EXT = {"openai": "jsonl", "anthropic": "jsonl", "sharegpt": "jsonl", "parquet": "parquet"}
_SHAPE = {
    "openai": "OpenAI fine-tuning chat format with tools: `messages` (system, user, assistant with `tool_calls`, "
              "tool with `tool_call_id`) and `tools` (JSON schemas). Metadata: `<split>.metadata.jsonl`, same line order.",
    "anthropic": "Anthropic/Claude fine-tuning shape: `system` and `messages` of strictly alternating user/assistant "
                 "text turns (user first, assistant last); tool calls are `<tool_call name=...>{json}</tool_call>` in "
                 "the assistant text, results `<tool_result name=...>` in the next user turn, and the tool list is in "
                 "`system`. Metadata: `<split>.metadata.jsonl`, same line order.",
    "sharegpt": "ShareGPT with tools (LLaMA-Factory): `conversations` of human / gpt / function_call / observation "
                "turns, `system`, `tools` (a JSON string); metadata as extra keys.",
    "parquet": "Parquet: `messages` (list of role/content/tool_calls/tool_call_id/name), `tools` (JSON string) and "
               "metadata columns; loads with `datasets.load_dataset(\"parquet\", data_files=...)`.",
}


def _histogram(values: list[float], bins: int = 8) -> list[str]:
    """A text histogram of log10 values (AS spans orders of magnitude)."""
    if not values:
        return ["(no values)"]
    logs = [math.log10(v) for v in values if v > 0]
    lo, hi = min(logs), max(logs)
    if hi - lo < 1e-9:
        return [f"all {len(values)} at {10 ** lo:.4g}"]
    width = (hi - lo) / bins
    counts = Counter(min(int((x - lo) / width), bins - 1) for x in logs)
    peak = max(counts.values())
    rows = []
    for i in range(bins):
        a, b = 10 ** (lo + i * width), 10 ** (lo + (i + 1) * width)
        n = counts.get(i, 0)
        rows.append(f"{a:>10.4g} – {b:<10.4g} {'#' * max(0, round(30 * n / peak))} {n}")
    return rows


def write_card(out: Path, fmt: str, records: list[TrajectoryRecord], *, runs_dir: Path, duplicates: int, filtered: int,
               skipped: list[str], min_as: float | None, best_only: bool, eval_fraction: float, split_seed: int) -> Path:
    """Write ``out/README.md`` for an export of ``records``; returns its path."""
    from .record import quantiles

    ext = _EXT[fmt]
    splits = {s: [r for r in records if r.split == s] for s in ("train", "eval")}
    lines: list[str] = ["---", "configs:", "- config_name: default", "  data_files:"]
    for s, part in splits.items():
        if part:
            lines += [f"  - split: {s}", f"    path: {s}.{ext}"]
    lines += ["tags:", "- passagent", "- compiler-passes", "- agent-trajectories", "---", "",
              f"# passagent trajectories ({fmt})", "",
              "Trajectories of language models (and passagent's built-in policy) writing graph-compiler passes for "
              "PyTorch subgraphs with the passagent tools, each scored by the passagent harness "
              "(ES(t) and the aggregated score AS of the PassNet paper).", "",
              f"Generated {time.strftime('%Y-%m-%d %H:%M:%S')} from `{runs_dir}`.", "",
              "## Format", "", _SHAPE[fmt], "",
              "Per-record metadata: `task_id`, `model`, `seed`, `run_id`, `best_as` (null: no pass was evaluated), "
              "`exit_reason`, `es_steps` (per evaluation: step, pass version, AS, baseline, ES(t) for t = -10..4), "
              "cost (US dollars) and tokens.", "",
              "## Counts", "", "| split | records | tasks | models |", "|---|---:|---:|---:|"]
    for s, part in splits.items():
        lines.append(f"| {s} | {len(part)} | {len({r.task_id for r in part})} | {len({r.model for r in part})} |")
    lines += ["", "Train and eval are split by task: no task is on both sides "
              f"(eval fraction {eval_fraction}, seed {split_seed}).", "",
              f"Selection: min AS {min_as if min_as is not None else 'none'}, best only per task: {best_only}; "
              f"{filtered} runs filtered out, {duplicates} duplicates dropped (same task and same model actions), "
              f"{len(skipped)} run folders skipped (unfinished or corrupt).", "",
              "## Per model", "", "| model | records | tasks | with a pass | median best AS |", "|---|---:|---:|---:|---:|"]
    for model in sorted({r.model for r in records}):
        mine = [r for r in records if r.model == model]
        scored = [r.best_as for r in mine if r.best_as is not None]
        med = quantiles(scored).get("median")
        lines.append(f"| {model} | {len(mine)} | {len({r.task_id for r in mine})} | {len(scored)} | "
                     f"{fmt_as(med)} |")
    scores = [r.best_as for r in records if r.best_as is not None]
    q = quantiles(scores)
    lines += ["", "## Score distribution", "",
              f"Best AS of the {len(scores)} records with an evaluated pass "
              f"({len(records) - len(scores)} have none): "
              + (", ".join(f"{k} {fmt_as(v)}" for k, v in q.items()) if q else "none") + ".", "", "```", *_histogram(scores), "```",
              "", "Exit reasons: " + ", ".join(f"{k} {v}" for k, v in Counter(r.exit_reason for r in records).most_common()), ""]
    lines += ["## Caveats", "",
              "Scores are measured on the machine that ran the sweep (see each run's `config.json`); speedups on CPU "
              "and on a GPU are not comparable. Tool results include measured times, so the same actions can score "
              "differently between runs.", ""]
    path = out / "README.md"
    path.write_text("\n".join(lines))
    return path


def card_summary(records: list[TrajectoryRecord]) -> dict[str, Any]:
    """Counts the card reports, as data (used by tests and callers that want numbers)."""
    return {"records": len(records), "tasks": len({r.task_id for r in records}),
            "models": sorted({r.model for r in records}),
            "with_pass": sum(1 for r in records if r.best_as is not None)}
