"""The built-in benchmark: capture real architectures, cut, dedupe, group, select, ship.

``passagent bench build`` runs the pipeline (:mod:`.build`); the shipped tasks live in
``tasks/task_NNN/`` beside this file with ``manifest.json``. :func:`extract` captures a user's
own model into the same GraphNet sample format.

Importing this package does not import torch (``passagent tasks list`` stays fast); ``extract``
is loaded on first use.
"""

from __future__ import annotations

from typing import Any

__all__ = ["extract"]


def __getattr__(name: str) -> Any:
    if name == "extract":
        from .extractor import extract

        return extract
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
