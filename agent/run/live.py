"""The live Rich view of ``passagent solve``: steps, last action, current and best AS, spend."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.live import Live
from rich.table import Table

from ..numbers import confirmed_as, fmt_as


class LiveView:
    """A context manager whose :meth:`update` is the solve loop's ``on_event`` callback."""

    def __init__(self, task_id: str, model: str, console: Console | None = None):
        self.task_id, self.model = task_id, model
        self.console = console or Console(stderr=True)
        self.rows: list[tuple[str, ...]] = []
        self.state: dict[str, Any] = {}
        self._evals_before = 0  # evaluations on record when the current row's step began
        self.live = Live(self._render(), console=self.console, refresh_per_second=4, transient=False)

    def __enter__(self) -> "LiveView":
        self.live.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.live.update(self._render())
        self.live.__exit__(*exc)
        if not self.console.is_terminal:
            # Off a terminal Rich leaves the last frame's line open: what is printed next (the
            # result, on stdout) would continue it when both streams go to one file.
            self.console.line()

    def update(self, node: str, state: dict[str, Any]) -> None:
        self.state = state
        if node == "model" and state.get("messages"):
            msg = state["messages"][-1]
            actions = ", ".join(c["name"] for c in msg.get("tool_calls", [])) or "(no tool call)"
            # A row's AS is that step's own evaluation: "-" until (and unless) the step evaluates.
            self._evals_before = state.get("evaluations", 0)
            self.rows.append((str(state.get("step", 0)), actions, "-", _fmt(state.get("best_as")),
                              f"${state.get('cost_usd', 0.0):.4f}"))
        elif node == "tools" and self.rows:
            step, actions, as_, _, cost = self.rows[-1]
            if state.get("evaluations", 0) > self._evals_before:
                as_ = _fmt(state.get("last_as"))
            self.rows[-1] = (step, actions, as_, _fmt(state.get("best_as")), cost)
        self.live.update(self._render())

    def finish(self, result: dict[str, Any]) -> None:
        """Show how the run ended: where re-evaluation confirmed the best version at a lower AS than
        its step measured, a last row says so, and the title gives the confirmed AS (the one the
        result line and result.json report)."""
        if result.get("resumable") or result.get("best_as") is None:
            return
        best, step = result["best_as"], result.get("best_step_as")
        self.state = {**self.state, "best_as": best}
        if step is not None and fmt_as(step) != fmt_as(best):
            self.rows.append(("end", f"confirmed version {result.get('best_version')} by re-evaluation", "-",
                              confirmed_as(best, step), self.rows[-1][4] if self.rows else "-"))
        self.live.update(self._render())

    def _render(self) -> Table:
        s = self.state
        title = f"passagent solve {self.task_id} · {self.model}"
        if s:
            title += (f" · step {s.get('step', 0)} · best AS {_fmt(s.get('best_as'))} · "
                      f"{s.get('input_tokens', 0) + s.get('output_tokens', 0)} tokens · ${s.get('cost_usd', 0.0):.4f}")
        t = Table(title=title, title_justify="left", show_edge=False)
        for col in ("step", "tool calls", "this step's AS", "best AS", "spend"):
            t.add_column(col)
        for row in self.rows[-15:]:
            t.add_row(*row)
        return t


def _fmt(x: float | None) -> str:
    return fmt_as(x)
