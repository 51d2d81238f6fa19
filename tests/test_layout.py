"""The package layout docs/layout.md draws: no import cycle between modules, and each package
imports only the packages drawn below it (every import counts, those inside functions too)."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import REPO

#: A package's level in docs/layout.md's drawing; a package may import those of a lower level.
LEVELS = {
    "tools": 0,
    "tools.tasks": 1,
    "tools.measure": 2, "tools.process": 2,
    "tools.passes": 3, "tools.integrity": 3,
    "tools.evaluation": 4,
    "tools.inspection": 5, "tools.redteam": 5,
    "agent": 6,
    "agent.providers": 7, "agent.builtin": 7,
    "agent.run": 8,
    "agent.sweep": 9, "agent.report": 9, "agent.export": 9,
    "agent.cli": 10,
}
#: Imports between packages of one level that the drawing shows side by side.
SIDE_BY_SIDE = {("tools.passes", "tools.integrity"), ("tools.integrity", "tools.passes")}


def _modules() -> dict[str, Path]:
    out = {}
    for top in ("tools", "agent"):
        for path in (REPO / top).rglob("*.py"):
            rel = path.relative_to(REPO)
            if "corpus" in rel.parts:  # the red-team corpus: pass files, data
                continue
            parts = ["passagent", *rel.with_suffix("").parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the passagent modules it imports (at any depth of its code)."""
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package[: len(package) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                names = [f"{base}.{a.name}" for a in node.names] + [base]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for n in names:
                while n and n not in modules and "." in n:
                    n = n.rsplit(".", 1)[0]
                if n in modules and n != name:
                    targets.add(n)
        edges[name] = targets
    return edges


def _package(module: str) -> str:
    parts = module.split(".")[1:]
    if len(parts) >= 2 and ".".join(parts[:2]) in LEVELS:
        return ".".join(parts[:2])
    return parts[0]


def test_no_module_imports_itself_back() -> None:
    modules = _modules()
    edges = _imports(modules)
    # A package's __init__ importing its own modules is not a cycle through them.
    edges = {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in edges.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(modules):
        if v not in index:
            visit(v)
    assert cycles == []


def test_each_package_imports_only_what_is_drawn_below_it() -> None:
    modules = _modules()
    assert {_package(m) for m in modules} <= set(LEVELS), "a new package: give it a level here and in docs/layout.md"
    wrong = sorted(
        f"{m} -> {t}"
        for m, targets in _imports(modules).items() for t in targets
        if _package(m) != _package(t)
        and LEVELS[_package(t)] >= LEVELS[_package(m)]
        and (_package(m), _package(t)) not in SIDE_BY_SIDE
    )
    assert wrong == []


def test_the_checks_see_a_cycle_and_an_upward_import(tmp_path: Path, monkeypatch) -> None:
    """The two checks above fail when they should: a planted cycle and a planted upward import."""
    import sys

    fake = tmp_path / "repo"
    (fake / "tools" / "tasks").mkdir(parents=True)
    (fake / "agent").mkdir()
    (fake / "tools" / "__init__.py").write_text("")
    (fake / "tools" / "tasks" / "__init__.py").write_text("")
    (fake / "tools" / "tasks" / "a.py").write_text("def f():\n    from . import b\n")
    (fake / "tools" / "tasks" / "b.py").write_text("from .a import f\nfrom ...agent import x\n")
    (fake / "agent" / "__init__.py").write_text("")
    (fake / "agent" / "x.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "REPO", fake)
    edges = _imports(_modules())
    assert "passagent.tools.tasks.b" in edges["passagent.tools.tasks.a"]
    assert "passagent.tools.tasks.a" in edges["passagent.tools.tasks.b"]
    try:
        test_no_module_imports_itself_back()
    except AssertionError:
        pass
    else:
        raise AssertionError("the cycle a <-> b was not seen")
    try:
        test_each_package_imports_only_what_is_drawn_below_it()
    except AssertionError as exc:
        assert "passagent.tools.tasks.b -> passagent.agent" in str(exc)
    else:
        raise AssertionError("tools importing agent was not seen")
