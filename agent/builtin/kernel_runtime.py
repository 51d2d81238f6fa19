"""The run-time half of a generated-kernel pass file (:mod:`.triton_gen`): the helpers every such
file carries, as source text, and the file's assembly.

The helpers run inside the pass, in the evaluation worker, not here: this module only holds
their text, so the policy imports without Triton. They are the launcher's per-call host work
(``_promote``, ``_row_space``, ``_row_config``), kept to plain Python on shapes, strides and
dtypes: a pass may keep no state across calls (the static checks' ``global_state`` and
``identity_cache`` rules), so nothing is cached, and Triton's own host helpers
(``triton.next_power_of_2``, ``triton.cdiv``) cost microseconds per call and are not used.
Under Inductor the launcher runs once, at trace time (``tools/passes/triton_ops.py``).
"""

from __future__ import annotations

import textwrap

#: Source text of the helpers (jitted math, dtype promotion, the row space, launch parameters).
HELPERS = '''
@triton.jit
def _tanh(a):
    e = tl.exp(-2.0 * tl.abs(a))
    t = (1.0 - e) / (1.0 + e)
    return tl.where(a < 0, -t, t)


@triton.jit
def _gelu_tanh(a):
    return 0.5 * a * (1.0 + _tanh(0.7978845608028654 * (a + 0.044715 * a * a * a)))


_WIDER = {torch.float16: 1, torch.bfloat16: 1, torch.float32: 2, torch.float64: 3}


def _promote(*operands):
    """(dtype, ndim) of an elementwise result of float operands: dimensioned operands decide,
    else zero-dimensional ones, else numbers (ndim -1); float16 with bfloat16 gives float32
    (PyTorch's promotion table)."""
    if len(operands) == 1 or all(o == operands[0] for o in operands):
        return operands[0]  # the usual case, without building the pool
    # Python numbers (ndim -1) decide only where no operand is a tensor, as in PyTorch.
    pool = [d for d, n in operands if n > 0] or [d for d, n in operands if n == 0] or [d for d, _ in operands]
    out = pool[0]
    for d in pool[1:]:
        if d != out:
            out = d if _WIDER[d] > _WIDER[out] else out if _WIDER[out] > _WIDER[d] else torch.float32
    return (out, max(n for _, n in operands))


def _numbers_as_tensors(*args):
    """The launcher's arguments with each Python number as a 0-d float32 tensor on the first
    tensor's device (the kernel computes in float32, so the value is not rounded to a narrower
    dtype), and the positions that were numbers. Raises TypeError on anything else."""
    device = next(a.device for a in args if isinstance(a, torch.Tensor))
    out, numbers = [], []
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor):
            out.append(a)
        elif isinstance(a, (bool, int, float)):
            out.append(torch.full((), float(a), dtype=torch.float32, device=device))
            numbers.append(i)
        else:
            raise TypeError(f"argument {i} of the generated kernel is {a!r}, not a tensor or a number")
    return tuple(out), tuple(numbers)


def _row_space(tensors):
    """The broadcast shape of the inputs (a list), the same as four dimensions (leading ones
    merged), and each input's four strides in it (0 where it broadcasts), in elements.

    One pass over each input's ``shape`` and ``stride()`` tuples: under Inductor this runs
    once, at trace time, but a direct call (strict mode, eager use of the pass) pays it per call.

    Raises:
        ValueError: the shapes do not broadcast, or an input's merged leading dimensions are
            not evenly strided.
    """
    full = tensors[0].shape
    for t in tensors:
        if len(t.shape) > len(full):
            full = t.shape
    rank = len(full)
    if 0 < rank <= 4:
        strides = []
        for t in tensors:
            if t.shape != full[rank - t.dim():]:
                break
            strides.append([0] * (4 - t.dim()) + list(t.stride()))
        else:
            # The common case: every input's shape is a suffix of the row space (no size-1
            # dimension broadcasts), so the strides are the inputs' own, zero in front.
            return list(full), [1] * (4 - rank) + list(full), strides
    rank = max(rank, 1)
    shape = [1] * rank
    for t in tensors:
        off = rank - t.dim()
        for k, n in enumerate(t.shape):
            if n != 1:
                if shape[off + k] == 1:
                    shape[off + k] = n
                elif shape[off + k] != n:
                    raise ValueError(f"shapes {[list(x.shape) for x in tensors]} do not broadcast")
    if rank <= 4:
        pad = [1] * (4 - rank) + shape
        strides = []
        for t in tensors:
            st = [0] * (4 - t.dim()) + [s if n != 1 else 0 for n, s in zip(t.shape, t.stride())]
            strides.append(st)
        return shape, pad, strides
    merged = rank - 3
    lead = 1
    for n in shape[:merged]:
        lead *= n
    strides = []
    for t in tensors:
        st = [0] * (rank - t.dim()) + [s if n != 1 else 0 for n, s in zip(t.shape, t.stride())]
        for k in range(merged - 1):  # the merged leading dims must step evenly
            if shape[k + 1] != 1 and st[k] != st[k + 1] * shape[k + 1]:
                raise ValueError(f"an input of shape {list(t.shape)} cannot be read as four dimensions")
        strides.append([st[merged - 1]] + st[merged:])
    return shape, [lead] + shape[merged:], strides


def _row_config(block, n_rows):
    """(rows per program, num_warps) of the row layout for rows of ``block`` (a power of two)
    columns, after Inductor's persistent-reduction heuristics
    (``torch/_inductor/runtime/triton_heuristics.py``: ``XBLOCK = 2 * (256 // rnumel)`` rows for
    rows of at most 256 elements, else one; ``num_warps`` = elements per program // 128 as a
    power of two in [2, 8], up to 16 past 8192 columns)."""
    rows = 1 if block > 256 else min(2 * (256 // block), _pow2(n_rows))
    return rows, _pow2(min(max(rows * block // 128, 2), 8 if block <= 8192 else 16))


def _pow2(n):
    """The least power of two >= n (n >= 1): ``triton.next_power_of_2`` costs microseconds per call."""
    return 1 << (n - 1).bit_length() if n > 1 else 1


if torch.cuda.is_available():
    @triton.jit
    def _rsqrt(a):
        # CUDA's rsqrtf, as eager's rsqrt and Inductor's libdevice.rsqrt compute it.
        return libdevice.rsqrt(a)
else:
    @triton.jit
    def _rsqrt(a):
        # Triton's interpreter (no CUDA device) has no libdevice.
        return tl.rsqrt(a)
'''


def assemble(title: str, doc: str, pattern_src: str, params: tuple[str, ...], helpers: str, func: str) -> str:
    """The pass file: docstring, imports, the pattern, ``replacement_args``, the helpers and
    launcher (``helpers``), ``replacement_func`` returning ``func``."""
    args = ", ".join(params) + ("," if len(params) == 1 else "")
    doc = textwrap.fill(" ".join(doc.split()), 96)
    return (f'"""{title}\n\n{doc}\n"""\n\nimport torch\nimport triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n\n\n'
            f"{pattern_src.rstrip()}\n\n\ndef replacement_args({', '.join(params)}):\n    return ({args})\n\n"
            f"{textwrap.dedent(helpers).rstrip()}\n\n\ndef replacement_func():\n    return {func}\n")
