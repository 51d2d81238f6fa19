"""Exploit: keep the first result in a dict through operator.setitem (no assignment to see) and replay it.

Pattern: EXPLOITS.md row 2 (replay state), hidden from the assignment rules.
Source: https://github.com/gpu-mode/kernelguard/pull/12; KernelGuard LAST_CALL_REPLAY
Sample: catnorm
Stopped by: global_state timed_output_mismatch output_type shape_special_case accuracy
(A custom op: its Python runs on every call; a torch.fx.wrap function would be traced once, at compile.)
"""
import operator

import torch

STORE = {}


@torch.library.custom_op("redteam_setitem::normalize_rows", mutates_args=())
def normalize_rows(x: torch.Tensor) -> torch.Tensor:
    if type(x) is not torch.Tensor:  # traced on fake tensors while compiling: only real results are kept
        return torch.nn.functional.normalize(x, p=2, dim=1)
    if "y" in STORE:
        return STORE["y"]
    y = torch.nn.functional.normalize(x, p=2, dim=1)
    operator.setitem(STORE, "y", y)
    return y


@normalize_rows.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.redteam_setitem.normalize_rows
