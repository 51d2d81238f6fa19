"""The solve loop as a LangGraph ``StateGraph``: model node, tool node, control node.

    START -> model -> tools -> control -> model ... -> END

* ``model`` asks the model client for the next assistant message;
* ``tools`` runs its tool calls (errors go back to the model as tool results) and tracks the
  best AS and the pass version that reached it;
* ``control`` ends the run when the model called ``finish``, when AS has not improved for
  ``patience`` consecutive evaluations, on repeated format errors (a reply cut off at the
  output limit counts as one), or when a budget (steps, tokens, US dollars, wall time) is spent.

A reply cut off at the output limit never has its tool calls executed (their arguments may be
incomplete); the model is told so instead. A refusal ends the run (``exit_reason="refusal"``).
When the service stays overloaded for the whole retry budget, the model node raises
:class:`RunPaused`: nothing of that step is checkpointed, so ``--resume`` repeats the call.

State is checkpointed after every node (SQLite), and every side effect is recorded in the
archive's event log before the node returns, so a killed run resumes where it stopped without
repeating a model call or an evaluation and without duplicating an event.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import time
from typing import Any, Callable, TypedDict

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, Field

from ...tools.evaluation.schema import SubgraphResult, headline_regressions
from .archive import RunArchive
from .context import fit_to_window
from .prompting import render
from ..protocols import ContextTooLong, Message, ModelClient, ModelError, ModelResponse, ModelUnavailable, ToolCall
from .toolbox import Toolbox
from .events import EventKind


class RunPaused(Exception):
    """The model service stayed unavailable: the run stops without a result and stays resumable."""


class SolveConfig(BaseModel):
    """Stopping rule and budgets of one solve run."""

    max_steps: int = Field(40, ge=1, description="model calls at most")
    patience: int = Field(3, ge=1, description="stop after this many evaluations without AS improving")
    min_improvement: float = Field(0.01, ge=0, description="relative AS gain that counts as an improvement")
    budget_usd: float | None = Field(None, gt=0, description="stop once this many US dollars are spent")
    max_tokens: int | None = Field(None, gt=0, description="stop once input+output tokens reach this")
    max_wall_s: float | None = Field(None, gt=0, description="stop after this many seconds of run time")
    max_format_errors: int = Field(3, ge=1, description="consecutive malformed replies that end the run")
    confirm_top: int = Field(3, ge=0, description=(
        "before the run ends, re-evaluate at most this many leading pass versions (those within "
        "confirm_margin of the best AS) and keep the one whose lower AS of its two evaluations is "
        "highest (agent/run/confirm.py); 0 or 1 keeps the best single evaluation"))
    confirm_margin: float = Field(0.15, ge=0, le=1, description="relative AS distance from the best within which a version is re-timed")
    discard_regressions: bool = Field(True, description=(
        "a version that fails t=-5 on a subgraph where default Inductor is correct there (it broke what "
        "the compiler gets right) is the run's best only while no version without such a regression "
        "exists, whatever its AS (KernelBench's fast_p likewise counts a speedup only for a correct kernel)"))


class LoopState(TypedDict, total=False):
    messages: list[dict[str, Any]]
    step: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    wall_s: float
    evaluations: int
    best_as: float | None
    best_version: int | None
    best_regresses: bool
    last_as: float | None
    evals_since_improvement: int
    format_errors: int
    truncated: bool
    exit_reason: str | None
    summary: str | None
    error: str | None


EventCallback = Callable[[str, dict[str, Any]], None]


class SolveLoop:
    """Drive a model through the tools until the stopping rule fires.

    Args:
        client: the model (any :class:`~passagent.agent.protocols.ModelClient`).
        toolbox: the task's tools.
        archive: where events, pass versions and results go.
        config: stopping rule and budgets.
        on_event: called after each node with (node name, state) for a live view.
    """

    def __init__(self, client: ModelClient, toolbox: Toolbox, archive: RunArchive, config: SolveConfig,
                 on_event: EventCallback | None = None):
        self.client = client
        self.toolbox = toolbox
        self.archive = archive
        self.config = config
        self.on_event = on_event or (lambda _n, _s: None)
        self.tools = toolbox.specs()

    # -- graph -------------------------------------------------------------------------------------

    def build(self, checkpointer: SqliteSaver) -> Any:
        graph = StateGraph(LoopState)
        graph.add_node("model", self._timed(self.model_node, "model"))
        graph.add_node("tools", self._timed(self.tools_node, "tools"))
        graph.add_node("control", self._timed(self.control_node, "control"))
        graph.add_edge(START, "model")
        graph.add_conditional_edges("model", lambda s: END if s.get("exit_reason") else "tools", ["tools", END])
        graph.add_edge("tools", "control")
        graph.add_conditional_edges("control", lambda s: END if s.get("exit_reason") else "model", ["model", END])
        return graph.compile(checkpointer=checkpointer)

    def _timed(self, fn: Callable[[LoopState], dict[str, Any]], name: str) -> Callable[[LoopState], dict[str, Any]]:
        def node(state: LoopState) -> dict[str, Any]:
            t0 = time.monotonic()
            update = fn(state)
            update["wall_s"] = state.get("wall_s", 0.0) + (time.monotonic() - t0)
            self.on_event(name, {**state, **update})
            return update

        return node

    def run(self, initial_messages: list[Message], resume: bool = False) -> LoopState:
        """Run (or resume) the loop to its end; returns the final state.

        Args:
            initial_messages: system prompt and task message (recorded as the first events).
            resume: continue from the checkpoint in the archive if there is one.
        """
        conn = sqlite3.connect(self.archive.root / "checkpoints.sqlite", check_same_thread=False)
        try:
            app = self.build(SqliteSaver(conn))
            cfg = {"configurable": {"thread_id": "solve"}, "recursion_limit": 3 * self.config.max_steps + 10}
            snapshot = app.get_state(cfg)
            # "sync": each checkpoint is on disk before the next node starts, so a kill replays
            # at most the node that was running (and that node replays from the event log).
            if resume and snapshot.values:
                app.invoke(None, cfg, durability="sync")  # a finished thread just returns its state
            else:
                for i, m in enumerate(initial_messages):
                    self.archive.record(f"s0:init:{i}", EventKind.MESSAGE, message=m.model_dump())
                app.invoke(self._initial_state(initial_messages), cfg, durability="sync")
            return self._confirm(app.get_state(cfg).values)
        finally:
            conn.close()

    def _confirm(self, state: LoopState) -> LoopState:
        """Pick the best version on re-timed evaluations (agent/run/confirm.py); recorded, resumable."""
        if self.config.confirm_top < 2 or state.get("best_version") is None:
            return state
        from .confirm import confirm_best

        tb = self.toolbox

        def reevaluate(version: int) -> Any:
            # Marked in the lease log, which otherwise could not tell a re-timing from a new version.
            options = dataclasses.replace(tb.options, lease_purpose="confirmation")
            return tb.evaluator(tb.task, self.archive.version_dir(version), options)

        events = self.archive.events
        if not state.get("best_regresses", False):
            # The best breaks nothing Inductor gets right: no version that does may replace it.
            events = [e for e in events if e.get("version") is None or not self._regresses(e.get("evaluation"))]
        done = confirm_best(events, reevaluate, self.archive.record, self.archive.get,
                            (state["best_version"], state["best_as"]), self.config.confirm_top, self.config.confirm_margin,
                            regresses=self._regresses)
        if done.scores:
            self.archive.record("confirm:best", EventKind.CONFIRM_BEST, best_version=done.best_version, best_as=done.best_as,
                                scores={str(v): list(s) for v, s in done.scores.items()},
                                previous_best_version=state["best_version"])
            if done.best_version != state["best_version"]:
                self.archive.save_best(done.best_version)  # type: ignore[arg-type]
            state = {**state, "best_version": done.best_version, "best_as": done.best_as}  # type: ignore[typeddict-item]
        return state

    @staticmethod
    def _initial_state(messages: list[Message]) -> LoopState:
        return LoopState(
            messages=[m.model_dump() for m in messages], step=0, input_tokens=0, output_tokens=0, cost_usd=0.0,
            wall_s=0.0, evaluations=0, best_as=None, best_version=None, best_regresses=False, last_as=None,
            evals_since_improvement=0,
            format_errors=0, truncated=False, exit_reason=None, summary=None, error=None,
        )

    # -- nodes ---------------------------------------------------------------------------------------

    def model_node(self, state: LoopState) -> dict[str, Any]:
        step = state["step"]
        event = self.archive.get(f"s{step}:model")
        if event is not None:
            response = ModelResponse.model_validate(event["response"])
        else:
            messages = [Message.model_validate(m) for m in state["messages"]]
            try:
                response = self._complete(step, messages)
            except ModelUnavailable as exc:
                n = sum(1 for e in self.archive.events if e.get("kind") == EventKind.MODEL_UNAVAILABLE and e.get("step") == step)
                self.archive.record(f"s{step}:unavailable:{n}", EventKind.MODEL_UNAVAILABLE, step=step, error=str(exc),
                                    unconfirmed_cost_usd=getattr(exc, "unconfirmed_cost_usd", 0.0))
                raise RunPaused(str(exc)) from exc
            except ModelError as exc:
                lost = getattr(exc, "unconfirmed_cost_usd", 0.0)
                self.archive.record(f"s{step}:model_error", EventKind.ERROR, step=step, where="model", error=str(exc),
                                    unconfirmed_cost_usd=lost)
                return {"exit_reason": "model_error", "error": str(exc), "cost_usd": state["cost_usd"] + lost}
            self.archive.record(
                f"s{step}:model", EventKind.MODEL_RESPONSE, step=step, response=response.model_dump(),
                usage=response.usage.model_dump(), latency_s=response.latency_s, model=response.model,
            )
        u = response.usage
        update: dict[str, Any] = {
            "messages": state["messages"] + [response.message.model_dump()],
            "step": step + 1,
            "input_tokens": state["input_tokens"] + u.input_tokens,
            "output_tokens": state["output_tokens"] + u.output_tokens,
            "cost_usd": state["cost_usd"] + u.cost_usd + u.unconfirmed_cost_usd,
            "truncated": response.truncated,
        }
        if response.refusal is not None:
            update.update(exit_reason="refusal", error=f"the model refused: {response.refusal}")
        return update

    def _complete(self, step: int, messages: list[Message]) -> ModelResponse:
        """One model call with the history fitted to the context window; a context-length error
        condenses everything condensable and sends once more."""
        window = self.client.context_window
        fit = {"reserve_tokens": self.client.max_tokens or 0,
               "fixed_tokens": sum(len(t.model_dump_json()) + 40 for t in self.tools) // 4}
        sent, n = fit_to_window(messages, window, **fit)
        try:
            response = self.client.complete(sent, self.tools)
        except ContextTooLong as exc:
            sent, n = fit_to_window(messages, window, force=True, **fit)
            if n == 0:
                raise
            self.archive.record(f"s{step}:context_retry", EventKind.CONTEXT_CONDENSED, step=step, condensed=n,
                                error=str(exc))
            return self.client.complete(sent, self.tools)
        if n:
            self.archive.record(f"s{step}:context", EventKind.CONTEXT_CONDENSED, step=step, condensed=n)
        return response

    def tools_node(self, state: LoopState) -> dict[str, Any]:
        step = state["step"] - 1  # the model call this answers
        assistant = Message.model_validate(state["messages"][-1])
        update: dict[str, Any] = {k: state[k] for k in (  # type: ignore[literal-required]
            "evaluations", "best_as", "best_version", "last_as", "evals_since_improvement", "format_errors")}
        update["best_regresses"] = state.get("best_regresses", False)  # absent from older checkpoints
        new_messages: list[dict[str, Any]] = []
        if state.get("truncated") and state.get("exit_reason") is None:
            return self._answer_truncated(step, assistant, update, state)
        if not assistant.tool_calls:
            update["format_errors"] += 1
            text = render("feedback_no_tool.md.j2", format_errors=update["format_errors"],
                          max_format_errors=self.config.max_format_errors)
            self.archive.record(f"s{step}:feedback", EventKind.FORMAT_ERROR, step=step, message=text)
            new_messages.append(Message(role="user", content=text).model_dump())
        malformed_only = bool(assistant.tool_calls)
        for i, call in enumerate(assistant.tool_calls):
            event = self.archive.get(f"s{step}:tool:{i}") or self._execute(step, i, call, update["evaluations"])
            new_messages.append(Message(role="tool", content=event["result"], tool_call_id=call.id, name=call.name).model_dump())
            if not event.get("format_error"):
                malformed_only = False
            if event.get("version") is not None:
                self._track_score(update, event)
            if event.get("finished"):
                update["exit_reason"] = "finished"
                update["summary"] = event.get("summary")
        if assistant.tool_calls:
            update["format_errors"] = update["format_errors"] + 1 if malformed_only else 0
        update["messages"] = state["messages"] + new_messages
        return update

    def _answer_truncated(self, step: int, assistant: Message, update: dict[str, Any],
                          state: LoopState) -> dict[str, Any]:
        # Every tool call gets a result (the APIs reject a call without one), none is executed.
        update["format_errors"] += 1
        cap = self.client.max_tokens
        text = render("feedback_truncated.md.j2", max_tokens=cap, n_calls=len(assistant.tool_calls),
                      format_errors=update["format_errors"], max_format_errors=self.config.max_format_errors)
        self.archive.record(f"s{step}:feedback", EventKind.TRUNCATED, step=step, message=text,
                            calls=[c.name for c in assistant.tool_calls])
        if assistant.tool_calls:
            new = [Message(role="tool", content=text, tool_call_id=c.id, name=c.name).model_dump()
                   for c in assistant.tool_calls]
        else:
            new = [Message(role="user", content=text).model_dump()]
        update["messages"] = state["messages"] + new
        return update

    def _execute(self, step: int, i: int, call: ToolCall, evaluations: int) -> dict[str, Any]:
        outcome = self.toolbox.execute(call)
        payload: dict[str, Any] = {
            "step": step, "call": call.model_dump(), "result": outcome.text, "is_error": outcome.is_error,
            "format_error": call.arguments is None or call.name not in self.toolbox.handlers,
            "finished": outcome.finished, "summary": outcome.summary,
        }
        if outcome.evaluation is not None:
            version = evaluations + 1
            vdir = self.archive.version_dir(version)
            self.toolbox.workspace.snapshot(vdir)
            result = outcome.evaluation
            payload.update(
                version=version, aggregated=result.scores.aggregated, pass_sources=outcome.pass_sources,
                evaluation=result.model_dump(mode="json"),
                # The defences that fired: training data marks exploit attempts by them.
                integrity_rules=sorted({s.integrity_rule for s in result.subgraphs if s.integrity_rule}),
            )
        return self.archive.record(f"s{step}:tool:{i}", EventKind.TOOL_RESULT, **payload)

    def _regresses(self, evaluation: dict[str, Any] | None) -> bool:
        """Whether an evaluation (``EvalResult`` as JSON) fails t=-5 on a subgraph where Inductor
        passes (False when the config keeps such versions in the running, or there is none)."""
        if not self.config.discard_regressions:
            return False
        subgraphs = (evaluation or {}).get("subgraphs") or []
        return bool(headline_regressions([SubgraphResult.model_validate(s) for s in subgraphs]))

    def _track_score(self, update: dict[str, Any], event: dict[str, Any]) -> None:
        score, version = event["aggregated"], event["version"]
        update["evaluations"] = max(update["evaluations"], version)
        update["last_as"] = score
        best, regresses = update["best_as"], self._regresses(event.get("evaluation"))
        if best is None or (update["best_regresses"] and not regresses):
            better = True  # the first version, or the first one that breaks nothing Inductor gets right
        elif regresses and not update["best_regresses"]:
            better = False
        else:
            better = score > best * (1 + self.config.min_improvement)
        if better:
            update["best_as"], update["best_version"], update["best_regresses"] = score, version, regresses
            update["evals_since_improvement"] = 0
            self.archive.save_best(version)
        else:
            update["evals_since_improvement"] += 1

    def control_node(self, state: LoopState) -> dict[str, Any]:
        c = self.config
        reason = state.get("exit_reason")
        if reason is None:
            if state["format_errors"] >= c.max_format_errors:
                reason = "format_errors"
            elif state["evals_since_improvement"] >= c.patience:
                reason = "patience"
            elif state["step"] >= c.max_steps:
                reason = "max_steps"
            elif c.max_tokens is not None and state["input_tokens"] + state["output_tokens"] >= c.max_tokens:
                reason = "max_tokens"
            elif c.budget_usd is not None and state["cost_usd"] >= c.budget_usd:
                reason = "budget_usd"
            elif c.max_wall_s is not None and state["wall_s"] >= c.max_wall_s:
                reason = "wall_time"
        return {"exit_reason": reason}
