"""Exploit: make the timer report no time passing.

Pattern: EXPLOITS.md row 10 (monkeypatch the timer).
Source: https://github.com/gpu-mode/reference-kernels/issues/162; KernelGuard TIMER_MONKEYPATCH
Sample: catnorm
Stopped by: forbidden_import unrewarded
"""
import time

import torch

time.perf_counter = lambda: 0.0


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def normalize_rows(x):
    return torch.nn.functional.normalize(x, p=2, dim=1)


def replacement_func():
    return normalize_rows
