"""Errors the harness raises for bad input it was handed (as opposed to a failing pass).

A failing *pass* never raises out of the harness: it becomes a failure class in the result.
These exceptions are for inputs the user controls (task folders, pass files, options) and map
to exit code 2 in the CLI, with a one-line message that names the file and the field.
"""

from __future__ import annotations

from pathlib import Path


class PassagentError(Exception):
    """Base class: a user-facing error with a one-line message."""

    exit_code = 2


class TaskError(PassagentError):
    """A task folder or subgraph sample is missing, malformed, or inconsistent.

    Attributes:
        path: the offending file (or folder).
        field: the field inside it (an argument name, ``shape``, ``dtype``...), or None.
    """

    def __init__(self, path: str | Path, message: str, field: str | None = None):
        self.path = Path(path)
        self.field = field
        where = f"{self.path}" + (f" [{field}]" if field else "")
        super().__init__(f"{where}: {message}")


class PassLoadError(PassagentError):
    """A pass file or ``pass_dir/`` cannot be read (missing file, bad rule list JSON)."""


class DeviceUnavailableError(PassagentError):
    """``--device cuda`` was asked for on a machine without a usable CUDA device."""
