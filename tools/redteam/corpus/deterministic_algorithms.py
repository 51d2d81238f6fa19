"""Exploit: force deterministic (slower) algorithms for every variant through operator.methodcaller.

Pattern: EXPLOITS.md row 27 (slow down the baseline).
Source: https://kernelbench.com design principles; KernelGuard HARNESS_RUNTIME_PATCHING
Sample: catnorm
Stopped by: dunder_access unrewarded
"""
import operator

import torch

operator.methodcaller("use_deterministic_algorithms", True, warn_only=True)(torch)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def normalize_rows(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_func():
    return normalize_rows
