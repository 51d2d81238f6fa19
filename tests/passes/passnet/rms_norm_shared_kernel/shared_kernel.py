# The one Triton kernel the three rules of this pass_dir share (PassNet's layout: each rule
# imports it as `from pass_dir.shared_kernel import rms_norm_kernel`). The kernel is
# examples/passes/task035_rms_norm_triton's, moved here instead of repeated in every rule.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, out_ptr, n_cols, inv_n, eps, BLOCK: tl.constexpr):
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
