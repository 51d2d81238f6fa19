"""The AST visitor that applies every rule to one pass file (see :mod:`.rules` for the ids)."""

from __future__ import annotations

import ast

from .allowlist import (
    ALLOWED_IMPORTS,
    BUILTIN_OP_NAMESPACES,
    FORBIDDEN_BUILTINS,
    _ALLOWED_DUNDER_ATTRS,
    _ALLOWED_DUNDER_NAMES,
    _ALLOWED_IMPORT_PREFIXES,
    _FRAME_ATTRS,
    _IDENTITY_ATTRS,
    _IMPORT_HINT,
    _INIT_METHODS,
    _LIBRARY_FUNCS,
    _MUTATORS,
    _NAMEDTUPLE_ATTRS,
    _ROOTLESS_ATTRS,
    _STD_ROOTS,
    _SUBCLASS_ATTRS,
    _TENSOR_SUBCLASS_BASES,
    _TRITON_JIT,
    _classify_std,
    _classify_torch,
    _classify_triton,
    _dunder,
    _private,
    _strict_allowed,
    _tensor_compute_methods,
)
from .rules import Mode, Violation
from .scopes import _COMPREHENSIONS, _Scope, _ScopeBuilder, _is_chain

# What a pass may set at import time on a node of an FX graph it built (torch/fx/node.py: a
# Node's op, target, args and kwargs, its name and meta), the calls that make such nodes
# (torch/fx/graph.py, class Graph) and the calls that make a graph.
_FX_NODE_FIELDS = frozenset({"target", "args", "kwargs", "op", "name", "meta"})
_FX_NODE_MAKERS = frozenset({"call_function", "call_method", "call_module", "create_node", "placeholder", "get_attr",
                             "output", "node_copy"})
_FX_GRAPH_MAKERS = frozenset({("torch", "fx", "Graph"), ("torch", "fx", "graph", "Graph"), ("torch", "fx", "symbolic_trace"),
                              ("torch", "fx", "GraphModule")})


def _bound_names(target: ast.expr) -> set[str]:
    """The names an assignment target binds (``a``, ``a, (b, *c)``; not ``a.x`` or ``a[0]``)."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return {n for e in target.elts for n in _bound_names(e)}
    return set()


class _Checker(ast.NodeVisitor):
    def __init__(self, tree: ast.Module, path: str, mode: Mode, local_modules: frozenset[str] = frozenset()):
        self.tree, self.path, self.mode = tree, path, mode
        self.local_modules = local_modules  # the pass folder's own modules, importable as pass_dir.<name>
        builder = _ScopeBuilder(tree)
        self.module, self.scopes = builder.module, builder.scopes
        self.cur = self.module
        self.out: dict[tuple[str, int, str], Violation] = {}
        self.exempt = False  # inside pattern / replacement_args
        self.jit = False  # inside a @triton.jit kernel
        self.method: tuple[str, str] | None = None  # (method name, first parameter) of a class method
        self.skip_path: set[int] = set()  # ids of nodes whose path an enclosing chain already checked
        self.alias_value: set[int] = set()  # ids of chains that define an alias (not a use)
        self.fx_targets = _fx_target_expressions(tree)  # ids of expressions naming an FX node's target

    def run(self) -> list[Violation]:
        for stmt in self.tree.body:
            self.visit(stmt)
        return sorted(self.out.values(), key=lambda v: (v.line, v.rule))

    def flag(self, rule: str, node: ast.AST, message: str) -> None:
        line = getattr(node, "lineno", 1)
        self.out.setdefault((rule, line, message), Violation(rule, message, self.path, line))

    # name resolution -----------------------------------------------------------------------

    def lookup(self, name: str, scope: _Scope | None = None) -> _Scope | None:
        """The scope ``name`` is bound in as seen from ``scope`` (None: a builtin)."""
        s: _Scope | None = scope or self.cur
        first = True
        while s is not None:
            if name in s.globals:
                return self.module if name in self.module.bound else None
            if (first or s.kind != "class") and name in s.bound and name not in s.nonlocals:
                return s
            s, first = s.parent, False
        return None

    def path_of(self, e: ast.expr, scope: _Scope | None = None, depth: int = 0) -> tuple[str, ...] | None:
        """The dotted module path an expression names (``F.gelu`` -> torch.nn.functional.gelu)."""
        scope = scope or self.cur
        if depth > 30:
            return None
        if isinstance(e, ast.Attribute):
            p = self.path_of(e.value, scope, depth + 1)
            return p + (e.attr,) if p else None
        if isinstance(e, ast.Call) and self._builtin(e.func, "getattr", scope) and len(e.args) >= 2:
            name = e.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                p = self.path_of(e.args[0], scope, depth + 1)
                return p + (name.value,) if p else None
            return None
        if isinstance(e, ast.Name):
            s = self.lookup(e.id, scope)
            if s is None:
                return None
            if e.id in s.imports:
                return s.imports[e.id]
            for value in s.aliases.get(e.id, ()):
                p = self.path_of(value, s, depth + 1)
                if p:
                    return p
        return None

    def _builtin(self, e: ast.expr, name: str, scope: _Scope | None = None) -> bool:
        return isinstance(e, ast.Name) and e.id == name and self.lookup(name, scope) is None

    def _root(self, e: ast.expr) -> ast.expr:
        while isinstance(e, (ast.Attribute, ast.Subscript)):
            e = e.value
        return e

    def _free(self, name: str) -> bool:
        """Whether ``name``, used in the current function, outlives a call of it."""
        fn = self.cur.function()
        if fn is None:
            return False  # module or class body: setup code, runs once
        s = self.lookup(name)
        return s is None or s is not fn and s.kind != "comprehension"

    # scopes and contexts -------------------------------------------------------------------

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        a = node.args
        for d in a.defaults + [d for d in a.kw_defaults if d is not None]:
            if self._mutable(d):
                self.flag("global_state", d, "a mutable default argument keeps state across calls; create it inside the function")
            self.visit(d)
        if isinstance(node, ast.Lambda):
            body: list[ast.AST] = [node.body]
            jit, name = self.jit, "<lambda>"
        else:
            name = node.name
            for d in node.decorator_list:
                self.visit(d)
            for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]:
                if x.annotation:
                    self.visit(x.annotation)
            if node.returns:
                self.visit(node.returns)
            body = list(node.body)
            jit = self.jit or any(
                (self.path_of(d.func if isinstance(d, ast.Call) else d) or ("",))[:2] in {("triton", j) for j in _TRITON_JIT}
                for d in node.decorator_list
            )
            if name in ("__torch_function__", "__torch_dispatch__"):
                self.flag("tensor_subclass", node, f"defines {name}: tensor subclasses and dispatch overrides are not allowed")
            elif name == "__del__" or (self.cur is self.module and name in ("__getattr__", "__getattribute__", "__dir__")):
                self.flag("dunder_access", node, f"defines {name}: not allowed in a pass")
        exempt = self.exempt or (self.cur is self.module and name in ("pattern", "replacement_args"))
        method = self.method  # functions nested in a method still see its `self`
        if self.cur.kind == "class" and not isinstance(node, ast.Lambda):
            first = (a.posonlyargs + a.args)[:1]
            method = (name, first[0].arg) if first else None
        saved = (self.cur, self.exempt, self.jit, self.method)
        self.cur, self.exempt, self.jit, self.method = self.scopes[node], exempt, jit, method
        for stmt in body:
            self.visit(stmt)
        self.cur, self.exempt, self.jit, self.method = saved

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _visit_function

    def _mutable(self, e: ast.expr) -> bool:
        """A default argument value that can carry state from one call to the next."""
        if isinstance(e, (ast.List, ast.Dict, ast.Set, *_COMPREHENSIONS)):
            return True
        if not isinstance(e, ast.Call):
            return False
        if isinstance(e.func, ast.Name) and self.lookup(e.func.id) is None:
            return e.func.id in ("list", "dict", "set", "bytearray")
        p = self.path_of(e.func) or ()
        return p[:1] == ("collections",) or (p[:1] == ("torch",) and p[1:2] not in (
            ("device",), ("dtype",), ("Size",), ("finfo",), ("iinfo",)))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for b in node.bases:
            p = self.path_of(b)
            if isinstance(b, ast.Call):
                self.flag("tensor_subclass", b, f"class {node.name} derives from a base computed at run time ({ast.unparse(b)}); name the base class")
            if p in _TENSOR_SUBCLASS_BASES:
                self.flag("tensor_subclass", b, f"class {node.name} subclasses {'.'.join(p)}: tensor subclasses are not allowed")
        for n in node.bases + [k.value for k in node.keywords] + node.decorator_list:
            self.visit(n)
        saved = (self.cur, self.method)
        self.cur, self.method = self.scopes[node], None
        for stmt in node.body:
            self.visit(stmt)
        self.cur, self.method = saved

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) -> None:
        self.visit(node.generators[0].iter)
        saved, self.cur = self.cur, self.scopes[node]
        for i, g in enumerate(node.generators):
            self.visit(g.target)
            if i:
                self.visit(g.iter)
            for cond in g.ifs:
                self.visit(cond)
        for e in [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]:
            self.visit(e)
        self.cur = saved

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_If(self, node: ast.If) -> None:
        t = node.test
        sides = [t.left, t.comparators[0]] if isinstance(t, ast.Compare) and len(t.ops) == 1 else []
        if (sides and isinstance(t, ast.Compare) and isinstance(t.ops[0], ast.Eq)
                and any(isinstance(x, ast.Name) and x.id == "__name__" for x in sides)
                and any(isinstance(x, ast.Constant) and x.value == "__main__" for x in sides)):
            for stmt in node.orelse:  # the body never runs under the harness's loader
                self.visit(stmt)
            return
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.flag("global_state", node, f"'global {', '.join(node.names)}' keeps state across calls; compute everything inside the call")

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.flag("global_state", node, f"'nonlocal {', '.join(node.names)}' keeps state across calls; compute everything inside the call")

    # imports -------------------------------------------------------------------------------

    def _local(self, module: str) -> bool:
        """``pass_dir.<name>`` naming a file or folder inside the pass folder (checked itself)."""
        head, _, rest = module.partition(".")
        return head == "pass_dir" and rest in self.local_modules

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.asname and _dunder(a.asname):
                self.flag("dunder_access", node, f"binding '{a.asname}' is not allowed in a pass")
            if self._local(a.name):
                continue
            if a.name not in ALLOWED_IMPORTS and not a.name.startswith(_ALLOWED_IMPORT_PREFIXES):
                self.flag("forbidden_import", node, f"import of '{a.name}' is not allowed; {_IMPORT_HINT}")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        if node.level:
            self.flag("forbidden_import", node, f"relative import 'from {'.' * node.level}{mod}' is not allowed; {_IMPORT_HINT}")
            return
        if self._local(mod) or (mod == "pass_dir" and self.local_modules):
            for a in node.names:
                if a.name == "*":
                    self.flag("forbidden_import", node, f"'from {mod} import *' is not allowed; import names explicitly")
                elif mod == "pass_dir" and a.name not in self.local_modules:
                    self.flag("forbidden_import", node, f"'from pass_dir import {a.name}': there is no {a.name}.py in the pass folder")
                else:
                    self._check_name(a.name, node, path_rooted=True)
            return
        if mod not in ALLOWED_IMPORTS and not mod.startswith(_ALLOWED_IMPORT_PREFIXES):
            hint = (" (a pass folder's own modules are importable as pass_dir.<file stem>; this names no file in it)"
                    if mod.split(".")[0] == "pass_dir" else "")
            self.flag("forbidden_import", node, f"import from '{mod}' is not allowed{hint}; {_IMPORT_HINT}")
            return
        for a in node.names:
            if a.name == "*":
                self.flag("forbidden_import", node, f"'from {mod} import *' is not allowed; import names explicitly")
            else:
                self._check_name(a.name, node, path_rooted=True)
                self._check_path(tuple(mod.split(".")) + (a.name,), node, use=False)

    # names, attributes, calls --------------------------------------------------------------

    def visit_Name(self, node: ast.Name) -> None:
        load = isinstance(node.ctx, ast.Load)
        # Rebinding __name__ would make an `if __name__ == "__main__":` block (unchecked) run.
        if _dunder(node.id) and node.id not in (_ALLOWED_DUNDER_NAMES if load else {"__all__"}):
            rule = "dynamic_import" if node.id == "__import__" else "dunder_access"
            self.flag(rule, node, f"'{node.id}' is not allowed in a pass")
            return
        if not load:
            return
        if node.id in FORBIDDEN_BUILTINS and self.lookup(node.id) is None and id(node) not in self.skip_path:
            what = "getattr without a constant attribute name" if node.id == "getattr" else f"'{node.id}'"
            self.flag(FORBIDDEN_BUILTINS[node.id], node, f"{what} is not allowed in a pass")
            return
        p = self.path_of(node)
        if p and id(node) not in self.skip_path:
            self._check_path(p, node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        p = self.path_of(node)
        self._check_name(node.attr, node, path_rooted=p is not None, base=node.value)
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._check_store(node)
        elif p is not None and id(node) not in self.skip_path:
            self._check_path(p, node)
        if p is not None:
            self.skip_path.add(id(node.value))
        self.visit(node.value)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._check_store(node)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if _is_chain(node.value) and any(isinstance(t, ast.Name) for t in node.targets):
            self.alias_value.add(id(node.value))
        self.generic_visit(node)

    def _check_store(self, node: ast.Attribute | ast.Subscript) -> None:
        root = self._root(node)
        target = ast.unparse(node)
        if not isinstance(root, ast.Name):
            if isinstance(node, ast.Attribute) and isinstance(root, ast.Call):
                self.flag("monkeypatch", node, f"assigning '{target}' (an attribute of a computed object) is not allowed")
            return
        if self.path_of(root) is not None:
            self.flag("monkeypatch", node, f"assigning or deleting '{target}' patches module '{ast.unparse(root)}'; passes may not modify imported code")
        elif (isinstance(node, ast.Attribute) and self.lookup(root.id) is self.module and root.id not in self.module.defs
              and self.cur.function() is None and not self._own_fx_node(root.id, node)):
            # e.g. `T = type(torch.empty(0)); T.add = f`: only the pass's own functions and
            # classes may get attributes at import time.
            self.flag("monkeypatch", node, f"assigning '{target}' at import time may patch imported code; set attributes only on your own functions and classes")
        elif self._free(root.id):
            self.flag("global_state", node, f"'{target}' mutates '{root.id}', which outlives the call; keep no state across calls")
        elif self.method and self.method[0] not in _INIT_METHODS and root.id == self.method[1]:
            self.flag("global_state", node, f"'{target}' keeps state on the object across calls; keep no state across calls")

    def _own_fx_node(self, name: str, store: ast.Attribute) -> bool:
        """Whether ``name.<attr> = ...`` at import time retargets a node of an FX graph the pass
        built (writing a pattern graph by hand): ``attr`` is a node field, and every module-level
        binding of ``name`` is a node the pass's own graph made (``g.call_function(...)`` and the
        other ``torch.fx.Graph`` node constructors) or a loop over ``<own graph>.nodes``, where
        the graph is the pass's (``torch.fx.Graph()``, ``torch.fx.symbolic_trace(...)`` or
        ``.graph`` of one). No imported object is reachable that way."""
        if store.attr not in _FX_NODE_FIELDS:
            return False
        bindings = self._module_bindings(name)
        return bool(bindings) and all(
            (isinstance(b, ast.For) and isinstance(b.target, ast.Name) and self._own_graph_nodes(b.iter)) or (
                isinstance(b, ast.Assign) and len(b.targets) == 1 and isinstance(b.targets[0], ast.Name)
                and isinstance(b.value, ast.Call) and isinstance(b.value.func, ast.Attribute)
                and b.value.func.attr in _FX_NODE_MAKERS and self._own_graph(b.value.func.value))
            for b in bindings)

    def _module_bindings(self, name: str) -> list[ast.AST]:
        """Every statement outside functions and classes that binds ``name`` (assignments, loop
        and ``with`` targets, imports, walrus: any of them counts)."""
        out: list[ast.AST] = []
        for b in ast.walk(self.tree):
            if isinstance(b, (ast.Import, ast.ImportFrom)):
                names = {a.asname or a.name.split(".")[0] for a in b.names}
            elif isinstance(b, ast.Assign):
                names = {n for t in b.targets for n in _bound_names(t)}
            elif isinstance(b, (ast.For, ast.AsyncFor, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
                names = _bound_names(b.target)
            elif isinstance(b, (ast.With, ast.AsyncWith)):
                names = {n for i in b.items if i.optional_vars for n in _bound_names(i.optional_vars)}
            elif isinstance(b, ast.comprehension):
                names = _bound_names(b.target)
            else:
                continue
            if name in names and self._enclosing_function(b) is None:
                out.append(b)
        return out

    def _enclosing_function(self, target: ast.AST) -> ast.AST | None:
        for fn in ast.walk(self.tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) and fn is not target:
                if any(n is target for n in ast.walk(fn)):
                    return fn
        return None

    def _own_graph_nodes(self, e: ast.expr) -> bool:
        """``<own graph>.nodes`` or ``<own graph>.find_nodes(...)``."""
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "find_nodes":
            return self._own_graph(e.func.value)
        return isinstance(e, ast.Attribute) and e.attr == "nodes" and self._own_graph(e.value)

    def _own_graph(self, e: ast.expr, depth: int = 0) -> bool:
        """An FX graph (or GraphModule) the pass made: ``torch.fx.Graph()``, ``torch.fx.symbolic_trace(f)``,
        ``.graph`` of one, or a module-level name every binding of which is such a value."""
        if depth > 5:
            return False
        if isinstance(e, ast.Attribute) and e.attr == "graph":
            return self._own_graph(e.value, depth + 1)
        if isinstance(e, ast.Call):
            return self.path_of(e.func, self.module) in _FX_GRAPH_MAKERS
        if isinstance(e, ast.Name):
            bindings = self._module_bindings(e.id)
            return bool(bindings) and all(
                isinstance(b, ast.Assign) and len(b.targets) == 1 and isinstance(b.targets[0], ast.Name)
                and self._own_graph(b.value, depth + 1) for b in bindings)
        return False

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if self._builtin(func, "getattr") and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                self.skip_path.add(id(func))
                base = self.path_of(node.args[0])
                self._check_name(name.value, node, path_rooted=base is not None, base=node.args[0])
                if base is not None and id(node) not in self.skip_path:
                    self._check_path(base + (name.value,), node)
                if base is not None:
                    self.skip_path.add(id(node.args[0]))
        elif self._builtin(func, "next") and node.args and isinstance(root := self._root(node.args[0]), ast.Name) \
                and self._free(root.id):
            # A generator or iterator kept outside the call advances once per call: a counter.
            self.flag("global_state", node, f"next({ast.unparse(node.args[0])}) advances an iterator that outlives the call; keep no state across calls")
        elif self._builtin(func, "type") and len(node.args) == 3:
            self.flag("dunder_access", node, "type() with three arguments creates a class at run time; define it with 'class'")
        fpath = self.path_of(func)
        if fpath in (("operator", "attrgetter"), ("operator", "methodcaller")):
            self._check_getter(node, fpath[1])
        if fpath and fpath[:2] == ("torch", "library") and len(fpath) == 3 and fpath[2] in _LIBRARY_FUNCS:
            self._check_library(node, fpath)
        if fpath and fpath[-1] == "inline_asm_elementwise" and any(
                isinstance(a, ast.Constant) and isinstance(a.value, str) and ("globaltimer" in a.value or "%clock" in a.value)
                for a in [*node.args, *(k.value for k in node.keywords)]):
            self.flag("timer_access", node, "inline assembly reading %globaltimer/%clock is a timer; timing is the harness's job")
        if isinstance(func, ast.Attribute) and fpath is None:
            self._check_method_call(node, func)
        for kw in node.keywords:
            if kw.arg == "out" and isinstance(out_root := self._root(kw.value), ast.Name) and self._free(out_root.id):
                self.flag("global_state", kw.value, f"out={ast.unparse(kw.value)} writes into a buffer that outlives the call")
        self.generic_visit(node)

    def _check_getter(self, node: ast.Call, which: str) -> None:
        for a in node.args[:1] if which == "methodcaller" else node.args:
            if not (isinstance(a, ast.Constant) and isinstance(a.value, str)):
                self.flag("dunder_access", node, f"operator.{which} with a computed name is not allowed")
                continue
            for part in a.value.split("."):
                self._check_name(part, node, path_rooted=False)

    def _check_library(self, node: ast.Call, fpath: tuple[str, ...]) -> None:
        first = node.args[0] if node.args else next(
            (k.value for k in node.keywords if k.arg in ("qualname", "ns", "op", "name", "lib")), None)
        if first is None:
            return
        ns = None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            ns = first.value.split("::")[0].split(".")[0].strip()
        else:
            p = self.path_of(first)
            if p and p[:2] == ("torch", "ops") and len(p) > 2:
                ns = p[2]
        if ns in BUILTIN_OP_NAMESPACES:
            self.flag("monkeypatch", node, f"torch.library.{fpath[2]} on the built-in '{ns}' namespace overrides PyTorch's own operators; use your own namespace (e.g. 'mypass::op')")

    def _check_method_call(self, node: ast.Call, func: ast.Attribute) -> None:
        root = self._root(func.value)
        name = func.attr
        if isinstance(root, ast.Name) and self.path_of(root) is None:
            if name in _MUTATORS or (name.endswith("_") and not name.startswith("_") and len(name) > 1):
                if self._free(root.id):
                    self.flag("global_state", node, f".{name}() on '{root.id}' mutates state that outlives the call; keep no state across calls")
                elif self.method and self.method[0] not in _INIT_METHODS and root.id == self.method[1]:
                    self.flag("global_state", node, f".{name}() on '{root.id}' keeps state on the object across calls")
        if (self.mode is Mode.STRICT and not self.exempt and not self.jit and name in _tensor_compute_methods()
                and not (isinstance(root, ast.Name) and self.lookup(root.id) is self.module and root.id in self.module.defs)
                and not isinstance(root, (ast.Constant, ast.JoinedStr, ast.List, ast.Dict, ast.Tuple, ast.Set))):
            self.flag("strict_mode_torch_call", node, f"strict mode: tensor method .{name}() runs an op outside pattern/replacement_args; compute it in a Triton kernel (only allocation and metadata such as .shape/.stride() are allowed)")

    # attribute names and dotted paths ------------------------------------------------------

    def _check_name(self, attr: str, node: ast.AST, path_rooted: bool, base: ast.expr | None = None) -> None:
        if _dunder(attr):
            if attr not in _ALLOWED_DUNDER_ATTRS:
                self.flag("dunder_access", node, f"dunder attribute '{attr}' is not allowed in a pass")
        elif attr in _FRAME_ATTRS:
            self.flag("dunder_access", node, f"frame/code attribute '{attr}' is not allowed in a pass")
        elif attr in _IDENTITY_ATTRS:
            self.flag("identity_cache", node, f"'.{attr}' exposes tensor identity/memory (the basis of cross-call caches); pass tensors to kernels directly")
        elif attr == "record_stream":
            self.flag("side_stream", node, "'.record_stream' means work on a side stream; run on the current stream")
        elif attr in _SUBCLASS_ATTRS:
            self.flag("tensor_subclass", node, f"'.{attr}' makes a tensor subclass; return plain tensors")
        elif attr in _ROOTLESS_ATTRS and not path_rooted:
            self.flag(_ROOTLESS_ATTRS[attr], node, f"'.{attr}' is not allowed in a pass (timers, streams, threads and seeds are the harness's)")
        elif _private(attr) and not path_rooted and attr not in _NAMEDTUPLE_ATTRS:
            root = self._root(base) if base is not None else None
            own = isinstance(root, ast.Name) and (
                root.id in ("self", "cls") or (self.lookup(root.id) is self.module and root.id not in self.module.imports))
            if not own:
                self.flag("private_access", node, f"private attribute '{attr}' is not allowed in a pass")

    def _check_path(self, p: tuple[str, ...], node: ast.AST, use: bool = True) -> None:
        dotted = ".".join(p)
        if p[0] == "torch":
            hit = _classify_torch(p)
        elif p[0] == "triton":
            hit = _classify_triton(p)
        elif p[0] in _STD_ROOTS:
            hit = _classify_std(p)
        else:
            hit = None  # a forbidden module: its import is already flagged
        if hit and p[0] == "operator" and id(node) in self.fx_targets:
            hit = None  # operator.iadd as an FX node's target (a pattern graph built by hand), not called
        if hit:
            self.flag(hit[0], node, hit[1].format(dotted=dotted))
        elif use and self.mode is Mode.STRICT and not self.exempt and p[0] == "torch" and id(node) not in self.alias_value \
                and not _strict_allowed(p):
            self.flag("strict_mode_torch_call", node, f"strict mode: {dotted} is used outside pattern/replacement_args; only allocation (torch.empty, empty_like, zeros, full, arange...), torch.library, torch.fx.wrap, metadata and Triton kernels are allowed there")


def _fx_target_expressions(tree: ast.Module) -> set[int]:
    """Ids of the expressions that name an FX node's target rather than call it: the value of
    ``<node>.target = ...``, the first argument of ``<graph>.call_function(...)``, and either side
    of an ``is``/``==`` comparison (``node.target is operator.iadd``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "target" for t in node.targets):
            out.add(id(node.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "call_function" \
                and node.args:
            out.add(id(node.args[0]))
        elif isinstance(node, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) for op in node.ops):
            out.update(id(e) for e in [node.left, *node.comparators])
    return out
