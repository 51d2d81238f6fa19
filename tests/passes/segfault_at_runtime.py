"""An opaque custom op that dereferences NULL when it runs: the worker dies with SIGSEGV."""
import ctypes

import torch


@torch.library.custom_op("passagent_tests::crash", mutates_args=())
def crash(x: torch.Tensor) -> torch.Tensor:
    ctypes.string_at(0)
    return x.clone()


@crash.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.cat([x], 1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.passagent_tests.crash
