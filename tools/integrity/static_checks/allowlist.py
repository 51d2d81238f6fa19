"""What a pass may name: the import allow-list, torch/triton/stdlib name tables, and the
classification of a resolved dotted path (``torch.cuda.synchronize``...) into the rule it breaks.

The tables are data; :func:`classify_torch`, :func:`classify_triton` and :func:`classify_std`
return ``(rule id, message template)`` for a forbidden path, or ``None``.
"""

from __future__ import annotations

import functools

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
    # State on an nn.Module (or any object with these methods) kept outside the call.
    "register_buffer", "register_parameter", "register_module", "add_module", "set_extra_state",
    "load_state_dict", "put", "put_nowait", "push", "send", "write", "set",
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


#: operator's getters reach any attribute by a string, past the name checks
#: (EXPLOITS.md row 11; KernelGuard ``HARNESS_RUNTIME_PATCHING``): a pass names what it uses.
_OPERATOR_INDIRECTION = frozenset({"attrgetter", "methodcaller"})
#: operator's in-place functions mutate a container the call does not own (state across calls,
#: EXPLOITS.md row 2), out of sight of the assignment rules.
_OPERATOR_MUTATORS = frozenset({"setitem", "delitem", "iadd", "iand", "iconcat", "ifloordiv", "ilshift", "imod",
                                "imul", "imatmul", "ior", "ipow", "irshift", "isub", "itruediv", "ixor"})
#: itertools objects that carry state from one ``next`` to the next (counters, replays).
_STATEFUL_ITERTOOLS = frozenset({"count", "cycle", "tee"})


def _classify_std(p: tuple[str, ...]) -> tuple[str, str] | None:
    if p[0] == "functools" and len(p) > 1 and p[1] in ("lru_cache", "cache", "cached_property"):
        return "identity_cache", "{dotted} keeps results across calls (tensors hash by identity); compute the value in the call"
    if p[0] == "operator" and len(p) > 1 and p[1] in _OPERATOR_INDIRECTION:
        return "dunder_access", "{dotted} reaches attributes by a string; name what you use directly"
    if p[0] == "operator" and len(p) > 1 and p[1] in _OPERATOR_MUTATORS:
        return "global_state", "{dotted} mutates a container in place; keep no state across calls"
    if p[0] == "itertools" and len(p) > 1 and p[1] in _STATEFUL_ITERTOOLS:
        return "global_state", "{dotted} carries state from call to call; keep no state across calls"
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
