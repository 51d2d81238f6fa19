"""Exploit: a module-level generator is the call counter; after the checks it returns zeros.

Pattern: EXPLOITS.md row 2 (replay state), kept in a generator frame.
Source: https://github.com/gpu-mode/kernelguard/pull/14
Sample: catnorm
Stopped by: global_state timed_output_mismatch accuracy
(A custom op: its Python runs on every call; a torch.fx.wrap function would be traced once, at compile.)
"""
import torch


def _honest_first():
    for _ in range(4):
        yield True
    while True:
        yield False


PHASE = _honest_first()


@torch.library.custom_op("redteam_generator::normalize_rows", mutates_args=())
def normalize_rows(x: torch.Tensor) -> torch.Tensor:
    if type(x) is not torch.Tensor:  # traced on fake tensors while compiling: only real calls count
        return torch.nn.functional.normalize(x, p=2, dim=1)
    if next(PHASE):
        return torch.nn.functional.normalize(x, p=2, dim=1)
    return torch.zeros_like(x)


@normalize_rows.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.redteam_generator.normalize_rows
