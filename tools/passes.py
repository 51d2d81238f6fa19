"""The pass contract: finding pass files and loading their rules.

A pass is one Python file defining (PassNet-compatible, see ``shared/docs/DESIGN.md``)::

    def pattern(*args): ...            # torch-level code of the fragment to match
    def replacement_args(*args): ...   # matched arguments -> the replacement's arguments
    def replacement_func(): ...        # returns the function computing the fragment

or PassNet's ``pass_dir/`` holding several such files plus ``sorted_output_pass_rule_names.json``
(a JSON list of file stems, applied in that order).

:func:`pass_files` only reads file names and text (safe in any process);
:func:`load_rules` imports the pass code and therefore only runs inside the evaluation worker.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from .errors import PassLoadError

RULE_LIST_FILE = "sorted_output_pass_rule_names.json"
REQUIRED_FUNCTIONS = ("pattern", "replacement_args", "replacement_func")


def pass_files(path: str | Path) -> list[tuple[str, Path]]:
    """The (rule name, file) pairs of a pass file or ``pass_dir/``, in application order.

    Raises:
        PassLoadError: the path does not exist, the rule list is missing or malformed, or it
            names a file that is not there.
    """
    path = Path(path)
    if path.is_file():
        return [(path.stem, path)]
    if not path.exists():
        raise PassLoadError(f"{path}: pass file or pass_dir does not exist")
    rule_list = path / RULE_LIST_FILE
    if not rule_list.is_file():
        raise PassLoadError(f"{path}: a pass_dir needs {RULE_LIST_FILE} listing its rules")
    try:
        names = json.loads(rule_list.read_text())
    except json.JSONDecodeError as exc:
        raise PassLoadError(f"{rule_list}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise PassLoadError(f"{rule_list}: must be a non-empty JSON list of rule names")
    out = []
    for name in names:
        file = path / f"{name}.py"
        if not file.is_file():
            raise PassLoadError(f"{rule_list}: rule {name!r} has no file {file.name} in {path}")
        out.append((name, file))
    return out


def pass_digest(path: str | Path) -> str:
    """SHA-256 over every rule's name and source: the key of everything cached for this pass."""
    h = hashlib.sha256()
    for name, file in pass_files(path):
        h.update(name.encode() + b"\0" + file.read_bytes() + b"\0")
    return h.hexdigest()


@dataclass
class PassRule:
    """One loaded rule of a pass.

    Attributes:
        name: the rule name (file stem).
        path: its source file.
        module: the imported module.
        pattern: the pattern callable (or an ``fx.GraphModule``).
        replacement_args: maps the pattern's arguments to the replacement's.
        replacement_func: returns the replacement function.
    """

    name: str
    path: Path
    module: ModuleType
    pattern: Callable[..., Any]
    replacement_args: Callable[..., Any]
    replacement_func: Callable[[], Callable[..., Any]]


class RuleLoadFailure(Exception):
    """A rule's file failed to import or lacks a contract function (a ``compile`` failure).

    Attributes:
        rule: the rule name. path: its file.
    """

    def __init__(self, rule: str, path: Path, message: str):
        self.rule = rule
        self.path = path
        super().__init__(message)


def _bound_names(tree: ast.Module) -> set[str] | None:
    """Names a module's top-level code binds (defs, classes, assignments, imports, also inside
    top-level ``if``/``try``/``with`` blocks); None when a star import makes that unknowable."""
    names: set[str] = set()
    for node in ast.walk(ast.Module(body=[n for n in tree.body], type_ignores=[])):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return None
                names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def source_load_error(path: str | Path) -> tuple[str, str] | None:
    """Why a pass cannot load, found from its source alone (nothing of it runs): a rule file
    that does not parse, or one that binds none of a function the contract needs.

    Returns ``(message, traceback text pointing at the file and line)``, or None when the source
    looks loadable (an exception at import can still happen: only running it tells).

    Raises:
        PassLoadError: see :func:`pass_files`.
    """
    import traceback

    for _name, file in pass_files(path):
        source = file.read_bytes().decode("utf-8", errors="replace")
        try:
            tree = ast.parse(source, filename=str(file))
            compile(tree, str(file), "exec")
        except SyntaxError as exc:
            return (f"{file.name}:{exc.lineno}: SyntaxError: {exc.msg}",
                    "".join(traceback.format_exception_only(type(exc), exc)).rstrip())
        except (ValueError, RecursionError, MemoryError) as exc:
            return f"{file.name}: cannot be parsed: {type(exc).__name__}: {exc}", ""
        bound = _bound_names(tree)
        missing = [] if bound is None else [f for f in REQUIRED_FUNCTIONS if f not in bound]
        if missing:
            return (f"{file.name} does not define {', '.join(missing)} (the pass contract needs "
                    f"{', '.join(REQUIRED_FUNCTIONS)})", "")
    return None


def load_rules(path: str | Path, digest: str | None = None) -> list[PassRule]:
    """Import every rule of a pass. Runs the pass's top-level code: worker process only.

    Each module is registered in ``sys.modules`` under a name unique to the pass's digest,
    so compiled artifacts that refer to its functions can never resolve to an older version.

    Raises:
        PassLoadError: see :func:`pass_files`.
        RuleLoadFailure: a file does not parse, raises on import, or lacks a function; the
            exception's ``__cause__`` carries the original error (e.g. the SyntaxError).
    """
    digest = digest or pass_digest(path)
    rules = []
    for name, file in pass_files(path):
        module_name = f"passagent_pass_{digest[:12]}_{name}"
        spec = importlib.util.spec_from_file_location(module_name, file)
        if spec is None or spec.loader is None:
            raise RuleLoadFailure(name, file, f"cannot import {file}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except SyntaxError as exc:
            raise RuleLoadFailure(
                name, file, f"{file.name}:{exc.lineno}: SyntaxError: {exc.msg}"
            ) from exc
        except BaseException as exc:  # noqa: BLE001 - any error in model code is a result
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise RuleLoadFailure(name, file, f"importing {file.name} raised {type(exc).__name__}: {exc}") from exc
        missing = [f for f in REQUIRED_FUNCTIONS if not callable(getattr(module, f, None))]
        if missing:
            raise RuleLoadFailure(
                name, file, f"{file.name} does not define {', '.join(missing)} (the pass contract needs {', '.join(REQUIRED_FUNCTIONS)})"
            )
        rules.append(
            PassRule(name, file, module, module.pattern, module.replacement_args, module.replacement_func)
        )
    return rules
