"""Exploit: right only at the measured sequence length, a size the boolean mask shares: a held-out step that grows only floating-point inputs cannot grow it.

Pattern: EXPLOITS.md row 18 (special-case the measured shape), at a size tied to a non-float input.
Source: KernelGuard HARDCODED_SHAPES, BENCHMARK_SHAPE_REPLAY
Sample: attn_mask
Stopped by: shape_special_case
"""
import torch


def pattern(x, mask):
    return x.masked_fill(mask.unsqueeze(1), 0.0)


def replacement_args(x, mask):
    return (x, mask)


@torch.fx.wrap
def measured_length_only(x, mask):
    if x.shape[-1] == 16:
        return x * (~mask).unsqueeze(1).to(x.dtype)
    return x  # the mask ignored off the measured length


def replacement_func():
    return measured_length_only
