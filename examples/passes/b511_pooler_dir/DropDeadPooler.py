"""Second rule of the b511 pass_dir example: the pooler's ``tanh(linear(...))`` is dead code.

The captured graph computes ``tanh(linear(x[:, 0], w, b))`` and never uses it (the model
returns the normalised token instead). Eager PyTorch still runs the matmul; replacing the
fragment by an empty placeholder leaves nothing for any backend to run.
"""

import torch


def pattern(x, w, b):
    return torch.tanh(torch.nn.functional.linear(x, w, b))


def replacement_args(x, w, b):
    return (x,)


@torch.fx.wrap
def unused_value(x):
    # Nothing reads this value; a 0-element tensor keeps the graph well-formed.
    return x.new_empty((0,))


def replacement_func():
    return unused_value
