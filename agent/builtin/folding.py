"""Simplifications of no-op arithmetic and shape calls: scalar identities and identity reshapes.

``x * 1``, ``x / 1``, ``x + 0``, ``x - 0``, ``x ** 1`` of a floating-point tensor, and
``x.view(shape)`` / ``x.reshape(shape)`` to the shape x already has, return x's values
unchanged (IEEE 754: multiplying or dividing by one and adding zero are exact; x + 0.0 maps
-0.0 to +0.0, which compares equal). Tracing to ATen keeps them (``aten.mul.Tensor(x, 1.0)``,
``aten.view``), so removing them changes the graph Inductor receives; Inductor removes most of
them itself after lowering (``torch/_inductor/fx_passes``: ``remove_no_ops``,
``remove_noop_ops``), so alone they are expected to score about as Inductor does.
"""

from __future__ import annotations

from .drafts import RuleDraft, make_draft
from .emit import emit_pattern
from .fx_reader import FxGraph, FxNode, Ref

_IDENTITY = '''
@torch.fx.wrap
def identity(x):
    return x
'''
_FLOAT = {"float32", "float16", "bfloat16", "float64"}
# fn -> (the neutral scalar, whether it may stand on the left)
_NEUTRAL = {"mul": (1, True), "truediv": (1, False), "div": (1, False), "add": (0, True), "sub": (0, False), "pow": (1, False)}


def _same_tensor(g: FxGraph, node: FxNode, x: Ref) -> bool:
    src = g[x.name]
    return (src.dtype in _FLOAT and src.dtype == node.dtype and isinstance(src.shape, list)
            and src.shape == node.shape and node.name not in g.output_names)


def _draft(g: FxGraph, node: FxNode, x: Ref, recipe: str, rule: str, title: str, rationale: str) -> RuleDraft | None:
    pattern = emit_pattern(g, [node.name], [node.name], {x.name: "x"})
    return make_draft(recipe, rule, g, pattern, title=title,
                      doc=("The result equals x: same values, dtype and shape. The node is not returned, so no "
                           "output aliases an input."),
                      replacement_args=["x"], helpers=_IDENTITY, func="identity", rationale=rationale)


def scalar_identity(g: FxGraph) -> list[RuleDraft]:
    """``x * 1``, ``1 * x``, ``x / 1``, ``x + 0``, ``0 + x``, ``x - 0``, ``x ** 1`` -> x, for a float tensor x."""
    drafts = []
    for node in g.calls():
        if node.fn not in _NEUTRAL or node.kwargs or len(node.args) != 2 or node.form not in ("binop", "call", "method"):
            continue
        neutral, either = _NEUTRAL[node.fn]
        a, b = node.args
        if isinstance(a, Ref) and not isinstance(b, (Ref, bool)) and b == neutral:
            x = a
        elif either and isinstance(b, Ref) and not isinstance(a, (Ref, bool)) and a == neutral:
            x = b
        else:
            continue
        if not _same_tensor(g, node, x):
            continue
        d = _draft(g, node, x, "scalar_identity", "FoldScalarIdentity",
                   f"`{node.fn}` by its neutral scalar {neutral!r} returns x: drop it.",
                   f"removes an elementwise {node.fn} by {neutral!r} (exact in floating point)")
        if d:
            drafts.append(d)
    return drafts


def identity_reshape(g: FxGraph) -> list[RuleDraft]:
    """``x.view(s)`` / ``x.reshape(s)`` / ``torch.reshape(x, s)`` to the shape x already has -> x."""
    drafts = []
    for node in g.calls():
        if node.fn not in ("view", "reshape") or node.kwargs or not node.args or not isinstance(node.args[0], Ref):
            continue
        sizes = node.args[1:]
        flat = sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)) else sizes
        if not flat or not all(isinstance(s, int) and not isinstance(s, bool) for s in flat):
            continue  # a dtype view, or sizes read from the graph
        if not _same_tensor(g, node, node.args[0]):
            continue
        d = _draft(g, node, node.args[0], "identity_reshape", "DropIdentityReshape",
                   f"`{node.fn}` to the shape the tensor already has returns it: drop it.",
                   f"removes a {node.fn} that keeps the shape")
        if d:
            drafts.append(d)
    return drafts
