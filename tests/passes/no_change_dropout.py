"""Removes eval-mode dropout on PassBench task 623d: correct, but a no-op for Inductor.

``torch.nn.functional.dropout(x, p, training=False, inplace=False)`` is the identity in
inference, whatever p is, and it already vanishes when the graph is lowered to ATen: the graph
Inductor compiles is the same with and without this pass, so the harness flags it
``no_change`` (any "speedup" it showed would be noise).
"""

import torch


def pattern(x, p):
    return torch.nn.functional.dropout(x, p, False, False)


def replacement_args(x, p):
    return (x,)


@torch.fx.wrap
def identity(x):
    return x


def replacement_func():
    return identity
