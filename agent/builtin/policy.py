"""The built-in offline policy (``--model builtin``): a search-based pass writer.

It is a :class:`~passagent.agent.protocols.ModelClient` like any provider: it reads the same
tool results a language model would read (the subgraph listing, the FX code of
``inspect_ir``, the evaluation text) and answers with tool calls. Its search, with the harness
as the oracle:

1. list the subgraphs, inspect every subgraph's FX graph (up to 8), look at the baseline;
2. propose candidates per region and rewrite family from those graphs (:mod:`.recipes`):
   generated Triton kernels (CUDA devices only), library forms, simplifications; a candidate
   whose replacement would run the original ops on some inspected subgraph (a dtype it does not
   rewrite) is not proposed: the harness scores that subgraph ``no_change``; last-resort
   lowerings (a negation as a multiply, GELU written out, an embedding as a gather: parity
   expected) are proposed only where nothing else applies, so every task gets an evaluation;
3. evaluate them greedily, each on top of the rules kept so far (so winners combine): keep a
   candidate when it is correct at t = -5 wherever default Inductor is, and raises AS by at
   least 1 % (the first kept one must also be faster than Inductor: AS vs Inductor > 1);
   otherwise delete it. At most :data:`MAX_EVALUATIONS` evaluations per task; the loop's own
   patience (evaluations without improvement) may stop it earlier. Clean-up candidates
   (``changes_aten=False``: what lowering to ATen drops anyway) are tried only on top of a kept
   rule: alone they change nothing Inductor compiles, the harness flags them ``no_change``
   and such an evaluation would score the failure penalty;
4. finish with what was kept (rule, family, what it fuses or removes, measured AS change) and,
   per family, what was tried and why it lost, or why nothing of that family applied.

Everything it decides is a function of the conversation so far, so a resumed run makes the
same decisions. Its scores are whatever the harness measures.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from ..protocols import Message, ModelResponse, ToolCall, ToolSpec, Usage
from .drafts import fallback_subgraphs
from .fx_reader import read_graphs
from .recipes import CATALOGUE, FAMILIES, RuleDraft, propose_rules
from .triton_gen import dtype_variant_groups
from .verdicts import MIN_IMPROVEMENT, judge, read_verdict

MAX_INSPECTED = 8
#: Evaluations the policy spends on one task at most (the loop's patience may stop it sooner).
MAX_EVALUATIONS = 12
_DEVICE = re.compile(r"^Subgraph \[\d+\] \S+ \(from .*?\) on (\S+)", re.M)


@dataclass
class _Exchange:
    name: str
    arguments: dict[str, Any]
    result: str


def _history(messages: list[Message]) -> list[_Exchange]:
    results = {m.tool_call_id: m.content for m in messages if m.role == "tool"}
    out = []
    for m in messages:
        if m.role == "assistant":
            for c in m.tool_calls:
                if c.id in results:
                    out.append(_Exchange(c.name, c.arguments or {}, results[c.id]))
    return out


def parse_ir_text(text: str) -> dict[str, Any] | None:
    """Rebuild the IR fields a recipe needs from ``inspect_ir``'s text (FX code + node table)."""
    m = re.search(r"## Dynamo FX graph[^\n]*\n```python\n(.*?)\n```", text, re.S)
    if not m:
        return None
    nodes = []
    table = text.split("## Nodes", 1)[1] if "## Nodes" in text else ""
    for line in table.splitlines()[2:]:
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 5 or line.startswith("##"):
            break
        name, op, target, shape, dtype = parts
        try:
            shape_value = ast.literal_eval(shape)
        except (ValueError, SyntaxError):
            shape_value = None
        nodes.append({"name": name, "op": op, "target": target, "shape": shape_value, "dtype": None if dtype == "None" else dtype})
    head = re.match(r"Subgraph \[(\d+)\] (\S+)", text)
    return {
        "index": int(head.group(1)) if head else 0,
        "name": head.group(2) if head else "",
        "fx_code": m.group(1),
        "fx_nodes": nodes,
    }




@dataclass(frozen=True)
class _Tried:
    drafts: tuple[RuleDraft, ...]
    keep: bool
    reason: str
    score: float


def _label(drafts: tuple[RuleDraft, ...]) -> str:
    return ", ".join(f"`{d.rule_name}` [{d.family}]" for d in drafts)


def _changes_aten(draft: RuleDraft) -> bool:
    recipe = next((r for r in CATALOGUE if r.name == draft.recipe), None)
    return recipe is None or recipe.changes_aten


class BuiltinPolicy:
    """The deterministic offline pass writer. Name ``builtin``; costs nothing; needs no network."""

    name = "builtin"

    #: An offline client: its cost is real (nothing), it has no window and no server to check.
    priced = True
    context_window: int | None = None
    max_tokens: int | None = None

    def preflight(self, timeout_s: float = 10.0) -> None:
        """Nothing to reach: passes at once."""

    def probe(self, tools: list[ToolSpec], timeout_s: float = 60.0) -> None:
        """No server: passes at once."""

    def __init__(self) -> None:
        self._ids = 0

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "provider": "builtin", "recipes": [r.name for r in CATALOGUE],
                "max_evaluations": MAX_EVALUATIONS, "min_improvement": MIN_IMPROVEMENT}

    def complete(self, messages: list[Message], tools: list[ToolSpec]) -> ModelResponse:
        history = _history(messages)
        step = sum(1 for m in messages if m.role == "assistant")
        text, calls = self._decide(history)
        tool_calls = [
            ToolCall(id=f"builtin-{step}-{i}", name=name, arguments=args, raw_arguments="")
            for i, (name, args) in enumerate(calls)
        ]
        return ModelResponse(message=Message(role="assistant", content=text, tool_calls=tool_calls),
                             usage=Usage(), model="builtin", finish_reason="tool_calls")

    # -- the plan ---------------------------------------------------------------------------------

    def _decide(self, history: list[_Exchange]) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
        def done(name: str, **match: Any) -> _Exchange | None:
            for ex in history:
                if ex.name == name and all(ex.arguments.get(k) == v for k, v in match.items()):
                    return ex
            return None

        listing = done("list_subgraphs")
        if listing is None:
            return "Listing the task's subgraphs.", [("list_subgraphs", {})]
        count = len(re.findall(r"^\[\d+\] ", listing.result, re.M))
        for i in range(min(count, MAX_INSPECTED)):
            if done("inspect_ir", subgraph=i) is None:
                return f"Reading the FX graph of subgraph {i}.", [("inspect_ir", {"subgraph": i, "view": "fx"})]
        if done("show_baseline") is None:
            return "Looking at what default Inductor does with it.", [("show_baseline", {"subgraph": 0})]

        device = self._device(history)
        drafts = self._drafts(history, count, device)
        texts = [ex.result for ex in history if ex.name == "evaluate_pass"]
        tried, upcoming, kept = self._replay(drafts, texts)
        calls: list[tuple[str, dict[str, Any]]] = []
        if tried and not tried[-1].keep:
            calls += [("delete_rule", {"rule": d.rule_name}) for d in tried[-1].drafts]
        verdict = ""
        if tried:
            last = tried[-1]
            verdict = f"{_label(last.drafts)} {'kept' if last.keep else 'discarded'}: {last.reason}. "
        if upcoming is not None:
            calls += [("write_pass", {"rule": d.rule_name, "source": d.source}) for d in upcoming]
            calls.append(("evaluate_pass", {}))
            what = "; ".join(d.rationale for d in upcoming)
            on_top = f" on top of {len(kept)} kept rule(s)" if kept else ""
            return f"{verdict}Candidate {len(tried) + 1}: {_label(upcoming)}{on_top}: {what}.", calls
        return verdict.strip(), calls + [("finish", {"summary": self._summary(drafts, tried, kept, history, count, device)})]

    @staticmethod
    def _device(history: list[_Exchange]) -> str:
        for ex in history:
            if ex.name == "inspect_ir":
                m = _DEVICE.search(ex.result)
                if m:
                    return m.group(1)
        return "cpu"

    @staticmethod
    def _plan_first(drafts: list[RuleDraft]) -> list[RuleDraft]:
        """ATen-changing candidates in trial order: generated kernels, library forms, simplifications."""
        order = {f: k for k, f in enumerate(FAMILIES)}
        changing = [d for d in drafts if _changes_aten(d)]
        return sorted(changing, key=lambda d: order.get(d.family, len(order)))  # stable: catalogue order within

    def _replay(self, drafts: list[RuleDraft], texts: list[str]
                ) -> tuple[list[_Tried], tuple[RuleDraft, ...] | None, list[RuleDraft]]:
        """Replay the greedy search over the evaluations so far.

        Returns (candidates evaluated with their verdicts, the next candidate or None, drafts kept).
        """
        changing = self._plan_first(drafts)
        cleanups = [d for d in drafts if not _changes_aten(d)]
        tried: list[_Tried] = []
        kept: list[RuleDraft] = []
        best: float | None = None
        pending = iter(texts)

        def candidates():
            yield from dtype_variant_groups(changing)  # one generated kernel's dtype variants go together
            if kept:  # alone they change nothing Inductor compiles: the harness flags them no_change
                for d in cleanups:
                    yield (d,)

        for cand in candidates():
            if len(tried) >= MAX_EVALUATIONS:
                break
            text = next(pending, None)
            if text is None:
                return tried, cand, kept
            v = read_verdict(text)
            keep, reason = judge(v, best)
            tried.append(_Tried(cand, keep, reason, v.score))
            if keep:
                kept.extend(cand)
                best = v.score
        return tried, None, kept

    def _summary(self, drafts: list[RuleDraft], tried: list[_Tried], kept: list[RuleDraft],
                 history: list[_Exchange], count: int, device: str) -> str:
        out = []
        if kept:
            out.append("Kept " + "; ".join(f"{_label(t.drafts)}: {t.drafts[0].rationale} ({t.reason})"
                                           for t in tried if t.keep) + ".")
        else:
            out.append("No candidate beat default Inductor, so the final pass keeps no rule (the run's best version is still chosen by AS against eager among the versions evaluated).")
        withheld = self._withheld(history, count, device)
        for family in FAMILIES:
            for d, where in (w for w in withheld.values() if w[0].family == family):
                on = ", ".join(f"{i} ({dt})" for i, dt in sorted(where.items()))
                out.append(f"{family}: `{d.rule_name}` not proposed: its replacement would run the original ops on "
                           f"subgraph(s) {on} (it does not rewrite that dtype), which the harness scores as no_change.")
            mine = [t for t in tried if any(d.family == family for d in t.drafts)]
            if mine:
                lost = [f"{_label(t.drafts)}: {t.reason}" for t in mine if not t.keep]
                won = sum(t.keep for t in mine)
                out.append(f"{family}: {len(mine)} tried, {won} kept" + (f"; lost: {'; '.join(lost)}" if lost else "") + ".")
            elif any(d.family == family and _changes_aten(d) for d in drafts):
                out.append(f"{family}: candidates found but not evaluated (evaluation budget of {MAX_EVALUATIONS} spent).")
            elif any(d.family == family for d in drafts):
                out.append(f"{family}: only clean-ups apply (named below), with no kept rule to go next to.")
            elif not any(w[0].family == family for w in withheld.values()):
                out.append(f"{family}: {self._why_none(family, history, count, device)}.")
        by_family = {f: [d.rule_name for d in kept if d.family == f] for f in FAMILIES}
        out.append("Kept by family: " + "; ".join(f"{f}: {', '.join(v) or '-'}" for f, v in by_family.items()) + ".")
        cleanups = sorted({d.recipe for d in drafts if not _changes_aten(d)})
        if cleanups and not kept:
            out.append(f"Clean-ups that apply ({', '.join(cleanups)}) were not evaluated: alone they change nothing "
                       "Inductor compiles (it drops them when lowering), so the harness would flag them no_change.")
        if not tried:
            ops = self._operators(history, count)
            if not ops:
                listing = next((ex.result for ex in history if ex.name == "list_subgraphs"), "")
                if "ops:" in listing:
                    ops = listing.split("ops:", 1)[1].splitlines()[0].strip()
            out.append(f"No candidate of any family applies to this task's FX graphs (operators: {ops or '?'}); "
                       "nothing was evaluated.")
        return " ".join(out)

    def _why_none(self, family: str, history: list[_Exchange], count: int, device: str) -> str:
        if family == "generated kernel" and not device.startswith("cuda"):
            regions = [d for d in self._drafts(history, count, "cuda") if d.family == family]
            found = f"{len(regions)} fusible region(s) found" if regions else "no fusible region either"
            return f"not tried: generated Triton kernels run on CUDA devices only and this run is on {device} ({found})"
        why = {
            "generated kernel": "no connected chain of at least two supported elementwise/row ops with one output",
            "library form": "no fragment with a fused, better-suited or less costly library form",
            "simplification": "no no-op (eval dropout, identity cat/clone/cast, cancelling transposes, dead values or RNG)",
        }
        # Name every recipe of the family, from the catalogue, so the message never lags behind it.
        recipes = [r.name for r in CATALOGUE if r.family == family and not (r.cuda_only and not device.startswith("cuda"))]
        return f"no match: {why[family]} (its recipes: {', '.join(recipes)})"

    @staticmethod
    def _operators(history: list[_Exchange], count: int) -> str:
        """The operators (short names, first-seen order) of the inspected subgraphs' FX graphs."""
        names: dict[str, None] = {}
        for i in range(min(count, MAX_INSPECTED)):
            ex = next((e for e in history if e.name == "inspect_ir" and e.arguments.get("subgraph") == i), None)
            ir = parse_ir_text(ex.result) if ex else None
            for g in read_graphs(ir) if ir else []:
                names.update((n.fn, None) for n in g.calls())
        return " ".join(names)

    @staticmethod
    def _drafts(history: list[_Exchange], count: int, device: str) -> list[RuleDraft]:
        """The drafts the policy may evaluate: every recipe's drafts over the inspected subgraphs,
        less those :meth:`_withheld` names."""
        drafts, withheld = BuiltinPolicy._all_drafts(history, count, device)
        return [d for d in drafts if d.rule_name not in withheld]

    @staticmethod
    def _withheld(history: list[_Exchange], count: int, device: str) -> dict[str, tuple[RuleDraft, dict[int, str]]]:
        """Rule name -> (draft, {subgraph: dtype}) for drafts whose replacement would run the original
        ops on an inspected subgraph of a dtype it does not rewrite: the harness scores such a
        subgraph ``no_change`` (the failure penalty at every t), so they are not proposed."""
        return BuiltinPolicy._all_drafts(history, count, device)[1]

    @staticmethod
    def _all_drafts(history: list[_Exchange], count: int, device: str
                    ) -> tuple[list[RuleDraft], dict[str, tuple[RuleDraft, dict[int, str]]]]:
        irs: dict[int, dict[str, Any]] = {}
        for i in range(min(count, MAX_INSPECTED)):
            ex = next((e for e in history if e.name == "inspect_ir" and e.arguments.get("subgraph") == i), None)
            ir = parse_ir_text(ex.result) if ex else None
            if ir is not None:
                irs[i] = ir
        return candidate_drafts(irs, device)


def candidate_drafts(irs: dict[int, dict[str, Any]], device: str
                     ) -> tuple[list[RuleDraft], dict[str, tuple[RuleDraft, dict[int, str]]]]:
    """Every recipe's drafts over a task's inspected subgraphs, and those the policy withholds.

    Args:
        irs: subgraph index -> its IR (``fx_code`` and ``fx_nodes`` are read), as
            :func:`parse_ir_text` rebuilds it or :func:`passagent.tools.inspection.ir.inspect_subgraph` returns it.
        device: where the passes run (generated Triton kernels only on CUDA).

    Returns:
        ``(drafts, withheld)``: drafts deduplicated by source, with distinct rule names in catalogue
        order per subgraph; ``withheld`` maps the rule name of each draft whose replacement would run
        the original ops on one of these subgraphs (a dtype it does not rewrite; the harness scores
        such a subgraph ``no_change``) to ``(draft, {subgraph: dtype})``.
    """
    seen: set[str] = set()
    names: set[str] = set()
    drafts: list[RuleDraft] = []
    graphs: dict[int, list[Any]] = {}
    for i, ir in sorted(irs.items()):
        graphs[i] = read_graphs(ir)
        for d in propose_rules(ir, device):
            if d.source in seen:
                continue
            seen.add(d.source)
            name, k = d.rule_name, 2
            while name in names:
                name, k = f"{d.rule_name}_{k}", k + 1
            names.add(name)
            drafts.append(dataclasses.replace(d, rule_name=name))
    withheld = {}
    for d in drafts:
        where = fallback_subgraphs(d, graphs)
        if where:
            withheld[d.rule_name] = (d, where)
    # Last resorts (another lowering of an op Inductor lowers to the same loop) only where no
    # other ATen-changing draft survives: elsewhere they would spend an evaluation on parity.
    last = {r.name for r in CATALOGUE if r.last_resort}
    if any(d.recipe not in last and _changes_aten(d) and d.rule_name not in withheld for d in drafts):
        drafts = [d for d in drafts if d.recipe not in last]
    return drafts, withheld
