"""The static checks' rule ids, the violation record and the strictness mode."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

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
