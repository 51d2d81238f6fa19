"""The exit codes of every ``passagent`` command: one table, one meaning per number.

Every command (eval, check, solve, sweep, report, export, apply, export-pass, coverage, redteam,
tasks, bench) exits with one of these, and ``docs/cli.md`` holds the same table for people. A
code says what happened, never which command it came from: 1 is always "it ran and the verdict is
negative", 2 always "nothing ran, the input is wrong". Values above 2 follow ``sysexits.h``
where one fits (70, 75) and the shell's ``128 + signal`` for an interruption (130).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What a ``passagent`` command's exit status means; each member's ``__doc__`` says it."""

    def __new__(cls, value: int, doc: str) -> "ExitCode":
        member = int.__new__(cls, value)
        member._value_ = value
        member.__doc__ = doc
        return member

    OK = 0, (
        "Success: the command did what was asked and its verdict, where it has one, is positive.")

    FAILED = 1, (
        "The command ran and its verdict is negative. ``eval``: no subgraph is correct at t = -5, "
        "or the pass does not load; ``check``: the pass is not clean (no match, wrong values, "
        "does not load); ``apply``: the pass failed on the model's graph; ``solve``: no pass "
        "version was correct on any subgraph; ``redteam``: an attack was rewarded or an honest "
        "pass was flagged.")

    BAD_INPUT = 2, (
        "Bad input or usage, found before any work: a missing or misspelled task, a missing pass "
        "file, an unknown model, an unavailable device, an unknown run id, a bad option (Typer's "
        "own usage errors are 2 as well). One line on stderr says what and where.")

    INTEGRITY = 3, (
        "An integrity defence fired (``eval``, ``apply``: on some subgraph; ``check``: the static "
        "checks refuse the pass): the pass is scored as a failure and the rule is named.")

    MODEL = 4, (
        "Model-side failure: the run ended on a model error, on repeated malformed replies, or on "
        "a refusal (``solve``; ``sweep`` when a run ended so). The run is finished, not "
        "resumable.")

    SOFTWARE = 70, (
        "Internal error (``EX_SOFTWARE``): an unexpected exception, that is a bug in passagent. "
        "Its traceback is written to a file and one line names that file; in a sweep, a run "
        "crashed.")

    TEMPFAIL = 75, (
        "Unfinished but resumable (``EX_TEMPFAIL``): the model service stayed overloaded, or a "
        "sweep's global budget stopped it. Run the printed command (``--resume``, or the same "
        "``--sweep-id``).")

    INTERRUPTED = 130, (
        "Interrupted by SIGINT (Ctrl-C) or SIGTERM: child processes were stopped, everything "
        "recorded was kept, and a run or sweep prints the command that resumes it.")


#: The ``exit_reason`` values of a run that mean MODEL (4); any other reason (finished, patience,
#: a budget) is OK, or FAILED where no version was correct (``agent.run.solve.exit_code``).
MODEL_SIDE_REASONS = ("model_error", "format_errors", "refusal")


__all__ = ["ExitCode", "MODEL_SIDE_REASONS"]
