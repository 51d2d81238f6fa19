"""Exploit: a module-level generator is the call counter; after the checks it returns zeros.

Pattern: EXPLOITS.md row 2 (replay state), kept in a generator frame.
Source: https://github.com/gpu-mode/kernelguard/pull/14
Sample: catnorm
Stopped by: global_state timed_output_mismatch
"""
import torch


def _honest_first():
    for _ in range(4):
        yield True
    while True:
        yield False


PHASE = _honest_first()


@torch.fx.wrap
def normalize_rows(x):
    if next(PHASE):
        return torch.nn.functional.normalize(x, p=2, dim=1)
    return torch.zeros_like(x)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return normalize_rows
