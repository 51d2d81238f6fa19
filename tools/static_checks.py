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
import functools
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .passes import pass_files

#: Every rule id, with what it forbids.
RULES = {
    "forbidden_import": "an import (or torch/triton namespace) outside the allow-list",
    "dynamic_import": "__import__, importlib, loading native libraries",
    "eval_exec": "eval, exec, compile, breakpoint",
    "dunder_access": "dunder attributes/names, frames, globals()/vars(), computed getattr",
    "private_access": "private (_name) attributes and private torch/triton namespaces",
    "monkeypatch": "assigning attributes of modules or imported objects, setattr, overriding ATen ops",
    "compile_call": "torch.compile, torch.compiler, torch._dynamo, torch._inductor, torch.jit, torch.export",
    "timer_access": "timers, profilers, device events and synchronisation",
    "thread_or_process": "threads, processes, torch.distributed, torch.set_num_threads",
    "side_stream": "CUDA streams, CUDA graphs, record_stream",
    "global_state": "global/nonlocal, mutating module-level or closure state, global torch settings",
    "identity_cache": "id(), hash(), data_ptr(), storage(), functools caches",
    "tensor_subclass": "tensor subclasses, __torch_function__/__torch_dispatch__",
    "file_or_network": "open(), input(), torch.load/save, torch.hub",
    "strict_mode_torch_call": "strict mode: a torch op outside pattern/replacement_args",
    "unanalysable": "source nested too deeply to check",
}


@dataclass(frozen=True)
class Violation:
    """One rule broken by a pass.

    Attributes:
        rule: a stable rule id (a key of :data:`RULES`).
        message: one line a model can act on, naming the offending name.
        path: the pass file. line: 1-based line number.
    """

    rule: str
    message: str
    path: str
    line: int


class Mode(str, Enum):
    """How much torch a pass may run outside ``pattern`` and ``replacement_args``."""

    STRICT = "strict"
    PERMISSIVE = "permissive"


ALLOWED_IMPORTS = frozenset({
    "torch", "torch.nn", "torch.nn.functional", "torch.fx", "torch.library",
    "triton", "triton.language", "math", "operator", "functools", "itertools", "typing",
    "typing_extensions", "numbers", "dataclasses", "enum", "collections", "collections.abc", "__future__",
})
_ALLOWED_IMPORT_PREFIXES = ("triton.language.",)  # libdevice lives under triton.language.extra
_IMPORT_HINT = ("a pass may import only torch (nn, nn.functional, fx, library), triton (language), "
                "math, operator, functools, itertools, typing, numbers, dataclasses, enum, collections")
_STD_ROOTS = frozenset(m.split(".")[0] for m in ALLOWED_IMPORTS) - {"torch", "triton"}

FORBIDDEN_BUILTINS = {
    "__import__": "dynamic_import", "eval": "eval_exec", "exec": "eval_exec", "compile": "eval_exec",
    "breakpoint": "eval_exec", "open": "file_or_network", "input": "file_or_network",
    "globals": "dunder_access", "locals": "dunder_access", "vars": "dunder_access",
    "getattr": "dunder_access", "setattr": "monkeypatch", "delattr": "monkeypatch",
    "id": "identity_cache", "hash": "identity_cache",
}
_ALLOWED_DUNDER_NAMES = frozenset({"__name__", "__doc__", "__all__"})
_ALLOWED_DUNDER_ATTRS = frozenset({"__init__", "__version__"})
_FRAME_ATTRS = frozenset({
    "f_globals", "f_locals", "f_back", "f_code", "f_builtins", "f_trace", "tb_frame", "tb_next",
    "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code", "co_code", "co_consts",
})
_IDENTITY_ATTRS = frozenset({"data_ptr", "untyped_storage", "storage", "_cdata", "_typed_storage"})
_SUBCLASS_ATTRS = frozenset({"as_subclass", "_make_subclass", "_make_wrapper_subclass"})
# Dangerous whatever object they are read from (a module smuggled through a list or a call
# result is not resolved to its path, but its attribute names still give it away).
_ROOTLESS_ATTRS = {
    "synchronize": "timer_access", "elapsed_time": "timer_access", "perf_counter": "timer_access",
    "perf_counter_ns": "timer_access", "globaltimer": "timer_access", "Stream": "side_stream",
    "set_stream": "side_stream", "current_stream": "side_stream", "wait_stream": "side_stream",
    "CUDAGraph": "side_stream", "set_num_threads": "thread_or_process", "manual_seed": "global_state",
}
_NAMEDTUPLE_ATTRS = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})
_MUTATORS = frozenset({
    "append", "extend", "insert", "update", "setdefault", "add", "pop", "popitem", "clear",
    "remove", "discard", "appendleft", "extendleft", "sort", "reverse",
})
_INIT_METHODS = frozenset({"__init__", "__post_init__", "__new__", "__set_name__", "__init_subclass__"})

# torch namespaces, by the rule that forbids them (checked on the resolved dotted path).
_COMPILE_HEADS = frozenset({"compile", "compiler", "_dynamo", "_inductor", "jit", "export", "_export",
                            "_functorch", "_lazy", "_higher_order_ops"})
_DEVICE_MODULES = frozenset({"cuda", "cpu", "xpu", "mps", "mtia", "accelerator", "npu", "hpu"})
_STREAM_NAMES = frozenset({"Stream", "stream", "set_stream", "current_stream", "default_stream",
                           "ExternalStream", "StreamContext", "wait_stream", "graph", "graphs", "CUDAGraph",
                           "make_graphed_callables", "graph_pool_handle", "get_current_stream"})
_TIMER_NAMES = frozenset({"Event", "synchronize", "elapsed_time"})
_CUDA_ALLOWED = frozenset({"is_available", "device_count", "current_device", "get_device_properties",
                           "get_device_capability", "get_device_name", "device", "device_of",
                           "is_bf16_supported", "is_initialized", "amp", "OutOfMemoryError"})
_CUDA_GLOBAL = frozenset({"manual_seed", "manual_seed_all", "seed", "seed_all", "set_rng_state",
                          "set_rng_state_all", "set_per_process_memory_fraction", "set_sync_debug_mode",
                          "set_device"})
_FORBIDDEN_TORCH_NAMESPACES = frozenset({"utils", "testing", "overrides", "package", "onnx", "monitor",
                                         "serialization", "classes"})
_OP_BINDING_MODULES = frozenset({"_nn", "_fft", "_linalg", "_special"})  # torch._C.<these>: public ops
BUILTIN_OP_NAMESPACES = frozenset({
    "aten", "prims", "prim", "quantized", "_quantized", "quantized_decomposed", "inductor", "higher_order",
    "c10d", "_c10d_functional", "_c10d_functional_autograd", "c10d_functional", "_dtensor", "profiler",
    "mkldnn", "mkl", "onednn", "fbgemm", "debugprims", "rngprims", "torchvision", "torchaudio", "_quant",
})
_OP_MUTATORS = frozenset({"py_impl", "register_kernel", "register_fake", "register_autograd",
                          "register_torch_dispatch", "register_vmap", "impl", "define"})
_LIBRARY_FUNCS = frozenset({"Library", "impl", "register_kernel", "register_fake", "register_autograd",
                            "register_torch_dispatch", "register_vmap", "define", "custom_op",
                            "triton_op", "impl_abstract"})
_TRITON_ALLOWED = frozenset({"jit", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2",
                             "language", "constexpr", "__version__"})
_TRITON_JIT = frozenset({"jit", "autotune", "heuristics"})
_TENSOR_SUBCLASS_BASES = frozenset({("torch", "Tensor"), ("torch", "nn", "Parameter"),
                                    ("torch", "nn", "parameter", "Parameter")})

# Strict mode: what code outside pattern/replacement_args may touch in torch.
_STRICT_FACTORIES = frozenset({"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones",
                               "ones_like", "full", "full_like", "arange"})
_STRICT_TORCH_OK = _STRICT_FACTORIES | frozenset({
    "library", "fx", "Tensor", "Size", "device", "dtype", "finfo", "iinfo", "is_tensor",
    "is_floating_point", "is_complex", "SymInt", "SymFloat", "SymBool", "memory_format", "layout",
    "strided", "contiguous_format", "channels_last", "channels_last_3d", "preserve_format", "no_grad",
    "inference_mode", "get_default_dtype", "version", "types", "backends", "cuda",
})
_STRICT_TENSOR_OK = frozenset({
    "size", "stride", "numel", "dim", "ndimension", "nelement", "element_size", "is_contiguous",
    "is_floating_point", "is_complex", "get_device", "storage_offset", "new_empty", "new_zeros",
    "new_ones", "new_full", "new_empty_strided",
})
_DTYPE_NAMES = frozenset({
    "float16", "half", "bfloat16", "float32", "float", "float64", "double", "int8", "int16", "short",
    "int32", "int", "int64", "long", "uint8", "uint16", "uint32", "uint64", "bool", "complex32",
    "chalf", "complex64", "cfloat", "complex128", "cdouble", "float8_e4m3fn", "float8_e5m2",
    "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "qint8", "quint8", "qint32",
})


@functools.cache
def _tensor_compute_methods() -> frozenset[str]:
    """Public ``torch.Tensor`` methods that run an op (strict mode), minus names that builtin
    types share (``str.split``, ``list.sort``...) since the receiver's type is unknown here."""
    try:
        import torch

        names = {n for n in dir(torch.Tensor) if not n.startswith("_")}
    except Exception:  # noqa: BLE001 - without torch, a core list still catches the common ops
        names = {"matmul", "mm", "bmm", "mul", "sub", "div", "exp", "sum", "mean", "softmax", "relu",
                 "to", "clone", "contiguous", "view", "reshape", "permute", "transpose", "copy_", "fill_"}
    shared = set()
    for ty in (list, dict, set, tuple, str, bytes, int, float, complex):
        shared |= set(dir(ty))
    return frozenset(names - shared - _STRICT_TENSOR_OK - _IDENTITY_ATTRS - _SUBCLASS_ATTRS - {"record_stream"})


@functools.cache
def _is_aten_binding(name: str) -> bool:
    """``torch._weight_norm`` and the like: ATen ops bound on ``torch`` under a private name."""
    try:
        import torch

        return hasattr(torch._C._VariableFunctions, name)
    except Exception:  # noqa: BLE001
        return False


def _dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _private(name: str) -> bool:
    return name.startswith("_") and not _dunder(name)


def check_source(source: str, path: str = "<pass>", mode: Mode = Mode.PERMISSIVE) -> list[Violation]:
    """Check one pass file's source; returns its violations, sorted by line ([] if clean).

    Source that does not parse returns [] (the loader reports the SyntaxError). Never raises.
    """
    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    try:
        return _Checker(tree, path, Mode(mode)).run()
    except RecursionError:
        return [Violation("unanalysable", "the source is nested too deeply to check; flatten it", path, 1)]


def check_pass(pass_path: str | Path, mode: Mode = Mode.PERMISSIVE) -> list[Violation]:
    """Check every rule file of a pass file or PassNet ``pass_dir/``, in application order.

    Raises:
        PassLoadError: see :func:`passagent.tools.passes.pass_files`.
    """
    out: list[Violation] = []
    for _name, file in pass_files(pass_path):
        out.extend(check_source(file.read_bytes().decode("utf-8", errors="replace"), str(file), mode))
    return out


# --- scopes -------------------------------------------------------------------------------


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
            if a.asname and _dunder(a.asname):
                self.flag("dunder_access", node, f"binding '{a.asname}' is not allowed in a pass")
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


# --- the checker ---------------------------------------------------------------------------


class _Checker(ast.NodeVisitor):
    def __init__(self, tree: ast.Module, path: str, mode: Mode):
        self.tree, self.path, self.mode = tree, path, mode
        builder = _ScopeBuilder(tree)
        self.module, self.scopes = builder.module, builder.scopes
        self.cur = self.module
        self.out: dict[tuple[str, int, str], Violation] = {}
        self.exempt = False  # inside pattern / replacement_args
        self.jit = False  # inside a @triton.jit kernel
        self.method: tuple[str, str] | None = None  # (method name, first parameter) of a class method
        self.skip_path: set[int] = set()  # ids of nodes whose path an enclosing chain already checked
        self.alias_value: set[int] = set()  # ids of chains that define an alias (not a use)

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
        s, first = scope or self.cur, True
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
        if (sides and isinstance(t.ops[0], ast.Eq)
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

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.asname and _dunder(a.asname):
                self.flag("dunder_access", node, f"binding '{a.asname}' is not allowed in a pass")
            if a.name not in ALLOWED_IMPORTS and not a.name.startswith(_ALLOWED_IMPORT_PREFIXES):
                self.flag("forbidden_import", node, f"import of '{a.name}' is not allowed; {_IMPORT_HINT}")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        if node.level:
            self.flag("forbidden_import", node, f"relative import 'from {'.' * node.level}{mod}' is not allowed; {_IMPORT_HINT}")
            return
        if mod not in ALLOWED_IMPORTS and not mod.startswith(_ALLOWED_IMPORT_PREFIXES):
            self.flag("forbidden_import", node, f"import from '{mod}' is not allowed; {_IMPORT_HINT}")
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
              and self.cur.function() is None):
            # e.g. `T = type(torch.empty(0)); T.add = f`: only the pass's own functions and
            # classes may get attributes at import time.
            self.flag("monkeypatch", node, f"assigning '{target}' at import time may patch imported code; set attributes only on your own functions and classes")
        elif self._free(root.id):
            self.flag("global_state", node, f"'{target}' mutates '{root.id}', which outlives the call; keep no state across calls")
        elif self.method and self.method[0] not in _INIT_METHODS and root.id == self.method[1]:
            self.flag("global_state", node, f"'{target}' keeps state on the object across calls; keep no state across calls")

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
        elif self._builtin(func, "type") and len(node.args) == 3:
            self.flag("dunder_access", node, "type() with three arguments creates a class at run time; define it with 'class'")
        fpath = self.path_of(func)
        if fpath in (("operator", "attrgetter"), ("operator", "methodcaller")):
            self._check_getter(node, fpath[1])
            self.skip_path.add(id(func))
        if fpath and fpath[:2] == ("torch", "library") and len(fpath) == 3 and fpath[2] in _LIBRARY_FUNCS:
            self._check_library(node, fpath)
        if fpath and fpath[-1] == "inline_asm_elementwise" and any(
                isinstance(a, ast.Constant) and isinstance(a.value, str) and ("globaltimer" in a.value or "%clock" in a.value)
                for a in [*node.args, *(k.value for k in node.keywords)]):
            self.flag("timer_access", node, "inline assembly reading %globaltimer/%clock is a timer; timing is the harness's job")
        if isinstance(func, ast.Attribute) and fpath is None:
            self._check_method_call(node, func)
        for kw in node.keywords:
            if kw.arg == "out" and isinstance(self._root(kw.value), ast.Name) and self._free(self._root(kw.value).id):
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
        if hit:
            self.flag(hit[0], node, hit[1].format(dotted=dotted))
        elif use and self.mode is Mode.STRICT and not self.exempt and p[0] == "torch" and id(node) not in self.alias_value \
                and not _strict_allowed(p):
            self.flag("strict_mode_torch_call", node, f"strict mode: {dotted} is used outside pattern/replacement_args; only allocation (torch.empty, empty_like, zeros, full, arange...), torch.library, torch.fx.wrap, metadata and Triton kernels are allowed there")


def _classify_torch(p: tuple[str, ...]) -> tuple[str, str] | None:
    rest = p[1:]
    if not rest:
        return None
    head = rest[0]
    if head in _COMPILE_HEADS or rest[:2] == ("utils", "cpp_extension"):
        return "compile_call", "{dotted}: compiling from inside a pass is not allowed; the harness compiles the rewritten graph"
    if head in ("ops", "classes") and "load_library" in rest:
        return "dynamic_import", "{dotted}: loading native libraries is not allowed"
    if head == "profiler" or rest[:2] in (("autograd", "profiler"), ("utils", "benchmark")) or (
            head in _DEVICE_MODULES and _TIMER_NAMES & set(rest[1:])) or head == "Event":
        return "timer_access", "{dotted}: timing, profiling and synchronisation are the harness's job"
    if (head in _DEVICE_MODULES and _STREAM_NAMES & set(rest[1:])) or head == "Stream":
        return "side_stream", "{dotted}: side streams and graphs are not allowed; run on the current stream"
    if head in ("multiprocessing", "distributed", "futures", "set_num_threads", "set_num_interop_threads"):
        return "thread_or_process", "{dotted}: threads, processes and distributed work are not allowed"
    if head in ("load", "save", "from_file", "hub"):
        return "file_or_network", "{dotted}: files and downloads are not allowed in a pass"
    if (head.startswith("set_") and head not in ("set_grad_enabled", "set_printoptions")) or head in (
            "manual_seed", "seed", "use_deterministic_algorithms", "random") or (
            head == "cuda" and len(rest) > 1 and rest[1] in _CUDA_GLOBAL) or (
            head == "backends" and rest[-1].startswith(("enable_", "set_", "preferred_"))):
        return "global_state", "{dotted} changes a process-wide setting; passes may not"
    if head == "ops" and len(rest) > 2 and rest[1] in BUILTIN_OP_NAMESPACES and _OP_MUTATORS & set(rest[2:]):
        return "monkeypatch", "{dotted} overrides a built-in operator; passes may not"
    for i, seg in enumerate(rest):
        if not _private(seg):
            continue
        if head == "ops" and i in (1, 2):
            continue  # a namespace or operator name, e.g. torch.ops.aten._softmax
        if head == "_C" and (i == 0 and len(rest) > 1 and rest[1] in _OP_BINDING_MODULES or i == 1 and seg in _OP_BINDING_MODULES):
            continue
        if i == 0 and len(rest) == 1 and _is_aten_binding(seg) or rest == ("_C", "_log_api_usage_once"):
            continue  # Dynamo prints these in graphs (the latter only logs), so patterns copy them
        return "private_access", "{dotted}: private torch namespaces are not allowed (torch._C._nn and ATen ops under torch.ops are)"
    if head in _FORBIDDEN_TORCH_NAMESPACES:
        return "forbidden_import", "{dotted}: torch." + head + " is outside what a pass may use"
    if head == "cuda" and len(rest) > 1 and rest[1] not in _CUDA_ALLOWED:
        return "forbidden_import", "{dotted}: only torch.cuda." + "/".join(sorted(_CUDA_ALLOWED)) + " may be used"
    return None


def _classify_triton(p: tuple[str, ...]) -> tuple[str, str] | None:
    rest = p[1:]
    if not rest:
        return None
    if any(_private(s) for s in rest):
        return "private_access", "{dotted}: private triton names are not allowed"
    if rest[0] == "testing" or {"globaltimer", "clock", "clock64"} & set(rest):
        return "timer_access", "{dotted}: benchmarking is the harness's job"
    if rest[0] in ("compiler", "compile"):
        return "compile_call", "{dotted}: compiling Triton by hand is not allowed; use @triton.jit"
    if _STREAM_NAMES & set(rest):
        return "side_stream", "{dotted}: side streams are not allowed"
    if rest[0] not in _TRITON_ALLOWED:
        return "forbidden_import", "{dotted}: only triton." + "/".join(sorted(_TRITON_ALLOWED - {"__version__"})) + " and triton.language may be used"
    return None


def _classify_std(p: tuple[str, ...]) -> tuple[str, str] | None:
    if p[0] == "functools" and len(p) > 1 and p[1] in ("lru_cache", "cache", "cached_property"):
        return "identity_cache", "{dotted} keeps results across calls (tensors hash by identity); compute the value in the call"
    if any(_private(s) for s in p[1:]):
        return "private_access", "{dotted}: private names are not allowed"
    return None


@functools.cache
def _torch_dtype_names() -> frozenset[str]:
    try:
        import torch

        return frozenset(n for n, v in vars(torch).items() if isinstance(v, torch.dtype))
    except Exception:  # noqa: BLE001
        return _DTYPE_NAMES


def _strict_allowed(p: tuple[str, ...]) -> bool:
    rest = p[1:]
    if not rest:
        return True
    head = rest[0]
    if head == "ops":
        return len(rest) < 2 or rest[1] not in BUILTIN_OP_NAMESPACES  # custom ops (your Triton ops) are fine
    return head in _STRICT_TORCH_OK or head in _torch_dtype_names()
