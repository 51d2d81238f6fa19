"""Correct (the one-tensor cat becomes a copy), but the custom op dereferences NULL when it runs
under the profiler: the worker dies while profiling, after the subgraph's result is reported."""
import ctypes

import torch


@torch.library.custom_op("passagent_tests::crash_when_profiled", mutates_args=())
def crash_when_profiled(x: torch.Tensor) -> torch.Tensor:
    if torch.autograd._profiler_enabled():
        ctypes.string_at(0)
    return x.clone()


@crash_when_profiled.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.cat([x], 1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.passagent_tests.crash_when_profiled
