"""Tasks and subgraphs: loading GraphNet samples and PassNet task folders.

Three layouts are accepted (see README "Tasks"):

(a) a GraphNet sample folder, ``model.py`` + ``weight_meta.py`` [+ ``input_meta.py``], loaded
    as a one-subgraph task;
(b) a PassNet task folder with ``graph_list.txt`` listing subgraph folders (``graphs/0`` ...);
(c) any folder whose sub-folders (searched recursively) are samples: one subgraph each.

A built-in task id (``task_042``) resolves through :mod:`passagent.tools.tasks.builtin`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import torch

from ..errors import TaskError
from .graph_source import GraphSource, analyse_model_source
from .meta import TensorMeta, parse_meta_file


@dataclass(frozen=True)
class ArgSpec:
    """One forward argument of a subgraph, with the metadata inputs are drawn from.

    Attributes:
        name: the forward parameter name.
        is_symint: a ``torch.SymInt`` argument, passed as a Python int.
        meta: the recorded statistics (shape, dtype, mean/std, bounds, literal data).
    """

    name: str
    is_symint: bool
    meta: TensorMeta

    @property
    def shape(self) -> tuple[int, ...]:
        return self.meta.shape

    @property
    def dtype(self) -> torch.dtype:
        return self.meta.dtype


@dataclass(frozen=True)
class Subgraph:
    """One GraphNet-format sample: a captured FX graph and how to synthesise its inputs.

    Attributes:
        name: short name within its task (``graphs/0`` or the sample folder's name).
        path: the sample folder.
        source: where it came from (the model name from ``graph_net.json`` when present).
        code: the ``model.py`` text as written on disk.
        graph: static analysis of ``code`` (class name, forward args, operator sequence).
        args: one :class:`ArgSpec` per forward argument, in order.
    """

    name: str
    path: Path
    source: str
    code: str
    graph: GraphSource
    args: tuple[ArgSpec, ...]

    @property
    def op_sequence(self) -> tuple[str, ...]:
        return self.graph.op_sequence

    @property
    def dtypes(self) -> tuple[str, ...]:
        """Distinct floating-point dtypes of its tensor arguments (e.g. ``("float16",)``)."""
        seen: dict[str, None] = {}
        for a in self.args:
            if not a.is_symint and a.dtype.is_floating_point:
                seen[str(a.dtype).removeprefix("torch.")] = None
        return tuple(seen)

    @property
    def digest(self) -> str:
        """SHA-256 of the code and metadata: the key for cached baselines of this subgraph."""
        h = hashlib.sha256(self.code.encode())
        for a in self.args:
            h.update(repr((a.name, a.is_symint, a.meta)).encode())
        return h.hexdigest()


@dataclass(frozen=True)
class Task:
    """A benchmark task: subgraphs that share an operator sequence (PassBench) or any set.

    Attributes:
        id: the task id (a built-in id like ``task_042`` or the folder's name).
        path: the task folder.
        layout: ``"graphnet-sample"``, ``"passnet-task"`` or ``"folder"``.
        subgraphs: the subgraphs, in ``graph_list.txt`` order where there is one.
    """

    id: str
    path: Path
    layout: str
    subgraphs: tuple[Subgraph, ...] = field(default_factory=tuple)


def is_sample_dir(path: Path) -> bool:
    """True if ``path`` looks like a GraphNet sample (has ``model.py``)."""
    return (path / "model.py").is_file()


def load_subgraph(path: Path, name: str | None = None) -> Subgraph:
    """Load one GraphNet sample folder.

    Raises:
        TaskError: a file is missing or malformed, or a forward argument has no metadata.
    """
    path = Path(path)
    if not path.is_dir():
        raise TaskError(path, "subgraph folder does not exist")
    model_py = path / "model.py"
    try:
        code = model_py.read_text()
    except FileNotFoundError:
        raise TaskError(model_py, "file is missing") from None
    graph = analyse_model_source(code, model_py)
    weight_py = path / "weight_meta.py"
    metas = {m.name: m for m in parse_meta_file(weight_py)}
    input_py = path / "input_meta.py"
    if input_py.exists():
        for m in parse_meta_file(input_py):
            metas.setdefault(m.name, m)
    args = []
    for a in graph.args:
        if a.name not in metas:
            raise TaskError(weight_py, "no metadata for this forward argument of model.py", a.name)
        meta = metas[a.name]
        if a.is_symint and meta.data is None and meta.mean is None:
            raise TaskError(weight_py, "SymInt argument needs a literal `data` value", a.name)
        args.append(ArgSpec(a.name, a.is_symint, meta))
    return Subgraph(
        name=name or path.name,
        path=path,
        source=_source_name(path),
        code=code,
        graph=graph,
        args=tuple(args),
    )


def _source_name(path: Path) -> str:
    info = path / "graph_net.json"
    if info.is_file():
        try:
            data = json.loads(info.read_text())
            if isinstance(data, dict) and data.get("model_name"):
                return str(data["model_name"])
        except (json.JSONDecodeError, OSError):
            pass  # graph_net.json is informational; a bad one must not block the task
    # PassNet subgraph paths embed the model: .../samples/<src>/<model>/_decomposed/...
    return path.name


def load_task(spec: str | Path, task_id: str | None = None) -> Task:
    """Load a task from a path (any of the three layouts) or a built-in task id.

    Args:
        spec: a folder path, or a built-in id such as ``task_042``.
        task_id: override the task id (defaults to the built-in id or the folder name).

    Raises:
        TaskError: the path does not exist, holds no sample, or a sample is malformed.
    """
    path = Path(spec)
    if not path.exists():
        from .builtin import resolve_builtin

        resolved = resolve_builtin(str(spec))
        if resolved is None:
            from .builtin import nearest_ids

            near = nearest_ids(str(spec))
            hint = f"; did you mean {' or '.join(near)}?" if near else " (`passagent tasks list` lists the built-in ids)"
            raise TaskError(path, "no such task folder or built-in task id" + hint)
        task_id = task_id or str(spec)
        path = resolved
    path = path.resolve()
    tid = task_id or path.name
    graph_list = path / "graph_list.txt"
    if graph_list.is_file():
        return Task(tid, path, "passnet-task", tuple(_load_graph_list(path, graph_list)))
    if is_sample_dir(path):
        return Task(tid, path, "graphnet-sample", (load_subgraph(path),))
    samples = sorted(p.parent for p in path.rglob("model.py"))
    if not samples:
        raise TaskError(path, "no model.py found: not a GraphNet sample, PassNet task or folder of samples")
    subgraphs = [load_subgraph(p, name=str(p.relative_to(path))) for p in samples]
    return Task(tid, path, "folder", tuple(subgraphs))


def _load_graph_list(root: Path, graph_list: Path) -> list[Subgraph]:
    entries = [ln.strip() for ln in graph_list.read_text().splitlines() if ln.strip()]
    if not entries:
        raise TaskError(graph_list, "lists no subgraph folders")
    origins = _recorded_origins(root / "SOURCE.txt")
    subgraphs = []
    for i, rel in enumerate(entries):
        sub = root / rel
        if not sub.is_dir():
            raise TaskError(graph_list, f"listed folder {rel!r} does not exist", f"line {i + 1}")
        sg = load_subgraph(sub, name=rel)
        if rel in origins and sg.source == sub.name:
            sg = dataclasses.replace(sg, source=origins[rel])
        subgraphs.append(sg)
    return subgraphs


def _recorded_origins(source_txt: Path) -> dict[str, str]:
    """Model names per subgraph folder from a ``SOURCE.txt`` provenance file, if there is one.

    Lines look like ``graphs/0<TAB>.../samples/<hub>/<model>/_decomposed/<range><TAB>...``.
    """
    if not source_txt.is_file():
        return {}
    origins = {}
    for line in source_txt.read_text(errors="replace").splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and "/samples/" in parts[1]:
            tail = parts[1].split("/samples/", 1)[1].split("/")
            if len(tail) >= 2:
                origins[parts[0].strip()] = tail[1]
    return origins
