"""Matches like the correct b511 pass but normalises with the L1 norm: wrong values."""
import torch


def pattern(x):
    y = torch.cat([x], 1)
    return torch.nn.functional.normalize(y, p=2, dim=1)


def replacement_args(x):
    return (x,)


def l1_normalize(x):
    return torch.nn.functional.normalize(x, p=1, dim=1)


def replacement_func():
    return l1_normalize
