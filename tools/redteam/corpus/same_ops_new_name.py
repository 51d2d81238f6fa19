"""Exploit: the original ops under a new name (nothing changes in what Inductor compiles).

Pattern: EXPLOITS.md row 14 (call the baseline op).
Source: Makora 'Baseline Kernel' (KernelHacks README); PassNet AST ban
Sample: catnorm
Stopped by: no_change
"""
import torch


@torch.fx.wrap
def totally_new_fused_kernel(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return totally_new_fused_kernel
