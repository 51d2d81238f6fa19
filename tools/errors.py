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


def require_device(device: str, option: str = "--device", cpu_slots: bool = False) -> str:
    """Check a device name before any work is done or any file is written; return it.

    Accepted: ``cpu``; ``cuda`` and ``cuda:N`` (N below the number of GPUs) where CUDA is
    available; with ``cpu_slots`` also ``cpu:N``, a sweep's stand-in slots of the CPU
    (:func:`passagent.tools.process.device_lease.leased_device`), which no other command has.

    Raises:
        DeviceUnavailableError: a CUDA device this machine does not have (one line naming it).
        PassagentError: a name that is no device at all.
    """
    kind, sep, index = device.partition(":")
    if kind == "cpu" and (not sep or (cpu_slots and index.isdigit())):
        return device
    if kind != "cuda" or (sep and not index.isdigit()):
        slots = ", cpu:N" if cpu_slots else ""
        raise PassagentError(f"{option} {device}: not a device; use cpu{slots}, cuda or cuda:N")
    import torch

    if not torch.cuda.is_available():
        build = "this torch build has no CUDA" if torch.version.cuda is None else "no CUDA device is visible"
        raise DeviceUnavailableError(f"{option} {device}: {build} on this machine (torch {torch.__version__}); use cpu")
    count = torch.cuda.device_count()
    if sep and int(index) >= count:
        raise DeviceUnavailableError(f"{option} {device}: this machine has {count} CUDA device(s), cuda:0..cuda:{count - 1}")
    return device
