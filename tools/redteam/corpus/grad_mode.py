"""Exploit: switch autograd back on inside the replacement, so every variant timed after it records a graph.

Pattern: EXPLOITS.md row 27 (slow down the baseline) by a process-wide mode.
Source: https://kernelbench.com design principles ("slow the baseline, inflate the ratio")
Sample: catnorm
Stopped by: global_state unrewarded
"""
import torch


@torch.fx.wrap
def normalize_rows(x):
    torch.set_grad_enabled(True)
    return torch.nn.functional.normalize(x, p=2, dim=1)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return normalize_rows
