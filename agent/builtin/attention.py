"""Softmax attention written out op by op -> ``F.scaled_dot_product_attention``.

Models spell it many ways: ``torch.matmul`` or ``@``, the key transposed with ``transpose(-1, -2)``
or ``permute``, the scale as ``/ sqrt(d)`` or ``* d**-0.5`` (or already folded into q), an
additive mask before the softmax, an eval-mode dropout after it. The recipe walks back from the
final matmul through those steps and writes the pattern from the graph's own nodes, with the
scale and dropout ``p`` as pattern inputs so that sibling subgraphs with another head size match.
"""

from __future__ import annotations

from typing import Any

from .algebra import binary, dims_perm, dropout_training, number
from .drafts import RuleDraft, make_draft
from .emit import emit_pattern
from .fusions import guarded
from .fx_reader import FxGraph, FxNode, Ref


def _softmax_input(g: FxGraph, node: FxNode | None) -> Any:
    """The input of a softmax over the last dim with no dtype argument, else None."""
    if node is None or node.fn != "softmax" or not node.args:
        return None
    if node.form == "call" and node.target == "torch.nn.functional.softmax":
        dtype_at = 3
    elif node.form == "call" and node.target in ("torch.softmax", "torch.special.softmax") or node.form == "method":
        dtype_at = 2
    else:
        return None
    args, kwargs = node.args, node.kwargs
    src = g.node(args[0])
    if src is None or src.shape is None or set(kwargs) - {"dim", "_stacklevel", "dtype"}:
        return None
    dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
    dtype = kwargs.get("dtype", args[dtype_at] if len(args) > dtype_at else None)
    if dtype is not None or dim not in (-1, len(src.shape) - 1) or isinstance(dim, bool):
        return None
    return args[0]


def _scaled_scores(g: FxGraph, ref: Any) -> tuple[Any, Any, str, tuple[str, int] | None, set[str]] | None:
    """``(q, k, scale kind, (node, literal index), nodes)`` for ``q @ k.transpose(-1, -2) [/ or *] c``."""
    node = g.node(ref)
    b = binary(node)
    nodes: set[str] = set()
    kind, lift = "none", None
    if b and b[0] in ("div", "mul") and number(b[2]) is not None:
        kind, lift, ref = ("div" if b[0] == "div" else "mul"), (node.name, 1), b[1]  # type: ignore[union-attr]
    elif b and b[0] == "mul" and number(b[1]) is not None:
        kind, lift, ref = "mul", (node.name, 0), b[2]  # type: ignore[union-attr]
    if lift:
        nodes.add(node.name)  # type: ignore[union-attr]
    mm = g.node(ref)
    bm = binary(mm)
    if bm is None or bm[0] != "matmul":
        return None
    kt = g.node(bm[2])
    k = g.node(kt.args[0]) if kt is not None and kt.args else None
    if k is None or k.shape is None or len(k.shape) < 3:
        return None
    nd = len(k.shape)
    if dims_perm(kt, nd) != list(range(nd - 2)) + [nd - 1, nd - 2]:  # type: ignore[arg-type]
        return None
    nodes |= {mm.name, kt.name}  # type: ignore[union-attr]
    return bm[1], Ref(k.name), kind, lift, nodes


def softmax_times(g: FxGraph, out: FxNode) -> tuple[FxNode, Ref, Ref, set[str], dict[Any, str]] | None:
    """``out = softmax(s, -1) [eval dropout] @ v``: ``(probs, s, v, nodes, lift)``, where
    ``probs`` is the softmax node, ``s`` and ``v`` the references to its input and to the values,
    ``nodes`` the matched nodes (``out``, the dropout if any, the softmax) and ``lift`` the
    dropout's ``p`` as a pattern parameter (positional or keyword); None if ``out`` is not that."""
    b = binary(out)
    if b is None or b[0] != "matmul":
        return None
    nodes, lift = {out.name}, {}
    probs = g.node(b[1])
    if probs is not None and probs.fn == "dropout" and dropout_training(probs) is False:
        nodes.add(probs.name)
        if len(probs.args) > 1:
            lift[(probs.name, 1)] = "p"
        elif "p" in probs.kwargs:
            lift[(probs.name, "p")] = "p"
        probs = g.node(probs.args[0])
    s_ref = _softmax_input(g, probs)
    if s_ref is None or probs is None:
        return None
    nodes.add(probs.name)
    return probs, s_ref, b[2], nodes, lift


def attention(g: FxGraph) -> list[RuleDraft]:
    """``softmax(q @ k^T * scale [+ mask], -1) [eval dropout] @ v`` -> ``F.scaled_dot_product_attention``."""
    drafts = []
    for out in g.calls():
        found_probs = softmax_times(g, out)
        if found_probs is None:
            continue
        probs, s_ref, v_ref, nodes, lift = found_probs
        s_node = g.node(s_ref)
        sb = binary(s_node)
        tries = [(sb[1], sb[2]), (sb[2], sb[1])] if sb and sb[0] == "add" else []
        found = None
        for scores, mask in tries + [(s_ref, None)]:
            if mask is not None and g.node(mask) is None:
                continue
            found = _scaled_scores(g, scores)
            if found:
                if mask is not None:
                    nodes.add(s_node.name)  # type: ignore[union-attr]
                break
        if not found:
            continue
        q_ref, k_ref, kind, scale_lift, inner = found
        nodes |= inner
        q, k, v, m = g.node(q_ref), g.node(k_ref), g.node(v_ref), g.node(mask) if mask is not None else None
        if not _attention_shapes_ok(q, k, v, m):
            continue
        if any(not set(g[n].users) <= nodes or n in g.output_names for n in nodes - {out.name}):
            continue
        names: dict[str, str] = {}
        for role, n in (("q", q), ("k", k), ("v", v), ("mask", m)):
            if n is not None:
                names.setdefault(n.name, role)
        if scale_lift:
            lift[scale_lift] = "scale_arg"
        pattern = emit_pattern(g, nodes, [out.name], names, lift)
        if pattern is None or set(pattern.params) - {"p", "scale_arg"} != set(names.values()):
            continue
        scale = {"div": "1.0 / scale_arg", "mul": "scale_arg"}.get(kind, "1.0")
        keep_if = ("q.dtype == torch.float16" + (" or not isinstance(scale_arg, (int, float))" if scale_lift else ""))
        helper = guarded("attention_sdpa", pattern.params, keep_if,
                         "A tensor scale, or float16 (whose rounded score matrix the fused kernel does not reproduce).",
                         "return torch.nn.functional.scaled_dot_product_attention(\n"
                         f"    {names[q.name]}, {names[k.name]}, {names[v.name]}, "  # type: ignore[union-attr]
                         f"attn_mask={names[m.name] if m else 'None'}, dropout_p=0.0, scale={scale})")
        args = list(pattern.params)
        d = make_draft(
            "sdpa_attention", "AttentionToSdpa", g, pattern,
            title="Softmax attention written out is F.scaled_dot_product_attention.",
            doc=("softmax(q @ k^T scaled" + (" + mask" if m else "") + ", dim=-1) @ v, with eval-mode dropout if any, "
                 "is one fused attention call that never materialises the score matrix in full. The scale is a "
                 "pattern input, so subgraphs with another head size match too."),
            replacement_args=args, helpers=helper, func="attention_sdpa",
            rationale="matmul, scale, mask, softmax and matmul become one fused attention kernel (no full score matrix)",
            fallback=("q", ("float16",)),
        )
        if d:
            drafts.append(d)
    return drafts


def _attention_shapes_ok(q: FxNode | None, k: FxNode | None, v: FxNode | None, m: FxNode | None) -> bool:
    if q is None or k is None or v is None or None in (q.shape, k.shape, v.shape):
        return False
    # float16 attention rounds the score matrix differently from the fused kernel (beyond rtol 1e-3).
    if not q.dtype == k.dtype == v.dtype or q.dtype not in ("float32", "float64", "bfloat16"):
        return False
    qs, ks, vs = q.shape, k.shape, v.shape  # type: ignore[union-attr]
    if not len(qs) == len(ks) == len(vs) or len(qs) < 3 or not qs[:-2] == ks[:-2] == vs[:-2]:
        return False
    if qs[-1] != ks[-1] or ks[-2] != vs[-2]:
        return False
    return m is None or (m.shape is not None and len(m.shape) <= len(qs) and m.dtype == q.dtype)


_SDPA_MATH = """
acc = torch.float32 if q.dtype in (torch.float16, torch.bfloat16) else q.dtype
scores = torch.matmul(q.to(acc), k.to(acc).transpose(-2, -1))
scores = scores * (q.shape[-1] ** -0.5 if scale is None else scale){mask}
return torch.matmul(torch.softmax(scores, -1), v.to(acc)).to(q.dtype)
"""
_BOOL_MASK = """
if attn_mask.dtype == torch.bool:
    scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
else:
    scores = scores + attn_mask.to(acc)"""


def sdpa_math(g: FxGraph) -> list[RuleDraft]:
    """``F.scaled_dot_product_attention(q, k, v, attn_mask=m, dropout_p=0.0, scale=c, is_causal=False)``
    -> ``softmax(q @ k^T * c + m) @ v`` written out, in float32 for half inputs.

    ``q``: [..., L, E], ``k``: [..., S, E], ``v``: [..., S, Ev] of one float dtype; ``m``: a bool or
    float mask broadcastable to [..., L, S], or None. ``scale`` is lifted into the pattern (any
    head size matches). Dropout and ``is_causal`` stay literals: only inference attention matches.
    On the CPU, eager and Inductor run ATen's flash-attention kernel, a blocked loop with an
    online softmax (Dao et al. 2022, arXiv 2205.14135); for the short sequences of these models
    the [L, S] score matrix fits in cache, and the written-out form lets Inductor run two
    batched BLAS GEMMs around one fused softmax kernel. Half precision runs in float32 (exactly
    widened operands) and rounds once: on a CPU without float16 dot products that is the fast
    GEMM. The formula is SDPA's documented reference implementation
    (``torch.nn.functional.scaled_dot_product_attention``).
    """
    drafts = []
    for node in g.calls():
        if node.fn != "scaled_dot_product_attention" or node.form != "call" or len(node.args) != 3:
            continue
        if set(node.kwargs) - {"attn_mask", "dropout_p", "scale", "is_causal"}:
            continue
        if node.kwargs.get("dropout_p", 0.0) != 0.0 or node.kwargs.get("is_causal", False) is not False:
            continue
        q, k, v = (g.node(a) for a in node.args)
        mask = node.kwargs.get("attn_mask")
        m = g.node(mask)
        if q is None or k is None or v is None or None in (q.shape, k.shape, v.shape) or (mask is not None and m is None):
            continue
        if not q.dtype == k.dtype == v.dtype or q.dtype not in ("float32", "float64", "float16", "bfloat16"):
            continue
        if len({q.name, k.name, v.name} | ({m.name} if m else set())) != 3 + (m is not None):
            continue
        if len(q.shape) < 3 or q.shape[:-2] != k.shape[:-2] or k.shape[-2] != v.shape[-2] or q.shape[-1] != k.shape[-1]:
            continue  # grouped-query or broadcast batch dims: not the plain form
        names = {q.name: "q", k.name: "k", v.name: "v"} | ({m.name: "attn_mask"} if m else {})
        lift = {(node.name, "scale"): "scale"} if "scale" in node.kwargs else {}
        pattern = emit_pattern(g, [node.name], [node.name], names, lift)
        if pattern is None or set(pattern.params) != set(names.values()) | set(lift.values()):
            continue
        body = _SDPA_MATH.format(mask=_BOOL_MASK if m else "")
        helper = guarded("sdpa_math", tuple(pattern.params), "q.dim() < 3 or not q.is_floating_point()",
                         "Not batched float attention: not what the rule was written for.",
                         body if lift else "scale = None\n" + body)
        d = make_draft(
            "sdpa_math", "SdpaWrittenOut", g, pattern,
            title="Scaled dot-product attention written out: softmax(q @ k^T * scale [+ mask]) @ v.",
            doc=("Two batched GEMMs around a softmax Inductor fuses, instead of ATen's blocked flash-attention "
                 "kernel; the score matrix of a short sequence fits in cache. Half precision runs in float32 over "
                 "the exactly widened operands and rounds once."),
            replacement_args=list(pattern.params), helpers=helper, func="sdpa_math",
            rationale=("the flash-attention call becomes two BLAS GEMMs and one fused softmax kernel (float32 for "
                       "half inputs, which CPUs without native float16 dot products run far faster)"),
        )
        if d:
            drafts.append(d)
    return drafts
