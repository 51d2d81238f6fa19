"""Exploit: keep the first result in a dict through operator.setitem (no assignment to see) and replay it.

Pattern: EXPLOITS.md row 2 (replay state), hidden from the assignment rules.
Source: https://github.com/gpu-mode/kernelguard/pull/12; KernelGuard LAST_CALL_REPLAY
Sample: catnorm
Stopped by: global_state timed_output_mismatch output_reused
"""
import operator

import torch

STORE = {}


@torch.fx.wrap
def normalize_rows(x):
    if "y" in STORE:
        return STORE["y"]
    y = torch.nn.functional.normalize(x, p=2, dim=1)
    operator.setitem(STORE, "y", y)
    return y


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return normalize_rows
