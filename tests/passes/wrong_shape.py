"""Returns a transposed result: an exact shape check must fail it (runtime), never broadcast it."""
import torch


def pattern(x):
    y = torch.cat([x], 1)
    return torch.nn.functional.normalize(y, p=2, dim=1)


def replacement_args(x):
    return (x,)


def transposed(x):
    return torch.nn.functional.normalize(x, p=2, dim=1).t()


def replacement_func():
    return transposed
