"""The kinds of event a run's ``events.jsonl`` holds (:class:`~.archive.RunArchive`).

Every event is one JSON object with ``id`` (deterministic: ``s3:model``, ``s3:tool:0``), ``seq``,
``kind`` (one of :class:`EventKind`), ``time`` (Unix seconds) and the kind's own fields. The
values are the strings written to the file, so ``event["kind"] == EventKind.TOOL_RESULT`` holds
for a log read back with :mod:`json`; resume (:mod:`.runstate`), the report, the HTML viewer and
the export all read the same kinds.
"""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    """What an event records."""

    MESSAGE = "message"                      #: a system or user message of the task (``s0:init:i``)
    MODEL_RESPONSE = "model_response"        #: one model call: the assistant message, usage, latency
    TOOL_RESULT = "tool_result"              #: one tool call's result (an evaluation's, with its pass version)
    FORMAT_ERROR = "format_error"            #: feedback on a malformed answer
    TRUNCATED = "truncated"                  #: feedback on an answer cut at the output cap
    CONTEXT_CONDENSED = "context_condensed"  #: tool results condensed to fit the context window
    MODEL_UNAVAILABLE = "model_unavailable"  #: the service stayed overloaded: the run stops resumable
    ERROR = "error"                          #: a model error that ends the run
    CONFIRM = "confirm"                      #: a pass version evaluated again before it is kept
    CONFIRM_BEST = "confirm_best"            #: the best version after confirmation
    RUN_STOPPED = "run_stopped"              #: interrupted or unavailable: resumable
    RUN_END = "run_end"                      #: the run's end, with its exit reason and best AS
