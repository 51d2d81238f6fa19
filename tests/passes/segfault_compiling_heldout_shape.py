"""Right on the measured width (64); its operator's fake implementation, run when a graph is
compiled, dereferences NULL at any other width: the worker dies compiling the held-out shape."""
import ctypes

import torch


@torch.library.custom_op("passagent_tests::fake_crash_unless_64", mutates_args=())
def fake_crash_unless_64(x: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt((x * x).sum(1, keepdim=True).clamp_min(1e-24))


@fake_crash_unless_64.register_fake
def _(x):
    if x.shape[1] != 64:
        ctypes.string_at(0)
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.passagent_tests.fake_crash_unless_64
