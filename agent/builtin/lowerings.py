"""Other lowerings of one op, for graphs that are nothing but that op: a ReLU as a compare and
select, a concatenation written as padded inputs added together; and, as last resorts for tasks
no other form applies to, a negation as a multiply by -1, the exact GELU written out with
``erf``, and an embedding lookup as an indexed gather.

A lone ReLU or ``cat`` leaves a pass no fragment to fuse; what is left is to lower the op
another way and let the measurement decide. Both forms compute exactly the op's values:

* ``relu(x)`` = ``where(x < 0, 0, x)``: zero exactly where x is negative, x elsewhere, NaN kept
  (a NaN compares false; ``-0.0`` stays ``-0.0``, which compares equal to ReLU's ``0.0``). Inductor
  lowers it as a vector compare and blend instead of ATen's ``relu`` (a vector max with 0).
  Measured on the 2-core CPU (``passagent eval task_113``): about Inductor's speed, no faster; a
  sign-bit form (an integer compare of the raw bits, ``x.view(int16)``) was 2-10x slower in half
  precision, where Inductor's CPU kernels do not vectorise the bitcast, so it is not proposed.
* ``cat((a, b), d)`` = ``pad(a, (0, len_b) on d) + pad(b, (len_a, 0) on d)``: every output element
  is one input element plus a padding zero, and ``x + 0.0 == x`` for every float x (``-0.0``
  becomes ``+0.0``, which compares equal; IEEE 754-2019 6.3). Inductor lowers the padded sum as one
  pointwise kernel with masked loads, where on the CPU it lowers ``cat`` of graph inputs as a copy
  per input into slices of the output (measured on task_095: 1.06-1.13x Inductor per subgraph).

The last resorts (``Recipe.last_resort``: proposed only where no other ATen-changing form
applies to the task) lower an op that Inductor lowers to the same loop either way, so expect
parity; they exist so that the policy measures something on every task and says how it fared:

* ``-x`` = ``x * -1``: exact in every float and integer dtype (the sign flips, zeros and
  infinities included; a NaN stays NaN, its sign bit, which no comparison reads, not flipped;
  integer ``INT_MIN`` wraps in both).
* ``gelu(x)`` = ``0.5 * x * (1 + erf(x / sqrt(2)))`` (Hendrycks and Gimpel, "Gaussian Error Linear
  Units", arXiv 1606.08415, Eq. 1's exact form), in float32 for half precision and rounded once,
  as ATen's CPU kernel computes it (``aten/src/ATen/native/cpu/Activation.cpp``, ``GeluKernelImpl``:
  opmath float for Half/BFloat16).
* ``embedding(idx, W)`` = ``W[idx]`` without ``max_norm`` (which renormalises rows of ``W`` in
  place): the same rows gathered, exactly (``padding_idx`` only changes the gradient).
"""

from __future__ import annotations

from .cleanup import _cat_dim_lift
from .drafts import RuleDraft, make_draft
from .emit import emit_pattern
from .fusions import _is_relu, guarded
from .fx_reader import FxGraph, Ref

_FLOATS = ("float32", "float64", "float16", "bfloat16")
_SIGNED_INTS = ("int8", "int16", "int32", "int64")


def relu_select(g: FxGraph) -> list[RuleDraft]:
    """``relu(x)`` (function, method or ``F.relu(inplace=False)``) -> ``where(x < 0, 0, x)``, for a
    graph that is one ReLU of a graph input.

    ``x``: any shape, float16/bfloat16/float32/float64. Only a lone ReLU: after another op,
    Inductor fuses the ReLU into that op's kernel, where both forms cost the same and the
    evaluation would be spent for nothing.
    """
    drafts = []
    calls = g.calls()
    for node in calls:
        if not _is_relu(node) or not isinstance(node.args[0], Ref) or len(calls) != 1:
            continue
        x = g.node(node.args[0])
        if x is None or x.op != "placeholder" or x.dtype not in _FLOATS:
            continue
        pattern = emit_pattern(g, [node.name], [node.name], {x.name: "x"})
        if pattern is None or pattern.params != ("x",):
            continue
        d = make_draft(
            "relu_select", "ReluAsSelect", g, pattern,
            title="ReLU as a compare and select: where(x < 0, 0, x).",
            doc=("Zero exactly where x is negative and x elsewhere, NaN kept (a NaN compares false): ReLU's values. "
                 "Inductor lowers it as a vector compare and blend instead of a vector max with zero."),
            replacement_args=["x"], helpers=_RELU_SELECT, func="relu_by_select",
            rationale="ReLU's max with zero becomes a compare and select (another lowering of the same op)",
        )
        if d:
            drafts.append(d)
    return drafts


_RELU_SELECT = '''
def relu_by_select(x):
    return torch.where(x < 0, 0.0, x)
'''


def cat_padded_sum(g: FxGraph) -> list[RuleDraft]:
    """``torch.cat((a, b), dim)`` -> ``pad(a, ..) + pad(b, ..)`` for two float graph inputs of one dtype and rank.

    Only where both are graph inputs. On the CPU Inductor always lowers ``cat`` as a
    ``ConcatKernel`` (its pointwise form is switched off there: ``torch/_inductor/lowering.py``,
    ``cat``), which writes computed inputs straight into their slices of the output but has to
    copy graph inputs; the padded sum is a pointwise kernel with masked loads in their place.
    """
    drafts = []
    for node in g.calls():
        if node.target not in ("torch.cat", "torch.concat", "torch.concatenate") or node.form != "call":
            continue
        tensors = node.args[0] if node.args else node.kwargs.get("tensors")
        if not isinstance(tensors, (list, tuple)) or len(tensors) != 2 or not all(isinstance(t, Ref) for t in tensors):
            continue
        a, b = g.node(tensors[0]), g.node(tensors[1])
        if a is None or b is None or a.name == b.name or not a.shape or not b.shape:
            continue
        if a.dtype not in _FLOATS or b.dtype != a.dtype or len(a.shape) != len(b.shape):
            continue
        if a.op != "placeholder" or b.op != "placeholder":
            continue
        pattern = emit_pattern(g, [node.name], [node.name], {a.name: "a", b.name: "b"}, _cat_dim_lift(node))
        if pattern is None or set(pattern.params) - {"dim"} != {"a", "b"}:
            continue
        dim = "dim" if "dim" in pattern.params else "0"
        helper = guarded("cat_as_padded_sum", pattern.params,
                         "a.dtype != b.dtype or a.dim() != b.dim() or a.dim() == 0 or not a.is_floating_point()",
                         "Not two float tensors of one dtype and rank.",
                         f"d = {dim} % a.dim()\n"
                         "# F.pad lists (before, after) pairs from the last dim backwards.\n"
                         "tail = [0, 0] * (a.dim() - 1 - d)\n"
                         "return (torch.nn.functional.pad(a, tail + [0, b.shape[d]])\n"
                         "        + torch.nn.functional.pad(b, tail + [a.shape[d], 0]))")
        d = make_draft(
            "cat_padded_sum", "CatAsPaddedSum", g, pattern,
            title="A two-tensor cat as the sum of the two inputs zero-padded to the output's shape.",
            doc=("Each output element is one input element plus a padding zero, and x + 0.0 == x for every float "
                 "(-0.0 becomes +0.0, which compares equal). Inductor lowers the padded sum as one pointwise kernel "
                 "with masked loads instead of a copy per input."),
            replacement_args=list(pattern.params), helpers=helper, func="cat_as_padded_sum",
            rationale="the cat's per-input copies become one pointwise kernel over the output (another lowering)",
        )
        if d:
            drafts.append(d)
    return drafts


def neg_as_mul(g: FxGraph) -> list[RuleDraft]:
    """``-x`` (operator, ``torch.neg(x)``, ``x.neg()``) -> ``x * -1`` for a float or signed integer tensor.

    ``x``: any shape. Exact (see the module docstring). A last resort: Inductor lowers both to the
    same loop, so this is proposed only where nothing else applies.
    """
    drafts = []
    for node in g.calls():
        is_neg = (node.form == "unary" and node.fn == "neg") or (
            node.fn == "neg" and node.form in ("call", "method") and node.target in ("torch.neg", "neg"))
        if not is_neg or len(node.args) != 1 or node.kwargs or not isinstance(node.args[0], Ref):
            continue
        x = g.node(node.args[0])
        if x is None or x.dtype not in _FLOATS + _SIGNED_INTS:
            continue
        pattern = emit_pattern(g, [node.name], [node.name], {x.name: "x"})
        if pattern is None or pattern.params != ("x",):
            continue
        d = make_draft(
            "neg_as_mul", "NegAsMulByMinusOne", g, pattern,
            title="A negation as a multiply by -1.",
            doc=("x * -1 flips the sign exactly in every float and integer dtype, zeros and infinities included "
                 "(a NaN stays NaN): the same values through aten.mul instead of aten.neg."),
            replacement_args=["x"], helpers=_NEG_AS_MUL, func="neg_by_mul",
            rationale="the negation becomes a multiply by -1 (a last resort: another lowering of the same op, expect parity)",
        )
        if d:
            drafts.append(d)
    return drafts


_NEG_AS_MUL = '''
def neg_by_mul(x):
    return torch.mul(x, -1)
'''


_GELU = ("torch.nn.functional.gelu", "torch._C._nn.gelu")


def gelu_written_out(g: FxGraph) -> list[RuleDraft]:
    """``F.gelu(x)`` (the exact, erf form) -> ``0.5 * x * (1 + erf(x * sqrt(1/2)))``, half precision in float32.

    ``x``: any shape, float16/bfloat16/float32/float64. A last resort (Inductor decomposes GELU
    into this formula itself); ``approximate='tanh'`` is another function and is not matched.
    """
    drafts = []
    for node in g.calls():
        if node.target not in _GELU or len(node.args) != 1 or not isinstance(node.args[0], Ref):
            continue
        if node.kwargs and node.kwargs != {"approximate": "none"}:
            continue
        x = g.node(node.args[0])
        if x is None or x.dtype not in _FLOATS:
            continue
        pattern = emit_pattern(g, [node.name], [node.name], {x.name: "x"})
        if pattern is None or pattern.params != ("x",):
            continue
        d = make_draft(
            "gelu_written_out", "GeluAsErfFormula", g, pattern,
            title="The exact GELU written out: 0.5 * x * (1 + erf(x / sqrt(2))).",
            doc=("GELU's definition (Hendrycks and Gimpel, arXiv 1606.08415); float16/bfloat16 compute it in float32 "
                 "and round once, as ATen's CPU kernel does."),
            replacement_args=["x"], helpers=_GELU_WRITTEN_OUT, func="gelu_by_erf",
            rationale="F.gelu becomes its erf formula (a last resort: another lowering of the same op, expect parity)",
        )
        if d:
            drafts.append(d)
    return drafts


_GELU_WRITTEN_OUT = '''
@torch.fx.wrap
def gelu_by_erf(x):
    y = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
    return (0.5 * y * (1.0 + torch.erf(y * 0.7071067811865476))).to(x.dtype)
'''


def embedding_as_index(g: FxGraph) -> list[RuleDraft]:
    """``F.embedding(idx, W, padding_idx, None, ...)`` -> ``W[idx]``.

    ``idx``: int32/int64, any shape; ``W``: [num_embeddings, dim], any dtype; output
    ``idx.shape + (dim,)``. Only without ``max_norm`` (which rewrites rows of ``W`` in place).
    A last resort: both are one gather.
    """
    drafts = []
    for node in g.calls():
        if node.target != "torch.nn.functional.embedding" or len(node.args) < 2:
            continue
        max_norm = node.args[3] if len(node.args) > 3 else node.kwargs.get("max_norm")
        if max_norm is not None or not all(isinstance(a, Ref) for a in node.args[:2]):
            continue
        idx, w = g.node(node.args[0]), g.node(node.args[1])
        if idx is None or w is None or idx.dtype not in ("int32", "int64") or not w.shape or len(w.shape) != 2:
            continue
        pattern = emit_pattern(g, [node.name], [node.name], {idx.name: "indices", w.name: "weight"})
        if pattern is None or set(pattern.params) != {"indices", "weight"}:
            continue
        d = make_draft(
            "embedding_as_index", "EmbeddingAsIndex", g, pattern,
            title="An embedding lookup as an indexed gather: weight[indices].",
            doc=("Without max_norm F.embedding gathers rows of the weight (padding_idx only changes the gradient): "
                 "the same rows through aten.index instead of aten.embedding."),
            replacement_args=["indices", "weight"], helpers=_EMBEDDING_AS_INDEX, func="embedding_by_index",
            rationale="the embedding lookup becomes an indexed gather (a last resort: another lowering of the same op, expect parity)",
        )
        if d:
            drafts.append(d)
    return drafts


_EMBEDDING_AS_INDEX = '''
def embedding_by_index(indices, weight):
    return weight[indices]
'''
