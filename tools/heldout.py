"""Held-out shapes: inputs at sizes no checked or timed call used, where the graph allows them.

A candidate may specialise to the task's shapes, but it must not be right only where it is
measured (EXPLOITS.md row 18, "hard-code shapes or constants from metadata"; KernelGuard
``HARDCODED_SHAPES``, ``BENCHMARK_SHAPE_REPLAY``). So every size the graph lets change is
grown, not only the leading one: each distinct size among the floating-point activations and
weights (no literal data) is grown by one, greedily, most frequent first, and kept where eager
PyTorch still runs the graph (a reshape to a literal size, say, makes eager refuse it; then
that size stays). The draws come from a seed the caller keeps secret.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Callable

import torch

from .inputs import synthesize_inputs
from .tasks import Subgraph

#: At most this many distinct sizes are tried (each try is one eager call).
MAX_SIZES = 8


def _resizable(sg: Subgraph) -> list[Any]:
    return [a for a in sg.args if not a.is_symint and a.meta.data is None and len(a.shape) >= 1
            and a.dtype.is_floating_point]


def grown_subgraph(sg: Subgraph, sizes: set[int]) -> Subgraph:
    """``sg`` with every dimension of a resizable argument whose size is in ``sizes`` grown by one."""
    acts = _resizable(sg)
    args = []
    for a in sg.args:
        if a in acts:
            shape = tuple(d + 1 if d in sizes else d for d in a.shape)
            a = dataclasses.replace(a, meta=dataclasses.replace(a.meta, shape=shape))
        args.append(a)
    return dataclasses.replace(sg, args=tuple(args))


def heldout_inputs(sg: Subgraph, seed: int, device: torch.device, degenerate_std: float,
                   accepts: Callable[[list[Any]], bool], on_device: bool = False) -> tuple[list[Any], list[int]] | None:
    """Inputs with every size the graph allows grown by one, and the sizes grown; None if none can be.

    Args:
        sg: the subgraph.
        seed: the draw's seed (secret: the candidate must not be able to regenerate the draw).
        device: where to place the tensors.
        degenerate_std: see :func:`passagent.tools.inputs.synthesize_arg`.
        accepts: ``accepts(inputs)`` -> whether eager runs the graph on them (it may raise; that
            counts as refusing).
        on_device: draw on ``device`` with its own generator (:func:`passagent.tools.inputs.synthesize_inputs`).
    """
    counts = Counter(d for a in _resizable(sg) for d in a.shape if d > 1)
    chosen: set[int] = set()
    best: list[Any] | None = None
    for size, _n in counts.most_common(MAX_SIZES):
        trial = chosen | {size}
        inputs = synthesize_inputs(grown_subgraph(sg, trial), 0, seed=seed, device=device, degenerate_std=degenerate_std,
                                   on_device=on_device)
        try:
            ok = accepts(inputs)
        except Exception:  # noqa: BLE001 - eager refuses this size: it is fixed by the graph
            ok = False
        if ok:
            chosen, best = trial, inputs
    return (best, sorted(chosen)) if best is not None else None
