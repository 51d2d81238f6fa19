"""Cache of baseline measurements per (subgraph, device, torch version, input settings).

Compiling and timing default Inductor on every evaluation would double the cost of an agent
step; its result does not depend on the pass. What is cached per subgraph: the eager and
Inductor times measured interleaved, Inductor's own error against eager, and whether the
reference is low-signal. One small JSON file per key, written atomically, so concurrent
sweeps never corrupt it.

The cached Inductor time is used only as a ratio to the eager time measured with it: an
evaluation that does not recompile Inductor reports ``T_inductor = T_eager(now) * ratio``
(marked ``source: cached``), which cancels drift in machine load between the two runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

#: Bump when what is cached changes meaning.
CACHE_VERSION = 1


def default_cache_root() -> Path:
    """``$PASSAGENT_CACHE_DIR`` or ``~/.cache/passagent``."""
    env = os.environ.get("PASSAGENT_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "passagent"


class BaselineCache:
    """Directory of cached baseline measurements.

    Args:
        root: the cache root (``<root>/baselines/<key>.json``).
        enabled: False makes every lookup miss and every store a no-op.
    """

    def __init__(self, root: Path, enabled: bool = True):
        self.dir = Path(root) / "baselines"
        self.enabled = enabled

    @staticmethod
    def key(subgraph_digest: str, device_name: str, torch_version: str, settings: dict[str, Any]) -> str:
        """Hex key over the subgraph digest, device, torch version and input/timing settings."""
        blob = json.dumps([CACHE_VERSION, subgraph_digest, device_name, torch_version, settings], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def get(self, key: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        path = self.dir / f"{key}.json"
        try:
            return json.loads(path.read_text())
        except (FileNotFoundError, json.JSONDecodeError, OSError):
            return None

    def put(self, key: str, value: dict[str, Any]) -> None:
        if not self.enabled:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.dir, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(value, f)
        os.replace(tmp, self.dir / f"{key}.json")
