"""Retries for model calls: which failures earn another attempt, and how long to wait first.

Providers build their SDK clients with ``max_retries=0`` so that this one policy decides for
every provider: it honours ``Retry-After``, caps the wait, and counts attempts so that the
trajectory records them (``ModelResponse.attempts``).
"""

from __future__ import annotations

import email.utils
import json
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from types import ModuleType
from typing import Any, TypeVar

from tenacity import Retrying, retry_if_exception_type

from ..protocols import ContextTooLong, ModelError, ModelUnavailable

T = TypeVar("T")

# 408 and 409 are what the SDKs themselves retry (request timeout, lock contention).
_RETRYABLE_4XX = {408, 409, 429}
# "The service is busy" statuses: retried against a wall-clock budget, not an attempt count.
# 429 rate limit and 529 overloaded_error: Anthropic's errors page
# (https://docs.anthropic.com/en/api/errors); 503: OpenAI's error codes guide
# (https://platform.openai.com/docs/guides/error-codes, "Slow Down" / engine overloaded).
OVERLOAD_STATUSES = {429, 503, 529}
# 429s that no wait will cure, so they are never retried: OpenAI's `insufficient_quota`
# (https://platform.openai.com/docs/guides/error-codes, "You exceeded your current quota";
# retried by mistake in langchain-ai/langchainjs#1929) and Anthropic's monthly spend cap,
# `error.details.error_code = "enforced_spend_limit_reached"` (Anthropic errors page).
_QUOTA_CODES = {"insufficient_quota", "enforced_spend_limit_reached", "billing_hard_limit_reached"}
# Context-window overflows as the services word them: OpenAI `context_length_exceeded`
# ("This model's maximum context length is N tokens"), Anthropic "prompt is too long: N tokens > M
# maximum", vLLM "maximum context length" / "is longer than the model's context length".
_CONTEXT_WORDS = ("context_length_exceeded", "maximum context length", "prompt is too long",
                  "context length", "context window")


class TransientError(Exception):
    """A failure worth another attempt: 429, 5xx, a timeout, a dropped connection.

    Attributes:
        retry_after_s: the server's ``Retry-After`` in seconds, or None if it sent none.
    """

    def __init__(self, message: str, retry_after_s: float | None = None):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class OverloadedError(TransientError):
    """The service is busy (429, 503, 529): retried for up to ``RetryPolicy.overload_budget_s``."""


class MalformedResponse(TransientError):
    """A response body that cannot be turned into a message (empty, not JSON, no choices).

    Retried a few times only (``RetryPolicy.malformed_attempts``): a server that sends
    garbage twice in a row usually keeps doing so.
    """


@dataclass
class RetryPolicy:
    """How often and how long to retry a model call.

    Two budgets: failures that are the request's or the connection's (5xx other than 503,
    timeouts, dropped connections) get ``max_attempts``; an overloaded service (429, 503, 529)
    gets ``overload_budget_s`` seconds of wall-clock time, however many attempts that takes,
    waiting what ``Retry-After`` asks. When the overload budget is spent the call raises
    :class:`~passagent.agent.protocols.ModelUnavailable` (the run stops resumable).

    Attributes:
        max_attempts: attempts in all for non-overload failures, the first included.
        base_wait_s: first backoff wait in seconds; it doubles per attempt, plus up to
            ``base_wait_s`` of random jitter, when the server sent no ``Retry-After``.
        max_wait_s: cap on a backoff wait without ``Retry-After`` (seconds).
        overload_budget_s: wall-clock seconds, from the first overload answer, for which an
            overloaded service is retried. A ``Retry-After`` longer than what is left ends it.
        malformed_attempts: attempts in all when the latest failure is a malformed body.
        sleep: the sleeping function (tests pass a recorder to stay fast).
        clock: monotonic seconds (tests pass a fake one together with ``sleep``).
    """

    max_attempts: int = 6
    base_wait_s: float = 1.0
    max_wait_s: float = 60.0
    overload_budget_s: float = 600.0
    malformed_attempts: int = 3
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)


def parse_retry_after(headers: Mapping[str, str] | None, now: datetime | None = None) -> float | None:
    """Seconds to wait according to ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP date).

    Returns None when neither header is present or parseable; never negative.
    """
    if not headers:
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    raw_ms = lower.get("retry-after-ms")
    if raw_ms is not None:
        try:
            return max(float(raw_ms) / 1000.0, 0.0)
        except ValueError:
            pass
    raw = lower.get("retry-after")
    if raw is None:
        return None
    try:
        return max(float(raw), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max((when - (now or datetime.now(timezone.utc))).total_seconds(), 0.0)


def one_line(text: str, limit: int = 300) -> str:
    """Collapse whitespace so an error message fits one CLI line, truncated to ``limit`` chars."""
    flat = re.sub(r"\s+", " ", str(text)).strip()
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _error_code(exc: Any) -> str:
    # OpenAI: {"error": {"code": "insufficient_quota"}}; Anthropic:
    # {"error": {"type": "rate_limit_error", "details": {"error_code": "enforced_spend_limit_reached"}}}.
    body = getattr(exc, "body", None)
    inner = body.get("error", body) if isinstance(body, dict) else None
    if not isinstance(inner, dict):
        return str(getattr(exc, "code", "") or "")
    details = inner.get("details") if isinstance(inner.get("details"), dict) else {}
    return str(inner.get("code") or details.get("error_code") or "")


# Error types an Anthropic stream can carry mid-reply, and the HTTP status each stands for
# (Anthropic errors page: "errors can occur after a 200 response when streaming").
_STREAM_ERROR_STATUS = {"overloaded_error": 529, "rate_limit_error": 429, "api_error": 500,
                        "invalid_request_error": 400}


def _error_type(exc: Any) -> str:
    body = getattr(exc, "body", None)
    inner = body.get("error", body) if isinstance(body, dict) else None
    return str(inner.get("type") or "") if isinstance(inner, dict) else ""


def _error_detail(exc: Any) -> str:
    # Both SDKs put the decoded error body on .body; OpenAI nests {"error": {"message"}},
    # Anthropic {"type": "error", "error": {"type", "message"}}.
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
    return str(getattr(exc, "message", None) or exc)


def classify_sdk_error(exc: BaseException, sdk: ModuleType, what: str) -> BaseException:
    """Map an exception from the ``openai`` or ``anthropic`` SDK to ours.

    Both SDKs share one error hierarchy (APIStatusError, APITimeoutError, APIConnectionError,
    APIResponseValidationError), so the module is passed in rather than imported here.

    Returns:
        a :class:`TransientError` to retry, a :class:`ModelError` to raise at once, or
        ``exc`` itself when it is not an SDK error (a bug of ours: let it propagate).
    """
    if isinstance(exc, sdk.APITimeoutError):
        return TransientError(f"{what}: request timed out")
    if isinstance(exc, sdk.APIConnectionError):
        cause = exc.__cause__ or exc
        return TransientError(f"{what}: connection failed: {one_line(cause)}")
    if isinstance(exc, sdk.APIResponseValidationError) or isinstance(exc, json.JSONDecodeError):
        return MalformedResponse(f"{what}: unparseable response body: {one_line(exc, 120)}")
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        if status == 200:  # an error event inside a streamed reply: judge it by its type
            status = _STREAM_ERROR_STATUS.get(_error_type(exc), 500)
        detail = _error_detail(exc)
        code = _error_code(exc)
        message = f"{what}: HTTP {status}: {one_line(detail, 200)}"
        if code in _QUOTA_CODES:
            return ModelError(f"{message} (a quota or spend limit: not retried)")
        if status in (400, 413) and any(w in f"{code} {detail}".lower() for w in _CONTEXT_WORDS):
            return ContextTooLong(message)
        retry_after = parse_retry_after(exc.response.headers)
        if status in OVERLOAD_STATUSES:
            return OverloadedError(message, retry_after)
        if status in _RETRYABLE_4XX or status >= 500:
            return TransientError(message, retry_after)
        return ModelError(message)
    return exc


def call_with_retries(fn: Callable[[], T], policy: RetryPolicy, what: str,
                      on_failure: Callable[[TransientError], None] | None = None) -> tuple[T, int]:
    """Call ``fn`` until it returns, retrying on :class:`TransientError` per ``policy``.

    Args:
        on_failure: called with each transient failure before its wait (cost accounting).

    Returns:
        ``(result, attempts)``; attempts counts the first call.

    Raises:
        ModelUnavailable: the service stayed overloaded for ``policy.overload_budget_s``.
        ModelError: attempts exhausted (the message names the last failure), or ``fn`` raised
            a ModelError (non-retryable) itself.
    """
    attempts = 0
    overloaded_since: float | None = None
    other_failures = 0

    def attempt() -> T:
        nonlocal attempts
        attempts += 1
        return fn()

    def next_wait(exc: TransientError, n: int) -> float:
        if exc.retry_after_s is not None:
            return exc.retry_after_s if isinstance(exc, OverloadedError) else min(exc.retry_after_s, policy.max_wait_s)
        backoff = policy.base_wait_s * 2 ** (n - 1)
        return min(backoff + random.uniform(0, policy.base_wait_s), policy.max_wait_s)

    def stop(state: Any) -> bool:
        nonlocal overloaded_since, other_failures
        exc = state.outcome.exception()
        if on_failure is not None and isinstance(exc, TransientError):
            on_failure(exc)
        if isinstance(exc, OverloadedError):
            now = policy.clock()
            overloaded_since = now if overloaded_since is None else overloaded_since
            elapsed = now - overloaded_since
            wait = next_wait(exc, state.attempt_number)
            if elapsed + wait > policy.overload_budget_s:
                raise ModelUnavailable(
                    f"{what}: still overloaded after {elapsed:.0f} s of retries ({attempts} attempt(s); "
                    f"overload budget {policy.overload_budget_s:.0f} s): {exc}") from exc
            return False
        other_failures += 1
        limit = policy.max_attempts
        if isinstance(exc, MalformedResponse):
            limit = min(limit, policy.malformed_attempts)
        return other_failures >= limit

    def wait(state: Any) -> float:
        exc = state.outcome.exception()
        return next_wait(exc, state.attempt_number) if isinstance(exc, TransientError) else policy.base_wait_s

    retrying = Retrying(
        retry=retry_if_exception_type(TransientError),
        stop=stop,
        wait=wait,
        sleep=policy.sleep,
        reraise=True,
    )
    try:
        result = retrying(attempt)
    except TransientError as exc:
        raise ModelError(f"gave up after {attempts} attempt(s): {exc}") from exc
    return result, attempts
