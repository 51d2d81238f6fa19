"""What a recipe proposes (:class:`RuleDraft`), what a recipe is (:class:`Recipe`), and the one
function every recipe uses to turn a recognised fragment into a checked draft."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .emit import Match, Pattern, find_matches, pass_source
from .fx_reader import FxGraph, read_graphs


#: The rewrite families a kept rule is labelled with: a kernel generated from the graph, a
#: better library form of the same computation, or a structural simplification.
FAMILIES = ("generated kernel", "library form", "simplification")


@dataclass(frozen=True)
class RuleDraft:
    """One proposed rule: a complete pass file instantiated for the graph it was read from.

    Attributes:
        recipe: catalogue name of the recipe that wrote it (``eval_dropout``).
        rule_name: a Python identifier, used as the pass file's stem (``EvalDropoutIdentity``).
        source: the complete pass file text (pattern, replacement_args, replacement_func, helpers).
        rationale: one line: what it rewrites and why it should be faster.
        family: the rewrite family it belongs to (:data:`FAMILIES`); empty means "take the
            recipe's family from the catalogue".
        pattern: the emitted pattern (to find where else the rule matches); None for a draft
            written without :func:`make_draft`.
        fallback_param, fallback_dtypes: the replacement runs the original ops (``pattern``
            itself) when the pattern parameter ``fallback_param`` has one of these dtypes
            (``("float16", "bfloat16")``). On such a subgraph the graph Inductor compiles is
            unchanged, which the harness scores as ``no_change``, so the policy does not propose
            the draft for a task where it would match such a subgraph.
    """

    recipe: str
    rule_name: str
    source: str
    rationale: str
    family: str = ""
    pattern: Pattern | None = field(default=None, compare=False, repr=False)
    fallback_param: str = ""
    fallback_dtypes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recipe:
    """A catalogue entry: recognises one kind of fragment and writes passes for it.

    Attributes:
        name: catalogue name. description: one line on what it matches and what it becomes.
        find: graph -> drafts for the fragments of that graph (see :meth:`propose`).
        changes_aten: whether its rewrite changes the ATen graph Inductor compiles. False for
            clean-ups of what lowering to ATen already drops (eval-mode dropout, dead values,
            no-op casts): correct, but the harness flags a pass made only of such rules as
            ``no_change``, so their drafts belong in a ``pass_dir`` next to a rule that does.
        family: one of :data:`FAMILIES`.
        cuda_only: its replacements launch Triton kernels, which run on CUDA devices only.
        last_resort: another lowering of an op that Inductor lowers to the same loop either way
            (expect parity): proposed only for a task no other ATen-changing recipe applies to,
            so that the policy still measures a candidate there and says how it fared.
    """

    name: str
    description: str
    find: Callable[[FxGraph], list[RuleDraft]]
    changes_aten: bool = True
    family: str = "simplification"
    cuda_only: bool = False
    last_resort: bool = False

    def propose(self, ir: dict[str, Any]) -> list[RuleDraft]:
        """Drafts for every captured graph of a subgraph's IR, deduplicated by source."""
        seen: dict[str, RuleDraft] = {}
        for g in read_graphs(ir):
            for d in self.find(g):
                seen.setdefault(d.source, labelled(d, self.family))
        return list(seen.values())


def labelled(draft: RuleDraft, family: str) -> RuleDraft:
    """``draft`` with its family set (its own if it has one, else ``family``) and stated in the
    pass file, after the docstring's first line (``Rewrite family: library form.``), where the
    benchmark reads it back from a kept pass."""
    family = draft.family or family
    source = draft.source
    if source.startswith('"""'):
        first, _, rest = source.partition("\n")
        source = f"{first}\n\nRewrite family: {family}.\n{rest}"
    else:
        source = f"# Rewrite family: {family}.\n{source}"
    return dataclasses.replace(draft, family=family, source=source)


def make_draft(recipe: str, rule_name: str, g: FxGraph, pattern: Pattern | None, *, title: str, doc: str,
               replacement_args: list[str], helpers: str, func: str, rationale: str,
               accept: Callable[[Match], bool] | None = None,
               fallback: tuple[str, tuple[str, ...]] | None = None) -> RuleDraft | None:
    """A checked draft, or None when the pattern matches nothing in ``g`` or a match is unsafe.

    Args:
        accept: a per-match condition; the rule is applied to every match in the graph, so a
            single match that fails it (say, a value that is not dead after all) vetoes the draft.
        fallback: ``(parameter, dtypes)``: the replacement's guard runs the original ops when that
            pattern parameter has one of these dtypes (see :class:`RuleDraft`).
    """
    if pattern is None:
        return None
    matches = find_matches(g, pattern)
    if not matches or (accept is not None and not all(accept(m) for m in matches)):
        return None
    if recipe not in ("dead_code", "dead_random") and all(_dead(g, m) for m in matches):
        return None  # optimising a value nothing reads: dead_code removes it instead
    source = pass_source(title, doc, pattern, replacement_args, helpers, func)
    compile(source, f"{rule_name}.py", "exec")  # a syntax error here is a bug of the recipe
    param, dtypes = fallback or ("", ())
    return RuleDraft(recipe, rule_name, source, rationale, pattern=pattern, fallback_param=param,
                     fallback_dtypes=tuple(dtypes))


def fallback_subgraphs(draft: RuleDraft, graphs: dict[int, list[FxGraph]]) -> dict[int, str]:
    """Subgraph index -> dtype, for each subgraph where ``draft`` matches and its replacement would
    run the original ops (the dtype of the guarded parameter is in ``draft.fallback_dtypes``).

    Args:
        graphs: subgraph index -> its captured FX graphs (:func:`.fx_reader.read_graphs`).
    """
    if not draft.fallback_dtypes or draft.pattern is None:
        return {}
    out: dict[int, str] = {}
    for index, gs in graphs.items():
        for g in gs:
            for m in find_matches(g, draft.pattern):
                node = g.node(m.bindings.get(draft.fallback_param))
                if node is not None and node.dtype in draft.fallback_dtypes:
                    out[index] = node.dtype
    return out


def _dead(g: FxGraph, m: Match) -> bool:
    """No output of the match reaches a graph output, directly or through other nodes."""
    outputs = g.output_names
    seen: set[str] = set()
    todo = list(m.anchors)
    while todo:
        name = todo.pop()
        if name in outputs:
            return False
        if name not in seen:
            seen.add(name)
            todo.extend(g[name].users)
    return True


def camel(name: str) -> str:
    """``layer_norm`` -> ``LayerNorm`` (for rule names)."""
    return "".join(p[:1].upper() + p[1:] for p in name.replace(".", "_").split("_") if p)
