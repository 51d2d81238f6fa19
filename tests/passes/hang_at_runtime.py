"""An opaque custom op that never returns: the worker is killed at the timeout."""
import time

import torch


@torch.library.custom_op("passagent_tests::hang", mutates_args=())
def hang(x: torch.Tensor) -> torch.Tensor:
    while True:
        time.sleep(0.1)


@hang.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.cat([x], 1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.passagent_tests.hang
