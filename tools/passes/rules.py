"""The pass contract: finding pass files and loading their rules.

A pass is one Python file defining (PassNet-compatible, see ``shared/docs/DESIGN.md``)::

    def pattern(*args): ...            # torch-level code of the fragment to match
    def replacement_args(*args): ...   # matched arguments -> the replacement's arguments
    def replacement_func(): ...        # returns the function computing the fragment
    def match_check(*args): ...        # optional: whether to rewrite this match (see below)

``match_check`` takes the pattern's parameters, each bound to what it matched: a tensor's
metadata (a fake tensor: ``shape``, ``dtype``, ``device``, ``stride()``, ``dim()``; no values) or
the literal (int, float, bool, None, a list); a false result leaves that match unrewritten. It is
the pass-level form of the ``extra_check`` Inductor's own pattern matcher takes
(``torch/_inductor/pattern_matcher.py``, ``register_replacement``), and it lets a rule say "only
for float16" or "only where the last dimension is a multiple of 64", which the replacement, being
traced once, cannot branch on. Passes without one (PassNet's) rewrite every match.

or PassNet's ``pass_dir/`` holding several such files plus ``sorted_output_pass_rule_names.json``
(a JSON list of file stems, applied in that order). Any other ``.py`` file in a ``pass_dir/`` is a
**helper module** (e.g. one Triton kernel shared by several rules): rules import it as
``from pass_dir.<module> import ...`` whatever the folder is called, as PassNet's rules do; it
goes through the same static checks as a rule and its source is part of the pass digest.

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

from ..errors import PassLoadError

RULE_LIST_FILE = "sorted_output_pass_rule_names.json"
REQUIRED_FUNCTIONS = ("pattern", "replacement_args", "replacement_func")
#: The optional contract function that decides, per match, whether the rule rewrites it.
MATCH_CHECK = "match_check"
#: The package name under which a pass_dir's helper modules are importable by its rules.
HELPER_PACKAGE = "pass_dir"


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


def helper_files(path: str | Path) -> list[Path]:
    """The helper modules of a ``pass_dir/``: every ``.py`` file under it that is not a rule
    (sorted; ``__pycache__`` skipped). A single-file pass has none.

    Raises:
        PassLoadError: see :func:`pass_files`.
    """
    path = Path(path)
    rules = {f.resolve() for _n, f in pass_files(path)}
    if path.is_file():
        return []
    return sorted(f for f in path.rglob("*.py") if "__pycache__" not in f.parts and f.resolve() not in rules)


def helper_module_names(path: str | Path) -> frozenset[str]:
    """Dotted names (relative to the pass folder) that ``from pass_dir.<name> import`` may use:
    each source file's module path (helpers and rules: every one is checked) and the folders
    holding them (``kernels.rms`` and ``kernels``). Empty for a single-file pass."""
    path = Path(path)
    if path.is_file():
        return frozenset()
    names: set[str] = set()
    for f in source_files(path):
        parts = f.relative_to(path).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        names.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(names)


def source_files(path: str | Path) -> list[Path]:
    """Every source file of the pass: its rules in application order, then its helper modules."""
    return [f for _n, f in pass_files(path)] + helper_files(path)


def pass_digest(path: str | Path) -> str:
    """SHA-256 over every rule's name and source and every helper module's relative path and
    source: the key of everything cached for this pass (an edited helper changes it)."""
    h = hashlib.sha256()
    for name, file in pass_files(path):
        h.update(name.encode() + b"\0" + file.read_bytes() + b"\0")
    root = Path(path)
    for file in helper_files(path):
        h.update(b"helper\0" + str(file.relative_to(root)).encode() + b"\0" + file.read_bytes() + b"\0")
    return h.hexdigest()


def install_helper_package(path: str | Path) -> None:
    """Make ``import pass_dir.<module>`` resolve to the helper modules of the pass at ``path``.

    Registers a fresh package named :data:`HELPER_PACKAGE` whose search path is the pass folder
    (and forgets modules imported from an earlier pass under that name), so a rule's
    ``from pass_dir.shared_kernel import kernel`` works whatever the folder is called.
    """
    path = Path(path)
    for name in [m for m in sys.modules if m == HELPER_PACKAGE or m.startswith(HELPER_PACKAGE + ".")]:
        del sys.modules[name]
    if path.is_file():
        return
    package = ModuleType(HELPER_PACKAGE)
    package.__path__ = [str(path.resolve())]  # a namespace-like package over the pass folder
    package.__package__ = HELPER_PACKAGE
    sys.modules[HELPER_PACKAGE] = package


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
        match_check: the rule's optional ``match_check`` (see the module docstring), or None.
    """

    name: str
    path: Path
    module: ModuleType
    pattern: Callable[..., Any]
    replacement_args: Callable[..., Any]
    replacement_func: Callable[[], Callable[..., Any]]
    match_check: Callable[..., Any] | None = None


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
    # Before any pass code runs: operators it gives kernels with torch.library.Library(...).impl
    # are recorded, so the no_change and precision checks can trace through them.
    from .library_registry import install

    install()
    install_helper_package(path)
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
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise RuleLoadFailure(name, file, f"importing {file.name} raised {type(exc).__name__}: {exc}") from exc
        missing = [f for f in REQUIRED_FUNCTIONS if not callable(getattr(module, f, None))]
        if missing:
            raise RuleLoadFailure(
                name, file, f"{file.name} does not define {', '.join(missing)} (the pass contract needs {', '.join(REQUIRED_FUNCTIONS)})"
            )
        check = getattr(module, MATCH_CHECK, None)
        if check is not None and not callable(check):
            raise RuleLoadFailure(name, file, f"{file.name}: {MATCH_CHECK} must be a function, not {type(check).__name__}")
        rules.append(
            PassRule(name, file, module, module.pattern, module.replacement_args, module.replacement_func, check)
        )
    return rules
