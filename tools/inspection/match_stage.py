"""The match-only worker: where do passes match in a set of full graphs? No Inductor, no timing.

Runs in the same confined process as the evaluation worker (started by
:mod:`.match_entry` for requests with ``"mode": "match"``), because it imports the passes'
code. Each subgraph's module is built and run once on one input draw; the backend receives each
FX graph Dynamo captures and applies every pass, separately, to its own copy of the graph, so
one capture serves all passes and a pass never sees another's rewrite. Reports one ``result``
event per subgraph::

    {"event": "result", "subgraph": i, "graphs": 2, "nodes": 812,
     "passes": {"<pass path>": {"matches": 3, "rules": [{"rule", "matches", "sites"}], "error": null}}}
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import torch
import torch.fx

from ..tasks.inputs import clone_inputs, synthesize_inputs
from ..passes.rules import RuleLoadFailure, load_rules
from ..passes.rewrite import apply_rules
from ..tasks.loader import load_task
from ..process.tracebacks import one_line
from ..evaluation.steps import EventWriter, _max_rss_kb, build_module


class _MatchBackend:
    """Applies each pass to a copy of every captured graph; runs the original graph eagerly."""

    def __init__(self, passes: dict[str, Any], emit: Any):
        self.passes = passes  # pass path -> list[PassRule] or an error message
        self.emit = emit
        self.graphs = 0
        self.nodes = 0
        self.found: dict[str, dict[str, Any]] = {
            p: {"matches": 0, "rules": {}, "error": rules if isinstance(rules, str) else None} for p, rules in passes.items()
        }

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
        self.graphs += 1
        self.nodes += sum(1 for n in gm.graph.nodes if n.op == "call_function" or n.op == "call_method")
        self.emit("candidate_rewrite")
        for path, rules in self.passes.items():
            rec = self.found[path]
            if isinstance(rules, str) or rec["error"]:
                continue
            # Its own nodes (Graph.__deepcopy__ copies nodes, output and codegen; node meta is
            # copied shallowly); the module's attributes are shared, never written by a rule.
            copy = torch.fx.GraphModule(gm, deepcopy(gm.graph))
            try:
                for a in apply_rules(copy, rules):
                    r = rec["rules"].setdefault(a.rule, {"rule": a.rule, "matches": 0, "sites": []})
                    r["matches"] += a.matches
                    r["sites"] = (r["sites"] + list(a.sites))[:20]
                    rec["matches"] += a.matches
            except Exception as exc:  # noqa: BLE001 - a pass that fails to apply is a result
                rec["error"] = f"applying the pass raised {one_line(exc)}"
        return gm.forward


class MatchWorker:
    def __init__(self, request: dict[str, Any], sandbox: list[str] | None = None):
        self.req = request
        self.sandbox = sandbox or []
        self.events = EventWriter(request["events_path"])
        self.device = torch.device(request["device"])

    def _load(self) -> dict[str, Any]:
        passes: dict[str, Any] = {}
        for path, digest in zip(self.req["pass_paths"], self.req["pass_digests"]):
            try:
                passes[path] = load_rules(path, digest)
            except RuleLoadFailure as exc:
                passes[path] = f"the pass failed to load: {exc}"
        return passes

    def run(self) -> None:
        if self.req.get("cpu_threads"):
            torch.set_num_threads(int(self.req["cpu_threads"]))
        torch._dynamo.config.suppress_errors = False
        torch._dynamo.config.automatic_dynamic_shapes = False
        task = load_task(self.req["task_path"], self.req["task_id"])
        self.events.emit("sandbox", applied=self.sandbox)
        passes = self._load()
        for index in self.req["subgraph_indices"]:
            sg = task.subgraphs[index]
            self.events.emit("start", subgraph=index)

            def emit(phase: str, index: int = index) -> None:
                self.events.emit("phase", subgraph=index, phase=phase)

            backend = _MatchBackend(passes, emit)
            emit("eager")
            try:
                module = torch.compile(build_module(sg, self.device, f"match_{index}"), backend=backend)
                args = synthesize_inputs(sg, 0, seed=int(self.req["seed"]), device=self.device,
                                         degenerate_std=self.req["degenerate_std"])
                with torch.no_grad():
                    module(*clone_inputs(args))
            except Exception as exc:  # noqa: BLE001 - the graph itself fails: no verdict for it
                self.events.emit("task_error", subgraph=index, message=f"capturing the graph failed: {one_line(exc)}")
                torch._dynamo.reset()
                continue
            found = {p: {**rec, "rules": list(rec["rules"].values())} for p, rec in backend.found.items()}
            self.events.emit("result", subgraph=index, graphs=backend.graphs, nodes=backend.nodes, passes=found)
            torch._dynamo.reset()
        self.events.emit("done", max_rss_kb=_max_rss_kb())
