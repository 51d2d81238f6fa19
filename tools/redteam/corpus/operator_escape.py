"""Exploit: a token Triton launch on a scratch buffer, and the real work done by Python
operators on tensors (``a * b`` dispatches to ATen without naming torch).

Pattern: EXPLOITS.md row 16 (dynamic-dispatch escape from a static ban), in strict mode.
Source: PassNet PoisonDispatchTensor (the paper's strict-mode dispatch check)
Sample: silu
Integrity mode: strict
Stopped by: strict_other_compute
"""
import torch
import triton
import triton.language as tl


@triton.jit
def touch_kernel(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs.to(tl.float32))


def silu(x):
    scratch = torch.empty(16, device=x.device, dtype=torch.float32)
    touch_kernel[(1,)](scratch, BLOCK=16)
    return x * (1.0 / (1.0 + 2.718281828459045 ** (-x)))


def pattern(x):
    return x * torch.sigmoid(x)


def replacement_args(x):
    return (x,)


def replacement_func():
    return silu
