"""Write GraphNet samples: ``model.py`` from an FX graph, ``weight_meta.py`` from tensor statistics.

The format is GraphNet's (see ``shared/README.md``): ``model.py`` holds a ``GraphModule`` whose
``forward`` takes every parameter and input as an argument; ``weight_meta.py`` holds one class
per argument with its shape, dtype, device, mean and std rounded to 3 decimals, literal
``data`` for small integer and boolean tensors, and ``min_val``/``max_val`` for integer tensors
(token ids, positions: inputs are drawn uniformly in that range) and for non-negative
floating-point activations (variances, probabilities: draws are clamped there so that a
``rsqrt`` or ``log`` at the start of a subgraph stays in its domain).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.fx

#: Integer and boolean tensors with at most this many elements are stored as literal ``data``.
SMALL_DATA_NUMEL = 64
#: Globals an FX graph's code may use, and the import line that provides each.
_IMPORTS = {
    "torch": "import torch",
    "device": "from torch import device",
    "inf": "from math import inf",
    "nan": "from math import nan",
}


class SampleError(Exception):
    """A graph cannot be written as a GraphNet sample (the message says why)."""


@dataclass(frozen=True)
class ArgMeta:
    """Statistics of one forward argument, as written to ``weight_meta.py``.

    Attributes:
        name: the forward parameter name.
        shape: tensor shape.
        dtype: ``"torch.float32"`` style string.
        device: ``"cpu"``.
        mean, std: value statistics of floating-point tensors (None otherwise).
        min_val, max_val: sampling range (integers) or clamp (non-negative floats); None if absent.
        data: flat literal values for small integer/bool tensors, else None.
        original_name: the name in the graph it was cut from (placeholder or node name).
    """

    name: str
    shape: tuple[int, ...]
    dtype: str
    device: str
    mean: float | None
    std: float | None
    min_val: float | int | None
    max_val: float | int | None
    data: tuple[Any, ...] | None
    original_name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}

    @staticmethod
    def from_json(d: dict[str, Any]) -> "ArgMeta":
        return ArgMeta(**{**d, "shape": tuple(d["shape"]), "data": tuple(d["data"]) if d.get("data") is not None else None})


def tensor_meta(name: str, t: torch.Tensor, original_name: str | None = None) -> ArgMeta:
    """Statistics of tensor ``t`` for argument ``name`` (see the module docstring for the rules).

    Args:
        name: the forward argument name.
        t: the value seen at capture (any dtype, any device; read, not modified).
        original_name: recorded as ``original_name`` when given.
    """
    shape = tuple(int(d) for d in t.shape)
    dtype = str(t.dtype)
    mean = std = lo = hi = None
    data = None
    numel = t.numel()
    if t.dtype.is_floating_point or t.dtype.is_complex:
        if numel:
            # float32 statistics are exact to the 3 decimals written; float64 would double the cost.
            x = t.detach().float() if not t.dtype.is_complex else t.detach().abs().float()
            if numel > 1:
                s, m = torch.std_mean(x)
                mean, std = float(m), float(s)
            else:
                mean, std = float(x.reshape(())), 0.0
            if numel > 1 and math.isfinite(std) and std > 0:
                x_min, x_max = torch.aminmax(x)
                if float(x_min) >= 0 and math.isfinite(float(x_max)):
                    lo = math.floor(float(x_min) * 1000) / 1000
                    hi = math.ceil(float(x_max) * 1000) / 1000
    elif numel <= SMALL_DATA_NUMEL:
        data = tuple(t.detach().cpu().flatten().tolist())
    elif t.dtype is not torch.bool and numel:
        lo, hi = int(t.min()), int(t.max())
    return ArgMeta(name, shape, dtype, "cpu", mean, std, lo, hi, data, original_name)


def _num(v: float) -> str:
    if math.isnan(v):
        return "float('nan')"
    if math.isinf(v):
        return "float('inf')" if v > 0 else "float('-inf')"
    return f"{v:.3f}" if abs(v) < 1e6 else repr(round(v, 3))


def weight_meta_source(metas: list[ArgMeta]) -> str:
    """``weight_meta.py`` text: one ``Program_weight_tensor_meta_<name>`` class per argument."""
    blocks = []
    for m in metas:
        lines = [
            f"class Program_weight_tensor_meta_{m.original_name or m.name}:",
            f'    name = "{m.name}"',
        ]
        if m.original_name and m.original_name != m.name:
            lines.append(f'    original_name = "{m.original_name}"')
        lines += [
            f"    shape = {list(m.shape)}",
            f'    dtype = "{m.dtype}"',
            f'    device = "{m.device}"',
            f"    mean = {'None' if m.mean is None else _num(m.mean)}",
            f"    std = {'None' if m.std is None else _num(m.std)}",
            f"    data = {'None' if m.data is None else repr(list(m.data))}",
        ]
        if m.min_val is not None:
            lines.append(f"    min_val = {m.min_val if isinstance(m.min_val, int) else _num(m.min_val)}")
        if m.max_val is not None:
            lines.append(f"    max_val = {m.max_val if isinstance(m.max_val, int) else _num(m.max_val)}")
        blocks.append("\n".join(lines) + "\n")
    return "\n\n".join(blocks)


def _readable_targets(src: str) -> str:
    """``torch._C._nn.linear(`` -> ``torch.nn.functional.linear(`` where they are the same object.

    Dynamo records the C builtin; GraphNet and PassNet samples spell the functional name, and
    Dynamo re-captures either spelling as the same target.
    """
    import torch.nn.functional as F

    def repl(m: re.Match[str]) -> str:
        name = m.group(1)
        if getattr(F, name, None) is getattr(torch._C._nn, name, object()):
            return f"torch.nn.functional.{name}("
        return m.group(0)

    return re.sub(r"torch\._C\._nn\.(\w+)\(", repl, src)


def model_source(graph: torch.fx.Graph, class_name: str = "GraphModule") -> str:
    """``model.py`` text for an FX graph whose placeholders are all the forward's arguments.

    Raises:
        SampleError: the graph has ``get_attr``/``call_module`` nodes (state outside the
            arguments) or its code needs a global other than ``torch``, ``device``, ``inf``
            or ``nan`` (a user function Dynamo kept in the graph, say).
    """
    for n in graph.nodes:
        if n.op in ("get_attr", "call_module"):
            raise SampleError(f"node {n.name} is {n.op} {n.target!r}: the graph holds state outside its arguments")
    pc = graph.python_code(root_module="self", verbose=False)
    src = _readable_targets(pc.src.strip("\n"))
    imports = []
    for name in pc.globals:
        if not re.search(rf"(?<![\w.]){re.escape(name)}\b", src):
            continue
        if name not in _IMPORTS:
            raise SampleError(f"the graph's code needs the global {name!r}, which a sample cannot import")
        imports.append(_IMPORTS[name])
    if "import torch" not in imports:
        imports.insert(0, "import torch")
    body = "\n".join(("    " + line) if line.strip() else "" for line in src.splitlines())
    return "\n".join(sorted(set(imports), key=imports.index)) + f"\n\n\nclass {class_name}(torch.nn.Module):\n{body}\n"


def write_sample(folder: Path, model_py: str, metas: list[ArgMeta], info: dict[str, Any] | None = None,
                 graph_hash: str | None = None) -> Path:
    """Write a GraphNet sample folder (``model.py``, ``weight_meta.py``, ``graph_net.json``, ``graph_hash.txt``).

    Args:
        folder: created if missing; existing files are overwritten.
        model_py: the ``model.py`` text.
        metas: one entry per forward argument, in order.
        info: written as ``graph_net.json`` when given (``model_name``, ``source``, ...).
        graph_hash: written as ``graph_hash.txt`` when given.

    Returns:
        ``folder``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.py").write_text(model_py)
    (folder / "weight_meta.py").write_text(weight_meta_source(metas))
    if info is not None:
        (folder / "graph_net.json").write_text(json.dumps(info, indent=4) + "\n")
    if graph_hash is not None:
        (folder / "graph_hash.txt").write_text(graph_hash + "\n")
    return folder
