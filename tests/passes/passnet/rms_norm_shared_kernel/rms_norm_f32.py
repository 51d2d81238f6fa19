# Rule for the float32 subgraphs of task_035 (the cast dtype is a literal of the pattern).
import torch
import triton

from pass_dir.shared_kernel import rms_norm_kernel


def pattern(x, w):
    x32 = x.to(torch.float32)
    variance = x32.pow(2).mean(-1, keepdim=True)
    y = x32 * torch.rsqrt(variance + 1e-06)
    return w * y.to(torch.float32)


def replacement_args(x, w):
    return (x, w)


def rms_norm_f32(x, w):
    n_cols = x.shape[-1]
    out = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(x.numel() // n_cols,)](x, w, out, n_cols, 1.0 / n_cols, 1e-06, BLOCK=block, num_warps=4 if block <= 2048 else 8)
    return out


def replacement_func():
    return rms_norm_f32
