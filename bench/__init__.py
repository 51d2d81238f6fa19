"""The built-in benchmark: capture real architectures, cut, dedupe, group, select, ship.

``passagent bench build`` runs the pipeline (:mod:`.build`); the shipped tasks live in
``tasks/task_NNN/`` beside this file with ``manifest.json``. :func:`extract` captures a user's
own model into the same GraphNet sample format.
"""

from .extract import extract

__all__ = ["extract"]
