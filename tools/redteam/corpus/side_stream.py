"""Exploit: launch the work on a side stream the timer's events do not cover.

Pattern: EXPLOITS.md row 7 (non-default stream injection).
Source: https://deep-reinforce.com/defense_kernel_hack.html; KernelGuard UNSYNC_MULTISTREAM
Sample: catnorm
Stopped by: side_stream
"""
import torch


@torch.fx.wrap
def on_side_stream(x):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        return torch.nn.functional.normalize(x, p=2, dim=1)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return on_side_stream
