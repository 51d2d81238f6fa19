"""Rewrites of the fragment around a GEMM: softmax probabilities times values with the
normalisation deferred past the GEMM, and a LayerNorm's affine folded into the linear after it.

Both change what the GEMM multiplies, so they are exact in real arithmetic but not in rounded
arithmetic. In float32/float64 the difference is reassociation, far inside t = -5. In half
precision it is not: eager rounds the softmax probabilities (or the LayerNorm output) to 8 or
11 bits before the GEMM, and an output that sums those rounded terms moves by about that
rounding relative to its own size, so outputs near zero fail float16's rtol = 1e-3 (bfloat16's
1.6e-2) once the GEMM reads anything else. So in half precision the replacements keep eager's
rounded GEMM inputs and change the GEMM instead: a float32 GEMM over the exactly widened
operands, rounded once. Half x half products are exact in float32 (11 + 11 significant bits
< 24), and ATen's CPU half GEMM accumulates in float32 too unless half reductions are allowed
(``allowFP16ReductionCPU``, off by default; ``aten/src/ATen/native/BlasKernel.cpp``), so the
result differs from eager's by its last rounding (checked on the tasks' own input draws: no
further from the float64 result than eager's, ``tests/test_builtin_cpu_forms.py``). On a CPU without native float16 dot-product instructions that float32
GEMM is far faster than the half one (``passagent eval`` of task_089 and task_059 against
Inductor, 2-core AMD EPYC: 5-15x for float16 subgraphs, 0.4-0.7x for bfloat16 ones, which that
CPU multiplies natively); on a GPU, tensor cores make the half GEMM the fast one, and the
policy's own measurement discards the rule there.
"""

from __future__ import annotations

from .attention import softmax_times
from .drafts import RuleDraft, make_draft
from .emit import emit_pattern
from .fusions import guarded
from .fx_reader import FxGraph, FxNode

_FLOATS = ("float32", "float64", "float16", "bfloat16")
_HALF = "(torch.float16, torch.bfloat16)"

# Inductor fuses a cast to half into the kernel that reads it and keeps the value in float32
# there (``torch._inductor.config.emulate_precision_casts`` is off by default), so
# ``softmax(s).float()`` would skip eager's rounding of the probabilities: measured on float16
# [1, 8, 128, 128] @ [.., 128, 64], 8 % of the outputs then fail t = -5. The input of an opaque
# custom op is a realized buffer of its own dtype, so widening through one keeps eager's rounding.
# One registration per process: every rule file that needs it shares it.
_WIDEN = '''
if not hasattr(torch.ops.passagent_builtin, "widen_rounded"):
    @torch.library.custom_op("passagent_builtin::widen_rounded", mutates_args=())
    def _widen_rounded(x: torch.Tensor) -> torch.Tensor:
        """x (already rounded to its half dtype) widened exactly to float32."""
        return x.float()

    @_widen_rounded.register_fake
    def _widen_rounded_fake(x):
        return torch.empty_like(x, dtype=torch.float32)
'''

# The other direction: a float32 result cast to half and then read by a pointwise op (a residual
# add) would have its cast fused away the same way, skipping eager's rounding of the GEMM's output
# (measured on task_061: two of six subgraphs failed t = -5). Narrowing through an opaque op
# realizes the rounded half buffer, as eager's half GEMM writes it.
_NARROW = '''
if not hasattr(torch.ops.passagent_builtin, "narrow_rounded"):
    @torch.library.custom_op("passagent_builtin::narrow_rounded", mutates_args=())
    def _narrow_rounded(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        """x rounded once to dtype, as a buffer of that dtype."""
        return x.to(dtype)

    @_narrow_rounded.register_fake
    def _narrow_rounded_fake(x, dtype):
        return torch.empty_like(x, dtype=dtype)
'''

# FlashAttention's online-softmax rescaling (Dao et al. 2022, "FlashAttention: Fast and
# Memory-Efficient Exact Attention with IO-Awareness", arXiv 2205.14135, Sec. 3.1): the GEMM
# reads exp(s - rowmax(s)) and the row sums divide its [.., L, D] result, not the [.., L, L]
# probabilities.
_SOFTMAX_MATMUL = """
if s.dtype in {half}:
    # Eager's rounded probabilities (ATen's half softmax computes in float32 and rounds once),
    # then a float32 GEMM over the exactly widened operands, rounded once.
    probs = torch.ops.passagent_builtin.widen_rounded(torch.softmax(s, -1))
    return torch.matmul(probs, v.float()).to(s.dtype)
row_max = torch.amax(s, -1, keepdim=True)
e = torch.exp(s - row_max)
return torch.matmul(e, v) / torch.sum(e, -1, keepdim=True)
"""


def softmax_matmul(g: FxGraph) -> list[RuleDraft]:
    """``softmax(s, -1) [eval dropout] @ v`` -> ``(exp(s - max) @ v) / sum(exp(s - max))``.

    Where the softmax input is a scaled ``q @ k^T`` the attention recipe (SDPA) is proposed too;
    this one needs only the probabilities' GEMM. ``s``: [..., L, S], ``v``: [..., S, D], one
    float dtype; float16/bfloat16 take the float32-GEMM form of the module docstring.
    """
    drafts = []
    for out in g.calls():
        found = softmax_times(g, out)
        if found is None:
            continue
        _probs, s_ref, v_ref, nodes, lift = found
        s, v = g.node(s_ref), g.node(v_ref)
        if s is None or v is None or s.name == v.name or not s.shape or not v.shape:
            continue
        if s.dtype not in _FLOATS or v.dtype != s.dtype or len(s.shape) < 2 or len(v.shape) < 2:
            continue
        if any(not set(g[n].users) <= nodes or n in g.output_names for n in nodes - {out.name}):
            continue  # the probabilities are read elsewhere: they must still be computed
        pattern = emit_pattern(g, nodes, [out.name], {s.name: "s", v.name: "v"}, lift)
        if pattern is None or set(pattern.params) - {"p"} != {"s", "v"}:
            continue
        keep_if = "s.dtype != v.dtype or not s.is_floating_point() or s.dim() < 2 or v.dim() < 2"
        helper = _WIDEN + "\n\n" + guarded("softmax_matmul_deferred", pattern.params, keep_if,
                         "Mixed or integer dtypes, or a vector: not the fragment the rule was written for.",
                         _SOFTMAX_MATMUL.format(half=_HALF))
        d = make_draft(
            "softmax_matmul", "SoftmaxMatmulDeferredNorm", g, pattern,
            title="Normalise softmax(s) @ v after the GEMM: (exp(s - max) @ v) / sum(exp(s - max)).",
            doc=("The GEMM reads the unnormalised exponentials and the row sums divide its [.., L, D] result instead "
                 "of the [.., L, L] probabilities (FlashAttention's rescaling, Dao et al. 2022, arXiv 2205.14135): one "
                 "division per output element instead of one per probability. Eval-mode dropout is the identity. "
                 "float16/bfloat16 keep eager's rounded probabilities and run the GEMM in float32 over the exactly "
                 "widened operands, rounded once (a rounding change inside the GEMM inputs fails t = -5 there)."),
            replacement_args=list(pattern.params), helpers=helper, func="softmax_matmul_deferred",
            rationale=("the softmax's division moves from the [.., L, L] probabilities to the [.., L, D] result "
                       "(float32); half precision runs its GEMM in float32, which CPUs without native float16 "
                       "dot products run far faster"),
        )
        if d:
            drafts.append(d)
    return drafts


_LAYER_NORM_LINEAR = """
if x.dtype in {half}:
    # Eager's rounded LayerNorm output, then a float32 GEMM over the exactly widened operands.
    y = torch.ops.passagent_builtin.widen_rounded(
        torch.nn.functional.layer_norm(x, normalized_shape, ln_weight, ln_bias, eps))
    return torch.nn.functional.linear(y, weight.float(), {bias_f}).to(x.dtype)
# y = xhat * g + beta, so y @ W^T + c = xhat @ (W * g)^T + (W @ beta + c).
xhat = torch.nn.functional.layer_norm(x, normalized_shape, None, None, eps)
return torch.nn.functional.linear(xhat, weight * ln_weight, {folded_bias})
"""


def _fn_call(node: FxNode | None, targets: tuple[str, ...]) -> bool:
    return node is not None and node.form == "call" and node.target in targets


def layer_norm_linear(g: FxGraph) -> list[RuleDraft]:
    """``F.linear(F.layer_norm(x, (K,), g, beta, eps), W, c)`` -> ``F.linear(xhat, W * g, W @ beta + c)``.

    ``x``: [..., K]; ``g``, ``beta``: [K]; ``W``: [N, K]; ``c``: [N] or absent; one float dtype.
    The folded weight costs N x K multiplies per call against M x K for the affine it removes
    (M rows), so it pays where the activation has more rows than the weight; half precision takes
    the float32-GEMM form of the module docstring instead of the fold.
    """
    drafts = []
    for lin in g.calls():
        if not _fn_call(lin, ("torch.nn.functional.linear", "torch._C._nn.linear")) or lin.kwargs:
            continue
        if len(lin.args) not in (2, 3):
            continue
        ln = g.node(lin.args[0])
        if not _fn_call(ln, ("torch.nn.functional.layer_norm", "torch.layer_norm")) or ln.kwargs or len(ln.args) != 5:
            continue
        if ln.users != [lin.name] or ln.name in g.output_names:
            continue
        x, gw, gb = (g.node(a) for a in (ln.args[0], ln.args[2], ln.args[3]))
        w, c = g.node(lin.args[1]), g.node(lin.args[2]) if len(lin.args) == 3 else None
        shape = ln.args[1]
        if x is None or gw is None or gb is None or w is None or (len(lin.args) == 3 and c is None):
            continue
        if not isinstance(shape, (list, tuple)) or len(shape) != 1 or not x.shape or x.dtype not in _FLOATS:
            continue
        k = x.shape[-1]
        if gw.shape != [k] or gb.shape != [k] or w.shape is None or len(w.shape) != 2 or w.shape[1] != k:
            continue
        if any(t.dtype != x.dtype for t in (gw, gb, w, c) if t is not None):
            continue
        if len({t.name for t in (x, gw, gb, w, c) if t is not None}) != 4 + (c is not None):
            continue
        names = {x.name: "x", gw.name: "ln_weight", gb.name: "ln_bias", w.name: "weight"}
        if c is not None:
            names[c.name] = "bias"
        lift = {(ln.name, 1): "normalized_shape", (ln.name, 4): "eps"}
        pattern = emit_pattern(g, [ln.name, lin.name], [lin.name], names, lift)
        if pattern is None or set(pattern.params) != set(names.values()) | {"normalized_shape", "eps"}:
            continue
        has_bias = c is not None
        keep_if = ("len(normalized_shape) != 1 or weight.dim() != 2 or ln_weight.shape != x.shape[-1:] "
                   "or ln_bias.shape != x.shape[-1:] or not x.is_floating_point() "
                   "or not (x.dtype == ln_weight.dtype == ln_bias.dtype == weight.dtype"
                   + (" == bias.dtype)" if has_bias else ")"))
        body = _LAYER_NORM_LINEAR.format(half=_HALF, bias_f="bias.float()" if has_bias else "None",
                                         folded_bias="torch.addmv(bias, weight, ln_bias)" if has_bias
                                         else "torch.mv(weight, ln_bias)")
        helper = _WIDEN + "\n\n" + guarded("layer_norm_linear_folded", pattern.params, keep_if,
                         "Not a last-dim LayerNorm with 1-d affine into a 2-d weight of one float dtype.", body)
        d = make_draft(
            "layer_norm_linear", "LayerNormAffineIntoLinear", g, pattern,
            title="Fold a LayerNorm's affine into the linear after it.",
            doc=("layer_norm(x) = xhat * g + beta, so linear(layer_norm(x), W, c) = linear(xhat, W * g, W @ beta + c): "
                 "the per-element affine over the activation becomes a per-call rescale of the weight and a "
                 "matrix-vector product for the bias. float16/bfloat16 keep eager's rounded LayerNorm output and run "
                 "the GEMM in float32 over the exactly widened operands, rounded once."),
            replacement_args=list(pattern.params), helpers=helper, func="layer_norm_linear_folded",
            rationale=("the LayerNorm's affine pass over the activation folds into the GEMM's weight and bias "
                       "(float32); half precision runs its GEMM in float32, which CPUs without native float16 dot "
                       "products run far faster"),
        )
        if d:
            drafts.append(d)
    return drafts


_LINEAR_SPLIT_BIAS = """
if x.dtype in {half}:
    # Exactly widened operands (through the opaque widening, so that eager's rounding of an operand
    # computed by a fused pointwise op is kept), a float32 GEMM, the bias added in float32, rounded once.
    widen = torch.ops.passagent_builtin.widen_rounded
    return torch.ops.passagent_builtin.narrow_rounded(torch.nn.functional.linear(widen(x), widen(weight)) + widen(bias), x.dtype)
return torch.nn.functional.linear(x, weight) + bias
"""


def linear_split_bias(g: FxGraph) -> list[RuleDraft]:
    """``F.linear(x, W, b)`` -> ``F.linear(x, W) + b``: a GEMM without accumulator input, its bias
    added in the pointwise kernel Inductor generates after it.

    ``x``: [..., K]; ``W``: [N, K]; ``b``: [N]; one float dtype. Inductor lowers a linear with
    bias to ``aten.addmm``, which on the CPU first copies the broadcast bias into the output and
    then accumulates the GEMM onto it (BLAS ``beta = 1``); on GPUs Inductor itself unfuses that
    bias into the pointwise ops after the GEMM (``torch/_inductor/fx_passes/post_grad.py``,
    ``should_prefer_unfused_addmm``, which is GPU-only), and this rule does the same on any
    device: the GEMM writes its output once and the bias rides in the kernel of the next
    pointwise op (activation, residual add, scale). float32/float64: the GEMM's sum is rounded and
    the bias added, as ``beta = 1`` does. float16/bfloat16 take the float32-GEMM form of the
    module docstring (products exact in float32, bias added there, one rounding).
    """
    drafts = []
    for lin in g.calls():
        if not _fn_call(lin, ("torch.nn.functional.linear", "torch._C._nn.linear")) or lin.kwargs or len(lin.args) != 3:
            continue
        x, w, b = (g.node(a) for a in lin.args)
        if x is None or w is None or b is None or not x.shape or x.dtype not in _FLOATS:
            continue
        if w.shape is None or len(w.shape) != 2 or w.shape[1] != x.shape[-1] or b.shape != [w.shape[0]]:
            continue
        if w.dtype != x.dtype or b.dtype != x.dtype or len({x.name, w.name, b.name}) != 3:
            continue
        names = {x.name: "x", w.name: "weight", b.name: "bias"}
        pattern = emit_pattern(g, [lin.name], [lin.name], names)
        if pattern is None or set(pattern.params) != set(names.values()):
            continue
        keep_if = ("weight.dim() != 2 or bias.dim() != 1 or x.dim() == 0 or not x.is_floating_point() "
                   "or not (x.dtype == weight.dtype == bias.dtype)")
        helper = _WIDEN + _NARROW + "\n\n" + guarded("linear_split_bias", pattern.params, keep_if,
                         "Not a float linear with a 1-d bias of one dtype: not what the rule was written for.",
                         _LINEAR_SPLIT_BIAS.format(half=_HALF))
        pointwise_after = bool(lin.users) and all(g[u].form in ("binop", "unary") or g[u].fn in _EPILOGUES
                                                 for u in lin.users)
        d = make_draft(
            "linear_split_bias", "LinearBiasAsEpilogue", g, pattern,
            title="A linear's bias added after its GEMM, not copied into the GEMM's accumulator.",
            doc=("F.linear(x, W, b) = F.linear(x, W) + b: the GEMM runs without an accumulator input (no broadcast "
                 "copy of the bias into the output first) and Inductor adds the bias in the pointwise kernel after it, "
                 "as it does itself on GPUs (should_prefer_unfused_addmm). float16/bfloat16 run the GEMM in float32 "
                 "over the exactly widened operands and round once."),
            replacement_args=list(pattern.params), helpers=helper, func="linear_split_bias",
            rationale=("the linear's bias moves out of the GEMM's accumulator"
                       + (" into the pointwise kernel after it" if pointwise_after else " into a pointwise add")
                       + " (float32); half precision runs its GEMM in float32, which CPUs without native float16 "
                         "dot products run far faster"),
        )
        if d:
            drafts.append(d)
    return drafts



_LINEAR_NO_BIAS = """
if x.dtype == torch.float16:
    # Exactly widened operands (the opaque widening keeps eager's rounding), a float32 GEMM, rounded once.
    widen = torch.ops.passagent_builtin.widen_rounded
    return torch.ops.passagent_builtin.narrow_rounded(torch.nn.functional.linear(widen(x), widen(weight)), x.dtype)
# One batched GEMM (a batch of one) over the rows of x against the transposed weight.
out = torch.bmm(x.reshape(1, -1, x.shape[-1]), weight.t().unsqueeze(0))
return out.reshape(tuple(x.shape[:-1]) + (weight.shape[0],))
"""


def linear_no_bias(g: FxGraph) -> list[RuleDraft]:
    """``F.linear(x, W)`` without bias -> float16: the float32-GEMM form of the module docstring;
    other dtypes: one ``torch.bmm`` of the rows of ``x`` against ``W^T`` (a batch of one).

    ``x``: [..., K]; ``W``: [N, K]; one float dtype; output [..., N]. Inductor lowers a bias-free
    linear to ``aten.mm`` between two views; the batched GEMM is another library kernel for the
    same product (the measurement decides). float16 takes the float32 GEMM, far faster on CPUs
    without native float16 dot products (3.6x Inductor on task_070's float16 subgraph, 2-core AMD
    EPYC). bfloat16 keeps its dtype: on task_070's bfloat16 subgraph the batched GEMM ran at 0.68x
    Inductor and the float32 GEMM at 0.44x (that CPU multiplies bfloat16 natively).
    """
    drafts = []
    for lin in g.calls():
        if not _fn_call(lin, ("torch.nn.functional.linear", "torch._C._nn.linear")) or lin.kwargs:
            continue
        if len(lin.args) not in (2, 3) or (len(lin.args) == 3 and lin.args[2] is not None):
            continue
        x, w = (g.node(a) for a in lin.args[:2])
        if x is None or w is None or not x.shape or x.dtype not in _FLOATS or x.name == w.name:
            continue
        if w.shape is None or len(w.shape) != 2 or w.shape[1] != x.shape[-1] or w.dtype != x.dtype:
            continue
        names = {x.name: "x", w.name: "weight"}
        pattern = emit_pattern(g, [lin.name], [lin.name], names)
        if pattern is None or set(pattern.params) != set(names.values()):
            continue
        helper = _WIDEN + _NARROW + "\n\n" + guarded("linear_no_bias", pattern.params,
                         "weight.dim() != 2 or x.dim() == 0 or not x.is_floating_point() or x.dtype != weight.dtype",
                         "Not a float linear of one dtype: not what the rule was written for.",
                         _LINEAR_NO_BIAS)
        d = make_draft(
            "linear_no_bias", "LinearAsBatchedGemm", g, pattern,
            title="A bias-free linear as one batched GEMM; float16 as a float32 GEMM.",
            doc=("F.linear(x, W) = bmm(rows of x, W^T) with a batch of one: the same product through another library "
                 "kernel. float16 runs the GEMM in float32 over the exactly widened operands and rounds once."),
            replacement_args=list(pattern.params), helpers=helper, func="linear_no_bias",
            rationale=("the bias-free linear's GEMM runs as a batched GEMM (float32, bfloat16), float16 as a float32 GEMM, "
                       "which CPUs without native float16 dot products run far faster"),
        )
        if d:
            drafts.append(d)
    return drafts

#: Call targets (short names) Inductor lowers as pointwise ops that can absorb a bias add.
_EPILOGUES = {"gelu", "relu", "silu", "tanh", "sigmoid", "dropout", "mul", "add", "sub", "truediv", "pow"}


_CONV_SPLIT_BIAS = """
shape = [1, -1] + [1] * (x.dim() - 2)
if x.dtype in {half}:
    # Exactly widened operands (the opaque widening keeps eager's rounding), a float32
    # convolution, the bias added in float32, rounded once.
    widen = torch.ops.passagent_builtin.widen_rounded
    y = torch.{conv}(widen(x), widen(weight), None, stride, padding, dilation, groups)
    return torch.ops.passagent_builtin.narrow_rounded(y + widen(bias).view(shape), x.dtype)
return torch.{conv}(x, weight, None, stride, padding, dilation, groups) + bias.view(shape)
"""


def conv_split_bias(g: FxGraph) -> list[RuleDraft]:
    """``torch.conv1d/conv2d(x, W, b, stride, padding, dilation, groups)`` -> the convolution
    without bias, then ``+ b`` per channel: the bias in the pointwise kernel Inductor generates after it.

    ``x``: [N, C, L] or [N, C, H, W]; ``W``: [C_out, C / groups, *k]; ``b``: [C_out]; one float
    dtype. Stride, padding, dilation and groups are lifted into the pattern (one rule for every
    convolution of the task). The same split as :func:`linear_split_bias` (a convolution is a
    GEMM over patches); half precision runs the convolution in float32 over the exactly widened
    operands and rounds once: without native float16 arithmetic, oneDNN has no fast float16
    convolution on such a CPU.
    """
    drafts = []
    for conv in g.calls():
        if not _fn_call(conv, ("torch.conv1d", "torch.conv2d")) or conv.kwargs or len(conv.args) != 7:
            continue
        x, w, b = (g.node(a) for a in conv.args[:3])
        if x is None or w is None or b is None or not x.shape or x.dtype not in _FLOATS or not w.shape:
            continue
        if len(x.shape) != len(w.shape) or b.shape != [w.shape[0]] or len({x.name, w.name, b.name}) != 3:
            continue
        if w.dtype != x.dtype or b.dtype != x.dtype:
            continue
        names = {x.name: "x", w.name: "weight", b.name: "bias"}
        lift = {(conv.name, i): p for i, p in enumerate(("stride", "padding", "dilation", "groups"), start=3)}
        pattern = emit_pattern(g, [conv.name], [conv.name], names, lift)
        if pattern is None or set(pattern.params) != set(names.values()) | set(lift.values()):
            continue
        keep_if = ("bias.dim() != 1 or x.dim() != weight.dim() or not x.is_floating_point() "
                   "or not (x.dtype == weight.dtype == bias.dtype)")
        helper = _WIDEN + _NARROW + "\n\n" + guarded("conv_split_bias", pattern.params, keep_if,
                         "Not a float convolution with a 1-d bias of one dtype: not what the rule was written for.",
                         _CONV_SPLIT_BIAS.format(half=_HALF, conv=conv.fn))
        d = make_draft(
            "conv_split_bias", "ConvBiasAsEpilogue", g, pattern,
            title="A convolution's bias added after it, per channel, in the next pointwise kernel.",
            doc=("conv(x, W, b) = conv(x, W) + b[:, None, ...]: the convolution runs without bias and Inductor adds "
                 "it in the pointwise kernel after it. float16/bfloat16 convolve in float32 over the exactly widened "
                 "operands and round once."),
            replacement_args=list(pattern.params), helpers=helper, func="conv_split_bias",
            rationale=("the convolution's bias moves into a pointwise kernel (fused with what follows); half "
                       "precision convolves in float32, which CPUs without native float16 arithmetic run far faster"),
        )
        if d:
            drafts.append(d)
    return drafts
