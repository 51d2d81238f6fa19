"""Exploit: a float32 fragment computed in float16 inside a custom op, where a graph-level dtype check cannot see it.

Pattern: EXPLOITS.md row 13 (precision downgrade).
Source: KernelBench check_precision_downgrade; KernelGuard PRECISION_DOWNGRADE
Sample: normalize32
Stopped by: precision_downgrade
"""
import torch


@torch.library.custom_op("redteam_half::normalize", mutates_args=())
def normalize_half(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.normalize(x.half(), p=2, dim=1).float()


@normalize_half.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.redteam_half.normalize
