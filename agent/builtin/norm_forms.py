"""Other forms of the library normalisations Inductor decomposes itself: LayerNorm and
GroupNorm with a two-pass variance, eval-mode BatchNorm as one per-channel multiply-add,
softmax with one reciprocal per row.

Inductor never sees ``F.layer_norm``, ``F.group_norm``, ``F.batch_norm`` or ``F.softmax`` as
kernels: it decomposes them (``torch/_refs/__init__.py``: ``native_layer_norm`` and
``native_group_norm`` through ``_normalize``, a ``var_mean``; ``torch/_decomp/decompositions.py``:
``native_batch_norm_helper``, ``(x - mean) * invstd * weight + bias``, and ``_softmax``,
``e / sum(e)``) and generates its own loops. These recipes hand it a different decomposition,
one that does less work per element, and the measurement decides whether Inductor's kernels
for it are faster:

* LayerNorm over the last dim (GroupNorm: over each group): ``mean(x)``, then
  ``mean((x - mean)^2)``, two plain sum reductions over a row that is still in cache, where the decomposition's ``var_mean`` is a
  Welford reduction (an update with a division per element; Welford 1962, Technometrics 4(3)).
  The two-pass variance is the textbook accurate one (Chan, Golub & LeVeque 1983, "Algorithms for
  computing the sample variance", The American Statistician 37(3)): no less accurate than Welford's.
* Eval-mode BatchNorm: ``y = x * a + c`` with ``a = weight / sqrt(var + eps)`` and
  ``c = bias - mean * a`` computed once per channel, the formula ATen's own CPU kernel uses
  (``aten/src/ATen/native/cpu/batch_norm_kernel.cpp``,
  ``batch_norm_cpu_collect_linear_and_constant_terms``), where the decomposition computes
  ``(x - mean) * invstd * weight + bias`` per element.
* Softmax: ``e = exp(x - max)``, then ``e * (1 / sum(e))``: one division per row and a multiply
  per element, where the decomposition divides every element (``e / sum(e)``). The product
  rounds twice where the quotient rounds once: at most one unit in the last place apart,
  inside float32's t = -5 (rtol 1.3e-6 is about 11 units).

Half-precision inputs are widened to float32 (exact), computed there and rounded once, as ATen's
CPU kernels do for these ops (their ``opmath`` type is float for half and bfloat16); float64
stays float64.
"""

from __future__ import annotations

from .drafts import RuleDraft, make_draft
from .emit import emit_pattern, py_src
from .fusions import guarded
from .fx_reader import FxGraph, FxNode, Ref

_FLOATS = ("float32", "float64", "float16", "bfloat16")
_ACC = "acc = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype\n"


def _call(node: FxNode, *targets: str) -> bool:
    return node.form == "call" and node.target in targets


def _distinct_refs(values: list[object]) -> bool:
    names = [v.name for v in values if isinstance(v, Ref)]
    return len(names) == len(set(names))


# --- LayerNorm: two-pass variance -----------------------------------------------------------

_LAYER_NORM = """
{acc}xf = x.to(acc)
mean = xf.mean(-1, keepdim=True)
centered = xf - mean
var = (centered * centered).mean(-1, keepdim=True)
y = centered * torch.rsqrt(var + eps){affine}
return y.to(x.dtype)
"""


def layer_norm_two_pass(g: FxGraph) -> list[RuleDraft]:
    """``F.layer_norm(x, (K,), weight, bias, eps)`` -> two-pass mean and variance, then the affine.

    ``x``: [..., K], any float dtype; ``weight``, ``bias``: [K] of x's dtype, or None (each
    independently). The normalized shape and eps are lifted into the pattern, so one rule serves
    every K and eps of the task. Other normalized shapes keep the original op.
    """
    drafts = []
    for ln in g.calls():
        if not _call(ln, "torch.nn.functional.layer_norm", "torch.layer_norm") or ln.kwargs or len(ln.args) != 5:
            continue
        x_ref, shape, w_ref, b_ref, eps = ln.args
        x = g.node(x_ref)
        if x is None or not x.shape or x.dtype not in _FLOATS or not isinstance(eps, float):
            continue
        if not isinstance(shape, (list, tuple)) or len(shape) != 1 or shape[0] != x.shape[-1]:
            continue
        affine = {"weight": w_ref, "bias": b_ref}
        if any(v is not None and (g.node(v) is None or g.node(v).shape != [x.shape[-1]] or g.node(v).dtype != x.dtype)
               for v in affine.values()):
            continue
        if not _distinct_refs([x_ref, w_ref, b_ref]):
            continue
        names = {x.name: "x"} | {v.name: k for k, v in affine.items() if isinstance(v, Ref)}
        lift = {(ln.name, 1): "normalized_shape", (ln.name, 4): "eps"}
        pattern = emit_pattern(g, [ln.name], [ln.name], names, lift)
        if pattern is None or set(pattern.params) != set(names.values()) | {"normalized_shape", "eps"}:
            continue
        present = [k for k, v in affine.items() if isinstance(v, Ref)]
        keep_if = ("len(normalized_shape) != 1 or x.dim() == 0 or normalized_shape[0] != x.shape[-1] "
                   "or not x.is_floating_point()"
                   + "".join(f" or {k}.shape != x.shape[-1:] or {k}.dtype != x.dtype" for k in present))
        scale = " * weight.to(acc)" if "weight" in present else ""
        shift = " + bias.to(acc)" if "bias" in present else ""
        helper = guarded("layer_norm_two_pass", pattern.params, keep_if,
                         "Not a last-dim LayerNorm with affine of x's dtype: not what the rule was written for.",
                         _LAYER_NORM.format(acc=_ACC, affine=scale + shift))
        d = make_draft(
            "layer_norm_two_pass", "LayerNormTwoPassVariance", g, pattern,
            title="LayerNorm over the last dim with a two-pass variance: mean, then mean of squared deviations.",
            doc=("Two sum reductions over the row (mean, then the mean of (x - mean)^2; Chan, Golub & LeVeque 1983) "
                 "replace the Welford var_mean Inductor's decomposition of native_layer_norm reduces with; the "
                 "normalisation and affine are the same. Half precision is computed in float32 and rounded once, as "
                 "ATen's CPU LayerNorm does."),
            replacement_args=list(pattern.params), helpers=helper, func="layer_norm_two_pass",
            rationale=("LayerNorm's Welford var_mean (a division per element) becomes two plain sum reductions "
                       "over a row in cache"),
        )
        if d:
            drafts.append(d)
    return drafts


# --- GroupNorm: two-pass variance per group ------------------------------------------------

_GROUP_NORM = """
{acc}xf = x.to(acc).reshape(x.shape[0], num_groups, -1)
mean = xf.mean(-1, keepdim=True)
centered = xf - mean
var = (centered * centered).mean(-1, keepdim=True)
y = (centered * torch.rsqrt(var + eps)).reshape(x.shape)
shape = [1, -1] + [1] * (x.dim() - 2)
y = {affine}
return y.to(x.dtype)
"""


def group_norm_two_pass(g: FxGraph) -> list[RuleDraft]:
    """``F.group_norm(x, G, weight, bias, eps)`` -> per group: mean, then mean of squared deviations.

    ``x``: [N, C, ...] with C divisible by G, any float dtype; ``weight``, ``bias``: [C] or None.
    ``G`` and ``eps`` are lifted into the pattern (one rule for every group count of the task).
    Same rationale as :func:`layer_norm_two_pass`: Inductor's decomposition of
    ``native_group_norm`` reduces each group with a Welford ``var_mean``.
    """
    drafts = []
    for gn in g.calls():
        if not _call(gn, "torch.nn.functional.group_norm", "torch.group_norm") or gn.kwargs or len(gn.args) != 5:
            continue
        x_ref, groups, w_ref, b_ref, eps = gn.args
        x = g.node(x_ref)
        if x is None or not x.shape or len(x.shape) < 2 or x.dtype not in _FLOATS or not isinstance(eps, float):
            continue
        if not isinstance(groups, int) or isinstance(groups, bool) or groups < 1 or x.shape[1] % groups:
            continue
        affine = {"weight": w_ref, "bias": b_ref}
        if any(v is not None and (g.node(v) is None or g.node(v).shape != [x.shape[1]]) for v in affine.values()):
            continue
        if not _distinct_refs([x_ref, w_ref, b_ref]):
            continue
        names = {x.name: "x"} | {v.name: k for k, v in affine.items() if isinstance(v, Ref)}
        lift = {(gn.name, 1): "num_groups", (gn.name, 4): "eps"}
        pattern = emit_pattern(g, [gn.name], [gn.name], names, lift)
        if pattern is None or set(pattern.params) != set(names.values()) | {"num_groups", "eps"}:
            continue
        present = [k for k, v in affine.items() if isinstance(v, Ref)]
        keep_if = ("x.dim() < 2 or not x.is_floating_point() or x.shape[1] % num_groups != 0"
                   + "".join(f" or {k}.shape != x.shape[1:2]" for k in present))
        expr = "y"
        if "weight" in present:
            expr += " * weight.to(acc).view(shape)"
        if "bias" in present:
            expr += " + bias.to(acc).view(shape)"
        helper = guarded("group_norm_two_pass", pattern.params, keep_if,
                         "Not [N, C, ...] with C divisible by the group count: not what the rule was written for.",
                         _GROUP_NORM.format(acc=_ACC, affine=expr))
        d = make_draft(
            "group_norm_two_pass", "GroupNormTwoPassVariance", g, pattern,
            title="GroupNorm with a two-pass variance per group: mean, then mean of squared deviations.",
            doc=("Two sum reductions per group (mean, then the mean of (x - mean)^2; Chan, Golub & LeVeque 1983) "
                 "replace the Welford var_mean of Inductor's decomposition of native_group_norm; the normalisation "
                 "and per-channel affine are the same. Half precision is computed in float32 and rounded once, as "
                 "ATen's CPU GroupNorm does."),
            replacement_args=list(pattern.params), helpers=helper, func="group_norm_two_pass",
            rationale="GroupNorm's Welford var_mean becomes two plain sum reductions per group",
        )
        if d:
            drafts.append(d)
    return drafts


# --- eval-mode BatchNorm: one multiply-add per element --------------------------------------

_BATCH_NORM = """
{acc}# Per channel, once: a = weight / sqrt(var + eps), c = bias - mean * a (ATen's CPU BatchNorm).
a = torch.rsqrt(running_var.to(acc) + eps){weight}
c = {bias}- running_mean.to(acc) * a
shape = [1, -1] + [1] * (x.dim() - 2)
return torch.addcmul(c.view(shape), x.to(acc), a.view(shape)).to(x.dtype)
"""


def batch_norm_affine(g: FxGraph) -> list[RuleDraft]:
    """Eval-mode ``F.batch_norm(x, mean, var, weight, bias, False, momentum, eps)`` -> ``x * a + c``
    with per-channel ``a`` and ``c``.

    ``x``: [N, C, ...] of a float dtype; ``mean``, ``var``: [C]; ``weight``, ``bias``: [C] or None.
    ``momentum`` (unused in eval mode) and ``eps`` are lifted into the pattern. Training mode
    (batch statistics) is not matched: ``training`` stays the literal ``False`` in the pattern.
    """
    drafts = []
    for bn in g.calls():
        if not _call(bn, "torch.nn.functional.batch_norm", "torch.batch_norm") or bn.kwargs or len(bn.args) != 8:
            continue
        x_ref, mean_ref, var_ref, w_ref, b_ref, training, _momentum, eps = bn.args
        x = g.node(x_ref)
        if training is not False or x is None or not x.shape or len(x.shape) < 2 or x.dtype not in _FLOATS:
            continue
        stats = {"running_mean": mean_ref, "running_var": var_ref}
        affine = {"weight": w_ref, "bias": b_ref}
        c = x.shape[1]
        if any(g.node(v) is None or g.node(v).shape != [c] for v in stats.values()):
            continue
        if any(v is not None and (g.node(v) is None or g.node(v).shape != [c]) for v in affine.values()):
            continue
        if not isinstance(eps, float) or not _distinct_refs([x_ref, mean_ref, var_ref, w_ref, b_ref]):
            continue
        names = {x.name: "x"} | {v.name: k for k, v in (stats | affine).items() if isinstance(v, Ref)}
        lift = {(bn.name, 6): "momentum", (bn.name, 7): "eps"}
        pattern = emit_pattern(g, [bn.name], [bn.name], names, lift)
        if pattern is None or set(pattern.params) != set(names.values()) | {"momentum", "eps"}:
            continue
        present = [k for k, v in (stats | affine).items() if isinstance(v, Ref)]
        keep_if = ("x.dim() < 2 or not x.is_floating_point()"
                   + "".join(f" or {k}.shape != x.shape[1:2]" for k in present))
        body = _BATCH_NORM.format(acc=_ACC, weight=" * weight.to(acc)" if "weight" in present else "",
                                  bias="bias.to(acc) " if "bias" in present else "")
        helper = guarded("batch_norm_affine", pattern.params, keep_if,
                         "Not [N, C, ...] with per-channel statistics: not what the rule was written for.", body)
        d = make_draft(
            "batch_norm_affine", "BatchNormAsChannelAffine", g, pattern,
            title="Eval-mode BatchNorm as one multiply-add per element: x * a + c, a and c per channel.",
            doc=("a = weight / sqrt(running_var + eps) and c = bias - running_mean * a are computed once per channel, "
                 "as ATen's CPU kernel does (batch_norm_cpu_collect_linear_and_constant_terms), instead of "
                 "(x - mean) * rsqrt(var + eps) * weight + bias per element. Half precision is computed in float32 "
                 "and rounded once."),
            replacement_args=list(pattern.params), helpers=helper, func="batch_norm_affine",
            rationale="eval BatchNorm's four per-element ops become one multiply-add with per-channel constants",
        )
        if d:
            drafts.append(d)
    return drafts


# --- softmax: one reciprocal per row --------------------------------------------------------

_SOFTMAX = """
{acc}xf = x.to(acc)
e = torch.exp(xf - torch.amax(xf, dim, keepdim=True))
return (e * torch.reciprocal(e.sum(dim, keepdim=True))).to({out})
"""


def softmax_reciprocal(g: FxGraph) -> list[RuleDraft]:
    """``softmax(x, dim[, dtype=])`` -> ``e * (1 / sum(e))`` with ``e = exp(x - max(x))``.

    ``x``: any shape and float dtype; ``dim`` is lifted into the pattern; a ``dtype=`` argument
    (the result's dtype, ``torch.float32`` for a half input) is kept as written. Only a softmax
    whose probabilities are not multiplied into a GEMM right away (that fragment has its own
    recipes: SDPA, deferred normalisation).
    """
    drafts = []
    for sm in g.calls():
        if sm.fn != "softmax" or sm.form not in ("call", "method"):
            continue
        args = list(sm.args[1:])  # the input is args[0] in both the function and the method form
        x = g.node(sm.args[0]) if sm.args else None
        if x is None or not x.shape or x.dtype not in _FLOATS:
            continue
        kwargs = dict(sm.kwargs)
        kwargs.pop("_stacklevel", None)
        dim_key: int | str | None = 1 if args else ("dim" if "dim" in kwargs else None)
        dim = args[0] if args else kwargs.get("dim")
        out_dtype = kwargs.get("dtype")
        if dim_key is None or not isinstance(dim, int) or set(kwargs) - {"dim", "dtype"} or len(args) > 1:
            continue
        if any(g[u].fn in ("matmul", "bmm") for u in sm.users):
            continue
        pattern = emit_pattern(g, [sm.name], [sm.name], {x.name: "x"}, {(sm.name, dim_key): "dim"})
        if pattern is None or set(pattern.params) != {"x", "dim"}:
            continue
        out = "x.dtype" if out_dtype is None else py_src(out_dtype, {})
        helper = guarded("softmax_reciprocal", pattern.params, "not x.is_floating_point() or x.dim() == 0",
                         "Not a float tensor: not what the rule was written for.",
                         _SOFTMAX.format(acc=_ACC, out=out))
        d = make_draft(
            "softmax_reciprocal", "SoftmaxRowReciprocal", g, pattern,
            title="Softmax with one reciprocal per row: exp(x - max) * (1 / sum).",
            doc=("The row sum is inverted once and every element multiplied by it, where the decomposition Inductor "
                 "compiles divides every element by the sum; the two differ by at most one unit in the last place. "
                 "Half precision is computed in float32 and rounded once, as ATen's CPU softmax does."),
            replacement_args=list(pattern.params), helpers=helper, func="softmax_reciprocal",
            rationale="softmax's per-element division becomes one reciprocal per row and a multiply per element",
        )
        if d:
            drafts.append(d)
    return drafts
