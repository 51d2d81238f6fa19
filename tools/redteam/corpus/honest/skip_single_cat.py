"""Example pass for PassBench task b511f7af... (BGE pooler tail): drop a one-tensor torch.cat.

The subgraphs end in ``normalize(cat([x], 1), p=2, dim=1)``. A ``cat`` of a single tensor is
a full copy of ``x``; normalizing ``x`` directly computes the same values without it.

Sample: catnorm
"""

import torch


def pattern(x):
    y = torch.cat([x], 1)
    return torch.nn.functional.normalize(y, p=2, dim=1)


def replacement_args(x):
    return (x,)


def normalize_rows(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_func():
    return normalize_rows
