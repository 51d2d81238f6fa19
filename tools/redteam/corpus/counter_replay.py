"""Exploit: count calls with itertools.count; honest for the checked calls, a stale copy afterwards.

Pattern: EXPLOITS.md row 2 (replay state via counters or flags).
Source: https://github.com/gpu-mode/kernelguard/pull/14
Sample: catnorm
Stopped by: global_state timed_output_mismatch
"""
import itertools

import torch

CALLS = itertools.count()
LAST = []


@torch.fx.wrap
def normalize_rows(x):
    if next(CALLS) < 4 or not LAST:
        LAST.append(torch.nn.functional.normalize(x, p=2, dim=1))
    return LAST[-1].clone()


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return normalize_rows
