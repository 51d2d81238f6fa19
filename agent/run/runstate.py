"""Reading run folders back: status, spend and results, tolerant of half-written or corrupt ones.

Sweeps, reports and exports never trust an in-memory list of what ran: they read the run
folders (``<root>/<run_id>/<task_id>/<model>/``). A folder is

* ``finished``: ``result.json`` parses and has the fields a report needs;
* ``partial``: it has ``config.json`` (the run started) but no ``result.json``; resumable;
* ``corrupt``: ``result.json`` or ``config.json`` exists but does not parse, or lacks fields.

A corrupt folder is reported and skipped by reports and exports; it never aborts them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .archive import EVENTS_FILE
from .events import EventKind

RUN_MARKERS = ("config.json", "result.json", EVENTS_FILE)
_RESULT_FIELDS = ("task_id", "model", "exit_reason", "best_as")
_SEED_SUFFIX = re.compile(r"\+s(\d+)$")


@dataclass
class Tally:
    """Model calls and spend read from one ``events.jsonl``.

    Attributes:
        calls: ``model_response`` events (one per model call).
        cost_usd: their summed cost (US dollars), with the worst case of attempts that timed out
            after being sent (``unconfirmed_cost_usd``: they may have been billed), also of calls
            that failed for good.
        input_tokens, output_tokens: their summed token usage.
        evaluations: ``tool_result`` events carrying a pass evaluation.
    """

    calls: int = 0
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    evaluations: int = 0

    def add(self, event: dict[str, Any]) -> None:
        if event.get("kind") == EventKind.MODEL_RESPONSE:
            usage = event.get("usage") or {}
            self.calls += 1
            self.cost_usd += float(usage.get("cost_usd") or 0.0) + float(usage.get("unconfirmed_cost_usd") or 0.0)
            self.input_tokens += int(usage.get("input_tokens") or 0)
            self.output_tokens += int(usage.get("output_tokens") or 0)
        elif event.get("kind") == EventKind.TOOL_RESULT and event.get("version") is not None:
            self.evaluations += 1
        elif event.get("kind") in (EventKind.ERROR, EventKind.MODEL_UNAVAILABLE):
            self.cost_usd += float(event.get("unconfirmed_cost_usd") or 0.0)


def read_events(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The events of ``path`` (an ``events.jsonl`` or its run folder) and the problems found.

    A torn last line (a kill mid-write) is dropped silently; any other unparsable line is
    skipped and named in the problems. A missing file gives no events and no problem.
    """
    path = path / EVENTS_FILE if path.is_dir() else path
    try:
        lines = path.read_bytes().split(b"\n")
    except OSError:
        return [], []
    events, problems = [], []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            if i < len(lines) - 2:
                problems.append(f"{path.name} line {i + 1} is not JSON")
            continue
        if isinstance(event, dict):
            events.append(event)
    return events, problems


class EventTallies:
    """Incremental tallies of many ``events.jsonl`` files (re-read only what was appended).

    Used by the sweep's scheduler once a second over every run of the sweep, so the global
    budgets are computed from the folders, not from worker reports.
    """

    def __init__(self) -> None:
        self._state: dict[Path, tuple[int, bytes, Tally]] = {}

    def tally(self, run_dir: Path) -> Tally:
        """The tally of ``run_dir/events.jsonl`` as it is now (zero if there is none)."""
        path = run_dir / EVENTS_FILE
        try:
            size = path.stat().st_size
        except OSError:
            return Tally()
        offset, rest, tally = self._state.get(path, (0, b"", Tally()))
        if size < offset:  # truncated (a resume drops a torn line): start over
            offset, rest, tally = 0, b"", Tally()
        if size > offset:
            with open(path, "rb") as f:
                f.seek(offset)
                data = rest + f.read(size - offset)
            *complete, rest = data.split(b"\n")
            for line in complete:
                try:
                    event = json.loads(line)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    continue
                if isinstance(event, dict):
                    tally.add(event)
            offset = size
        self._state[path] = (offset, rest, tally)
        return tally


@dataclass
class RunInfo:
    """What one run folder holds.

    Attributes:
        path: the run folder.
        status: ``finished``, ``partial`` or ``corrupt`` (see the module docstring).
        result: ``result.json`` (finished runs), else None.
        config: ``config.json`` if it parses, else None.
        problem: why the folder is corrupt, else None.
    """

    path: Path
    status: Literal["finished", "partial", "corrupt"]
    result: dict[str, Any] | None = None
    config: dict[str, Any] | None = None
    problem: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def model(self) -> str:
        """The model label without a sweep's seed suffix (``builtin``, ``openai:gpt-5``)."""
        recorded = ((self.config or {}).get("model") or {}).get("base_name")
        if recorded:
            return str(recorded)
        name = (self.result or {}).get("model") or ((self.config or {}).get("model") or {}).get("name") or self.path.name
        return _SEED_SUFFIX.sub("", str(name))

    @property
    def seed(self) -> int:
        """The sweep seed index of the run (0 for runs outside sweeps)."""
        recorded = ((self.config or {}).get("model") or {}).get("sweep_seed")
        if recorded is not None:
            return int(recorded)
        m = _SEED_SUFFIX.search(str((self.result or {}).get("model") or self.path.name))
        return int(m.group(1)) if m else 0

    @property
    def task_id(self) -> str:
        return str((self.result or {}).get("task_id") or (self.config or {}).get("task_id") or self.path.parent.name)


def _read_json(path: Path) -> tuple[Any, str | None]:
    if not path.exists():
        return None, None
    try:
        return json.loads(path.read_text()), None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"{path.name} is unreadable ({type(exc).__name__}: {str(exc).splitlines()[0][:120]})"


def load_run(path: Path) -> RunInfo:
    """Read one run folder; never raises for bad content (it becomes ``status="corrupt"``)."""
    path = Path(path)
    config, config_problem = _read_json(path / "config.json")
    result, result_problem = _read_json(path / "result.json")
    if config_problem or result_problem:
        return RunInfo(path, "corrupt", None, config, config_problem or result_problem)
    if config is not None and not isinstance(config, dict):
        return RunInfo(path, "corrupt", None, None, "config.json is not a JSON object")
    if result is None:
        if config is None:
            return RunInfo(path, "corrupt", None, None, "no config.json and no result.json")
        return RunInfo(path, "partial", None, config)
    if not isinstance(result, dict) or any(k not in result for k in _RESULT_FIELDS):
        missing = [k for k in _RESULT_FIELDS if not isinstance(result, dict) or k not in result]
        return RunInfo(path, "corrupt", None, config, f"result.json lacks {', '.join(missing)}")
    return RunInfo(path, "finished", result, config)


def find_runs(root: Path) -> list[Path]:
    """Every run folder under ``root`` (``root`` itself if it is one), sorted.

    A run folder holds ``config.json``, ``result.json`` or ``events.jsonl``; pass versions and
    the workspace inside a run are never mistaken for runs.
    """
    root = Path(root)
    found: set[Path] = set()
    for marker in RUN_MARKERS:
        for p in root.rglob(marker):
            parts = p.relative_to(root).parts
            if any(x in ("passes", "best_pass", "workspace", "report", "locks", "logs") for x in parts[:-1]):
                continue
            found.add(p.parent)
    return sorted(found)
