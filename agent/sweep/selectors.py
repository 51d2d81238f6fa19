"""Task selectors for sweeps: which tasks ``passagent sweep --tasks SELECTOR`` runs.

A selector is a comma-separated list of terms (``--tasks`` may also be repeated). Two kinds:

*Sources* add tasks:

* ``task_007``: a built-in task id;
* ``task_000-task_009``: a range of built-in ids, both ends included (ids the manifest or
  ``bench/tasks`` does not have are left out; a range with none is an error);
* ``all``: every built-in task;
* ``@ids.txt``: a file with one term per line (``#`` starts a comment), each parsed like a term;
* a folder path or a glob (``data/graphnet/*``, ``~/tasks/b511*``): every matching folder.

*Filters* narrow them (without any source, they filter all built-in tasks):

* ``category:NAME``: built-in tasks of that manifest category (``fnmatch`` patterns allowed);
* ``op:NAME``: tasks where some subgraph's operator sequence contains ``NAME``;
* ``ops:A>B>C``: tasks where some subgraph's operator sequence contains ``A, B, C`` in a row.

Filters of one kind are OR-ed (``category:a,category:b``); different kinds are AND-ed. Folder
tasks have no category (a category filter drops them); their operator sequences come from the
harness's static analysis of ``model.py``, as the manifest's do.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...tools.errors import PassagentError

_ID = re.compile(r"^task_(\d{3,})$")
_RANGE = re.compile(r"^task_(\d{3,})-(?:task_)?(\d{3,})$")
_FILTER_KINDS = ("category", "op", "ops")


class SelectorError(PassagentError):
    """A selector term is malformed or selects nothing (one-line message, exit code 2)."""


@dataclass(frozen=True)
class TaskRef:
    """One selected task.

    Attributes:
        spec: what ``solve`` is given: a built-in id or an absolute folder path.
        id: the task id ``solve`` will use for the run folder (built-in id or folder name).
        category: the manifest category, or None for folder tasks.
        op_sequences: the operator sequence of each subgraph (built-in: the manifest's).
    """

    spec: str
    id: str
    category: str | None = None
    op_sequences: tuple[tuple[str, ...], ...] = field(default=(), compare=False)


def _manifest() -> dict[str, dict]:
    from ...tools.tasks.builtin import builtin_tasks_dir, load_manifest

    rows = {r["id"]: r for r in load_manifest()}
    folder = builtin_tasks_dir()
    if folder.is_dir():  # tasks on disk but missing from the manifest still count as ids
        for p in folder.iterdir():
            if _ID.match(p.name) and p.name not in rows:
                rows[p.name] = {"id": p.name}
    return rows


def _builtin_ref(row: dict) -> TaskRef:
    ops = row.get("op_sequence")
    return TaskRef(spec=row["id"], id=row["id"], category=row.get("category"),
                   op_sequences=(tuple(ops),) if ops else ())


def _folder_ref(path: Path) -> TaskRef:
    return TaskRef(spec=str(path.resolve()), id=path.resolve().name)


def _split_terms(selectors: str | list[str]) -> list[str]:
    items = [selectors] if isinstance(selectors, str) else list(selectors)
    return [t.strip() for item in items for t in item.split(",") if t.strip()]


def _expand_files(terms: list[str], depth: int = 0) -> list[str]:
    out: list[str] = []
    for term in terms:
        if not term.startswith("@"):
            out.append(term)
            continue
        path = Path(os.path.expanduser(term[1:]))
        if depth > 4:
            raise SelectorError(f"selector file {path}: files include each other too deeply")
        try:
            lines = path.read_text().splitlines()
        except OSError as exc:
            raise SelectorError(f"selector file {path}: {exc.strerror or exc}") from None
        inner = [ln.split("#", 1)[0].strip() for ln in lines]
        out += _expand_files(_split_terms([t for t in inner if t]), depth + 1)
    return out


def _source(term: str, manifest: dict[str, dict]) -> list[TaskRef]:
    if term == "all":
        if not manifest:
            raise SelectorError("'all': no built-in tasks are installed (bench/manifest.json is missing)")
        return [_builtin_ref(manifest[k]) for k in sorted(manifest)]
    if m := _RANGE.match(term):
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi:
            raise SelectorError(f"range {term!r}: the first id is after the last")
        hits = [manifest[k] for k in sorted(manifest) if lo <= int(_ID.match(k).group(1)) <= hi]  # type: ignore[union-attr]
        if not hits:
            raise SelectorError(f"range {term!r}: no built-in task has an id in it")
        return [_builtin_ref(r) for r in hits]
    if _ID.match(term) and not Path(term).exists():
        if term not in manifest:
            from ...tools.tasks.builtin import nearest_ids

            near = nearest_ids(term)
            raise SelectorError(f"{term!r}: no such built-in task" + (f"; did you mean {' or '.join(near)}?" if near else
                                                                     " (`passagent tasks list` lists them)"))
        return [_builtin_ref(manifest[term])]
    matches = sorted(glob.glob(os.path.expanduser(term)))
    folders = [Path(p) for p in matches if Path(p).is_dir()]
    if not folders:
        raise SelectorError(f"selector term {term!r} is not a task id, range, filter or existing folder/glob")
    return [_folder_ref(p) for p in folders]


def _with_ops(ref: TaskRef) -> TaskRef:
    if ref.op_sequences:
        return ref
    from ...tools.tasks.loader import load_task

    task = load_task(ref.spec)
    return TaskRef(ref.spec, ref.id, ref.category, tuple(tuple(sg.op_sequence) for sg in task.subgraphs))


def _contains_run(seq: tuple[str, ...], want: list[str]) -> bool:
    n = len(want)
    return any(list(seq[i:i + n]) == want for i in range(len(seq) - n + 1))


def _passes(ref: TaskRef, filters: dict[str, list[str]]) -> bool:
    if "category" in filters:
        if ref.category is None or not any(fnmatch.fnmatchcase(ref.category, p) for p in filters["category"]):
            return False
    if "op" in filters and not any(op in seq for seq in ref.op_sequences for op in filters["op"]):
        return False
    if "ops" in filters:
        runs = [[o.strip() for o in f.split(">") if o.strip()] for f in filters["ops"]]
        if not any(_contains_run(seq, run) for seq in ref.op_sequences for run in runs):
            return False
    return True


def select_tasks(selectors: str | list[str]) -> list[TaskRef]:
    """Resolve a selector (see the module docstring) to tasks, in selection order, without repeats.

    Raises:
        SelectorError: a malformed term, a term that selects nothing, an empty result, or two
            selected tasks sharing one task id (their runs would share a folder).
        TaskError: an ``op``/``ops`` filter had to read a folder task that does not load.
    """
    terms = _expand_files(_split_terms(selectors))
    if not terms:
        raise SelectorError("empty task selector")
    manifest = _manifest()
    filters: dict[str, list[str]] = {}
    refs: list[TaskRef] = []
    for term in terms:
        kind, sep, value = term.partition(":")
        if sep and kind in _FILTER_KINDS:
            if not value:
                raise SelectorError(f"filter {term!r} has no value")
            filters.setdefault(kind, []).append(value)
        else:
            refs += _source(term, manifest)
    if not refs:
        if not manifest:
            raise SelectorError("filters alone select from the built-in tasks, and none are installed")
        refs = [_builtin_ref(manifest[k]) for k in sorted(manifest)]
    seen: dict[str, TaskRef] = {}
    for ref in refs:
        seen.setdefault(ref.spec, ref)
    chosen = list(seen.values())
    if "op" in filters or "ops" in filters:
        chosen = [_with_ops(r) for r in chosen]
    chosen = [r for r in chosen if _passes(r, filters)]
    if not chosen:
        raise SelectorError(f"the selector {','.join(terms)!r} matches no task")
    by_id: dict[str, TaskRef] = {}
    for ref in chosen:
        if ref.id in by_id:
            raise SelectorError(f"two selected tasks share the task id {ref.id!r} ({by_id[ref.id].spec} and {ref.spec}); "
                                "their runs would share a folder: select their parent task folders instead")
        by_id[ref.id] = ref
    return chosen
