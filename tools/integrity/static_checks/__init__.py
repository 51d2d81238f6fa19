"""Static checks on a pass's source, before any of it runs (see Integrity in DESIGN.md).

A pass is model-written code that the worker imports, so these checks read its AST and reject
the ways a pass could game the evaluation rather than win it: importing the harness or a timer,
dynamic code, introspection of frames and namespaces, monkeypatching modules, compiling or
profiling from inside the pass, side streams and threads, state kept across calls (caches keyed
by ``id``/``data_ptr``), tensor subclasses, files and sockets. Imports are an allow-list; torch
namespaces are checked by path after resolving import aliases and simple ``name = module.attr``
assignments, with Python's scoping (a parameter called ``input`` is not the builtin).

In :attr:`Mode.STRICT` (PassNet's strict mode) code outside ``pattern`` and ``replacement_args``
may only allocate (``torch.empty``...), read tensor metadata, use ``torch.library``/``torch.fx``
and launch Triton kernels; :attr:`Mode.PERMISSIVE` (the default) also allows other torch ops.

Decisions: code under ``if __name__ == "__main__":`` is skipped (the loader names the module
``passagent_pass_...``, so it never runs); the dunder names ``__name__``/``__doc__`` and the
attributes ``__init__``/``__version__`` are allowed; ``torch._C._nn``/``_fft``/``_linalg``/
``_special`` and private ATen bindings such as ``torch._weight_norm`` are allowed because
Dynamo prints them and honest patterns copy them. A source that does not parse yields no
violation: the loader reports the SyntaxError as a compile failure.
"""

from __future__ import annotations

import ast
from pathlib import Path

from ...passes.rules import helper_module_names, source_files
from .checker import _Checker
from .rules import RULES, Mode, Violation

__all__ = ["RULES", "Mode", "Violation", "check_pass", "check_source"]


def check_source(source: str, path: str = "<pass>", mode: Mode = Mode.PERMISSIVE,
                 local_modules: frozenset[str] = frozenset()) -> list[Violation]:
    """Check one pass file's source; returns its violations, sorted by line ([] if clean).

    ``local_modules``: the pass folder's own modules (``passes.helper_module_names``), which
    ``from pass_dir.<name> import ...`` may import; every other ``pass_dir`` import is refused.
    Source that does not parse returns [] (the loader reports the SyntaxError). Never raises.
    """
    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    try:
        return _Checker(tree, path, Mode(mode), local_modules).run()
    except RecursionError:
        return [Violation("unanalysable", "the source is nested too deeply to check; flatten it", path, 1)]


def check_pass(pass_path: str | Path, mode: Mode = Mode.PERMISSIVE) -> list[Violation]:
    """Check every source file of a pass file or PassNet ``pass_dir/``: its rules in application
    order, then its helper modules (the same rules apply to both).

    Raises:
        PassLoadError: see :func:`passagent.tools.passes.rules.pass_files`.
    """
    out: list[Violation] = []
    local = helper_module_names(pass_path)
    for file in source_files(pass_path):
        out.extend(check_source(file.read_bytes().decode("utf-8", errors="replace"), str(file), mode, local))
    return out
