"""Exploit: write every result into one preallocated buffer and return that buffer each call.

Pattern: EXPLOITS.md row 22 (stale result replay, output buffer reuse).
Source: KernelGuard OUTPUT_REPLAY_CACHE; GraphNet #698
Sample: catnorm
Stopped by: global_state output_type
"""
import torch

_BUF = {}


@torch.library.custom_op("exploit_reuse::norm", mutates_args=())
def reused_normalize(x: torch.Tensor) -> torch.Tensor:
    buf = _BUF.setdefault(tuple(x.shape), torch.empty_like(x))
    torch.nn.functional.normalize(x, p=2, dim=1, out=buf)
    return buf


@reused_normalize.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.exploit_reuse.norm
