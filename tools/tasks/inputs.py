"""Synthesise subgraph inputs from recorded metadata, the way GraphNet does, seeded.

GraphNet stores statistics, not values, and replays each argument as (GraphNet
``graph_net/torch/utils.py``, ``replay_tensor`` and ``convert_meta_classes_to_tensors``):

* an integer tensor with both ``min_val`` and ``max_val``: uniform integers in
  ``[min_val, max_val]`` (this takes precedence over literal data);
* literal ``data``: exactly those values, reshaped;
* ``bool``: ``randn > 0.5``;
* floating point: ``randn(shape).to(dtype) * std * SPREAD_FACTOR + mean`` with
  ``SPREAD_FACTOR = 0.2`` (std None -> 0.1, mean None -> 0), then clamped to
  ``[min_val, max_val]`` where given, non-finite values replaced by small noise, and the
  result clamped to ``[-100, 100]``.

One deliberate difference, for signal: GraphNet rounds std to 3 decimals, so a real
activation often records ``std = 0.000`` and GraphNet then fills the tensor with its mean:
every input is (say) zero, and a pass with wrong maths matches the reference exactly. Here a
floating-point argument with more than one element and a recorded std of exactly 0 is drawn
with ``std = DEGENERATE_STD_FALLBACK`` instead (values ``mean +- 0.2`` typically). A 0-d or
one-element argument keeps its mean: a single value has no spread to lose, and such scalars
are often configuration (an interpolation scale factor) that must not change between draws.
"""

from __future__ import annotations

import torch

from .loader import ArgSpec, Subgraph

#: GraphNet's spread factor applied to the recorded std (``replay_tensor``).
SPREAD_FACTOR = 0.2
#: std used instead of a recorded 0 for multi-element floating-point arguments (see module doc).
DEGENERATE_STD_FALLBACK = 1.0
#: GraphNet's final clamp for floating-point inputs.
FLOAT_CLAMP = 100.0
#: Seed of draw 0; draw k uses ``seed + k``.
DEFAULT_SEED = 0


def is_degenerate(spec: ArgSpec) -> bool:
    """True if GraphNet would fill this argument with a constant although it has >1 element."""
    m = spec.meta
    return (
        not spec.is_symint
        and m.data is None
        and m.dtype.is_floating_point
        and m.std == 0
        and m.numel > 1
    )


def synthesize_arg(
    spec: ArgSpec,
    generator: torch.Generator,
    *,
    degenerate_std: float = DEGENERATE_STD_FALLBACK,
    spread: float = SPREAD_FACTOR,
    int_range: tuple[int, int] | None = None,
    bool_p: float | None = None,
) -> torch.Tensor | int:
    """Draw one argument on the generator's device.

    Args:
        spec: the argument's metadata.
        generator: a seeded generator; the tensor is made on its device. A CPU generator's
            draws are the same on every machine for a seed; a CUDA generator's are not (another
            RNG), from the same distribution.
        degenerate_std: std used when the recorded std is 0 (see module docstring).
        spread: the factor on the recorded std of a floating-point argument (GraphNet's
            :data:`SPREAD_FACTOR` by default; ``shared/docs/SCORING.md`` adds draws at 1.0 and 3.0).
        int_range: ``(low, high)``, inclusive, to draw an integer argument with recorded bounds
            from instead of them (a range wider than the recorded one, valid for the graph).
        bool_p: probability of True for a boolean argument; None: GraphNet's ``randn > 0.5``.

    Returns:
        A tensor of ``spec.shape`` and ``spec.dtype`` on ``generator.device``, or a Python int for
        a SymInt.
    """
    dev = generator.device
    m = spec.meta
    if spec.is_symint:
        if m.data is not None:
            return int(m.data[0])
        return int(round(m.mean or 0))
    dtype = m.dtype
    int_dtypes = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)
    if dtype in int_dtypes and m.min_val is not None and m.max_val is not None:
        low, high = int_range if int_range is not None else (int(m.min_val), int(m.max_val))
        return torch.randint(low, high + 1, m.shape, dtype=dtype, generator=generator, device=dev)
    if m.data is not None:
        return torch.tensor(m.data, dtype=dtype, device=dev).reshape(m.shape)
    if dtype is torch.bool:
        if bool_p is not None:
            return torch.rand(m.shape, generator=generator, device=dev) < bool_p
        return torch.randn(m.shape, generator=generator, device=dev) > 0.5
    if not (dtype.is_floating_point or dtype.is_complex):
        # Integers without data or bounds: GraphNet has no rule; use [min_val or 0, that + 1].
        low = int(m.min_val) if m.min_val is not None else 0
        high = int(m.max_val) if m.max_val is not None else low + 1
        return torch.randint(low, high + 1, m.shape, dtype=dtype, generator=generator, device=dev)
    mean = 0.0 if m.mean is None else m.mean
    std = 0.1 if m.std is None else m.std
    if std == 0 and is_degenerate(spec):
        std = degenerate_std
    if std == 0:
        tensor = torch.full(m.shape, mean, dtype=dtype, device=dev)
    else:
        tensor = torch.randn(m.shape, generator=generator, device=dev).to(dtype) * std * spread + mean
    if m.min_val is not None:
        tensor = torch.clamp(tensor, min=m.min_val)
    if m.max_val is not None:
        tensor = torch.clamp(tensor, max=m.max_val)
    noise = torch.randn(m.shape, generator=generator, device=dev).to(dtype) * 0.01
    tensor = torch.where(torch.isfinite(tensor), tensor, noise)
    return torch.clamp(tensor, min=-FLOAT_CLAMP, max=FLOAT_CLAMP)


def synthesize_inputs(
    subgraph: Subgraph,
    draw: int = 0,
    *,
    seed: int = DEFAULT_SEED,
    device: str | torch.device = "cpu",
    degenerate_std: float = DEGENERATE_STD_FALLBACK,
    on_device: bool = False,
) -> list[torch.Tensor | int]:
    """All forward arguments of ``subgraph`` for input draw number ``draw``.

    Draw ``k`` is seeded with ``seed + k`` and, by default, generated on the CPU, then moved to
    ``device``, so a draw is identical on every device and every machine with the same torch
    version (``on_device`` trades that for drawing on the device).

    Args:
        subgraph: the subgraph.
        draw: which draw (0, 1, 2, ...); each is a fresh, independent set of values.
        seed: base seed.
        device: where to place tensors.
        degenerate_std: see :func:`synthesize_arg`.
        on_device: generate on ``device`` itself with its own generator (a CUDA device's RNG):
            the same distribution, other values, not reproducible on the CPU. For draws whose
            seed is secret and never regenerated elsewhere (the timing step's secret draws, the
            held-out shape), where drawing large weights on the host while the device lease is
            held would cost host time under the lease. The same as the default on the CPU.

    Returns:
        One value per forward argument: tensors of the recorded shapes and dtypes, ints for
        SymInts.
    """
    gen = torch.Generator(device=device if on_device else "cpu")
    gen.manual_seed(seed + draw)
    out: list[torch.Tensor | int] = []
    for spec in subgraph.args:
        value = synthesize_arg(spec, gen, degenerate_std=degenerate_std)
        if isinstance(value, torch.Tensor):
            value = value.to(device)
        out.append(value)
    return out


def clone_inputs(args: list[torch.Tensor | int]) -> list[torch.Tensor | int]:
    """Fresh copies of every tensor argument (graphs mutate inputs in place: ``relu_``, ``*=``)."""
    return [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
