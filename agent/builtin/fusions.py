"""Recipes that replace a hand-written op chain with the one op (or one library call) it computes:
SiLU, tanh/erf GELU, LayerNorm, RMSNorm, BatchNorm folded into the convolution before it, a
linear's ReLU folded into its GEMM call, a scalar multiple of a matmul folded into the GEMM's
alpha, a global average pool written as a spatial mean, and two consecutive means merged into
one reduction (attention is in :mod:`.attention`).

Recognition goes through :mod:`.algebra` (tolerant of operand order and spelling); the pattern is
then copied from the graph's own nodes. Where a fused op would round differently from the chain
beyond a dtype's tolerance, the replacement (an ``@torch.fx.wrap`` function that sees real dtypes
when Inductor traces it) either computes in float32 and rounds once, as Inductor's own kernels
do with the chain (GELU, SiLU, BatchNorm folding, merged means), or, where that still differs
(the norms' reductions in half precision), falls back to calling ``pattern`` itself. The harness
scores a subgraph on which the original ops run as ``no_change``, so such a draft declares its
fallback (``fallback=``) and the policy does not propose it for a task with such a subgraph.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

from .algebra import SQRT_2_OVER_PI, binary, match_expr, number
from .cleanup import cast_dtype
from .drafts import RuleDraft, camel, make_draft
from .emit import emit_pattern
from .fx_reader import FxGraph, FxNode, Ref

X = ("var", "x")
HALF = "(torch.float16, torch.bfloat16)"


def guarded(func: str, params: tuple[str, ...], keep_if: str, why: str, body: str) -> str:
    """An ``@torch.fx.wrap`` replacement taking the pattern's parameters: the original ops
    (``pattern(...)``) when ``keep_if`` holds, else ``body``."""
    args = ", ".join(params)
    body = textwrap.indent(textwrap.dedent(body).strip(), "    ")
    return (f"@torch.fx.wrap\ndef {func}({args}):\n    if {keep_if}:\n        # {why}\n"
            f"        return pattern({args})\n{body}\n")


def _half_x_times(one_plus: tuple[Any, ...]) -> tuple[Any, ...]:
    """``0.5 * x * (1 + f)`` in the ways models write it."""
    return ("alt",
            ("mul", ("mul", ("c", 0.5), X), one_plus),
            ("mul", X, ("mul", ("c", 0.5), one_plus)),
            ("mul", ("mul", X, one_plus), ("c", 0.5)),
            ("div", ("mul", X, one_plus), ("c", 2.0)))


_X3 = ("alt", ("pow", X, ("c", 3.0)), ("mul", ("mul", X, X), X))
_X2 = ("alt", ("pow", X, ("c", 2.0)), ("mul", X, X))
_TANH_INNER = ("alt",
               ("mul", ("c", SQRT_2_OVER_PI), ("add", X, ("mul", ("c", 0.044715), _X3))),
               ("mul", ("mul", X, ("c", SQRT_2_OVER_PI)), ("add", ("c", 1.0), ("mul", ("c", 0.044715), _X2))),
               ("mul", ("mul", X, ("c", SQRT_2_OVER_PI)), ("add", ("c", 1.0), ("mul", ("mul", ("c", 0.044715), X), X))))
GELU_TANH = _half_x_times(("add", ("c", 1.0), ("tanh", _TANH_INNER)))
GELU_ERF = _half_x_times(("add", ("c", 1.0), ("erf", ("alt", ("div", X, ("c", math.sqrt(2.0))),
                                                            ("mul", X, ("c", math.sqrt(0.5)))))))
SILU = ("mul", X, ("sigmoid", X))

_CENTERED = ("sub", X, ("mean_last", X))
_LN_DEN = ("add", ("mean_last", ("alt", ("pow", _CENTERED, ("c", 2.0)), ("mul", _CENTERED, _CENTERED))), ("num", "eps"))
LAYER_NORM = ("alt", ("div", _CENTERED, ("sqrt", _LN_DEN)), ("mul", _CENTERED, ("rsqrt", _LN_DEN)))
_RMS_DEN = ("add", ("mean_last", _X2), ("num", "eps"))
RMS_NORM = ("alt", ("mul", X, ("rsqrt", _RMS_DEN)), ("div", X, ("sqrt", _RMS_DEN)))


def _elementwise(g: FxGraph, recipe: str, rule: str, template: tuple[Any, ...], dtypes: set[str], fused: str,
                 title: str, doc: str, rationale: str) -> list[RuleDraft]:
    drafts = []
    for node in g.calls():
        env = match_expr(g, template, node)
        if env is None or g[env["x"].name].dtype not in dtypes:
            continue
        pattern = emit_pattern(g, env["__nodes__"], [node.name], {env["x"].name: "x"})
        if pattern is None or pattern.params != ("x",):
            continue
        others = sorted({"float16", "bfloat16", "float32", "float64"} - dtypes)
        upcast_if = f"x.dtype in ({', '.join('torch.' + d for d in others)},)" if others else "False"
        # In those dtypes the fused op, rounding inside in its own way, differs from the chain
        # beyond tolerance; computing it in float32 and rounding once is what Inductor's own
        # kernels do with the chain (never the original ops: that would change nothing).
        helper = (f"@torch.fx.wrap\ndef fused_{recipe}(x):\n    if {upcast_if}:\n"
                  f"        return {fused.replace('(x', '(x.float()')}.to(x.dtype)\n    return {fused}\n")
        d = make_draft(recipe, rule, g, pattern, title=title, doc=doc, replacement_args=["x"],
                       helpers=helper, func=f"fused_{recipe}", rationale=rationale)
        if d:
            drafts.append(d)
    return drafts


def silu(g: FxGraph) -> list[RuleDraft]:
    """``x * torch.sigmoid(x)`` (either order, function or method) -> ``F.silu(x)``."""
    # float16's rtol (1e-3) is about two roundings: the chain's two against the fused op's one.
    return _elementwise(
        g, "silu", "SiluFromSigmoidMul", SILU, {"float32", "float64", "bfloat16"}, "torch.nn.functional.silu(x)",
        "x * sigmoid(x) is SiLU.", "One silu reads x once and writes once, where the chain materialises sigmoid(x).",
        "two elementwise kernels and a temporary become one silu")


def gelu_tanh(g: FxGraph) -> list[RuleDraft]:
    """The tanh-GELU polynomial ``0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))`` -> ``F.gelu(x, approximate='tanh')``."""
    return _elementwise(
        g, "gelu_tanh", "GeluTanhFromPolynomial", GELU_TANH, {"float32", "float64"},
        "torch.nn.functional.gelu(x, approximate='tanh')",
        "The tanh-approximated GELU written out as a polynomial is F.gelu(approximate='tanh').",
        "Same formula and constants as ATen's tanh GELU; one kernel instead of eight elementwise ops and their temporaries.",
        "eight elementwise ops (pow, muls, adds, tanh) become one gelu kernel")


def gelu_erf(g: FxGraph) -> list[RuleDraft]:
    """``0.5*x*(1+erf(x/sqrt(2)))`` -> ``F.gelu(x)``."""
    return _elementwise(
        g, "gelu_erf", "GeluErfFromFormula", GELU_ERF, {"float32", "float64"}, "torch.nn.functional.gelu(x)",
        "0.5 * x * (1 + erf(x / sqrt(2))) is the exact GELU.",
        "ATen's gelu computes exactly this formula in one kernel.",
        "five elementwise ops become one gelu kernel")


def _single_user(g: FxGraph, node: FxNode) -> FxNode | None:
    if len(node.users) != 1 or node.name in g.output_names:
        return None
    return g[node.users[0]]


def _other_operand(node: FxNode | None, op: str, name: str) -> Any:
    b = binary(node)
    if b is None or b[0] != op:
        return None
    if b[1] == Ref(name):
        return b[2]
    return b[1] if b[2] == Ref(name) else None


def _affine(g: FxGraph, x: FxNode, end: FxNode, nodes: set[str], allow_bias: bool) -> tuple[FxNode, FxNode | None, FxNode | None]:
    """Extend a normalisation by a no-op cast, ``* weight`` and ``+ bias`` (1-d, x's dtype)."""
    def param(value: Any) -> FxNode | None:
        p = g.node(value)
        return p if p is not None and p.shape == x.shape[-1:] and p.dtype == x.dtype and p.name not in nodes else None

    weight = bias = None
    u = _single_user(g, end)
    if u is not None and cast_dtype(u) == x.dtype:
        nodes.add(u.name)
        end, u = u, _single_user(g, u)
    w = param(_other_operand(u, "mul", end.name))
    if w is not None:
        nodes.add(u.name)  # type: ignore[union-attr]
        weight, end, u = w, u, _single_user(g, u)  # type: ignore[arg-type]
    b = param(_other_operand(u, "add", end.name)) if allow_bias else None
    if b is not None:
        nodes.add(u.name)  # type: ignore[union-attr]
        bias, end = b, u  # type: ignore[assignment]
    return end, weight, bias


def _norm(g: FxGraph, kind: str) -> list[RuleDraft]:
    drafts = []
    for node in g.calls():
        env = match_expr(g, LAYER_NORM if kind == "layer_norm" else RMS_NORM, node)
        if env is None:
            continue
        x = g[env["x"].name]
        # Fused reductions round differently from the chain; only float32/64 keep that within tolerance.
        if x.dtype not in ("float32", "float64") or not x.shape:
            continue
        nodes = set(env["__nodes__"])
        end, weight, bias = _affine(g, x, node, nodes, allow_bias=kind == "layer_norm")
        names = {x.name: "x", **({weight.name: "weight"} if weight else {}), **({bias.name: "bias"} if bias else {})}
        pattern = emit_pattern(g, nodes, [end.name], names)
        if pattern is None or set(pattern.params) != set(names.values()):
            continue
        eps = env["eps"]
        w, b = ("weight" if weight else "None"), ("bias" if bias else "None")
        params_ok = " and ".join(f"{p}.shape == x.shape[-1:] and {p}.dtype == x.dtype" for p in pattern.params[1:])
        keep_if = f"x.dtype in {HALF}" + (f" or not ({params_ok})" if params_ok else "")
        if kind == "layer_norm":
            fused = f"return torch.nn.functional.layer_norm(x, x.shape[-1:], {w}, {b}, {eps!r})"
            what = "LayerNorm" + (" with weight" if weight else "") + (" and bias" if bias else "")
        else:
            fused = f"return torch.nn.functional.rms_norm(x, x.shape[-1:], {w}, {eps!r})"
            what = "RMSNorm" + (" with weight" if weight else "")
        helper = guarded(f"{kind}_last_dim", pattern.params, keep_if,
                         "Half precision rounds the chain's reductions differently (beyond tolerance); an odd weight "
                         "shape is not F's affine.", fused)
        args = list(pattern.params)
        d = make_draft(
            kind, f"{camel(kind)}FromChain", g, pattern,
            title=f"A hand-written {what} over the last dimension is F.{kind}.",
            doc=(f"The chain ({len(nodes)} ops: mean, subtract, square, mean, add eps, sqrt/rsqrt, divide/multiply) "
                 f"computes F.{kind} with eps={eps!r}; the fused op makes one pass over each row instead of one per op."),
            replacement_args=args, helpers=helper, func=f"{kind}_last_dim",
            rationale=f"{len(nodes)} ops with two reductions become one fused {kind} (eps={eps!r})",
            fallback=("x", ("float16", "bfloat16")),
        )
        if d:
            drafts.append(d)
    return drafts


def layer_norm(g: FxGraph) -> list[RuleDraft]:
    """mean / sub / pow / mean / add eps / sqrt / div [/ weight / bias] -> ``F.layer_norm``."""
    return _norm(g, "layer_norm")


def rms_norm(g: FxGraph) -> list[RuleDraft]:
    """pow / mean / add eps / rsqrt / mul [/ weight] -> ``F.rms_norm``."""
    return _norm(g, "rms_norm")


def _arg(node: FxNode, index: int, name: str, default: Any = None) -> Any:
    return node.kwargs.get(name, node.args[index] if len(node.args) > index else default)


_CONV_BN_FOLD = """
# BatchNorm in eval mode is a per-channel affine map: fold it into the conv's weight and bias.
# Half precision folds and convolves in float32 and rounds once: folded half weights would round
# each product differently from the conv-then-BatchNorm chain, beyond float16's tolerance.
out_dtype = x.dtype
if out_dtype in (torch.float16, torch.bfloat16):
    x, weight, running_mean, running_var = x.float(), weight.float(), running_mean.float(), running_var.float()
    conv_bias = None if conv_bias is None else conv_bias.float()
    bn_weight = None if bn_weight is None else bn_weight.float()
    bn_bias = None if bn_bias is None else bn_bias.float()
scale = torch.rsqrt(running_var + eps)
if bn_weight is not None:
    scale = scale * bn_weight
shift = -running_mean * scale if conv_bias is None else (conv_bias - running_mean) * scale
if bn_bias is not None:
    shift = shift + bn_bias
folded = weight * scale.reshape([-1] + [1] * (weight.dim() - 1))
return {conv}(x, folded, shift, stride, padding, dilation, groups).to(out_dtype)
"""


def conv_bn_fold(g: FxGraph) -> list[RuleDraft]:
    """``batch_norm(conv(x, w, b, ...), mean, var, gamma, beta, False, m, eps)`` -> one conv with folded w, b."""
    drafts = []
    for bn in g.calls():
        if bn.target != "torch.nn.functional.batch_norm" or _arg(bn, 5, "training", False) is not False:
            continue
        conv = g.node(bn.args[0]) if bn.args else None
        if conv is None or conv.target not in ("torch.conv1d", "torch.conv2d", "torch.conv3d") or conv.kwargs:
            continue
        if len(conv.args) != 7 or _single_user(g, conv) is not bn:
            continue
        w = g.node(conv.args[1])
        rm, rv = g.node(_arg(bn, 1, "running_mean")), g.node(_arg(bn, 2, "running_var"))
        # Folding re-associates the conv's sums: within float32's tolerance; half precision is
        # computed in float32 (see _CONV_BN_FOLD).
        floats = ("float32", "float64", "float16", "bfloat16")
        if w is None or rm is None or rv is None or w.dtype not in floats or conv.dtype != w.dtype:
            continue
        lift = {(conv.name, i): p for i, p in enumerate(["", "", "conv_bias", "stride", "padding", "dilation", "groups"]) if p}
        for i, key, p in ((3, "weight", "bn_weight"), (4, "bias", "bn_bias"), (6, "momentum", "momentum"), (7, "eps", "eps")):
            lift[(bn.name, key if key in bn.kwargs else i)] = p
        if not isinstance(conv.args[0], Ref):
            continue
        names = {conv.args[0].name: "x", w.name: "weight", rm.name: "running_mean", rv.name: "running_var"}
        pattern = emit_pattern(g, [conv.name, bn.name], [bn.name], names, lift)
        if pattern is None or len(set(names)) != 4 or set(pattern.params) != set(names.values()) | set(lift.values()):
            continue
        func = f"{conv.fn}_bn_folded"
        d = make_draft(
            "conv_bn_fold", f"Fold{camel(conv.fn)}BatchNorm", g, pattern,
            title=f"Fold an eval-mode BatchNorm into the {conv.fn} before it.",
            doc=("batch_norm(y, mean, var, gamma, beta, training=False) is y * s + t per channel with "
                 "s = gamma / sqrt(var + eps); scaling the conv weight by s and its bias to (b - mean) * s + beta "
                 "gives the same output from the conv alone, without a pass over the activation."),
            replacement_args=list(pattern.params),
            helpers=guarded(func, pattern.params, "not (weight.is_floating_point() and x.dtype == weight.dtype)",
                            "Mixed or integer dtypes: not a float BatchNorm fold.",
                            _CONV_BN_FOLD.format(conv=conv.target)), func=func,
            rationale=f"the BatchNorm pass over the {conv.fn} output disappears into a per-call weight rescale",
        )
        if d:
            drafts.append(d)
    return drafts


_LINEAR_RELU = '''
@torch.fx.wrap
def linear_relu(x, weight, bias):
    # aten._addmm_activation is GEMM + bias + ReLU in one call (cuBLASLt's fused epilogue on CUDA);
    # Inductor keeps it as one extern call instead of a GEMM and a separate pointwise kernel.
    out = torch._addmm_activation(bias, x.reshape(-1, x.shape[-1]), weight.t())
    return out.reshape(*x.shape[:-1], weight.shape[0])
'''


def linear_epilogue(g: FxGraph) -> list[RuleDraft]:
    """``relu(linear(x, w, b))`` -> ``torch._addmm_activation(b, x, w.t())``.

    Only an epilogue a GEMM call really absorbs: on an H200 under Inductor, float16
    [8192, 1024] x [1024, 4096] went from 135 to 107 us. Not the others: tanh, sigmoid or GELU
    after the GEMM compile to the same kernels as before (``_addmm_activation``'s GELU is the
    erf form on CPU but cuBLASLt's tanh form on CUDA), and folding a residual add into the
    addmm accumulator measured no faster on the GPU and 1.3-6x slower on CPU (it breaks
    Inductor's fusion of the add into the LayerNorm that usually follows). On CPU the ReLU
    fold itself can lose to Inductor's own kernels; the policy keeps a rule only if it helps.
    """
    drafts = []
    for lin in g.calls():
        if lin.target != "torch._C._nn.linear" or lin.kwargs or len(lin.args) != 3:
            continue
        x, w, b = g.node(lin.args[0]), g.node(lin.args[1]), g.node(lin.args[2])
        if x is None or w is None or b is None or w.shape is None or len(w.shape) != 2 or not x.shape:
            continue
        relu = _single_user(g, lin)
        if not _is_relu(relu) or len({x.name, w.name, b.name}) != 3:
            continue
        names = {x.name: "x", w.name: "weight", b.name: "bias"}
        pattern = emit_pattern(g, [lin.name, relu.name], [relu.name], names)  # type: ignore[union-attr]
        if pattern is None or set(pattern.params) != set(names.values()):
            continue
        d = make_draft(
            "linear_epilogue", "LinearReluEpilogue", g, pattern,
            title="Fold the ReLU after a linear into its GEMM call.",
            doc="GEMM, bias and ReLU become one aten._addmm_activation call (a fused cuBLASLt epilogue on CUDA; "
                "on CPU the ReLU runs in place on the GEMM's fresh output).",
            replacement_args=["x", "weight", "bias"], helpers=_LINEAR_RELU, func="linear_relu",
            rationale="linear + relu become one GEMM call with a fused epilogue",
        )
        if d:
            drafts.append(d)
    return drafts


def _is_relu(node: FxNode | None) -> bool:
    """An out-of-place ReLU of one tensor: ``torch.relu(y)``, ``y.relu()``, ``F.relu(y, inplace=False)``."""
    if node is None or node.fn != "relu" or not node.args:
        return False
    if node.form == "method" or node.target in ("torch.relu", "torch.nn.functional.relu"):
        return all(v is False for v in list(node.args[1:]) + list(node.kwargs.values()))
    return False


def _power_of_two(c: float) -> bool:
    """``c`` is +-2^k: multiplying by it only shifts the exponent, so it commutes with rounding."""
    return c != 0 and math.isfinite(c) and abs(math.frexp(c)[0]) == 0.5


_MATMUL_SCALED = '''
@torch.fx.wrap
def {func}(a, b):
    if {keep_if}:
        # {why}
        return pattern(a, b)
    # beta=0: the accumulator input is ignored (NaN/inf in it do not propagate), so a 0-d zero stands in.
    if a.dim() == 2:
        return torch.addmm(a.new_zeros(()), a, b, beta=0, alpha={alpha!r})
    out = torch.baddbmm(a.new_zeros(()), a.reshape(-1, a.shape[-2], a.shape[-1]),
                        b.reshape(-1, b.shape[-2], b.shape[-1]), beta=0, alpha={alpha!r})
    return out.view(*a.shape[:-2], a.shape[-2], b.shape[-1])
'''


def gemm_scale(g: FxGraph) -> list[RuleDraft]:
    """``matmul(a, b) * c`` / ``c * matmul(a, b)`` / ``matmul(a, b) / c`` (c a Python number) ->
    one ``torch.baddbmm`` (``torch.addmm`` for 2-d operands) with ``alpha`` = the scale, ``beta=0``.

    The scale rides in the GEMM's epilogue (BLAS/cuBLAS ``alpha``), so the separate pointwise
    kernel that re-reads and re-writes the whole product disappears (attention scores
    ``q @ k^T * head_dim**-0.5``). Only for operands of equal rank >= 2 and equal batch
    dimensions (no broadcasting), checked again when the replacement is compiled. A power-of-two
    scale is exact in every dtype (it commutes with rounding); any other scale rounds once instead
    of twice, within float32/float64 tolerance only, so half-precision inputs keep the original ops.
    """
    drafts = []
    outputs = g.output_names
    for node in g.calls():
        b = binary(node)
        if b is None or b[0] not in ("mul", "div"):
            continue
        op, lhs, rhs = b
        mm, c = (g.node(lhs), number(rhs)) if g.node(lhs) is not None else (g.node(rhs), number(lhs))
        if op == "div" and g.node(lhs) is None:
            continue  # c / matmul is not a scaled product
        if mm is None or c is None or c == 0 or not math.isfinite(c):
            continue
        mb = binary(mm)
        if mb is None or mb[0] != "matmul" or len(mm.users) != 1 or mm.name in outputs:
            continue
        x, y = g.node(mb[1]), g.node(mb[2])
        if x is None or y is None or x.name == y.name or not x.shape or not y.shape:
            continue
        if len(x.shape) != len(y.shape) or len(x.shape) < 2 or x.shape[:-2] != y.shape[:-2]:
            continue
        exact = _power_of_two(c)
        if mm.dtype not in (("float32", "float64", "float16", "bfloat16") if exact else ("float32", "float64")):
            continue
        alpha = 1.0 / c if op == "div" else float(c)
        pattern = emit_pattern(g, [mm.name, node.name], [node.name], {x.name: "a", y.name: "b"})
        if pattern is None or pattern.params != ("a", "b"):
            continue
        keep_if = "a.dim() != b.dim() or a.dim() < 2 or a.shape[:-2] != b.shape[:-2]"
        if not exact:
            keep_if += " or a.dtype not in (torch.float32, torch.float64)"
        func = "matmul_times_" + (f"{alpha:g}".replace("-", "neg").replace(".", "_").replace("+", ""))
        func = func if func.isidentifier() else "matmul_scaled"
        what = f"{'/' if op == 'div' else '*'} {c!r}"
        d = make_draft(
            "gemm_scale", "MatmulScaleInGemm", g, pattern,
            title=f"Carry the `{what}` after a matmul into the GEMM call as its alpha.",
            doc=(f"matmul(a, b) {what} is alpha * (a @ b) with alpha = {alpha!r}: baddbmm/addmm with beta=0 "
                 "computes it in one library call, scaling in the GEMM epilogue, instead of a GEMM followed by a "
                 "pointwise kernel over the whole product. "
                 + ("alpha is a power of two, so the result is bit-identical in every dtype."
                    if exact else "One rounding instead of two: within float32/float64 tolerance; half "
                                  "precision keeps the original ops.")),
            replacement_args=["a", "b"],
            helpers=_MATMUL_SCALED.format(func=func, keep_if=keep_if, alpha=alpha, why=(
                "Broadcast or 1-d operands: keep the original ops." if exact else
                "Broadcast or 1-d operands, or half precision (one rounding instead of two is beyond its "
                "tolerance for this scale): keep the original ops.")), func=func,
            rationale=f"the {what} pass over the matmul output becomes the GEMM's alpha (one kernel fewer)",
        )
        if d:
            drafts.append(d)
    return drafts


_GLOBAL_POOLS = ("torch.nn.functional.adaptive_avg_pool2d", "torch._C._nn.adaptive_avg_pool2d",
                 "torch.adaptive_avg_pool2d")


def global_avg_pool(g: FxGraph) -> list[RuleDraft]:
    """``F.adaptive_avg_pool2d(x, 1 | (1, 1))`` -> ``x.mean((-2, -1), keepdim=True)``.

    A global average pool is a mean over the spatial dimensions. Inductor lowers the pool as a
    windowed average (an H*W-term sum unrolled per output, or an ATen fallback for large
    windows), the mean as one reduction it can fuse with the pointwise ops before it. Both
    accumulate in float32 for half inputs and divide by H*W once: half-precision results are
    identical; float32 ones differ by summation order only.
    """
    drafts = []
    for node in g.calls():
        if node.target not in _GLOBAL_POOLS or node.form != "call":
            continue
        size = node.kwargs.get("output_size", node.args[1] if len(node.args) > 1 else None)
        if set(node.kwargs) - {"output_size"} or len(node.args) > 2 or size not in (1, (1, 1), [1, 1]):
            continue
        x = g.node(node.args[0]) if node.args else None
        if x is None or not x.shape or len(x.shape) not in (3, 4) or x.dtype not in ("float32", "float64", "float16", "bfloat16"):
            continue
        pattern = emit_pattern(g, [node.name], [node.name], {x.name: "x"})
        if pattern is None or pattern.params != ("x",):
            continue
        d = make_draft(
            "global_avg_pool", "GlobalAvgPoolAsMean", g, pattern,
            title="A global average pool is a mean over the spatial dimensions.",
            doc=("adaptive_avg_pool2d(x, (1, 1)) averages each channel's H x W plane: x.mean((-2, -1), keepdim=True) "
                 "gives the same [N, C, 1, 1] result as one reduction Inductor can fuse with the ops before it."),
            replacement_args=["x"], helpers=_SPATIAL_MEAN, func="spatial_mean",
            rationale="a windowed pooling kernel becomes one fusible mean reduction over H x W",
        )
        if d:
            drafts.append(d)
    return drafts


_SPATIAL_MEAN = '''
def spatial_mean(x):
    return x.mean((-2, -1), keepdim=True)
'''


def _mean_keepdim(g: FxGraph, node: FxNode | None) -> tuple[FxNode, int] | None:
    """``(input, dim)`` for ``x.mean(d, keepdim=True)`` / ``torch.mean(x, d, keepdim=True)`` (one int dim)."""
    if node is None or node.fn != "mean" or not (node.form == "method" or node.target == "torch.mean"):
        return None
    src = g.node(node.args[0]) if node.args else None
    if src is None or not src.shape or set(node.kwargs) - {"dim", "keepdim"} or len(node.args) > 3:
        return None
    dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
    keepdim = node.kwargs.get("keepdim", node.args[2] if len(node.args) > 2 else False)
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    ndim = len(src.shape)
    if keepdim is not True or not isinstance(dim, int) or isinstance(dim, bool) or not -ndim <= dim < ndim:
        return None
    return src, dim % ndim


def merged_mean(g: FxGraph) -> list[RuleDraft]:
    """``x.mean(a, keepdim=True).mean(b, keepdim=True)`` -> ``x.mean((a, b), keepdim=True)`` (float32/64).

    Means over equal-sized groups compose: the mean of the per-row means is the mean of all
    elements. One reduction replaces two (and the intermediate tensor). In float32 only the
    summation order changes; half precision accumulates the one reduction in float32 and rounds
    once, where the chain rounded the intermediate mean to 8/11 bits too (within the dtype's
    tolerance when the means are averages of many elements; the harness checks it).
    """
    drafts = []
    outputs = g.output_names
    for node in g.calls():
        outer = _mean_keepdim(g, node)
        if outer is None:
            continue
        inner_node, b = outer
        inner = _mean_keepdim(g, inner_node)
        if inner is None or len(inner_node.users) != 1 or inner_node.name in outputs:
            continue
        x, a = inner
        if a == b or x.dtype not in ("float32", "float64", "float16", "bfloat16"):
            continue
        pattern = emit_pattern(g, [inner_node.name, node.name], [node.name], {x.name: "x"})
        if pattern is None or pattern.params != ("x",):
            continue
        dims, ndim = tuple(sorted((a, b))), len(x.shape)
        func = f"mean_dims_{dims[0]}_{dims[1]}"
        helper = guarded(func, ("x",), f"not x.is_floating_point() or x.dim() != {ndim}",
                         "Not the float tensor of the rank the rule was written for.",
                         f"if x.dtype in {HALF}:\n"
                         f"    return x.mean({dims!r}, keepdim=True, dtype=torch.float32).to(x.dtype)\n"
                         f"return x.mean({dims!r}, keepdim=True)")
        d = make_draft(
            "merged_mean", "MergeConsecutiveMeans", g, pattern,
            title=f"Two consecutive means over dims {a} and {b} are one mean over both.",
            doc=(f"Every group has the same size, so the mean over dim {b} of the means over dim {a} is the mean over "
                 f"dims {dims}: one reduction pass instead of two and no intermediate tensor."),
            replacement_args=["x"], helpers=helper, func=func,
            rationale=f"two mean reductions (dims {a} then {b}) become one",
        )
        if d:
            drafts.append(d)
    return drafts
