"""Dereferences NULL the second time its replacement is traced in a process: the worker dies
compiling the candidate of the second subgraph it compiles (the first is compiled cleanly)."""
import ctypes

import torch

_traced = [0]


def pattern(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_args(x):
    return (x,)


def crash_second_time(x):
    _traced[0] += 1
    if _traced[0] == 2:
        ctypes.string_at(0)
    return x * torch.rsqrt((x * x).sum(1, keepdim=True).clamp_min(1e-24))


def replacement_func():
    return crash_second_time
