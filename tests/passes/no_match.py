"""A pattern with the wrong literal: the graphs normalise with p=2, this asks for p=3."""
import torch


def pattern(x):
    y = torch.cat([x], 1)
    return torch.nn.functional.normalize(y, p=3, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.nn.functional.normalize
