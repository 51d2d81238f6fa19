"""RMSNorm of built-in task_035 (float16 subgraphs) as one hand-written Triton kernel.

The subgraphs spell Llama/Qwen/Mistral RMSNorm out as eight ops::

    x32 = x.to(float32); y = x32 * rsqrt(mean(x32 ** 2, -1) + 1e-6); out = w * y.to(torch.float16)

One program per row reads the row once, reduces in float32 and writes ``w * y`` in the output
dtype, rounding once at the store as Inductor does. The
replacement launches a Triton kernel, so the harness registers it as a custom op
(``torch.library.triton_op``) and Inductor compiles the rest of the graph around it
(``tools/passes/triton_ops.py``). Triton kernels run on CUDA only: evaluate with ``--device cuda``.

The cast dtype is a literal of the pattern, so the pass has one rule per dtype; the three rule
files differ only in it.
"""

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


def pattern(x, w):
    x32 = x.to(torch.float32)
    variance = x32.pow(2).mean(-1, keepdim=True)
    y = x32 * torch.rsqrt(variance + 1e-06)
    return w * y.to(torch.float16)


def replacement_args(x, w):
    return (x, w)


@triton.jit
def _rms_norm_kernel(x_ptr, w_ptr, out_ptr, n_cols, inv_n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    # As eager does it: mean = sum * (1/n) in float32 (ATen's MeanOps), CUDA's rsqrtf (libdevice).
    inv_rms = libdevice.rsqrt(tl.sum(x * x, axis=0) * inv_n + eps)
    # One rounding, at the store, as Inductor does (emulate_precision_casts off). Rounding y to
    # the output dtype first, as eager does, turns rare 1-ulp differences in inv_rms into 2-ulp
    # output differences after the product, beyond t = -5 for float16.
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    out = w.to(tl.float32) * (x * inv_rms)
    tl.store(out_ptr + row * n_cols + cols, out.to(out_ptr.dtype.element_ty), mask=mask)


def rms_norm_f16(x, w):
    # The subgraphs' activations are contiguous [..., n_cols] rows: one program per row.
    n_cols = x.shape[-1]
    out = torch.empty(x.shape, dtype=torch.float16, device=x.device)
    block = triton.next_power_of_2(n_cols)
    _rms_norm_kernel[(x.numel() // n_cols,)](x, w, out, n_cols, 1.0 / n_cols, 1e-06, BLOCK=block, num_warps=4 if block <= 2048 else 8)
    return out


def replacement_func():
    return rms_norm_f16
