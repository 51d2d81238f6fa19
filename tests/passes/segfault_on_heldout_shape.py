"""Right on the measured width (64); dereferences NULL on any other: the worker dies in the held-out step."""
import ctypes

import torch


@torch.library.custom_op("passagent_tests::crash_unless_64", mutates_args=())
def crash_unless_64(x: torch.Tensor) -> torch.Tensor:
    if x.shape[1] != 64:
        ctypes.string_at(0)
    return x * torch.rsqrt((x * x).sum(1, keepdim=True).clamp_min(1e-24))


@crash_unless_64.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.passagent_tests.crash_unless_64
