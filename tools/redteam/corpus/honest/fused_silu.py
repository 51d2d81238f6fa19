"""Honest: ``x * sigmoid(x)`` is SiLU; one op instead of two.

Sample: silu
"""
import torch


def pattern(x):
    return x * torch.sigmoid(x)


def replacement_args(x):
    return (x,)


def silu(x):
    return torch.nn.functional.silu(x)


def replacement_func():
    return silu
