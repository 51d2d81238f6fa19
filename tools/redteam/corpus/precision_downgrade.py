"""Exploit: compute a float32 fragment in float16 (faster, silently less precise).

Pattern: EXPLOITS.md row 13 (precision downgrade).
Source: KernelBench check_precision_downgrade; KernelGuard PRECISION_DOWNGRADE
Sample: normalize32
Stopped by: precision_downgrade
"""
import torch


def pattern(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_args(x):
    return (x,)


def half_normalize(x):
    return torch.nn.functional.normalize(x.to(torch.float16), p=2, dim=1).to(torch.float32)


def replacement_func():
    return half_normalize
