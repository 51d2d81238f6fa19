"""Deduplicate candidate subgraphs and group them into tasks that share an operator sequence.

* **Dedupe**: candidates with the same exact structural hash (:func:`.dedupe.structural_hash`:
  same operators, literals, input shapes and dtypes) are one subgraph; the first in build
  order is kept and the others' models are added to its sources.
* **Group**: the survivors are grouped by :func:`.dedupe.group_key` (same operator sequence
  at any shape and dtype). A group is a task candidate when it has at least
  :data:`MIN_SUBGRAPHS` subgraphs and, for the ``typical`` category, its sequence repeats
  within a model (two or more ranges of one graph) or appears in two or more models.
* **Members**: a task takes at most :data:`MAX_SUBGRAPHS` of its group's subgraphs, chosen to
  mix dtypes, models and shapes (greedy: each pick adds the most that is not yet covered).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .cut import VIEWS, Candidate

MIN_SUBGRAPHS = 3
MAX_SUBGRAPHS = 8
CATEGORIES = ("fusible", "typical", "sole")


@dataclass
class Group:
    """Every unique subgraph with one group key.

    Attributes:
        key: the group key (64 hex digits).
        category: ``fusible``, ``typical`` or ``sole`` (the cut's proposal, most common wins).
        ops: the operator sequence of its first member.
        members: unique subgraphs, in build order.
    """

    key: str
    category: str
    ops: tuple[str, ...]
    members: list[Candidate] = field(default_factory=list)

    @property
    def models(self) -> list[str]:
        """Architectures any member (or a duplicate of one) was cut from, sorted."""
        return sorted({m for c in self.members for m in c.source.get("models", [c.source["arch"]])})

    @property
    def domains(self) -> list[str]:
        return sorted({c.source["domain"] for c in self.members})

    @property
    def dtypes(self) -> list[str]:
        return sorted({d for c in self.members for d in c.dtypes})

    @property
    def repeats(self) -> bool:
        """The sequence occurs twice or more in one graph, or in two or more models."""
        return max(c.key_occurrences for c in self.members) >= 2 or len(self.models) >= 2

    @property
    def compute_ops(self) -> tuple[str, ...]:
        return tuple(o for o in self.ops if o not in VIEWS)

    def is_task(self) -> bool:
        """At least :data:`MIN_SUBGRAPHS` members, and typical sequences must repeat."""
        return len(self.members) >= MIN_SUBGRAPHS and (self.category != "typical" or self.repeats)


def dedupe(candidates: Iterable[Candidate]) -> tuple[list[Candidate], int]:
    """Drop exact duplicates (same structural hash), keeping the first; record every source model.

    Returns:
        (unique candidates in input order, number of subgraphs cut: every occurrence of every
        candidate, repeats within a graph included).
    """
    seen: dict[str, Candidate] = {}
    total = 0
    for c in candidates:
        total += c.occurrences
        arch = c.source["arch"]
        if c.hash in seen:
            kept = seen[c.hash]
            kept.occurrences += c.occurrences
            models = kept.source.setdefault("models", [kept.source["arch"]])
            if arch not in models:
                models.append(arch)
            continue
        c.source.setdefault("models", [arch])
        seen[c.hash] = c
    return list(seen.values()), total


def group(unique: Iterable[Candidate]) -> list[Group]:
    """Group unique candidates by group key; groups in order of their first member."""
    groups: dict[str, Group] = {}
    votes: dict[str, dict[str, int]] = {}
    for c in unique:
        g = groups.get(c.key)
        if g is None:
            g = groups[c.key] = Group(c.key, c.category, c.ops)
        g.members.append(c)
        v = votes.setdefault(c.key, {})
        v[c.category] = v.get(c.category, 0) + 1
    for key, g in groups.items():
        g.category = max(CATEGORIES, key=lambda cat: (votes[key].get(cat, 0), -CATEGORIES.index(cat)))
    return list(groups.values())


def _shape_sig(c: Candidate) -> tuple[Any, ...]:
    return tuple(tuple(m.shape) for m in c.metas)


def choose_members(g: Group, rng: random.Random, max_size: int = MAX_SUBGRAPHS) -> list[Candidate]:
    """Up to ``max_size`` members of ``g`` that mix dtypes, models and shapes (seeded ties).

    Returns:
        The chosen members, in pick order (the first is the group's most typical shape).
    """
    pool = list(g.members)
    rng.shuffle(pool)
    chosen: list[Candidate] = []
    dtypes: set[str] = set()
    models: set[str] = set()
    shapes: set[tuple[Any, ...]] = set()

    def gain(c: Candidate) -> int:
        return 4 * bool(set(c.dtypes) - dtypes) + 2 * (c.source["arch"] not in models) + (_shape_sig(c) not in shapes)

    while pool and len(chosen) < max_size:
        best = max(range(len(pool)), key=lambda i: (gain(pool[i]), -i))
        c = pool.pop(best)
        chosen.append(c)
        dtypes |= set(c.dtypes)
        models.add(c.source["arch"])
        shapes.add(_shape_sig(c))
    return chosen
