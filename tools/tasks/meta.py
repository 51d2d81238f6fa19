"""Read GraphNet tensor metadata (``weight_meta.py`` / ``input_meta.py``) without executing it.

GraphNet stores one class per graph argument::

    class Program_weight_tensor_meta_L_x_:
        name = "L_x_"
        shape = [2, 4]
        dtype = "torch.float32"
        device = "cpu"
        mean = 0.224
        std = 0.680
        data = None          # or a flat list of literal values for small tensors
        min_val = 0          # optional
        max_val = 2          # optional

GraphNet itself imports these files; passagent parses them with :mod:`ast` instead so that a
task folder can never run code on load, and so that a malformed field gets an error naming
the file and the field. Values are Python literals, plus ``float('nan')`` / ``float('inf')``
which GraphNet writes for non-finite statistics.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from ..errors import TaskError

#: dtype strings GraphNet writes, mapped to torch dtypes.
DTYPES: dict[str, torch.dtype] = {
    f"torch.{name}": getattr(torch, name)
    for name in (
        "float16", "bfloat16", "float32", "float64", "float", "double", "half",
        "int8", "int16", "int32", "int64", "long", "int", "uint8", "bool",
        "complex64", "complex128",
    )
}


@dataclass(frozen=True)
class TensorMeta:
    """Recorded statistics of one graph argument.

    Attributes:
        name: the forward argument it describes.
        shape: recorded shape (a 0-d tensor or SymInt has ``()``).
        dtype: the torch dtype.
        device: the device it was captured on (``"cpu"``, ``"cuda:0"``); informational only,
            since the harness places inputs on the device it runs on.
        mean, std: recorded value statistics, rounded to 3 decimals by GraphNet; None if absent.
        min_val, max_val: optional bounds (integers: sampling range, floats: clamp).
        data: literal values (flattened) for small tensors and SymInts, else None.
    """

    name: str
    shape: tuple[int, ...]
    dtype: torch.dtype
    device: str
    mean: float | None
    std: float | None
    min_val: float | None
    max_val: float | None
    data: tuple[Any, ...] | None
    original_name: str | None = None

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


def _literal(node: ast.expr, path: Path, field: str) -> Any:
    """Evaluate a literal, accepting GraphNet's ``float('nan')`` spelling."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
        and node.args[0].value.strip().lstrip("+-").lower() in {"nan", "inf", "infinity"}
    ):
        return float(node.args[0].value)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise TaskError(path, f"value is not a literal ({exc})", field) from None


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        out: list[Any] = []
        for v in value:
            out.extend(_flatten(v))
        return out
    return [value]


def _number_or_none(value: Any, path: Path, field: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TaskError(path, f"expected a number or None, got {value!r}", field)
    return value


def parse_meta_file(path: Path) -> list[TensorMeta]:
    """Parse every metadata class of a GraphNet ``*_meta.py`` file.

    Args:
        path: the file. An empty file yields ``[]``.

    Returns:
        One :class:`TensorMeta` per class, in file order.

    Raises:
        TaskError: the file is missing, does not parse, or a field is missing or malformed
            (the message names the file and ``<class>.<field>``).
    """
    try:
        source = path.read_text()
    except FileNotFoundError:
        raise TaskError(path, "file is missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskError(path, f"cannot read file ({exc})") from None
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        raise TaskError(path, f"does not parse: {exc.msg} (line {exc.lineno})") from None

    metas: list[TensorMeta] = []
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        fields: dict[str, Any] = {}
        for stmt in cls.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                key = stmt.targets[0].id
                fields[key] = _literal(stmt.value, path, f"{cls.name}.{key}")
        metas.append(_meta_from_fields(fields, path, cls.name))
    return metas


def _meta_from_fields(fields: dict[str, Any], path: Path, cls_name: str) -> TensorMeta:
    def need(key: str) -> Any:
        if key not in fields:
            raise TaskError(path, "field is missing", f"{cls_name}.{key}")
        return fields[key]

    name = need("name")
    if not isinstance(name, str) or not name.isidentifier():
        raise TaskError(path, f"name must be an identifier, got {name!r}", f"{cls_name}.name")
    shape = need("shape")
    if not isinstance(shape, (list, tuple)) or not all(
        isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape
    ):
        raise TaskError(
            path, f"shape must be a list of non-negative ints, got {shape!r}", f"{name}.shape"
        )
    dtype_str = need("dtype")
    if dtype_str not in DTYPES:
        raise TaskError(path, f"unknown dtype {dtype_str!r}", f"{name}.dtype")
    dtype = DTYPES[dtype_str]
    data = fields.get("data")
    if data is not None:
        if isinstance(data, str):
            raise TaskError(path, "string-encoded data is not supported", f"{name}.data")
        flat = _flatten(data)
        if len(flat) != math.prod(shape):
            raise TaskError(
                path,
                f"data has {len(flat)} values but shape {list(shape)} needs {math.prod(shape)}",
                f"{name}.data",
            )
        data = tuple(flat)
    return TensorMeta(
        name=name,
        shape=tuple(shape),
        dtype=dtype,
        device=str(fields.get("device", "cpu")),
        mean=_number_or_none(fields.get("mean"), path, f"{name}.mean"),
        std=_number_or_none(fields.get("std"), path, f"{name}.std"),
        min_val=_number_or_none(fields.get("min_val"), path, f"{name}.min_val"),
        max_val=_number_or_none(fields.get("max_val"), path, f"{name}.max_val"),
        data=data,
        original_name=fields.get("original_name"),
    )
