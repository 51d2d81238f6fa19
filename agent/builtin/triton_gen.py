"""Generated kernels: one fused Triton kernel written from a region of the FX graph.

A *region* is a connected set of elementwise operators of a Dynamo FX graph, optionally with
row operators over the last dimension (``sum``/``mean``/``amax`` over ``dim=-1``, softmax,
layer norm), that produces exactly one value read outside it. :func:`find_regions` grows the
regions; :func:`kernel_pass` writes a complete pass for one: the pattern is the region's nodes
copied from the graph (:func:`~.emit.emit_pattern`), the replacement a launcher that allocates
the output and launches one ``@triton.jit`` kernel. The harness registers such a replacement
as a ``torch.library.triton_op`` (``tools/passes/triton_ops.py``); AOTAutograd decomposes that op into
the kernel call (a ``triton_kernel_wrapper_functional`` node with a constant grid and constant
scalar arguments), so Inductor compiles the kernel into its own wrapper with the rest of the
graph and the Python launcher runs once, at trace time, not per call.

Numerics, chosen to agree with eager where Inductor does (SCORING.md: a pass is held to t = -5
wherever Inductor is): every operator computes in float32 (loads are upcast, the store rounds
once to the output dtype, as Inductor's kernels do); an explicit narrowing cast inside the
region (``.to(float16)``) changes the output dtype but is not rounded where it stands (Inductor
with ``emulate_precision_casts`` off does the same; see the cast branch of ``_Writer.write``); a
mean is the sum times ``1/n`` (ATen's ``MeanOps`` projects its accumulator so); ``rsqrt`` is
libdevice's, as eager's CUDA ``rsqrtf`` and Inductor's ``libdevice.rsqrt``.

Two layouts, with launch parameters that are functions of the shapes only (no autotuning: on
host-bound shapes a tuned config gains nothing measurable, and tuning compiles and times every
config at the first call):

* no row operator: a flat grid over the output's elements, :data:`FLAT_BLOCK` per program;
* row operators: ``ROWS`` rows per program, each row whole in one block
  (``BLOCK = next_power_of_2(n_cols)``), ``ROWS`` and ``num_warps`` after Inductor's
  persistent-reduction heuristics (several rows per program for rows of at most 256); masked
  lanes are replaced by the reduction's identity (0 for sums, -inf for maxima) before reducing.

Shapes, strides and dtypes are read at run time, so one pass serves every subgraph of a task of
one dtype: the launcher broadcasts each input to the region's row space, pads it to four
dimensions and passes its strides (stride 0 where it broadcasts), and derives the output dtype by
PyTorch's type promotion rules (PyTorch docs, "Tensor Attributes: Type promotion"). The cast
dtypes are literals of the pattern, so a task with float32, float16 and bfloat16 subgraphs gets
one pass file per dtype; :func:`dtype_variant_groups` makes them one evaluation candidate.
Without a CUDA device a kernel can only run in Triton's interpreter (``TRITON_INTERPRET=1``),
which has no libdevice: the file's ``_rsqrt`` is then ``tl.rsqrt``.
"""


from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from .drafts import RuleDraft
from .emit import emit_pattern, find_matches
from .fx_reader import FxGraph, FxNode, Ref
from .kernel_runtime import HELPERS, assemble

FLOAT_DTYPES = {"float32", "float16", "bfloat16"}
#: Largest row a row kernel holds in one block (elements); longer rows are not generated.
MAX_ROW = 32768
#: Smallest region proposed: operators that do arithmetic (casts and identities not counted). One
#: op fuses nothing, but its kernel is still a candidate the harness can time against Inductor's,
#: so a task made of a single op (a softmax, a GELU) gets an evaluation too.
MIN_OPS = 1
#: The flat layout's elements per program and warps: Inductor's pointwise default for a large
#: 1-D kernel (``XBLOCK = 1024``, ``num_warps = 4``; ``torch/_inductor/runtime/triton_heuristics.py``).
FLAT_BLOCK = 1024
FLAT_WARPS = 4

# fn -> Triton expression template over {a}, {b}; all operands are float32 values.
_BINARY = {
    "add": "({a} + {b})", "sub": "({a} - {b})", "mul": "({a} * {b})", "truediv": "({a} / {b})", "div": "({a} / {b})",
    "true_divide": "({a} / {b})", "maximum": "tl.maximum({a}, {b})", "minimum": "tl.minimum({a}, {b})",
}
_UNARY = {
    "neg": "(-{a})", "abs": "tl.abs({a})", "exp": "tl.exp({a})", "log": "tl.log({a})", "sqrt": "tl.sqrt({a})",
    "rsqrt": "_rsqrt({a})", "sin": "tl.sin({a})", "cos": "tl.cos({a})", "erf": "tl.erf({a})",
    "sigmoid": "tl.sigmoid({a})", "relu": "tl.maximum({a}, 0.0)", "silu": "({a} * tl.sigmoid({a}))",
    "square": "({a} * {a})", "reciprocal": "(1.0 / {a})",
    # tanh(a) = sign(a) (1 - e) / (1 + e), e = exp(-2|a|): no overflow, exact sign (libdevice has no interpreter form).
    "tanh": "_tanh({a})",
}
_REDUCTIONS = {"sum", "mean", "amax"}
_CASTS = {"to", "float", "half", "bfloat16", "type"}
_CAST_METHODS = {"float": "torch.float32", "half": "torch.float16", "bfloat16": "torch.bfloat16"}
_IDENTITIES = {"contiguous", "clone", "dropout"}


@dataclass(frozen=True)
class Region:
    """A fusible region of one FX graph.

    Attributes:
        nodes: graph names of its operator nodes, in graph order.
        output: the one node whose value is read outside the region (or returned).
        rows: whether it holds row operators (the row layout) or only elementwise ones.
        ops: how many of its nodes do arithmetic (casts and identities not counted).
    """

    nodes: tuple[str, ...]
    output: str
    rows: bool
    ops: int


# --- reading one node ------------------------------------------------------------------------


def _operands(node: FxNode) -> tuple[list, dict]:
    return list(node.args), dict(node.kwargs)


def _kind(g: FxGraph, node: FxNode) -> str | None:
    """``binary``, ``unary``, ``pow``, ``cast``, ``identity``, ``reduce``, ``softmax``,
    ``layer_norm``, or None when the node cannot be part of a generated kernel."""
    if node.op not in ("call_function", "call_method") or node.dtype not in FLOAT_DTYPES or not isinstance(node.shape, list):
        return None
    if node.form == "call" and not node.target.startswith("torch."):
        return None
    for r in node.refs():
        src = g[r]
        if src.dtype not in FLOAT_DTYPES or not isinstance(src.shape, list):
            return None  # an integer, boolean or non-tensor operand
    args, kwargs = _operands(node)
    fn = node.fn
    if node.form in ("binop", "call", "method") and fn in _BINARY and len(args) == 2 and not kwargs:
        return "binary" if all(isinstance(a, (Ref, int, float)) and not isinstance(a, bool) for a in args) else None
    if fn == "pow" and len(args) == 2 and not kwargs and isinstance(args[0], Ref) and isinstance(args[1], (int, float)):
        return "pow"
    if node.form == "unary" and fn == "neg":
        return "unary"
    if fn in _UNARY and len(args) == 1 and isinstance(args[0], Ref):
        return "unary" if all(k == "inplace" and v is False for k, v in kwargs.items()) else None
    if fn == "gelu" and len(args) == 1 and set(kwargs) <= {"approximate"} and kwargs.get("approximate", "none") in ("none", "tanh"):
        return "unary"
    if node.form == "method" and fn in _CASTS:
        return "cast" if _cast_target(node) in ("torch.float32", "torch.float16", "torch.bfloat16") else None
    if fn == "dropout":
        training = kwargs.get("training", args[2] if len(args) > 2 else True)
        return "identity" if training is False and not kwargs.get("inplace", False) else None
    if fn in ("contiguous", "clone") and node.form == "method" and len(args) == 1 and not kwargs:
        return "identity"
    if fn in _REDUCTIONS and set(kwargs) <= {"dim", "keepdim"} and len(args) <= 3:
        dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
        return "reduce" if _last_dim(g, node, dim) else None
    if fn == "softmax" and set(kwargs) <= {"dim", "_stacklevel"} and len(args) <= 2:
        return "softmax" if _last_dim(g, node, kwargs.get("dim", args[1] if len(args) > 1 else None)) else None
    if fn == "layer_norm" and node.form == "call":
        shape = kwargs.get("normalized_shape", args[1] if len(args) > 1 else None)
        eps = kwargs.get("eps", args[4] if len(args) > 4 else 1e-5)
        return "layer_norm" if isinstance(shape, (tuple, list)) and len(shape) == 1 and isinstance(eps, float) else None
    return None


def _cast_target(node: FxNode) -> str | None:
    if node.fn in _CAST_METHODS:
        return _CAST_METHODS[node.fn] if len(node.args) == 1 and not node.kwargs else None
    if len(node.args) == 2 and not node.kwargs and not isinstance(node.args[1], (Ref, str)):
        return str(node.args[1]) if str(node.args[1]).startswith("torch.") else None
    return None


def _last_dim(g: FxGraph, node: FxNode, dim: object) -> bool:
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    src = g.node(node.args[0]) if node.args else None
    rank = len(src.shape) if src is not None and isinstance(src.shape, list) else None
    return isinstance(dim, int) and not isinstance(dim, bool) and rank is not None and rank >= 1 and dim in (-1, rank - 1)


# --- growing regions ---------------------------------------------------------------------------


def find_regions(g: FxGraph) -> list[Region]:
    """The fusible regions of ``g`` with at least :data:`MIN_OPS` arithmetic operators.

    A region is a connected component of supported nodes with exactly one value read outside
    it; a ``keepdim=False`` reduction may only be that value (its rows would not broadcast
    against the others). Regions that break a rule are dropped whole, never cut.
    """
    kinds = {n.name: k for n in g.calls() if (k := _kind(g, n)) is not None and (n.users or n.name in g.output_names)}
    parent = {n: n for n in kinds}

    def root(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for n in kinds:
        for r in g[n].refs():
            if r in kinds:
                parent[root(r)] = root(n)
    groups: dict[str, list[str]] = {}
    for n in kinds:  # graph order
        groups.setdefault(root(n), []).append(n)
    regions = []
    for members in groups.values():
        inside = set(members)
        outputs = [n for n in members if n in g.output_names or any(u not in inside for u in g[n].users)]
        if len(outputs) != 1:
            continue
        rows = any(kinds[n] in ("reduce", "softmax", "layer_norm") for n in members)
        squeezed = [n for n in members if kinds[n] == "reduce" and not _keepdim(g[n])]
        if squeezed and squeezed != outputs:
            continue
        ops = sum(kinds[n] not in ("cast", "identity") for n in members)
        if ops >= MIN_OPS:
            regions.append(Region(tuple(members), outputs[0], rows, ops))
    return regions


def _keepdim(node: FxNode) -> bool:
    return bool(node.kwargs.get("keepdim", node.args[2] if len(node.args) > 2 else False))


# --- writing the kernel ---------------------------------------------------------------------------


class _Writer:
    """Emits the kernel body and the launcher's dtype program for one region."""

    def __init__(self, g: FxGraph, region: Region, local: dict[str, str], params: tuple[str, ...]):
        self.g, self.region, self.local, self.params = g, region, local, params
        self.kinds = {n: _kind(g, g[n]) for n in region.nodes}
        # A value is a row scalar (one per row) after a reduction; inputs whose recorded last
        # dimension is 1 where the region's rows are longer are loaded once per row too.
        self.scalar: dict[str, bool] = {}
        self.lines: list[str] = []
        self.dtype_lines: list[str] = []

    def name(self, graph_name: str) -> str:
        return "v_" + self.local[graph_name]

    def operand(self, value: object) -> str:
        if isinstance(value, Ref):
            return self.name(value.name)
        return repr(float(value))  # an int or float literal, in float32 arithmetic

    def is_scalar(self, value: object) -> bool:
        return isinstance(value, Ref) and self.scalar.get(value.name, False)

    def row_length_input(self) -> str:
        """A parameter whose last dimension is the row length (the input of the first row operator)."""
        first = next(n for n in self.region.nodes if self.kinds[n] in ("reduce", "softmax", "layer_norm"))
        return self._source_param(self.g[first].args[0])

    def _source_param(self, value: object) -> str:
        # Walk back through the region to an input parameter feeding the row operator at full width.
        stack = [value]
        while stack:
            v = stack.pop()
            if not isinstance(v, Ref):
                continue
            if v.name not in self.region.nodes:
                if not self.scalar.get(v.name, False):
                    return self.local[v.name]
                continue
            stack.extend(r for r in self.g[v.name].args if isinstance(r, Ref))
        raise ValueError("a row operator with no full-width input")

    def write(self) -> None:
        for n in self.region.nodes:
            node, kind = self.g[n], self.kinds[n]
            args, kwargs = _operands(node)
            out, a = self.name(n), self.operand(args[0]) if args else ""
            dt = f"d_{self.local[n]}"
            if kind == "binary":
                b = self.operand(args[1])
                expr = _BINARY[node.fn].format(a=a, b=b)
                self.scalar[n] = all(self.is_scalar(x) or not isinstance(x, Ref) for x in args)
                tensors = [f"d_{self.local[x.name]}" for x in args if isinstance(x, Ref)]
                self.dtype_lines.append(f"{dt} = _promote({', '.join(tensors)})")
            elif kind == "pow":
                e = float(args[1])
                expr = {2.0: f"({a} * {a})", 3.0: f"({a} * {a} * {a})", 0.5: f"tl.sqrt({a})", -0.5: f"tl.rsqrt({a})",
                        1.0: a, -1.0: f"(1.0 / {a})"}.get(e, f"tl.exp({e!r} * tl.log({a}))")
                self.scalar[n] = self.is_scalar(args[0])
                self.dtype_lines.append(f"{dt} = d_{self.local[args[0].name]}")
            elif kind == "unary":
                if node.fn == "gelu":
                    expr = (f"_gelu_tanh({a})" if kwargs.get("approximate", "none") == "tanh"
                            else f"(0.5 * {a} * (1.0 + tl.erf({a} * 0.7071067811865476)))")
                else:
                    expr = _UNARY[node.fn].format(a=a)
                self.scalar[n] = self.is_scalar(args[0])
                self.dtype_lines.append(f"{dt} = d_{self.local[args[0].name]}")
            elif kind == "cast":
                # No rounding where the cast stands, only the dtype bookkeeping: a narrowing cast
                # followed by more arithmetic is rounded once, at the store, as Inductor does
                # (emulate_precision_casts off). Rounding here as eager does turns a 1-ulp
                # difference of a float32 intermediate (rsqrt, a reduction's order) into a
                # 1-ulp flip of the float16 value, 2 ulp after the next product: beyond the
                # float16 rtol at t = -5 (1e-3, about one ulp).
                target = _cast_target(node)
                expr = a
                self.scalar[n] = self.is_scalar(args[0])
                self.dtype_lines.append(f"{dt} = ({target}, d_{self.local[args[0].name]}[1])")
            elif kind == "identity":
                expr = a
                self.scalar[n] = self.is_scalar(args[0])
                self.dtype_lines.append(f"{dt} = d_{self.local[args[0].name]}")
            elif kind == "reduce":
                identity = "float('-inf')" if node.fn == "amax" else "0.0"
                masked = f"tl.where(mask, {a}, {identity})"
                # Row values are [ROWS, 1]: reduce over the row (axis 1) and keep it broadcastable. A
                # mean is the sum times 1/n in float32, as ATen's MeanOps projects its accumulator.
                expr = {"sum": f"tl.sum({masked}, axis=1)[:, None]", "mean": f"(tl.sum({masked}, axis=1)[:, None] * inv_n)",
                        "amax": f"tl.max({masked}, axis=1)[:, None]"}[node.fn]
                self.scalar[n] = True
                src = f"d_{self.local[args[0].name]}"
                self.dtype_lines.append(f"{dt} = ({src}[0], {src}[1] - {0 if _keepdim(node) else 1})")
            elif kind == "softmax":
                m, e = f"m_{self.local[n]}", f"e_{self.local[n]}"
                self.lines += [f"{m} = tl.max(tl.where(mask, {a}, float('-inf')), axis=1)[:, None]",
                               f"{e} = tl.where(mask, tl.exp({a} - {m}), 0.0)"]
                expr = f"{e} / tl.sum({e}, axis=1)[:, None]"
                self.scalar[n] = False
                self.dtype_lines.append(f"{dt} = d_{self.local[args[0].name]}")
            elif kind == "layer_norm":
                w = kwargs.get("weight", args[2] if len(args) > 2 else None)
                bias = kwargs.get("bias", args[3] if len(args) > 3 else None)
                eps = kwargs.get("eps", args[4] if len(args) > 4 else 1e-5)
                mu, d = f"mu_{self.local[n]}", f"dx_{self.local[n]}"
                self.lines += [f"{mu} = tl.sum(tl.where(mask, {a}, 0.0), axis=1)[:, None] * inv_n",
                               f"{d} = tl.where(mask, {a} - {mu}, 0.0)"]
                expr = f"{d} * _rsqrt(tl.sum({d} * {d}, axis=1)[:, None] * inv_n + {float(eps)!r})"
                if isinstance(w, Ref):
                    expr = f"{expr} * {self.operand(w)}"
                if isinstance(bias, Ref):
                    expr = f"{expr} + {self.operand(bias)}"
                self.scalar[n] = False
                self.dtype_lines.append(f"{dt} = d_{self.local[args[0].name]}")
            else:  # pragma: no cover - find_regions admits only the kinds above
                raise ValueError(f"unsupported node {n}")
            self.lines.append(f"{out} = {expr}")


def _input_scalars(g: FxGraph, region: Region, local: dict[str, str]) -> dict[str, bool]:
    """Region inputs loaded once per row: recorded last dimension 1 where the output's rows are longer."""
    if not region.rows:
        return {}
    width = max((len(g[n].shape) and g[n].shape[-1]) or 1 for n in region.nodes)
    return {name: bool(g[name].shape) and g[name].shape[-1] == 1 and width > 1
            for name in local if name not in region.nodes}


def kernel_pass(g: FxGraph, region: Region, rule_name: str) -> RuleDraft | None:
    """A complete pass file replacing ``region`` by one generated Triton kernel, or None when the
    region cannot be written as a pattern or its pattern does not match the graph."""
    pattern = emit_pattern(g, list(region.nodes), [region.output])
    if pattern is None or not find_matches(g, pattern):
        return None
    params = pattern.params
    inputs = [next(k for k, v in pattern.local.items() if v == p) for p in params]
    w = _Writer(g, region, pattern.local, params)
    scalar_inputs = _input_scalars(g, region, pattern.local)
    w.scalar.update({name: scalar_inputs.get(name, False) for name in inputs})
    w.write()
    out_scalar = w.scalar[region.output]
    kernel = f"_{rule_name.lower()}_kernel"
    sig = ", ".join(f"{p}_s0, {p}_s1, {p}_s2, {p}_s3" for p in params)
    body: list[str] = []
    if region.rows:
        # ROWS rows per program, each row whole in one BLOCK: values are [ROWS, BLOCK], row
        # values (a reduction's result, a per-row input) [ROWS, 1].
        body += ["row = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)[:, None]",
                 "cols = tl.arange(0, BLOCK)[None, :]", "rmask = row < n_rows", "mask = rmask & (cols < n_cols)"]
    else:
        body += ["idx = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)", "mask = idx < n_total",
                 "cols = idx % n_cols", "row = idx // n_cols"]
    body += ["i2 = row % D2", "i1 = (row // D2) % D1", "i0 = row // (D2 * D1)"]
    for name, p in zip(inputs, params):
        base = f"{p}_ptr + i0 * {p}_s0 + i1 * {p}_s1 + i2 * {p}_s2"
        if w.scalar[name]:
            body.append(f"v_{p} = tl.load({base}, mask=rmask, other=0.0).to(tl.float32)")
        else:
            body.append(f"v_{p} = tl.load({base} + cols * {p}_s3, mask=mask, other=0.0).to(tl.float32)")
    body += w.lines
    result = w.name(region.output)
    if out_scalar:
        store = f"tl.store(out_ptr + row, {result}.to(out_ptr.dtype.element_ty), mask=rmask)"
    else:
        store = f"tl.store(out_ptr + row * n_cols + cols, {result}.to(out_ptr.dtype.element_ty), mask=mask)"
    body.append(store)
    if region.rows:
        launch = ("    block = _pow2(n_cols)\n"
                  "    rows, warps = _row_config(block, n_rows)\n"
                  "    grid = ((n_rows + rows - 1) // rows,)\n")
        meta = "BLOCK=block, ROWS=rows, num_warps=warps"
    else:
        launch = f"    grid = ((n_rows * n_cols + {FLAT_BLOCK - 1}) // {FLAT_BLOCK},)\n"
        meta = f"BLOCK={FLAT_BLOCK}, ROWS=1, num_warps={FLAT_WARPS}"
    out_shape = "shape" if not out_scalar else ("shape[:-1] + [1]" if _out_keeps_dim(g, region) else "shape[:-1]")
    dtype_prog = "\n".join(f"    {line}" for line in w.dtype_lines)
    # A parameter that was a number at the call (numbers[i]) ranks below tensors in promotion (ndim -1).
    in_dtypes = "\n".join(f"    d_{p} = ({p}.dtype, -1 if {i} in numbers else {p}.dim())" for i, p in enumerate(params))
    strides = ", ".join(f"v{i}[0], v{i}[1], v{i}[2], v{i}[3]" for i in range(len(params)))
    check = ""
    if region.rows:
        full = w.row_length_input()
        check = (f"    n_cols = {full}.size(-1) if {full}.dim() else 1\n"
                 f"    if shape[-1] != n_cols or n_cols > {MAX_ROW}:\n"
                 f"        raise ValueError(f'rows of {{n_cols}} elements do not fit this kernel (row space {{shape}})')\n")
        for name, p in zip(inputs, params):
            if w.scalar[name]:
                check += (f"    if {p}.dim() and {p}.size(-1) != 1:\n"
                          f"        raise ValueError('input {p} was read as one value per row; its last dimension is {{}}'.format({p}.size(-1)))\n")
    else:
        check = "    n_cols = shape4[3]\n"
    # No @triton.autotune: on these host-bound shapes a tuned config gains nothing measurable,
    # and every config is compiled and timed on the first call; the launch parameters are a
    # function of the shapes only (see _row_config), so under Inductor they are constants.
    launcher = f'''
@triton.jit
def {kernel}({", ".join(f"{p}_ptr" for p in params)}, out_ptr, {sig}, D1, D2, n_rows, n_cols, n_total, inv_n,
        BLOCK: tl.constexpr, ROWS: tl.constexpr):
{textwrap.indent(chr(10).join(body), "    ")}


def _plan({", ".join(params)}, numbers=()):
    """Everything a launch needs that depends on shapes, strides and dtypes only: (output
    shape, output dtype, grid, the kernel's scalar arguments, its launch parameters).
    ``numbers``: positions of parameters that were Python numbers (now 0-d float32 tensors)."""
{in_dtypes}
{dtype_prog}
    out_dtype = d_{pattern.local[region.output]}[0]
    shape, shape4, ({", ".join(f"v{i}" for i in range(len(params)))},) = _row_space([{", ".join(params)}])
{check}    n_rows = shape4[0] * shape4[1] * shape4[2]
{launch}    scalars = ({strides}, shape4[1], shape4[2], n_rows, n_cols, n_rows * n_cols, 1.0 / max(n_cols, 1))
    return ({out_shape}, out_dtype, grid, scalars, dict({meta}))



def fused_{rule_name.lower()}({", ".join(params)}):
    # Per call: the plan (a few tuple operations on shapes, strides and dtypes), the output's
    # allocation and the launch. Passes keep no state across calls (static checks), so the
    # plan is not cached; under Inductor this function runs once, at trace time.
    numbers = ()
    if not ({" and ".join(f"isinstance({p}, torch.Tensor)" for p in params)}):
        # torch.fx binds a pattern's placeholder to whatever the graph passes there, a literal
        # too (``x * 1.0`` matches ``in_0 * in_1``): numbers become 0-d float32 tensors.
        ({", ".join(params)},), numbers = _numbers_as_tensors({", ".join(params)})
    out_shape, out_dtype, grid, scalars, meta = _plan({", ".join(params)}, numbers)
    out = torch.empty(out_shape, dtype=out_dtype, device={params[0]}.device)
    {kernel}[grid]({", ".join(params)}, out, *scalars, **meta)
    return out
'''
    helpers = HELPERS + launcher
    ops = " -> ".join(dict.fromkeys(g[n].fn for n in region.nodes))
    title = f"One generated Triton kernel for {len(region.nodes)} ops: {ops}."
    doc = ("Generated from the FX graph: the region's operators computed in float32 in one kernel "
           f"({'one program per row, the row in one block' if region.rows else 'a flat grid over the output'}), "
           "the output rounded once at the store; shapes, strides and dtypes are read at run time.")
    source = assemble(title, doc, pattern.source, params, helpers, f"fused_{rule_name.lower()}")
    compile(source, f"{rule_name}.py", "exec")  # a syntax error here is a bug of the generator
    rationale = (f"fuses {len(region.nodes)} ops ({ops}) into one Triton kernel "
                 f"({region.ops} arithmetic, {'row layout' if region.rows else 'flat layout'}); float32 accumulation")
    return RuleDraft("generated_kernel", rule_name, source, rationale, family="generated kernel")


def _out_keeps_dim(g: FxGraph, region: Region) -> bool:
    """Whether a row-scalar output keeps the reduced dimension (as ``[..., 1]``)."""
    out = g[region.output]
    widest = max((g[n] for n in region.nodes), key=lambda n: len(n.shape or []))
    return isinstance(out.shape, list) and len(out.shape) == len(widest.shape or [])


def generated_kernels(g: FxGraph) -> list[RuleDraft]:
    """Recipe entry point: one generated-kernel draft per fusible region of ``g``."""
    drafts = []
    for k, region in enumerate(find_regions(g)):
        d = kernel_pass(g, region, f"FusedKernel{k}" if k else "FusedKernel")
        if d is not None:
            drafts.append(d)
    return drafts


#: What may differ between two pass files of the same generated kernel: dtype literals
#: (``torch.float16``, ``tl.bfloat16``, the cast methods ``.half()``/``.float()``/``.bfloat16()``)
#: and the kernel's and launcher's names (``FusedKernel``, ``FusedKernel1``: the region's place in
#: its graph).
_VARIANT_LITERAL = re.compile(r"\b(?:torch|tl)\.(?:float16|bfloat16|float32|float64|half|float|double)\b"
                              r"|\.(?:half|float|bfloat16|double)\(\)|fusedkernel\d*")


def dtype_variant_groups(drafts: list[RuleDraft]) -> list[tuple[RuleDraft, ...]]:
    """``drafts`` as evaluation candidates: generated-kernel drafts that launch the same kernel
    (their files equal from ``replacement_args`` on, up to dtype literals and names) are one
    candidate (a tuple, at its first member's place); every other draft is a candidate alone.

    A pattern's literals (the cast in ``x.to(torch.float16)``, a layer norm's
    ``normalized_shape``) are matched exactly, so the kernel generated from a float16 subgraph
    matches nothing in the float32 and bfloat16 subgraphs of the same task, and the harness fails
    every subgraph a pass matches nothing in (``compile``). The variants, one rule file each, cover
    the task only together (as the hand-written task_035 pass does with one rule per dtype).
    """
    groups: dict[str, list[RuleDraft]] = {}
    order: list[str] = []
    for d in drafts:
        start = d.source.find("def replacement_args(")
        if d.family == "generated kernel" and start >= 0:
            key = _VARIANT_LITERAL.sub("<v>", d.source[start:])
        else:
            key = f"<alone {len(order)}>"
        if key not in groups:
            order.append(key)
        groups.setdefault(key, []).append(d)
    return [tuple(groups[key]) for key in order]
