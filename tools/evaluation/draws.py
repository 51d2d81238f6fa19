"""The inputs a candidate is checked and timed on, drawn alike in every process that needs them.

Every draw is a function of the subgraph's metadata and a :class:`DrawSpec` (seed, spread,
integer ranges), so the clean process and the candidate process make the same values without
sending them (``shared/docs/SCORING.md``, "The inputs a candidate is checked on"):

* **narrow** draws: GraphNet's replay (floating-point values at a fifth of the recorded spread),
  kept so scores compare with PassBench;
* a **spread** draw at the recorded spread (factor 1.0) and a **wide** one (factor 3.0), where
  integer inputs that index something are drawn over the whole indexed size, one-valued integer
  inputs (a mask recorded as all ones) over ``0..max(v, 1)``, and booleans take either value
  with probability one half;
* **timing pools** (:class:`TimingPool`): each timed call's inputs are a window, at a random
  offset, of a longer secret draw, so no two timed calls see the same values and a value cache
  has nothing to hit;
* **held-out shapes** (:func:`grown_subgraph`): every size the graph lets change grown, by a
  secret random amount (:func:`secret_growth`; a size of one too), in every tensor argument,
  integer, boolean and literal-data ones included.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

import torch

from ..tasks.inputs import SPREAD_FACTOR, synthesize_arg
from ..tasks.meta import TensorMeta
from ..tasks.loader import Subgraph

#: The factor of the recorded std of the spread and wide draws (SCORING.md).
SPREAD_DRAW, WIDE_DRAW = 1.0, 3.0
#: Probability of True of boolean inputs in the spread and wide draws.
BOOL_P = 0.5
#: A timing pool holds this many extra elements per argument at least (distinct offsets).
POOL_EXTRA_MIN = 4096
#: ... and at most this many (memory).
POOL_EXTRA_MAX = 2**20
_INT_DTYPES = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)


@dataclass(frozen=True)
class DrawSpec:
    """How one input draw is made (every process making it gets the same values on the CPU).

    Attributes:
        seed: the generator's seed.
        spread: factor on the recorded std of floating-point arguments.
        int_ranges: ``(argument index, low, high)``: integer arguments drawn from these inclusive
            ranges instead of their recorded bounds.
        bool_p: probability of True of boolean arguments (None: GraphNet's rule).
        label: ``narrow``, ``spread``, ``wide``, ``heldout`` (for messages).
    """

    seed: int
    spread: float = SPREAD_FACTOR
    int_ranges: tuple[tuple[int, int, int], ...] = ()
    bool_p: float | None = None
    label: str = "narrow"

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "spread": self.spread, "int_ranges": [list(r) for r in self.int_ranges],
                "bool_p": self.bool_p, "label": self.label}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "DrawSpec":
        return cls(seed=int(d["seed"]), spread=float(d["spread"]),
                   int_ranges=tuple((int(a), int(lo), int(hi)) for a, lo, hi in d.get("int_ranges", [])),
                   bool_p=None if d.get("bool_p") is None else float(d["bool_p"]), label=str(d.get("label", "narrow")))


def draw_inputs(sg: Subgraph, spec: DrawSpec, device: str | torch.device, degenerate_std: float,
                on_device: bool = False) -> list[Any]:
    """All forward arguments of ``sg`` for ``spec``: tensors of the recorded shapes and dtypes
    on ``device`` (drawn on the CPU and moved, unless ``on_device``), ints for SymInts."""
    gen = torch.Generator(device=device if on_device else "cpu")
    gen.manual_seed(spec.seed)
    ranges = {a: (lo, hi) for a, lo, hi in spec.int_ranges}
    out: list[Any] = []
    for i, arg in enumerate(sg.args):
        value = synthesize_arg(arg, gen, degenerate_std=degenerate_std, spread=spec.spread,
                               int_range=ranges.get(i), bool_p=spec.bool_p)
        out.append(value.to(device) if isinstance(value, torch.Tensor) else value)
    return out


def correctness_draws(seed: int, draws: int, int_ranges: tuple[tuple[int, int, int], ...] = (),
                      spread: float = SPREAD_DRAW, wide: float = WIDE_DRAW) -> list[DrawSpec]:
    """The draws every candidate (and default Inductor) is checked on: ``draws`` narrow ones
    (seeds ``seed .. seed+draws-1``, GraphNet's), then one at ``spread`` and one at ``wide`` with
    the widened integer ranges and both boolean values (seeds ``seed+draws``, ``seed+draws+1``).
    ``spread``/``wide`` are lowered by the clean process where eager's outputs stop being finite."""
    specs = [DrawSpec(seed=seed + k) for k in range(draws)]
    specs.append(DrawSpec(seed=seed + draws, spread=spread, int_ranges=int_ranges, bool_p=BOOL_P, label="spread"))
    specs.append(DrawSpec(seed=seed + draws + 1, spread=wide, int_ranges=int_ranges, bool_p=BOOL_P, label="wide"))
    return specs


# -- integer ranges ----------------------------------------------------------------------------


def index_ranges(sg: Subgraph, module: torch.nn.Module) -> dict[int, tuple[int, int]]:
    """Integer arguments that index a tensor argument, with the range the indexed size allows.

    Found by tracing ``module`` (the subgraph's eager module) with ``torch.fx.symbolic_trace``:
    an argument used directly as the indices of ``embedding`` (``weight.shape[0]``),
    ``index_select`` / ``gather`` (the indexed dimension) or tensor indexing ``x[idx]`` (dim 0).
    An argument used both ways, or a graph that does not trace, gives nothing for it.
    """
    try:
        gm = torch.fx.symbolic_trace(module)
    except Exception:  # noqa: BLE001 - graphs with data-dependent control flow: no ranges known
        return {}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    index_of = {n: i for i, n in enumerate(placeholders)}
    found: dict[int, set[tuple[int, int]]] = {}

    def note(idx_node: Any, table_node: Any, dim: int) -> None:
        if idx_node in index_of and table_node in index_of:
            i, t = index_of[idx_node], index_of[table_node]
            if i < len(sg.args) and t < len(sg.args) and sg.args[i].dtype in _INT_DTYPES:
                shape = sg.args[t].shape
                if -len(shape) <= dim < len(shape) and shape[dim] > 0:
                    found.setdefault(i, set()).add((0, shape[dim] - 1))

    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        name = getattr(n.target, "__name__", str(n.target))
        args = list(n.args) + [n.kwargs.get(k) for k in ("input", "weight", "dim", "index") if k in n.kwargs]
        if name == "embedding" and len(n.args) >= 2:
            note(n.args[0], n.args[1], 0)
        elif name in ("index_select", "gather") and len(n.args) >= 3 and isinstance(n.args[1], int):
            note(n.args[2], n.args[0], n.args[1])
        elif name == "getitem" and len(args) >= 2 and args[1] in index_of:
            note(args[1], args[0], 0)
    return {i: next(iter(r)) for i, r in found.items() if len(r) == 1}


def widened_int_ranges(sg: Subgraph, indices: dict[int, tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    """The integer ranges of the spread and wide draws: an index argument over its whole valid
    range (``indices``, :func:`index_ranges`), a one-valued integer argument ``v >= 0`` over
    ``0..max(v, 1)``; the others keep their recorded bounds (not listed)."""
    out = []
    for i, arg in enumerate(sg.args):
        m = arg.meta
        if arg.is_symint or m.data is not None or m.dtype not in _INT_DTYPES or m.min_val is None or m.max_val is None:
            continue
        lo, hi = int(m.min_val), int(m.max_val)
        if i in indices:
            wlo, whi = indices[i]
        elif lo == hi and lo >= 0:
            wlo, whi = 0, max(lo, 1)
        else:
            continue
        if (wlo, whi) != (lo, hi):
            out.append((i, wlo, whi))
    return tuple(out)


# -- timing pools ------------------------------------------------------------------------------


class TimingPool:
    """Secret inputs for timed calls: per argument, one draw longer than the argument, from which
    each call takes a window at an offset the referee picks (:meth:`inputs`).

    Args:
        sg: the subgraph.
        spec: the draw (its seed is secret until timing starts; GraphNet's narrow spread).
        device: where the pool lives (drawn there with its own generator).
        degenerate_std: see :func:`passagent.tools.tasks.inputs.synthesize_arg`.
    """

    def __init__(self, sg: Subgraph, spec: DrawSpec, device: torch.device, degenerate_std: float):
        gen = torch.Generator(device=device)
        gen.manual_seed(spec.seed)
        self.shapes: list[tuple[int, ...] | None] = []
        self.pools: list[Any] = []
        self.extra: list[int] = []
        for arg in sg.args:
            m = arg.meta
            if arg.is_symint or m.data is not None:
                value = synthesize_arg(arg, gen, degenerate_std=degenerate_std)
                self.pools.append(value.to(device) if isinstance(value, torch.Tensor) else value)
                self.shapes.append(None)
                self.extra.append(0)
                continue
            extra = max(POOL_EXTRA_MIN, min(m.numel, POOL_EXTRA_MAX))
            flat = dataclasses.replace(arg, meta=dataclasses.replace(m, shape=(m.numel + extra,)))
            self.pools.append(synthesize_arg(flat, gen, degenerate_std=degenerate_std, spread=spec.spread))
            self.shapes.append(m.shape)
            self.extra.append(extra)

    def offsets(self, r: int) -> list[int]:
        """Each argument's offset for call number ``r`` (a secret integer from the referee)."""
        return [(r * (2 * k + 1) + k) % (e + 1) if e else 0 for k, e in enumerate(self.extra)]

    def fill(self, buffers: list[Any], r: int) -> None:
        """Copy call ``r``'s values into ``buffers`` (a list :meth:`inputs` made); arguments that
        are not drawn (literal data, SymInts) are left as they are, unless a call changed them."""
        for k, (buf, pool, shape, off) in enumerate(zip(buffers, self.pools, self.shapes, self.offsets(r))):
            if shape is None:
                if isinstance(pool, torch.Tensor):
                    buf.copy_(pool)
                continue
            buf.copy_(pool[off:off + math.prod(shape)].view(shape))

    def inputs(self, r: int) -> list[Any]:
        """Fresh buffers (contiguous copies) of every argument for call ``r``."""
        out = []
        for pool, shape, off in zip(self.pools, self.shapes, self.offsets(r)):
            if shape is None:
                out.append(pool.clone() if isinstance(pool, torch.Tensor) else pool)
            else:
                n = math.prod(shape)
                out.append(pool[off:off + n].reshape(shape).clone())
        return out


# -- held-out shapes ---------------------------------------------------------------------------

#: At most this many distinct sizes are tried (each try is one eager check on fake tensors).
MAX_SIZES = 12


def size_candidates(sg: Subgraph) -> list[int]:
    """Distinct sizes among every tensor argument's dimensions, most frequent first (1 included)."""
    counts = Counter(d for a in sg.args if not a.is_symint for d in a.shape)
    return [s for s, _ in counts.most_common()]


def secret_growth(sizes: list[int], seed: int) -> dict[int, int]:
    """A new size for each of ``sizes``: larger by a random amount from 1 to a quarter of the size
    (at least 2), drawn from ``seed`` (secret), so that no table a pass ships can hold the held-out
    shapes: one that knows every measured shape still cannot know these."""
    import random

    rng = random.Random(seed)
    return {s: s + rng.randint(1, max(2, s // 4)) for s in sizes}


def _grown_meta(m: TensorMeta, growth: dict[int, int]) -> TensorMeta:
    shape = tuple(growth.get(d, d) for d in m.shape)
    if shape == m.shape:
        return m
    if m.data is None:
        return dataclasses.replace(m, shape=shape)
    # Literal data of another size: drawn from the values the data holds instead.
    values = torch.tensor(m.data, dtype=torch.float64) if m.data else torch.zeros(1, dtype=torch.float64)
    if m.dtype.is_floating_point or m.dtype.is_complex:
        return dataclasses.replace(m, shape=shape, data=None, mean=float(values.mean()),
                                   std=float(values.std()) if values.numel() > 1 else 0.0)
    return dataclasses.replace(m, shape=shape, data=None, min_val=float(values.min()), max_val=float(values.max()))


def grown_subgraph(sg: Subgraph, growth: dict[int, int]) -> Subgraph:
    """``sg`` with every dimension whose size is a key of ``growth`` changed to its value, in every
    tensor argument (integer, boolean and literal-data ones included), and every SymInt whose
    value is a key changed alike."""
    args = []
    for a in sg.args:
        if a.is_symint:
            v = int(a.meta.data[0]) if a.meta.data else int(round(a.meta.mean or 0))
            if v in growth:
                a = dataclasses.replace(a, meta=dataclasses.replace(a.meta, data=(growth[v],)))
        else:
            a = dataclasses.replace(a, meta=_grown_meta(a.meta, growth))
        args.append(a)
    return dataclasses.replace(sg, args=tuple(args))


def growth_to_json(growth: dict[int, int]) -> list[list[int]]:
    return [[int(k), int(v)] for k, v in sorted(growth.items())]


def growth_from_json(pairs: Any) -> dict[int, int]:
    return {int(k): int(v) for k, v in pairs}
