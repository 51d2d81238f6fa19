"""The replacement raises while it is traced into the graph (a compile-class failure)."""
import torch


def pattern(x):
    y = torch.cat([x], 1)
    return torch.nn.functional.normalize(y, p=2, dim=1)


def replacement_args(x):
    return (x,)


def broken(x):
    scale = x.shape[1] // 0  # ZeroDivisionError while tracing
    return x * scale


def replacement_func():
    return broken
