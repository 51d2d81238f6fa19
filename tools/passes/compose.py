"""Several passes as one: their rules in a stated order, under names that stay apart.

Composition is sequential, as in PassNet's pass manager (``sorted_output_pass_rule_names.json``
applies rules one after another): rule k of pass i sees the graph as every earlier rule left
it. Two consequences the tests pin down:

* order matters: a rule whose match overlaps nodes an earlier rule already replaced no longer
  matches them (those nodes are gone), so the earlier pass wins an overlap;
* every rule's output is a valid graph (``torch.fx`` inserts each replacement before the match's
  first user and ``apply_rules`` lints the graph), so any composition is too.

Within one pass, ``torch.fx.subgraph_rewriter`` replaces only non-overlapping matches of a
rule, the first found in graph order.

Two forms: :func:`load_passes` imports the rules in this process (for a user's own model,
whose passes they trust), and :func:`composed_pass_dir` writes them as one PassNet
``pass_dir/`` so the harness's sandboxed worker and static checks treat the composition
exactly like any single pass.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Sequence

from ..errors import PassLoadError
from .rules import RULE_LIST_FILE, PassRule, load_rules, pass_digest, pass_files


def _as_paths(passes: str | Path | Sequence[str | Path]) -> list[Path]:
    items = [passes] if isinstance(passes, (str, Path)) else list(passes)
    if not items:
        raise PassLoadError("no pass given: name at least one pass file or pass_dir/")
    return [Path(p) for p in items]


def pass_label(path: Path) -> str:
    """A pass's short name: its file stem or folder name (``best_pass`` gets its run folder's name too)."""
    path = Path(path)
    if path.name == "best_pass" and path.parent.name:
        return f"{path.parent.name}/best_pass"
    return path.stem if path.is_file() else path.name


def composed_digest(passes: str | Path | Sequence[str | Path]) -> str:
    """SHA-256 over the passes' digests in order (one pass: its own :func:`.rules.pass_digest`).

    Raises:
        PassLoadError: a path does not exist or its rule list is malformed.
    """
    paths = _as_paths(passes)
    if len(paths) == 1:
        return pass_digest(paths[0])
    h = hashlib.sha256()
    for p in paths:
        h.update(pass_digest(p).encode() + b"\0")
    return h.hexdigest()


def rule_names(passes: str | Path | Sequence[str | Path]) -> list[str]:
    """The composed rule names in application order: ``rule`` for one pass, ``pass:rule`` for
    several (``pass#i:rule`` where two passes share a name, i = position)."""
    paths = _as_paths(passes)
    if len(paths) == 1:
        return [n for n, _f in pass_files(paths[0])]
    labels = [pass_label(p) for p in paths]
    # Two passes with the same name (``a/rule.py``, ``b/rule.py``) get their position too.
    labels = [f"{lab}#{i}" if labels.count(lab) > 1 else lab for i, lab in enumerate(labels)]
    return [f"{lab}:{n}" for p, lab in zip(paths, labels) for n, _f in pass_files(p)]


def load_passes(passes: str | Path | Sequence[str | Path]) -> list[PassRule]:
    """Import the rules of one or several passes, in order. Runs the passes' code in this process.

    Args:
        passes: a pass file or ``pass_dir/``, or a sequence of them (applied first to last).

    Returns:
        The rules, named as :func:`rule_names` says, so per-rule match counts of different
        passes never merge.

    Raises:
        PassLoadError: a path does not exist or its rule list is malformed.
        RuleLoadFailure: a rule file fails to import or lacks a contract function.
    """
    paths = _as_paths(passes)
    names = rule_names(paths)
    rules = [r for p in paths for r in load_rules(p)]
    return [dataclasses.replace(r, name=n) for r, n in zip(rules, names)]


def composed_pass_dir(passes: str | Path | Sequence[str | Path], out_dir: str | Path) -> Path:
    """One pass for the harness: a single pass is returned as it is; several are copied into
    ``out_dir`` as one PassNet ``pass_dir/`` whose rule list keeps their order.

    Rule files are named ``p<i>_<pass>__<rule>.py`` (i = the pass's position), so equal rule
    names of different passes never collide.

    Raises:
        PassLoadError: a path does not exist or its rule list is malformed.
    """
    paths = _as_paths(passes)
    if len(paths) == 1:
        pass_files(paths[0])
        return paths[0]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    order = []
    for i, p in enumerate(paths):
        stem = re.sub(r"\W", "_", pass_label(p))
        for name, file in pass_files(p):
            new = f"p{i}_{stem}__{name}"
            shutil.copyfile(file, out / f"{new}.py")
            order.append(new)
    (out / RULE_LIST_FILE).write_text(json.dumps(order, indent=1) + "\n")
    return out
