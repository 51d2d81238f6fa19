"""Python's scoping rules, flow-insensitively: which names each module, function, class and
comprehension scope binds, imports or aliases, so the checker resolves ``input`` (a parameter)
apart from the builtin and ``F.relu`` to ``torch.nn.functional.relu``."""

from __future__ import annotations

import ast


class _Scope:
    def __init__(self, kind: str, parent: _Scope | None, node: ast.AST):
        self.kind, self.parent, self.node = kind, parent, node
        self.bound: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.imports: dict[str, tuple[str, ...]] = {}  # name -> module path it is bound to
        self.aliases: dict[str, list[ast.expr]] = {}  # name -> chains assigned to it
        self.defs: set[str] = set()  # functions and classes defined here

    def function(self) -> _Scope | None:
        s: _Scope | None = self
        while s is not None and s.kind == "comprehension":
            s = s.parent
        return s if s is not None and s.kind == "function" else None


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _is_chain(e: ast.expr) -> bool:
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name)


class _ScopeBuilder(ast.NodeVisitor):
    """Records, for every scope, the names bound in it (Python's rules, flow-insensitive)."""

    def __init__(self, tree: ast.Module):
        self.module = _Scope("module", None, tree)
        self.scopes: dict[ast.AST, _Scope] = {tree: self.module}
        self.cur = self.module
        for stmt in tree.body:
            self.visit(stmt)

    def _enter(self, kind: str, node: ast.AST, visit: list[ast.AST]) -> None:
        outer, self.cur = self.cur, _Scope(kind, self.cur, node)
        self.scopes[node] = self.cur
        for n in visit:
            self.visit(n)
        self.cur = outer

    def _args(self, a: ast.arguments) -> list[str]:
        return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]]

    def _outside(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        a = node.args
        for d in a.defaults + [d for d in a.kw_defaults if d is not None]:
            self.visit(d)
        if not isinstance(node, ast.Lambda):
            for d in node.decorator_list:
                self.visit(d)
            for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]:
                if x.annotation:
                    self.visit(x.annotation)
            if node.returns:
                self.visit(node.returns)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.cur.bound.add(node.name)
        self.cur.defs.add(node.name)
        self._outside(node)
        self._enter("function", node, list(node.body))
        self.scopes[node].bound.update(self._args(node.args))

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._outside(node)
        self._enter("function", node, [node.body])
        self.scopes[node].bound.update(self._args(node.args))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.cur.bound.add(node.name)
        self.cur.defs.add(node.name)
        for n in node.bases + [k.value for k in node.keywords] + node.decorator_list:
            self.visit(n)
        self._enter("class", node, list(node.body))

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) -> None:
        self.visit(node.generators[0].iter)  # evaluated in the enclosing scope
        rest: list[ast.AST] = [node.generators[0].target, *node.generators[0].ifs]
        for g in node.generators[1:]:
            rest += [g.target, g.iter, *g.ifs]
        rest += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        self._enter("comprehension", node, rest)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.cur.bound.add(node.id)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        s = self.cur
        while s.kind == "comprehension" and s.parent is not None:
            s = s.parent
        s.bound.add(node.target.id)
        if _is_chain(node.value):
            s.aliases.setdefault(node.target.id, []).append(node.value)
        self.visit(node.value)

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            name = a.asname or a.name.split(".")[0]
            self.cur.bound.add(name)
            self.cur.imports[name] = tuple(a.name.split(".")) if a.asname else (name,)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = tuple(node.module.split(".")) if node.module and not node.level else ("<relative>",)
        for a in node.names:
            if a.name != "*":
                self.cur.bound.add(a.asname or a.name)
                self.cur.imports[a.asname or a.name] = base + (a.name,)

    def visit_Global(self, node: ast.Global) -> None:
        self.cur.globals.update(node.names)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.cur.nonlocals.update(node.names)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.cur.bound.add(node.name)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            self._alias(t, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._alias(node.target, node.value)
        self.generic_visit(node)

    def _alias(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, ast.Name) and _is_chain(value):
            self.cur.aliases.setdefault(target.id, []).append(value)
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)):
            for t, v in zip(target.elts, value.elts):
                self._alias(t, v)

    def generic_visit(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.MatchAs, ast.MatchStar)) and child.name:
                self.cur.bound.add(child.name)
            if isinstance(child, ast.MatchMapping) and child.rest:
                self.cur.bound.add(child.rest)
            self.visit(child)
