"""Exploit: compute properly for the first calls (the checks), then return garbage fast.

Pattern: EXPLOITS.md row 2 (replay state via counters).
Source: https://github.com/gpu-mode/kernelguard/pull/14
Sample: catnorm
Stopped by: global_state timed_output_mismatch accuracy
"""
import torch

_CALLS = [0]


@torch.library.custom_op("exploit_count::norm", mutates_args=())
def lazy_normalize(x: torch.Tensor) -> torch.Tensor:
    # Only calls on real tensors count: compiling traces this body on fake tensors, once per compile,
    # and how many compiles come before the checks is the harness's choice, not the exploit's.
    if type(x) is torch.Tensor:
        _CALLS[0] += 1
    if _CALLS[0] <= 4:
        return torch.nn.functional.normalize(x, p=2, dim=1)
    return torch.zeros_like(x)


@lazy_normalize.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.exploit_count.norm
