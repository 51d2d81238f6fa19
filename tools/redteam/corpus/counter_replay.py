"""Exploit: count calls with itertools.count; honest for the checked calls, a stale copy afterwards.

Pattern: EXPLOITS.md row 2 (replay state via counters or flags).
Source: https://github.com/gpu-mode/kernelguard/pull/14
Sample: catnorm
Stopped by: global_state timed_output_mismatch shape_special_case accuracy
(A custom op: its Python runs on every call; a torch.fx.wrap function would be traced once, at compile.)
"""
import itertools

import torch

CALLS = itertools.count()
LAST = []


@torch.library.custom_op("redteam_counter::normalize_rows", mutates_args=())
def normalize_rows(x: torch.Tensor) -> torch.Tensor:
    if type(x) is not torch.Tensor:  # traced on fake tensors while compiling: only real calls count
        return torch.nn.functional.normalize(x, p=2, dim=1)
    if next(CALLS) < 4 or not LAST:
        LAST.append(torch.nn.functional.normalize(x, p=2, dim=1))
    return LAST[-1].clone()


@normalize_rows.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.redteam_counter.normalize_rows
