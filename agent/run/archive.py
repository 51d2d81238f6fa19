"""The trajectory archive of one solve run: ``runs/<run_id>/<task_id>/<model>/``.

* ``events.jsonl``: append-only, one JSON object per line, flushed and fsync'ed per event:
  every message, tool call, tool result, pass version (source and score), token usage, cost,
  timings and errors. Each event has a deterministic ``id`` (``s3:model``, ``s3:tool:0``...).
  The log is the write-ahead record of side effects: on resume, a step whose event is already
  there is replayed from it (no second API call, no second evaluation), and an event is never
  written twice.
* ``config.json``: the exact configuration (model settings without keys, budgets, harness
  options, versions, prompts digest).
* ``passes/vNNN/``: every evaluated pass version (a PassNet ``pass_dir``).
* ``best_pass/`` (and ``best_pass.py`` when it has one rule): the best-scoring version.
* ``result.json``: final scores, exit reason, budgets used.
* ``checkpoints.sqlite``: the LangGraph checkpointer's state, for ``--resume``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

from .events import EventKind

EVENTS_FILE = "events.jsonl"
_SAFE = re.compile(r"[^A-Za-z0-9._+-]+")


def safe_name(text: str) -> str:
    """A filesystem-safe version of a task id or model name."""
    return _SAFE.sub("_", text).strip("_") or "unnamed"


class RunArchive:
    """One run's folder and its event log.

    Args:
        root: the run folder (``runs/<run_id>/<task_id>/<model>``); created if missing.

    Raises:
        ValueError: ``events.jsonl`` exists but a line other than a torn last line is not JSON.
    """

    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.events_path = self.root / EVENTS_FILE
        self._events: dict[str, dict[str, Any]] = {}
        self._seq = 0
        self._load()
        self._fh = open(self.events_path, "a", encoding="utf-8")

    def _load(self) -> None:
        if not self.events_path.exists():
            return
        raw = self.events_path.read_bytes()
        lines = raw.split(b"\n")
        good = 0
        for i, line in enumerate(lines):
            if not line.strip():
                good += len(line) + 1
                continue
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                if i >= len(lines) - 2:  # a torn last line from a kill mid-write: drop it
                    break
                raise ValueError(f"{self.events_path}: line {i + 1} is not JSON") from None
            self._events[event["id"]] = event
            self._seq = max(self._seq, int(event.get("seq", 0)))
            good += len(line) + 1
        if good < len(raw):
            with open(self.events_path, "r+b") as f:
                f.truncate(min(good, len(raw)))

    @property
    def events(self) -> list[dict[str, Any]]:
        """All recorded events in order."""
        return sorted(self._events.values(), key=lambda e: e["seq"])

    def get(self, event_id: str) -> dict[str, Any] | None:
        return self._events.get(event_id)

    def record(self, event_id: str, kind: EventKind, **payload: Any) -> dict[str, Any]:
        """Append an event of ``kind`` (:class:`~.events.EventKind`) unless one with this id
        exists; return the stored event.

        Flushed and fsync'ed before returning, so a kill right after loses nothing.
        """
        if event_id in self._events:
            return self._events[event_id]
        self._seq += 1
        event = {"id": event_id, "seq": self._seq, "kind": kind, "time": time.time(), **payload}
        self._fh.write(json.dumps(event, default=str) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._events[event_id] = event
        return event

    def write_json(self, name: str, data: Any) -> None:
        """Write ``name`` atomically (temp file + rename)."""
        tmp = self.root / f".{name}.tmp"
        tmp.write_text(json.dumps(data, indent=2, default=str))
        os.replace(tmp, self.root / name)

    def read_json(self, name: str) -> Any | None:
        path = self.root / name
        return json.loads(path.read_text()) if path.exists() else None

    def version_dir(self, version: int) -> Path:
        return self.root / "passes" / f"v{version:03d}"

    def save_best(self, version: int) -> None:
        """Copy pass version ``version`` to ``best_pass/`` (and ``best_pass.py`` if one rule)."""
        src = self.version_dir(version)
        best = self.root / "best_pass"
        if best.exists():
            shutil.rmtree(best)
        shutil.copytree(src, best)
        rules = json.loads((best / "sorted_output_pass_rule_names.json").read_text())
        single = self.root / "best_pass.py"
        if len(rules) == 1:
            shutil.copyfile(best / f"{rules[0]}.py", single)
        elif single.exists():
            single.unlink()

    def close(self) -> None:
        self._fh.close()
