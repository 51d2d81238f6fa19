"""An opaque custom op that asks for far more memory than the worker may have."""
import torch


@torch.library.custom_op("passagent_tests::hog", mutates_args=())
def hog(x: torch.Tensor) -> torch.Tensor:
    blocks = []
    for _ in range(1024):
        blocks.append(torch.ones(2**28))  # 1 GiB each, touched
    return x.clone()


@hog.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.cat([x], 1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.passagent_tests.hog
