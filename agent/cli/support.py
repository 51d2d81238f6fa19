"""What every ``passagent`` command shares: one-line errors, the exit codes, interruption, crashes.

:class:`ContractGroup` is the Typer group of the whole CLI. Around every command it

* turns SIGINT and SIGTERM into :class:`Interrupted` (a ``KeyboardInterrupt``, so code that
  already cleans up on Ctrl-C does so on SIGTERM too); when it reaches the top, every child
  process group is killed (:func:`passagent.tools.process.children.kill_all`) and the command exits 130;
  a second signal during that clean-up kills the children and exits at once;
* prints a :class:`~passagent.tools.errors.PassagentError` as one line and exits with its code (2);
* catches any other exception (a bug), writes its traceback to a file under the cache folder and
  prints one line naming it, exit 70.

The codes are :class:`passagent.agent.exit_codes.ExitCode`; ``docs/cli.md`` has the table.
"""

from __future__ import annotations

import errno
import os
import signal
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import click
import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from ...tools.errors import PassagentError, require_device
from ..exit_codes import ExitCode

err = Console(stderr=True)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived (``signum``; the message is the signal's name). Commands that
    leave something resumable catch it to say how to resume (``solve``); the rest is done at the
    top (:class:`ContractGroup`)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


_signals_seen = 0


def _on_signal(signum: int, _frame: Any) -> None:
    global _signals_seen
    _signals_seen += 1
    if _signals_seen > 1:  # a second signal while cleaning up: stop now, children first
        from ...tools.process.children import kill_all

        kill_all()
        os._exit(ExitCode.INTERRUPTED)
    raise Interrupted(signum)


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` in the main thread for the block."""
    global _signals_seen
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _signals_seen = 0
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def fail(message: object, code: int = ExitCode.BAD_INPUT) -> NoReturn:
    """Print ``error: message`` as one line on stderr and exit with ``code``."""
    text = " ".join(str(message).split())  # one line, whatever the message holds
    err.print(f"[red]error:[/red] {escape(text)}", highlight=False, soft_wrap=True)
    raise typer.Exit(int(code))


def check_device(device: str, option: str = "--device") -> str:
    """:func:`passagent.tools.errors.require_device`, failing with one line and exit 2."""
    try:
        return require_device(device, option)
    except PassagentError as exc:
        fail(exc, exc.exit_code)


def crash_report(exc: BaseException, command: str) -> Path | None:
    """Write ``exc``'s traceback under ``<cache>/crashes/``; the file, or None if none could be written."""
    from ...tools.evaluation.baseline_cache import default_cache_root

    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    name = f"{time.strftime('%Y%m%d-%H%M%S')}-{command or 'passagent'}-{os.getpid()}.txt"
    for folder in (default_cache_root() / "crashes", Path(tempfile.gettempdir()) / "passagent-crashes"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(f"passagent {command}: internal error\n\n{text}")
            return path
        except OSError:
            continue
    return None


def stop_children() -> None:
    """Kill every child process group this process started (:func:`passagent.tools.process.children.kill_all`)."""
    from ...tools.process.children import kill_all

    kill_all()


def show_eval_result(result: Any, json_out: bool) -> NoReturn:
    """Print an evaluation (``eval``, ``apply``) and exit with its code: the JSON, a pass that does
    not load as one line (no score table for a pass that never ran), or the tables."""
    from ..run.render import eval_table, load_failure, print_renderable

    if json_out:
        typer.echo(result.model_dump_json(indent=2))
    elif (line := load_failure(result)) is not None:
        fail(line, ExitCode.FAILED)
    else:
        print_renderable(eval_table(result))
    raise typer.Exit(eval_exit_code(result))


def eval_exit_code(result: Any) -> ExitCode:
    """INTEGRITY (3) if a defence fired on any subgraph, else FAILED (1) if no subgraph is correct
    at t = -5 (the pass failed everywhere, or did not load), else OK (0)."""
    if any(s.failure_class == "integrity" for s in result.subgraphs):
        return ExitCode.INTEGRITY
    if not any(s.status == "correct" for s in result.subgraphs):
        return ExitCode.FAILED
    return ExitCode.OK


def _click_own() -> tuple[type[BaseException], ...]:
    """The exceptions click handles itself: usage errors (2), ``Exit`` and ``Abort``, from click and
    from the copy of click that Typer vendors (``typer._click``), whichever raised them."""
    modules: list[Any] = [click.exceptions]
    try:
        from typer._click import exceptions as vendored  # type: ignore[import-not-found]

        modules.append(vendored)
    except ImportError:
        pass
    names = ("ClickException", "Exit", "Abort", "TyperException")
    return (typer.Exit, typer.Abort) + tuple(getattr(m, n) for m in modules for n in names if hasattr(m, n))


_CLICK_OWN = _click_own()


class ContractGroup(TyperGroup):
    """The CLI's group: signals, one-line errors and the exit-code table around every command."""

    def invoke(self, ctx: click.Context) -> Any:
        with signals_interrupt():
            try:
                return super().invoke(ctx)
            except _CLICK_OWN:  # usage errors, --help, exits: click prints and exits as it always does
                raise
            except KeyboardInterrupt as exc:
                stop_children()
                how = exc.args[0] if isinstance(exc, Interrupted) else "SIGINT"
                err.print(f"[yellow]interrupted[/yellow] ({how}): child processes stopped", highlight=False)
                raise typer.Exit(ExitCode.INTERRUPTED) from None
            except PassagentError as exc:
                fail(exc, exc.exit_code)
            except OSError as exc:
                if exc.errno == errno.EPIPE:  # `passagent report ... | head`: the reader left
                    raise
                self._crash(ctx, exc)
            except Exception as exc:  # noqa: BLE001 - a bug: one line here, the traceback in a file
                self._crash(ctx, exc)

    @staticmethod
    def _crash(ctx: click.Context, exc: Exception) -> NoReturn:
        stop_children()
        command = ctx.invoked_subcommand or ""
        path = crash_report(exc, command)
        where = f"; the traceback is in {path}" if path else ""
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        err.print(f"[red]internal error[/red] (a bug in passagent): {escape(f'{type(exc).__name__}: {first}{where}')}",
                  highlight=False, soft_wrap=True)
        raise typer.Exit(ExitCode.SOFTWARE)


__all__ = ["ContractGroup", "Interrupted", "fail", "check_device", "crash_report", "err",
           "signals_interrupt", "stop_children", "show_eval_result", "eval_exit_code"]
