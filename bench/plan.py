"""Which groups to measure, and which measured tasks to ship (seeded).

Measuring every group would take hours on a CPU (an Inductor compile per subgraph), so a
build measures a seeded sample of the task candidates first (:func:`plan_measurement`):
every architecture is covered, the categories get fixed shares, groups that span several
models, dtypes and domains are preferred, windows nested in one already planned (same models)
come last, and one operator sequence is not measured more than twice with different literals. After measuring, :func:`choose_tasks` keeps the long tail,
tasks where default Inductor is slower than eager or barely faster (speedup below
:data:`~passagent.bench.select.LONG_TAIL_SPEEDUP`), plus a share of controls where it is
clearly faster, again covering every architecture first.

A task proposed as ``fusible`` keeps only subgraphs that Inductor compiled into no more
kernels than the largest single one of their operators needs (the most kernels any measured
sole-op subgraph of that operator compiled to, 1 when none was measured); with fewer than
three left it becomes ``typical`` when its sequence repeats, else it is dropped.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from .cut import VIEWS, Candidate
from .group import CATEGORIES, MIN_SUBGRAPHS, Group, choose_members
from .select import geomean, is_long_tail, speedup

#: Shares of the measured and shipped tasks per category.
CATEGORY_SHARE = {"typical": 0.45, "fusible": 0.30, "sole": 0.25}
#: At most this many groups with one operator sequence (differing in literals only).
MAX_PER_OPS = 2


@dataclass
class PlannedTask:
    """A group chosen for measurement and the members that will be measured.

    Attributes:
        group: the group.
        members: the chosen subgraphs (3..8).
        category: the category (may change after the fusibility check).
        rows: measurement rows of the kept members (same order as ``kept``), after :func:`choose_tasks`.
        kept: members that measured cleanly, after :func:`choose_tasks`.
    """

    group: Group
    members: list[Candidate]
    category: str = ""
    kept: list[Candidate] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.category = self.category or self.group.category

    @property
    def models(self) -> list[str]:
        return sorted({c.source["arch"] for c in (self.kept or self.members)})

    @property
    def speedup(self) -> float:
        """Geometric mean over kept subgraphs of Inductor's speedup over eager."""
        return geomean([speedup(r) for r in self.rows])

    @property
    def long_tail(self) -> bool:
        return is_long_tail(self.speedup)


def _score(g: Group, rng: random.Random) -> float:
    return (
        2.0 * min(len(g.models), 4) / 4
        + 0.5 * (len(g.dtypes) >= 2)
        + 0.3 * (len(g.domains) >= 2)
        + 0.3 * min(len(g.compute_ops), 6) / 6
        + 0.5 * rng.random()
    )


def plan_measurement(groups: list[Group], architectures: list[str], *, n_tasks: int, seed: int,
                     max_members: int = 6) -> list[PlannedTask]:
    """Pick up to ``n_tasks`` task candidates to measure (see the module docstring).

    Args:
        groups: every group (:func:`.group.group`); those failing :meth:`Group.is_task` are ignored.
        architectures: captured architectures, in build order; each is covered by up to two tasks first.
        n_tasks: how many to plan.
        seed: the seed of tie-breaking and member choice.
        max_members: subgraphs measured per task (3..8).

    Returns:
        The planned tasks, in planning order.
    """
    rng = random.Random(seed)
    eligible = [g for g in groups if g.is_task()]
    scores = {g.key: _score(g, rng) for g in eligible}
    planned: list[PlannedTask] = []
    taken: set[str] = set()
    per_ops: dict[tuple[str, ...], int] = {}
    per_cat: dict[str, int] = {}
    quota = {c: math.ceil(n_tasks * CATEGORY_SHARE[c]) for c in CATEGORIES}

    def add(g: Group, prefer_arch: str | None = None) -> bool:
        if g.key in taken or per_ops.get(g.ops, 0) >= MAX_PER_OPS:
            return False
        members = choose_members(g, random.Random(f"{seed}:{g.key}"), max_members)
        if prefer_arch and all(c.source["arch"] != prefer_arch for c in members):
            own = next(c for c in g.members if c.source["arch"] == prefer_arch)
            members[-1] = own
        planned.append(PlannedTask(g, members))
        taken.add(g.key)
        per_ops[g.ops] = per_ops.get(g.ops, 0) + 1
        per_cat[g.category] = per_cat.get(g.category, 0) + 1
        return True

    by_arch: dict[str, list[Group]] = {a: [] for a in architectures}
    for g in eligible:
        for a in {c.source["arch"] for c in g.members}:
            if a in by_arch:
                by_arch[a].append(g)
    # Coverage: the architectures with the fewest candidate tasks choose first.
    for arch in sorted(architectures, key=lambda a: (len(by_arch[a]), architectures.index(a))):
        options = sorted(by_arch[arch], key=lambda g: -scores[g.key])
        have = sum(1 for p in planned if any(c.source["arch"] == arch for c in p.members))
        for want_cat in ("typical", "fusible", "sole"):
            if have >= 2 or len(planned) >= n_tasks:
                break
            for g in options:
                if g.category == want_cat and per_cat.get(want_cat, 0) < quota[want_cat] and add(g, arch):
                    have += 1
                    break
    # Fill each category's share by score; first skipping groups that are a window of (or
    # contain) one already planned in the same models (``linear add to pow`` beside ``linear
    # add to pow mean``), so the plan spreads over more distinct regions of the models.
    for distinct in (True, False):
        for cat in CATEGORIES:
            for g in sorted((g for g in eligible if g.category == cat), key=lambda g: -scores[g.key]):
                if per_cat.get(cat, 0) >= quota[cat] or len(planned) >= n_tasks:
                    break
                if distinct and _overlaps(g, planned):
                    continue
                add(g)
    return planned


def _contains(seq: tuple[str, ...], sub: tuple[str, ...]) -> bool:
    return any(seq[i : i + len(sub)] == sub for i in range(len(seq) - len(sub) + 1))


def _overlaps(g: Group, planned: list[PlannedTask]) -> bool:
    """True if a planned group of the same category and a shared model nests with ``g``'s operators."""
    ops, models = g.compute_ops, set(g.models)
    for p in planned:
        other = p.group
        if other.category == g.category and models & set(other.models):
            if _contains(other.compute_ops, ops) or _contains(ops, other.compute_ops):
                return True
    return False


def single_op_kernels(planned: list[PlannedTask], results: dict[str, dict[str, Any]]) -> dict[str, int]:
    """Per operator name, the most kernels a measured sole-op subgraph of it compiled to."""
    out: dict[str, int] = {}
    for p in planned:
        if p.group.category != "sole":
            continue
        ops = [o for o in p.group.ops if o not in VIEWS]
        if len(ops) != 1:
            continue
        for c in p.members:
            row = results.get(c.hash)
            if row and row.get("ok"):
                out[ops[0]] = max(out.get(ops[0], 0), int(row["kernels"]))
    return out


#: Subgraphs slower than this in eager (µs) are not shipped: an agent times every subgraph
#: many times per evaluation.
MAX_EAGER_US = 250_000.0


def _usable(row: dict[str, Any] | None) -> bool:
    return (
        bool(row) and bool(row.get("ok")) and not row.get("nonfinite")
        and 0 < row["eager_us"] <= MAX_EAGER_US and row["inductor_us"] > 0
    )


def choose_tasks(planned: list[PlannedTask], results: dict[str, dict[str, Any]], architectures: list[str], *,
                 n_ship: int, control_fraction: float, seed: int) -> tuple[list[PlannedTask], dict[str, Any]]:
    """Keep cleanly measured members, check fusibility, and pick the shipped tasks.

    Args:
        planned: the measured plan.
        results: measurement rows by subgraph hash (:func:`.select.measure_all`).
        architectures: captured architectures (covered first, rarest first).
        n_ship: how many tasks to ship.
        control_fraction: share of shipped tasks that are controls (Inductor clearly faster).
        seed: the seed of tie-breaking.

    Returns:
        (shipped tasks, statistics: dropped and re-categorised counts, long-tail counts).
    """
    rng = random.Random(seed + 1)
    kernels = single_op_kernels(planned, results)
    stats = {"dropped_few_members": 0, "fusible_to_typical": 0, "fusible_dropped": 0}
    ready: list[PlannedTask] = []
    for p in planned:
        ok = [c for c in p.members if _usable(results.get(c.hash))]
        if p.group.category == "fusible":
            allowed = max([kernels.get(o, 1) for o in p.group.compute_ops] or [1])
            fused = [c for c in ok if int(results[c.hash]["kernels"]) <= allowed]
            if len(fused) >= MIN_SUBGRAPHS:
                ok = fused
            elif p.group.repeats:
                p.category = "typical"
                stats["fusible_to_typical"] += 1
            else:
                stats["fusible_dropped"] += 1
                continue
        if len(ok) < MIN_SUBGRAPHS:
            stats["dropped_few_members"] += 1
            continue
        p.kept, p.rows = ok, [results[c.hash] for c in ok]
        ready.append(p)
    tails = [p for p in ready if p.long_tail]
    controls = [p for p in ready if not p.long_tail]
    stats.update(measured_tasks=len(ready), long_tail_tasks=len(tails), control_tasks=len(controls))
    n_controls = min(len(controls), round(n_ship * control_fraction))
    n_tails = min(len(tails), n_ship - n_controls)
    n_controls = min(len(controls), n_ship - n_tails)
    jitter = {id(p): rng.random() for p in ready}

    def rank(p: PlannedTask) -> tuple[float, ...]:
        return (-len(p.models), -len({d for c in p.kept for d in c.dtypes}), jitter[id(p)])

    shipped: list[PlannedTask] = []
    chosen: set[int] = set()

    def take(p: PlannedTask) -> None:
        shipped.append(p)
        chosen.add(id(p))

    budget = {"tail": n_tails, "control": n_controls}
    for arch in sorted(architectures, key=lambda a: sum(a in p.models for p in ready)):
        if any(arch in p.models for p in shipped):
            continue
        for kind, pool in (("tail", tails), ("control", controls)):
            options = sorted((p for p in pool if arch in p.models and id(p) not in chosen), key=rank)
            if options and budget[kind] > 0:
                take(options[0])
                budget[kind] -= 1
                break
    for kind, pool in (("tail", tails), ("control", controls)):
        have = {c: sum(1 for p in shipped if p.category == c) for c in CATEGORIES}
        want = {c: math.ceil(len(shipped) + budget[kind]) * CATEGORY_SHARE[c] for c in CATEGORIES}
        remaining = sorted((p for p in pool if id(p) not in chosen), key=rank)
        # Round-robin over categories, most under-filled first, so shares hold as far as the pool allows.
        while budget[kind] > 0 and remaining:
            cat = min(CATEGORIES, key=lambda c: (have[c] / max(want[c], 1e-9), CATEGORIES.index(c)))
            pick = next((p for p in remaining if p.category == cat), remaining[0])
            remaining.remove(pick)
            take(pick)
            have[pick.category] += 1
            budget[kind] -= 1
    stats["shipped_long_tail"] = sum(p.long_tail for p in shipped)
    return shipped, stats
