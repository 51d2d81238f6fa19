"""Paths and small helpers shared by the tests (importable because pytest's pythonpath has tests/)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PASSAGENT_SHARED", REPO.parent / "shared"))
GRAPHNET = SHARED / "data" / "graphnet"
PASSBENCH = SHARED / "data" / "passbench" / "typical"
TEST_PASSES = Path(__file__).resolve().parent / "passes"
EXAMPLES = REPO / "examples" / "passes"


def passbench_task(prefix: str) -> Path:
    """The shared PassBench task folder whose hash starts with ``prefix``."""
    matches = sorted(PASSBENCH.glob(f"{prefix}*"))
    assert matches, f"no PassBench task {prefix}* under {PASSBENCH}"
    return matches[0]


def make_sample(root: Path, name: str, forward_body: str, args: dict[str, tuple], std: float = 1.0) -> Path:
    """Write a GraphNet-format sample: ``forward(self, <args>)`` with ``forward_body`` (indented
    4 spaces by this function) and one metadata class per argument (shape, dtype, mean 0, std,
    and a recorded ``(min_val, max_val)`` where the argument's tuple has a third item)."""
    import textwrap

    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    params = ", ".join(args)
    body = textwrap.indent(textwrap.dedent(forward_body).strip(), " " * 8)
    (folder / "model.py").write_text(
        f"import torch\n\n\nclass GraphModule(torch.nn.Module):\n    def forward(self, {params}):\n{body}\n"
    )
    meta = []
    for arg, (shape, dtype, *bounds) in args.items():
        meta.append(
            f"class Program_weight_tensor_meta_{arg}:\n    name = \"{arg}\"\n    shape = {shape}\n"
            f"    dtype = \"torch.{dtype}\"\n    device = \"cpu\"\n    mean = 0.0\n    std = {std}\n    data = None\n"
            + (f"    min_val = {bounds[0][0]}\n    max_val = {bounds[0][1]}\n" if bounds else "")
        )
    (folder / "weight_meta.py").write_text("\n\n".join(meta))
    return folder
