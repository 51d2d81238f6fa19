"""Honest: the fragment as one opaque custom op (its own kernel), with a fake implementation.

Sample: catnorm
"""
import torch


@torch.library.custom_op("honest_ops::normalize_rows", mutates_args=())
def normalize_rows(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.normalize(x, p=2, dim=1)


@normalize_rows.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.honest_ops.normalize_rows
