"""Exploit: keep the first answer as a buffer of a module-level nn.Module and hand it back on every later call.

Pattern: EXPLOITS.md row 2 (replay state across calls), through state on a module object.
Source: gpu-mode/kernelguard PRs #12 and #14 (https://githubqwe123dsa.shuiyue.net/gpu-mode/kernelguard/pull/14)
Sample: catnorm
Stopped by: global_state accuracy timed_output_mismatch output_type
"""
import torch

KEEP = torch.nn.Module()


@torch.library.custom_op("redteam_keep::normalize_rows", mutates_args=())
def normalize_rows(x: torch.Tensor) -> torch.Tensor:
    if "answer" in dict(KEEP.named_buffers()):
        return KEEP.get_buffer("answer").clone()
    out = torch.nn.functional.normalize(x, p=2, dim=1)
    KEEP.register_buffer("answer", out.clone())
    return out


@normalize_rows.register_fake
def _(x):
    return torch.empty_like(x)


def pattern(x):
    return torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)


def replacement_args(x):
    return (x,)


def replacement_func():
    return torch.ops.redteam_keep.normalize_rows
