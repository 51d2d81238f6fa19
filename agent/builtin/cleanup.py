"""Recipes that remove work: dead values, eval-mode dropout, one-tensor cats, cancelling
transposes, casts to the dtype a tensor already has, copies nothing needs, and elementwise ops
computed on every copy of a tensor concatenated with itself (rotary ``cat((f, f)).cos()``).

Each replacement that returns its input is an ``@torch.fx.wrap`` function, so the rewritten
graph keeps a call node (a pattern output that is a bare placeholder is not a valid rewrite)
and Inductor traces it away to nothing.
"""

from __future__ import annotations

import torch

from .algebra import ALIASING, dims_perm, dropout_training, is_pure, is_random, mutated_args, never_mutated
from .drafts import RuleDraft, camel, make_draft
from .emit import Match, emit_graph_pattern, emit_pattern, node_src
from .fx_reader import FxGraph, FxNode, Ref

_IDENTITY = '''
@torch.fx.wrap
def identity(x):
    return x
'''

_DTYPE_METHODS = {"float": "float32", "half": "float16", "double": "float64", "bfloat16": "bfloat16"}


def dead_code(g: FxGraph) -> list[RuleDraft]:
    """Pure op chains whose result nothing uses -> a 0-element placeholder value.

    The chain's leading views and casts are left out of the pattern: they cost nothing, and
    graphs of one task often differ exactly there (``x[:, 0]`` vs ``x[:, 0].to(bf16)``).
    """
    outputs = g.output_names
    dead: set[str] = set()
    for node in reversed(g.calls()):
        if node.name not in outputs and is_pure(node) and all(u in dead for u in node.users):
            dead.add(node.name)
    drafts = []
    for comp in _components(g, dead):
        comp = _trim_cheap_roots(g, comp)
        if not comp or all(g[n].fn in ALIASING for n in comp):
            continue
        sinks = [n for n in g.nodes if n in comp and not g[n].users]
        pattern = emit_pattern(g, comp, sinks)
        if pattern is None:
            continue
        tensor_inputs = [p for name, p in pattern.local.items()
                         if name not in comp and p in pattern.params and g[name].shape is not None]
        if not tensor_inputs:
            continue
        if len(sinks) == 1:
            helpers = _UNUSED
            func = "unused_value"
        else:
            values = ", ".join(["unused_value(x)"] * len(sinks))
            helpers = _UNUSED + f"\n\ndef unused_values(x):\n    return ({values})\n"
            func = "unused_values"
        tail = g[sinks[-1]]
        d = make_draft(
            "dead_code", f"DropDead{camel(tail.fn)}", g, pattern,
            title=f"Drop a dead `{tail.fn}` chain ({len(comp)} ops) whose result nothing reads.",
            doc=(f"The captured graph computes {', '.join(g[n].fn for n in g.nodes if n in comp)} and never uses the "
                 "result. Eager PyTorch still runs it; the replacement is an empty tensor, so nothing is left to run."),
            replacement_args=[tensor_inputs[0]], helpers=helpers, func=func,
            rationale=f"removes {len(comp)} dead ops ({', '.join(sorted({g[n].fn for n in comp}))}) that eager still executes",
            accept=lambda m: all(a not in outputs and not g[a].users for a in m.anchors),
        )
        if d:
            drafts.append(d)
    return drafts


_UNUSED = '''
@torch.fx.wrap
def unused_value(x):
    # Nothing reads this value; a 0-element tensor keeps the graph well-formed.
    return x.new_empty((0,))
'''


def dead_random(g: FxGraph) -> list[RuleDraft]:
    """A random draw nothing uses (``torch.rand([])``), in a graph with no other random op -> an empty tensor.

    Random ops are impure, so neither eager PyTorch nor Inductor may drop them. Dropping one
    shifts the random stream for any later draw, hence the condition that there is none.
    """
    draws = [n for n in g.calls() if is_random(n)]
    outputs = g.output_names
    if len(draws) != 1 or draws[0].users or draws[0].name in outputs or mutated_args(draws[0]):
        return []
    node = draws[0]
    refs = [r for r in node.refs() if g[r].shape is not None]
    if node.refs():
        pattern = emit_pattern(g, [node.name], [node.name])
        helpers, func, args = _UNUSED, "unused_value", [pattern.local[refs[0]]] if pattern and refs else []
        if not args:
            return []
    else:
        pattern = emit_graph_pattern(node)
        helpers = (f"def unused_draw():\n    # Nothing reads the draw; an empty tensor of its dtype stands in.\n"
                   f"    return torch.empty((0,), dtype=torch.{node.dtype or 'float32'})\n")
        func, args = "unused_draw", []
    d = make_draft(
        "dead_random", f"DropDead{camel(node.fn)}", g, pattern,
        title=f"Drop a `{node.fn}` draw whose value nothing reads.",
        doc=(f"`{node_src(node, {r: r for r in node.refs()})}` is computed and never used, and the graph draws no other "
             "random numbers, so no later draw depends on the random stream it advances. Random ops are impure: "
             "neither eager PyTorch nor Inductor removes it by itself."),
        replacement_args=args, helpers=helpers, func=func,
        rationale=f"an unused {node.fn} draw still runs an RNG kernel every call (impure ops are never dead-code eliminated)",
        accept=lambda m: all(a not in outputs and not g[a].users for a in m.anchors),
    )
    return [d] if d else []


def _components(g: FxGraph, names: set[str]) -> list[set[str]]:
    parent = {n: n for n in names}

    def find(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    for n in names:
        for r in g[n].refs():
            if r in names:
                parent[find(n)] = find(r)
    groups: dict[str, set[str]] = {}
    for n in names:
        groups.setdefault(find(n), set()).add(n)
    order = list(g.nodes)
    return sorted(groups.values(), key=lambda c: min(order.index(n) for n in c))


def _trim_cheap_roots(g: FxGraph, comp: set[str]) -> set[str]:
    comp = set(comp)
    changed = True
    while changed:
        changed = False
        for n in list(comp):
            if g[n].fn in ALIASING and not set(g[n].refs()) & comp and set(g[n].users) & comp:
                comp.discard(n)
                changed = True
    return comp


def eval_dropout(g: FxGraph) -> list[RuleDraft]:
    """``dropout(x, p, training=False)`` -> x, with ``p`` a pattern input so one rule fits every p."""
    drafts = []
    for node in g.calls():
        if node.target not in ("torch.nn.functional.dropout", "torch.dropout") or dropout_training(node) is not False:
            continue
        if not node.args or not isinstance(node.args[0], Ref):
            continue
        lift = {(node.name, 1): "p"} if len(node.args) > 1 else {(node.name, "p"): "p"} if "p" in node.kwargs else {}
        pattern = emit_pattern(g, [node.name], [node.name], {node.args[0].name: "x"}, lift)
        d = make_draft(
            "eval_dropout", "EvalDropoutIdentity", g, pattern,
            title="Eval-mode dropout is the identity.",
            doc=("`dropout(x, p, training=False)` returns x unchanged whatever p is; p is a pattern input, so it "
                 "binds to the literal in the graph and one rule matches every dropout of the graph."),
            replacement_args=["x"], helpers=_IDENTITY, func="identity",
            rationale="dropout with training=False is the identity; removing it drops a dispatch and a graph node per call",
        )
        if d:
            drafts.append(d)
    return drafts


def _cat_dim_lift(node: FxNode) -> dict[tuple[str, int | str], str]:
    """A cat's ``dim`` (positional or ``dim=``/``axis=``) lifted into the pattern input ``dim``,
    so one rule matches cats along any dimension."""
    lift: dict[tuple[str, int | str], str] = {}
    if len(node.args) > 1:
        lift[(node.name, 1)] = "dim"
    for key in ("dim", "axis"):
        if key in node.kwargs:
            lift[(node.name, key)] = "dim"
    return lift


def single_cat(g: FxGraph) -> list[RuleDraft]:
    """``torch.cat([x], dim)`` -> x (a one-tensor cat is a full copy), where nothing writes to either."""
    drafts = []
    outputs = g.output_names
    for node in g.calls():
        if node.target not in ("torch.cat", "torch.concat", "torch.concatenate") or node.form != "call":
            continue
        tensors = node.args[0] if node.args else node.kwargs.get("tensors")
        if not isinstance(tensors, (list, tuple)) or len(tensors) != 1 or not isinstance(tensors[0], Ref):
            continue
        lift = _cat_dim_lift(node)
        pattern = emit_pattern(g, [node.name], [node.name], {tensors[0].name: "x"}, lift)

        def safe(m: Match) -> bool:
            cat = g[m.anchors[0]]
            src = cat.args[0][0] if cat.args else cat.kwargs["tensors"][0]
            return cat.name not in outputs and isinstance(src, Ref) and never_mutated(g, cat.name, src.name)

        d = make_draft(
            "single_cat", "SkipSingleCat", g, pattern,
            title="A one-tensor torch.cat is a copy: use the tensor itself.",
            doc=("`torch.cat([x], dim)` allocates and copies x. Nothing in the graph writes to x or to the result, "
                 "so the consumers can read x directly."),
            replacement_args=["x"], helpers=_IDENTITY, func="identity",
            rationale="drops a full copy of the tensor made by a single-input torch.cat",
            accept=safe,
        )
        if d:
            drafts.append(d)
    return drafts


def cancel_transpose(g: FxGraph) -> list[RuleDraft]:
    """``x.transpose(a, b).transpose(a, b)`` / ``x.permute(p).permute(inverse(p))`` -> x."""
    drafts = []
    for second in g.calls():
        first = g.node(second.args[0]) if second.args else None
        if first is None or first.users != [second.name] or first.name in g.output_names:
            continue
        src = g.node(first.args[0]) if first.args else None
        if src is None or src.shape is None:
            continue
        ndim = len(src.shape)
        p1, p2 = dims_perm(first, ndim), dims_perm(second, ndim)
        if p1 is None or p2 is None or [p1[j] for j in p2] != list(range(ndim)):
            continue
        pattern = emit_pattern(g, [first.name, second.name], [second.name], {src.name: "x"})
        chain = node_src(second, {first.name: f"({node_src(first, {src.name: 'x'})})"})
        helpers = f'''
@torch.fx.wrap
def undo_{first.fn}_{second.fn}(x):
    # The two ops cancel on {ndim}-d tensors (what this rule was written for); other ranks keep them.
    if x.dim() == {ndim}:
        return x
    return {chain}
'''
        d = make_draft(
            "cancel_transpose", f"Cancel{camel(first.fn)}{camel(second.fn)}", g, pattern,
            title=f"A {first.fn} followed by the {second.fn} that undoes it is the identity.",
            doc=f"`{node_src(second, {first.name: '(' + node_src(first, {src.name: 'x'}) + ')'})}` returns x's own layout.",
            replacement_args=["x"], helpers=helpers, func=f"undo_{first.fn}_{second.fn}",
            rationale=f"{first.fn} then {second.fn} cancel out; dropping both avoids the strided copies they force downstream",
        )
        if d:
            drafts.append(d)
    return drafts


def cast_dtype(node: FxNode) -> str | None:
    """The dtype a pure cast converts to (``x.to(torch.float32)``, ``x.float()``...), else None."""
    if node.form != "method":
        return None
    rest, kwargs = node.args[1:], node.kwargs
    if node.fn in _DTYPE_METHODS and not rest and not kwargs:
        return _DTYPE_METHODS[node.fn]
    if node.fn in ("to", "type"):
        values = list(rest) + ([kwargs["dtype"]] if set(kwargs) == {"dtype"} else [])
        if len(values) == 1 and (not kwargs or set(kwargs) == {"dtype"}) and isinstance(values[0], torch.dtype):
            return str(values[0]).removeprefix("torch.")
    return None


def redundant_cast(g: FxGraph) -> list[RuleDraft]:
    """``x.to(dtype)`` / ``x.float()`` where x already has that dtype -> x (guarded by dtype)."""
    drafts = []
    for node in g.calls():
        dtype = cast_dtype(node)
        src = g.node(node.args[0]) if node.args else None
        if dtype is None or src is None or src.dtype != dtype:
            continue
        pattern = emit_pattern(g, [node.name], [node.name], {src.name: "x"})
        helpers = f'''
@torch.fx.wrap
def cast_to_{dtype}(x):
    # x is already {dtype} where this rule was written; other inputs still get the cast.
    return x if x.dtype == torch.{dtype} else x.to(torch.{dtype})
'''
        d = make_draft(
            "redundant_cast", f"SkipCastTo{camel(dtype)}", g, pattern,
            title=f"A cast to {dtype} of a tensor that is already {dtype} is the identity.",
            doc="The cast's input already has the target dtype here; the replacement checks the dtype when it is "
                "compiled, so the rule stays correct on inputs of any other dtype.",
            replacement_args=["x"], helpers=helpers, func=f"cast_to_{dtype}",
            rationale=f"the input is already {dtype}, so the cast is a no-op node the graph can lose",
        )
        if d:
            drafts.append(d)
    return drafts


def redundant_clone(g: FxGraph) -> list[RuleDraft]:
    """``x.clone()`` where nothing writes to x or to the copy, and the copy is not returned -> x."""
    drafts = []
    outputs = g.output_names
    for node in g.calls():
        src = g.node(node.args[0]) if node.args else None
        if src is None or node.kwargs or len(node.args) != 1 or node.fn != "clone":
            continue
        if node.form != "method" and node.target != "torch.clone":
            continue

        def safe(m: Match) -> bool:
            c = g[m.anchors[0]]
            return c.name not in outputs and isinstance(c.args[0], Ref) and never_mutated(g, c.name, c.args[0].name)

        d = make_draft(
            "redundant_clone", "SkipClone", g, emit_pattern(g, [node.name], [node.name], {src.name: "x"}),
            title="A `.clone()` nothing needs: readers can share the original.",
            doc="Nothing in the graph writes to the value or to its copy, and the copy is not returned, so the copy "
                "only costs a full read and write of the tensor.",
            replacement_args=["x"], helpers=_IDENTITY, func="identity",
            rationale="drops a full copy made by .clone() that nothing writes to",
            accept=safe,
        )
        if d:
            drafts.append(d)
    return drafts


_CONTIGUOUS = '''
@torch.fx.wrap
def contiguous_if_needed(x):
    # Fresh results are already contiguous; a strided input still gets its copy.
    return x if x.is_contiguous() else x.contiguous()
'''


def redundant_contiguous(g: FxGraph) -> list[RuleDraft]:
    """``.contiguous()`` of a fresh (hence contiguous) result -> x, guarded by ``is_contiguous()``."""
    drafts = []
    for node in g.calls():
        src = g.node(node.args[0]) if node.args else None
        if (src is None or node.fn != "contiguous" or node.form != "method" or node.kwargs or len(node.args) != 1
                or src.op == "placeholder" or src.fn in ALIASING):
            continue
        d = make_draft(
            "redundant_cast", "SkipContiguous", g, emit_pattern(g, [node.name], [node.name], {src.name: "x"}),
            title="A `.contiguous()` of a fresh, contiguous result has nothing to do.",
            doc="The input is a freshly computed tensor, so it is already contiguous; the replacement checks that when "
                "it is compiled and still copies a strided input.",
            replacement_args=["x"], helpers=_CONTIGUOUS, func="contiguous_if_needed",
            rationale="the input is already contiguous, so .contiguous() is a no-op node the graph can lose",
        )
        if d:
            drafts.append(d)
    return drafts


def noop_conversions(g: FxGraph) -> list[RuleDraft]:
    """Casts to the dtype a tensor already has, then ``.contiguous()`` of fresh results."""
    return redundant_cast(g) + redundant_contiguous(g)


#: Elementwise functions of one tensor (method or ``torch.`` form, no other argument): f(cat(t, t)) = cat(f(t), f(t)).
_UNARY_POINTWISE = {"cos", "sin", "tan", "exp", "exp2", "expm1", "log", "log2", "log1p", "sqrt", "rsqrt", "tanh",
                    "sigmoid", "erf", "neg", "abs", "reciprocal", "square", "sign", "relu"}
_CATS = ("torch.cat", "torch.concat", "torch.concatenate")


def _unary_pointwise(g: FxGraph, node: FxNode, src: str) -> bool:
    return (node.fn in _UNARY_POINTWISE and not node.kwargs and node.args == (Ref(src),)
            and (node.form == "method" or node.target == f"torch.{node.fn}"))


def cat_repeat_unary(g: FxGraph) -> list[RuleDraft]:
    """``y = torch.cat((t, t), dim)`` read only by elementwise ops (``y.cos()``, ``y.sin()``) ->
    the ops applied to ``t`` once, each result concatenated with itself.

    Rotary embeddings build ``emb = cat((freqs, freqs), -1)`` and take ``emb.cos()`` and
    ``emb.sin()``: every transcendental is computed twice on the same values. An elementwise
    function commutes with concatenation, so ``f(cat((t, t))) == cat((f(t), f(t)))`` bit for bit:
    half the cos/sin work, same outputs (shape, dtype, contiguous layout).
    """
    drafts = []
    outputs = g.output_names
    for node in g.calls():
        if node.target not in _CATS or node.form != "call" or set(node.kwargs) - {"tensors", "dim", "axis"}:
            continue
        tensors = node.args[0] if node.args else node.kwargs.get("tensors")
        if (not isinstance(tensors, (list, tuple)) or len(tensors) < 2 or not isinstance(tensors[0], Ref)
                or any(t != tensors[0] for t in tensors)):
            continue
        src = g[tensors[0].name]
        users = [g[u] for u in node.users]
        if not users or node.name in outputs or not all(_unary_pointwise(g, u, node.name) for u in users):
            continue
        if not never_mutated(g, node.name, src.name, *(u.name for u in users)):
            continue
        lift = _cat_dim_lift(node)
        pattern = emit_pattern(g, [node.name, *(u.name for u in users)], [u.name for u in users], {src.name: "x"}, lift)
        if pattern is None or pattern.params[0] != "x":
            continue
        fns = [u.fn for u in users]
        dim = "dim" if lift else "0"
        copies = len(tensors)
        lines = [f"    y_{i} = torch.{fn}(x)" for i, fn in enumerate(fns)]
        outs = ", ".join(f"torch.cat(({', '.join([f'y_{i}'] * copies)}), {dim})" for i in range(len(fns)))
        func = f"{'_'.join(dict.fromkeys(fns))}_then_repeat"
        helpers = (f"def {func}({', '.join(pattern.params)}):\n"
                   f"    # Each elementwise op once on the half that the cat repeats, then the repeat.\n"
                   + "\n".join(lines) + f"\n    return {outs}" + ("," if len(fns) == 1 else "") + "\n")
        d = make_draft(
            "cat_repeat_unary", f"{camel('_'.join(dict.fromkeys(fns)))}BeforeRepeatCat", g, pattern,
            title=f"Apply {', '.join(dict.fromkeys(fns))} before concatenating a tensor with itself.",
            doc=(f"torch.cat of {copies} copies of the same tensor, read only by elementwise ops "
                 f"({', '.join(fns)}): each op on the tensor once, then its result concatenated with itself, gives "
                 f"the same values with 1/{copies} of the elementwise work."),
            replacement_args=list(pattern.params), helpers=helpers, func=func,
            rationale=f"{', '.join(fns)} of a self-concatenation computed on one copy: 1/{copies} of the transcendental work",
        )
        if d:
            drafts.append(d)
    return drafts
