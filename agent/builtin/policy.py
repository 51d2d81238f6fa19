"""The built-in offline policy (``--model builtin``): a deterministic expert with a recipe catalogue.

It is a :class:`~passagent.agent.protocols.ModelClient` like any provider: it reads the same
tool results a language model would read (the subgraph listing, the FX code of
``inspect_ir``, the evaluation text) and answers with tool calls. Its plan:

1. list the subgraphs, inspect every subgraph's FX graph (up to 8), look at the baseline;
2. ask the recipe catalogue (:mod:`.recipes`) for rules instantiated for those graphs;
3. greedily try each draft on top of the rules kept so far: write it, evaluate, keep it if AS
   improved by at least 1 %, else delete it. Clean-up drafts (``changes_aten=False``: what
   lowering to ATen drops anyway) are only tried on top of a kept rule, because alone they
   change nothing Inductor compiles and the harness would rightly flag them ``no_change``;
4. finish, saying what was kept, or saying plainly that no recipe matched.

Everything it decides is a function of the conversation so far, so a resumed run makes the
same decisions. Its scores are whatever the harness measures.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from ..protocols import Message, ModelResponse, ToolCall, ToolSpec, Usage
from .recipes import CATALOGUE, RuleDraft, propose_rules

MAX_INSPECTED = 8
MIN_IMPROVEMENT = 0.01
_AS = re.compile(r"AS = ([0-9.eE+-]+) vs")


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


def _changes_aten(draft: RuleDraft) -> bool:
    recipe = next((r for r in CATALOGUE if r.name == draft.recipe), None)
    return recipe is None or recipe.changes_aten


class BuiltinPolicy:
    """The deterministic offline expert. Name ``builtin``; costs nothing; needs no network."""

    name = "builtin"

    def __init__(self) -> None:
        self._ids = 0

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "provider": "builtin", "recipes": [r.name for r in CATALOGUE]}

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

        drafts = self._drafts(history, count)
        if not drafts:
            ops = listing.result.split("ops:", 1)[1].splitlines()[0].strip() if "ops:" in listing.result else "?"
            return "", [("finish", {"summary": (
                "No recipe in the built-in catalogue matches this task's FX graphs "
                f"(operators: {ops}); no pass was written or evaluated.")})]

        scores = [self._score(ex.result) for ex in history if ex.name == "evaluate_pass"]
        kept, best, tried, upcoming = self._replay(drafts, scores)
        calls: list[tuple[str, dict[str, Any]]] = []
        if tried and tried[-1] not in kept:
            calls.append(("delete_rule", {"rule": tried[-1].rule_name}))
        if upcoming is not None:
            d = upcoming
            calls += [("write_pass", {"rule": d.rule_name, "source": d.source}), ("evaluate_pass", {})]
            return f"Trying recipe `{d.recipe}` ({drafts.index(d) + 1}/{len(drafts)}): {d.rationale}", calls
        if kept:
            summary = (f"Kept {len(kept)} rule(s): " + "; ".join(f"{d.rule_name} ({d.recipe}): {d.rationale}" for d in kept)
                       + f". Best AS {best:.4f}.")
        else:  # the first evaluated draft is always kept, so nothing was evaluated
            recipes = sorted({d.recipe for d in drafts})
            summary = (f"Only clean-up recipes matched ({', '.join(recipes)}); they remove what lowering to ATen "
                       "drops anyway, so alone they change nothing Inductor compiles. Nothing was evaluated.")
        return "", calls + [("finish", {"summary": summary})]

    @staticmethod
    def _score(text: str) -> float:
        m = _AS.search(text)
        return float(m.group(1)) if m and not text.startswith("error") else 0.0

    @staticmethod
    def _replay(drafts: list[RuleDraft], scores: list[float]) -> tuple[list[RuleDraft], float | None, list[RuleDraft], RuleDraft | None]:
        """Replay the greedy search over the evaluations so far.

        Returns (drafts kept, best AS, drafts evaluated in order, the next draft to try or None).
        """
        kept: list[RuleDraft] = []
        tried: list[RuleDraft] = []
        best: float | None = None
        pending = iter(scores)
        for d in drafts:
            if not _changes_aten(d) and not kept:
                continue  # alone it would change nothing Inductor compiles
            score = next(pending, None)
            if score is None:
                return kept, best, tried, d
            tried.append(d)
            if best is None or score > best * (1 + MIN_IMPROVEMENT):
                kept.append(d)
                best = score
        return kept, best, tried, None

    @staticmethod
    def _drafts(history: list[_Exchange], count: int) -> list[RuleDraft]:
        seen: set[str] = set()
        names: set[str] = set()
        drafts: list[RuleDraft] = []
        for i in range(min(count, MAX_INSPECTED)):
            ex = next((e for e in history if e.name == "inspect_ir" and e.arguments.get("subgraph") == i), None)
            ir = parse_ir_text(ex.result) if ex else None
            if ir is None:
                continue
            for d in propose_rules(ir):
                if d.source in seen:
                    continue
                seen.add(d.source)
                name, k = d.rule_name, 2
                while name in names:
                    name, k = f"{d.rule_name}_{k}", k + 1
                names.add(name)
                drafts.append(RuleDraft(d.recipe, name, d.source, d.rationale))
        return drafts
