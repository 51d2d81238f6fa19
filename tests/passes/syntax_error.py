import torch


def pattern(x):
    return torch.cat([x], 1


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.relu
