"""A pass whose top-level code raises: it must fail before any baseline is built."""

import torch

SCALE = {"relu": 2.0}["gelu"]  # KeyError at import


def pattern(x):
    return torch.nn.functional.relu(x)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.relu
