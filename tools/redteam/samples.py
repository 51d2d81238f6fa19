"""The small GraphNet-format subgraphs the red-team corpus runs on, written on demand.

Each sample is a ``model.py`` (one ``GraphModule.forward``) and a ``weight_meta.py`` with one
metadata class per argument (shape, dtype, mean 0, std 1, and optionally a recorded
``min_val``/``max_val``), the format GraphNet records (``graph_net/torch/utils.py``); the harness
synthesises inputs from it like any task's.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

#: name -> (forward body, {argument: (shape, dtype) or (shape, dtype, (min_val, max_val))}).
SAMPLES: dict[str, tuple[str, dict[str, tuple[Any, ...]]]] = {
    # The BGE pooler tail of PassBench task b511: normalize of a one-tensor cat.
    "catnorm": ("y = torch.nn.functional.normalize(torch.cat([x], 1), p=2, dim=1)\nreturn (y,)", {"x": ([16, 64], "float32")}),
    "normalize32": ("y = torch.nn.functional.normalize(x, p=2, dim=1)\nreturn (y,)", {"x": ([16, 64], "float32")}),
    "identity": ("y = x * 1.0\nreturn (y,)", {"x": ([32, 64], "float32")}),
    "silu": ("y = x * torch.sigmoid(x)\nreturn (y,)", {"x": ([64, 256], "float32")}),
    # A graph that writes its input in place (relu_, add_ in real graphs).
    "mutating": ("x.add_(1.0)\ny = x * 2.0\nreturn (y,)", {"x": ([64, 64], "float32")}),
    # A float32 convolution: cuDNN runs it in TF32 by default; the reference must not.
    "conv32": ("y = torch.nn.functional.conv2d(x, w, None, 1, 1)\nreturn (y,)",
               {"x": ([8, 64, 32, 32], "float32"), "w": ([64, 64, 3, 3], "float32")}),
    # A graph whose output depends on random numbers (dropout in training mode).
    "dropout": ("d = torch.nn.functional.dropout(x, 0.5, True)\ny = d * 2.0\nreturn (y,)", {"x": ([64, 64], "float32")}),
    # A dense output whose rows are each one value: a zero-stride view of the row sums has them.
    "rowsum": ("s = x.sum(1, keepdim=True)\ny = s * torch.ones_like(x)\nreturn (y,)", {"x": ([16, 64], "float32")}),
    # An integer mask recorded with one value (all ones), as real attention masks often are.
    "masked": ("y = x * mask\nreturn (y,)", {"x": ([16, 64], "float32"), "mask": ([16, 64], "int64", (1, 1))}),
    # Batch 1, as most real tasks are.
    "batch1": ("y = torch.nn.functional.normalize(x, p=2, dim=1)\nreturn (y,)", {"x": ([1, 64], "float32")}),
    # A boolean mask whose sizes are those of the activation's batch and sequence.
    "attn_mask": ("y = x.masked_fill(mask.unsqueeze(1), 0.0)\nreturn (y,)",
                  {"x": ([2, 4, 16], "float32"), "mask": ([2, 16], "bool")}),
}


def write_sample(root: Path, name: str) -> Path:
    """Write sample ``name`` under ``root/name`` and return that folder.

    Raises:
        KeyError: ``name`` is not in :data:`SAMPLES`.
    """
    body, args = SAMPLES[name]
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    params = ", ".join(args)
    code = textwrap.indent(body, " " * 8)
    (folder / "model.py").write_text(f"import torch\n\n\nclass GraphModule(torch.nn.Module):\n    def forward(self, {params}):\n{code}\n")
    meta = []
    for a, (shape, dtype, *bounds) in args.items():
        lines = (f"class Program_weight_tensor_meta_{a}:\n    name = \"{a}\"\n    shape = {shape}\n    dtype = \"torch.{dtype}\"\n"
                 f"    device = \"cpu\"\n    mean = 0.0\n    std = 1.0\n    data = None\n")
        if bounds:
            lines += f"    min_val = {bounds[0][0]}\n    max_val = {bounds[0][1]}\n"
        meta.append(lines)
    (folder / "weight_meta.py").write_text("\n\n".join(meta))
    return folder
