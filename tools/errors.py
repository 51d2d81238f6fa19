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


def require_module(module: str, extra: str, purpose: str, alternative: str = "") -> None:
    """Fail with a one-line error, before any output is written, when an optional dependency
    is missing (instead of a traceback halfway through).

    Raises:
        PassagentError: ``module`` cannot be imported; the message names the extra to install.
    """
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise PassagentError(f"{purpose} needs {module}, which is not installed: pip install 'passagent[{extra}]'"
                             + (f" ({alternative})" if alternative else ""))


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
