"""Cut a captured graph into benchmark subgraphs: fusible, typical and sole-op.

The graph's operator nodes are taken in execution order and classified: *anchors* are the
operators Inductor hands to an external library on the CPU (``linear``, ``matmul``,
convolutions, ``scaled_dot_product_attention``...), *views* compute nothing (``view``,
``transpose``, ``getitem`` of a tuple, eval-mode ``dropout``), *barriers* have effects beyond
their value (grad-mode and autocast switches, asserts) and are never cut into a subgraph;
everything else is a *light* operator (pointwise, reductions, norms, softmax, indexing).

Candidate ranges (contiguous in execution order):

``sole``     one operator alone (anchor or light) with the views that feed it nothing else;
``fusible``  a maximal run of light operators and views between anchors, with at least two
             operators: what Inductor's CPU backend compiles into one kernel, the largest a
             single one of its operators needs (checked against the compiled kernel count
             when baselines are measured, see :mod:`.select`);
``typical``  an anchor with (a prefix of) the light run after it, (a suffix of) the run before
             it, or both runs whole, or two anchors and the run
             between them (``linear -> gelu -> linear``, ``matmul -> softmax -> matmul``);
             kept as typical when its operator sequence repeats within a model (layers) or
             across models (decided when grouping, :mod:`.group`).

A range is closed over non-tensor values (a ``split`` tuple and its ``getitem``s stay
together); its inputs become the subgraph's arguments ``in_0, in_1, ...`` in order of first
use, with statistics of the values seen at capture; every value it produces that is used
after it becomes an output. Each subgraph is checked by running its generated ``model.py`` on
the captured values: it must reproduce the captured outputs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch.fx

from passagent.tools.tasks.graph_source import analyse_model_source

from .capture import outputs_equal
from .dedupe import group_key, structural_hash, target_name
from .sample import ArgMeta, SampleError, model_source, tensor_meta

ANCHORS = frozenset({
    "linear", "matmul", "bmm", "mm", "addmm", "baddbmm", "addbmm", "einsum", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "scaled_dot_product_attention", "lstm", "gru",
    "multi_head_attention_forward", "_convolution", "convolution",
})
VIEWS = frozenset({
    "view", "reshape", "transpose", "permute", "unsqueeze", "squeeze", "expand", "expand_as", "flatten",
    "unflatten", "getitem", "size", "dim", "t", "split", "chunk", "unbind", "narrow", "select", "view_as",
    "detach", "dropout", "alias", "movedim", "swapaxes", "numel", "_unsafe_view", "getattr", "dropout1d",
    "dropout2d", "dropout3d", "identity", "contiguous",
})
#: Operators not worth a subgraph on their own (copies, casts, no-ops).
TRIVIAL_SOLE = frozenset({"to", "float", "half", "bfloat16", "type_as", "type", "clone", "new_ones", "new_zeros",
                          "arange", "ones", "zeros", "full", "empty", "ones_like", "zeros_like", "full_like"})
BARRIER_WORDS = ("autocast", "grad_enabled", "assert", "record_function", "log_api_usage", "set_grad", "profiler")

#: Size limits of a subgraph (nodes after closure, inputs, outputs, input elements).
MAX_NODES = 16
MAX_INPUTS = 16
MAX_OUTPUTS = 6
MAX_INPUT_NUMEL = 16 * 2**20
#: Distinct subgraphs kept per group key and graph (the rest are counted as repeats).
MAX_PER_KEY = 2
#: How far a typical window reaches into the light runs beside its anchor.
MAX_PROLOGUE = 5
MAX_EPILOGUE = 8


def node_kind(node: torch.fx.Node) -> str:
    """``"anchor"``, ``"view"``, ``"barrier"`` or ``"light"`` (see the module docstring)."""
    name = target_name(node)
    if any(w in name for w in BARRIER_WORDS) or name.startswith("_") and name not in ("_unsafe_view", "_convolution"):
        return "barrier"
    if name in ANCHORS:
        return "anchor"
    if name in VIEWS:
        return "view"
    return "light"


def is_inplace(node: torch.fx.Node) -> bool:
    """True for operators that write into an argument (``add_``, ``x[i] = y``, ``inplace=True``)."""
    name = target_name(node)
    return (
        name == "setitem"
        or (name.endswith("_") and not name.startswith("_") and not name.endswith("__"))
        or node.kwargs.get("inplace") is True
    )


@dataclass
class Candidate:
    """One cut subgraph before deduplication.

    Attributes:
        category: ``"sole"``, ``"fusible"`` or ``"typical"`` (as proposed by the cut).
        code: ``model.py`` text.
        metas: one :class:`ArgMeta` per argument.
        ops: the operator sequence read by the harness's static analysis.
        hash: exact structural hash (duplicates share it).
        key: group key (same operator sequence at any shape and dtype).
        start, end: the node range ``[start, end)`` in the graph's operator order.
        occurrences: how many ranges of the same graph had this exact hash (repeats in layers).
        key_occurrences: how many ranges of the same graph had this group key.
        source: where it was cut from (architecture, domain, variant, graph), filled by the caller.
    """

    category: str
    code: str
    metas: list[ArgMeta]
    ops: tuple[str, ...]
    hash: str
    key: str
    start: int
    end: int
    occurrences: int = 1
    key_occurrences: int = 1
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def shapes(self) -> list[list[int]]:
        return [list(m.shape) for m in self.metas]

    @property
    def dtypes(self) -> list[str]:
        """Distinct floating-point argument dtypes (``"float16"``)."""
        seen: dict[str, None] = {}
        for m in self.metas:
            if m.dtype.startswith("torch.float") or m.dtype == "torch.bfloat16":
                seen[m.dtype.removeprefix("torch.")] = None
        return list(seen)

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category, "code": self.code, "metas": [m.to_json() for m in self.metas],
            "ops": list(self.ops), "hash": self.hash, "key": self.key, "start": self.start, "end": self.end,
            "occurrences": self.occurrences, "key_occurrences": self.key_occurrences, "source": self.source,
            "shapes": self.shapes, "dtypes": self.dtypes,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> "Candidate":
        return Candidate(
            d["category"], d["code"], [ArgMeta.from_json(m) for m in d["metas"]], tuple(d["ops"]), d["hash"],
            d["key"], d["start"], d["end"], d.get("occurrences", 1), d.get("key_occurrences", 1), d.get("source", {}),
        )


class _Recorder(torch.fx.Interpreter):
    """Runs a graph and keeps a copy of every node's value as it was produced (before later in-place ops)."""

    def __init__(self, gm: torch.fx.GraphModule):
        super().__init__(gm, garbage_collect_values=True)
        self.values: dict[torch.fx.Node, Any] = {}

    def run_node(self, n: torch.fx.Node) -> Any:
        out = super().run_node(n)
        self.values[n] = _snapshot(out)
        return out


def _snapshot(v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        return v.detach().clone()
    if isinstance(v, (list, tuple)):
        return type(v)(_snapshot(x) for x in v) if not hasattr(v, "_fields") else v
    return v


def record_values(gm: torch.fx.GraphModule, inputs: list[Any]) -> dict[torch.fx.Node, Any]:
    """Every node's value when ``gm`` runs on ``inputs`` (copies taken as each node finishes).

    Raises:
        Exception: whatever the graph raises on these inputs.
    """
    rec = _Recorder(gm)
    with torch.no_grad():
        rec.run(*[t.clone() if isinstance(t, torch.Tensor) else t for t in inputs])
    return rec.values


class Cutter:
    """Cuts one captured graph; :meth:`candidates` returns every valid, checked subgraph.

    Args:
        gm: the captured FX GraphModule (placeholders are its inputs).
        inputs: the values it was captured on, one per placeholder.
        check: run each subgraph on the captured values and require the captured outputs.
    """

    def __init__(self, gm: torch.fx.GraphModule, inputs: list[Any], check: bool = True):
        self.gm = gm
        self.values = record_values(gm, inputs)
        self.ops = [n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
        self.pos = {n: i for i, n in enumerate(self.ops)}
        self.kinds = [node_kind(n) for n in self.ops]
        self.check = check
        self.rejected: dict[str, int] = {}
        self._checked: set[str] = set()
        self._key_seen: dict[str, int] = {}
        self._key_hashes: dict[str, set[str]] = {}
        self._metas: dict[torch.fx.Node, ArgMeta] = {}

    # -- proposals -----------------------------------------------------------------------------

    def _compute(self, i: int) -> bool:
        return self.kinds[i] in ("anchor", "light")

    def proposals(self) -> list[tuple[str, int, int]]:
        """(category, start, end) ranges, before closure and checks, without repeats."""
        out: list[tuple[str, int, int]] = []
        n = len(self.ops)
        for i in range(n):
            if self._compute(i) and target_name(self.ops[i]) not in TRIVIAL_SOLE:
                out.append(("sole", i, i + 1))
        # Light runs between anchors and barriers.
        runs: list[tuple[int, int]] = []
        i = 0
        while i < n:
            if self.kinds[i] in ("light", "view"):
                j = i
                while j < n and self.kinds[j] in ("light", "view"):
                    j += 1
                runs.append((i, j))
                i = j
            else:
                i += 1
        for s, e in runs:
            for cs in range(s, e, MAX_NODES - 4):
                ce = min(e, cs + MAX_NODES - 4)
                if sum(self._compute(k) for k in range(cs, ce)) >= 2:
                    out.append(("fusible", cs, ce))
        anchors = [i for i in range(n) if self.kinds[i] == "anchor"]
        for a_idx, a in enumerate(anchors):
            p = a
            while p > 0 and a - p < MAX_PROLOGUE and self.kinds[p - 1] in ("light", "view"):
                p -= 1
            e = a + 1
            while e < n and e - a - 1 < MAX_EPILOGUE and self.kinds[e] in ("light", "view"):
                e += 1
            # Every epilogue that ends on an operator (``linear, gelu`` as well as ``linear, gelu,
            # layer_norm``), every prologue that starts on one: other models share the short ones.
            for k in range(a + 1, e):
                if self._compute(k):
                    out.append(("typical", a, k + 1))
            for k in range(a - 1, p - 1, -1):
                if self._compute(k):
                    out.append(("typical", k, a + 1))
            if any(self._compute(k) for k in range(p, a)) and any(self._compute(k) for k in range(a + 1, e)):
                out.append(("typical", p, e))
            if a_idx + 1 < len(anchors):
                b = anchors[a_idx + 1]
                if all(self.kinds[k] in ("light", "view") for k in range(a + 1, b)) and b - a <= 8:
                    out.append(("typical", a, b + 1))
                    eb = b + 1
                    while eb < n and eb - b - 1 < MAX_EPILOGUE and self.kinds[eb] in ("light", "view"):
                        eb += 1
                    if eb > b + 1 and eb - a <= MAX_NODES and any(self._compute(k) for k in range(b + 1, eb)):
                        out.append(("typical", a, eb))
        seen: set[tuple[int, int]] = set()
        unique = []
        for cat, s, e in out:
            if (s, e) not in seen:
                seen.add((s, e))
                unique.append((cat, s, e))
        return unique

    # -- closure and extraction ----------------------------------------------------------------

    def _reject(self, why: str) -> None:
        self.rejected[why] = self.rejected.get(why, 0) + 1

    def _is_tensor(self, node: torch.fx.Node) -> bool:
        return isinstance(self.values.get(node), torch.Tensor)

    def close(self, start: int, end: int) -> tuple[int, int] | None:
        """Widen ``[start, end)`` until no non-tensor value crosses its boundary; None if it cannot."""
        for _ in range(6):
            members = set(self.ops[start:end])
            grow_start, grow_end = start, end
            for n in self.ops[start:end]:
                for a in n.all_input_nodes:
                    if a not in members and not self._is_tensor(a):
                        if a.op == "placeholder" or a not in self.pos:
                            return None
                        grow_start = min(grow_start, self.pos[a])
                for u in n.users:
                    if u not in members and not self._is_tensor(n):
                        if u.op == "output" or u not in self.pos:
                            return None
                        grow_end = max(grow_end, self.pos[u] + 1)
            if (grow_start, grow_end) == (start, end):
                return start, end
            if grow_end - grow_start > MAX_NODES:
                return None
            start, end = grow_start, grow_end
        return None

    def extract(self, category: str, start: int, end: int) -> Candidate | None:
        """The checked subgraph of ``ops[start:end]`` after closure, or None (reason counted)."""
        span = self.close(start, end)
        if span is None:
            self._reject("non-tensor boundary")
            return None
        start, end = span
        nodes = self.ops[start:end]
        members = set(nodes)
        if any(self.kinds[self.pos[n]] == "barrier" for n in nodes):
            self._reject("barrier inside")
            return None
        outs = [n for n in nodes if any(u not in members for u in n.users)]
        # Outputs that depend on no input (an ``arange`` the rest of the model reads) are
        # constants of the subgraph: computed if needed inside, never returned.
        depends: dict[torch.fx.Node, bool] = {}
        for n in nodes:
            depends[n] = any(a not in members or depends.get(a, False) for a in n.all_input_nodes)
        outs = [n for n in outs if depends[n]]
        for n in nodes:
            if is_inplace(n):
                target = n.args[0] if n.args and isinstance(n.args[0], torch.fx.Node) else None
                if target is None or target not in members or any(u not in members for u in target.users):
                    self._reject("in-place write escapes")
                    return None
        # Keep what the outputs need, plus in-place writes whose effect they see.
        live: set[torch.fx.Node] = set()
        stack = list(outs) + [n for n in nodes if is_inplace(n)]
        while stack:
            n = stack.pop()
            if n in live or n not in members:
                continue
            live.add(n)
            stack.extend(n.all_input_nodes)
        nodes = [n for n in nodes if n in live]
        if not outs or not nodes:
            self._reject("no output")
            return None
        n_compute = sum(self.kinds[self.pos[n]] in ("anchor", "light") for n in nodes)
        if n_compute == 0:
            self._reject("no operator")
            return None
        if category != "sole" and n_compute < 2:
            self._reject("one operator")
            return None
        inputs: list[torch.fx.Node] = []
        for n in nodes:
            for a in n.all_input_nodes:
                if a not in live and a not in inputs:
                    inputs.append(a)
        if not inputs:
            self._reject("no input")
            return None
        if len(inputs) > MAX_INPUTS or len(outs) > MAX_OUTPUTS or len(nodes) > MAX_NODES:
            self._reject("too large")
            return None
        in_values = [self.values[a] for a in inputs]
        if sum(v.numel() for v in in_values) > MAX_INPUT_NUMEL:
            self._reject("inputs too large")
            return None
        if not all(isinstance(self.values.get(o), torch.Tensor) for o in outs):
            self._reject("non-tensor output")
            return None
        g = torch.fx.Graph()
        env: dict[torch.fx.Node, torch.fx.Node] = {}
        for k, a in enumerate(inputs):
            env[a] = g.placeholder(f"in_{k}", type_expr=torch.Tensor)
        for j, n in enumerate(nodes):
            env[n] = g.create_node(
                n.op, n.target, torch.fx.map_arg(n.args, env.__getitem__), torch.fx.map_arg(n.kwargs, env.__getitem__),
                name=f"tmp_{j}",
            )
        g.output(tuple(env[o] for o in outs))
        try:
            code = model_source(g)
        except SampleError:
            self._reject("unserialisable")
            return None
        specs = [(tuple(v.shape), v.dtype) for v in in_values]
        exact = structural_hash(g, specs)
        key = group_key(g, specs)
        self._key_seen[key] = self._key_seen.get(key, 0) + 1
        if exact not in self._checked and len(self._key_hashes.setdefault(key, set())) >= MAX_PER_KEY:
            # Blocks that repeat with other channel counts (EfficientNet's 16 MBConvs) add
            # shapes the variants already give; keep a few per graph.
            self._reject("repeat of a kept operator sequence")
            return None
        # A repeat of a checked subgraph (the same layer again) needs no second check.
        if self.check and exact not in self._checked:
            if not self._reproduces(code, in_values, [self.values[o] for o in outs]):
                return None
            self._checked.add(exact)
        self._key_hashes.setdefault(key, set()).add(exact)
        metas = [
            dataclasses.replace(self._meta(a), name=f"in_{k}")
            for k, a in enumerate(inputs)
        ]
        ops = analyse_model_source(code, Path("model.py")).op_sequence
        return Candidate(category, code, metas, ops, exact, key, start, end)

    def _meta(self, node: torch.fx.Node) -> ArgMeta:
        if node not in self._metas:
            original = str(node.target) if node.op == "placeholder" else node.name
            self._metas[node] = tensor_meta(original, self.values[node], original_name=original)
        return self._metas[node]

    def _reproduces(self, code: str, inputs: list[torch.Tensor], expected: list[torch.Tensor]) -> bool:
        namespace: dict[str, Any] = {"__name__": "passagent_cut"}
        try:
            exec(compile(code, "<subgraph>", "exec"), namespace)  # noqa: S102 - code generated here
            with torch.no_grad():
                got = namespace["GraphModule"]()(*[t.clone() for t in inputs])
        except Exception:  # noqa: BLE001 - a subgraph that does not run is dropped, counted
            self._reject("does not run")
            return False
        if outputs_equal(tuple(expected), got) is not None:
            self._reject("outputs differ")
            return False
        return True

    def candidates(self) -> list[Candidate]:
        """Every valid subgraph of the graph, exact repeats merged (``occurrences`` counts them)."""
        by_hash: dict[str, Candidate] = {}
        seen_spans: set[tuple[int, int]] = set()
        for category, s, e in self.proposals():
            span = self.close(s, e)
            if span is not None and span in seen_spans:
                continue  # two proposals closed over to the same range
            cand = self.extract(category, s, e)
            if cand is None:
                continue
            seen_spans.add((cand.start, cand.end))
            if cand.hash in by_hash:
                by_hash[cand.hash].occurrences += 1
            else:
                by_hash[cand.hash] = cand
        for c in by_hash.values():
            c.key_occurrences = self._key_seen[c.key]
        return list(by_hash.values())
