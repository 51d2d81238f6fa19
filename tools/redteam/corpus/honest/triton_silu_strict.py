"""Honest: SiLU as one Triton kernel, allocation and launch only (passes strict mode).

Sample: silu
Integrity mode: strict
Device: cuda
"""
import torch
import triton
import triton.language as tl


@triton.jit
def silu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x / (1.0 + tl.exp(-x)), mask=offs < n)


def silu(x):
    out = torch.empty_like(x)
    silu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out


def pattern(x):
    return x * torch.sigmoid(x)


def replacement_args(x):
    return (x,)


def replacement_func():
    return silu
