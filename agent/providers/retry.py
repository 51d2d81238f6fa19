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

from ..protocols import ModelError

T = TypeVar("T")

# 408 and 409 are what the SDKs themselves retry (request timeout, lock contention);
# 529 is Anthropic's "overloaded", covered by the 5xx rule.
_RETRYABLE_4XX = {408, 409, 429}


class TransientError(Exception):
    """A failure worth another attempt: 429, 5xx, a timeout, a dropped connection.

    Attributes:
        retry_after_s: the server's ``Retry-After`` in seconds, or None if it sent none.
    """

    def __init__(self, message: str, retry_after_s: float | None = None):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class MalformedResponse(TransientError):
    """A response body that cannot be turned into a message (empty, not JSON, no choices).

    Retried a few times only (``RetryPolicy.malformed_attempts``): a server that sends
    garbage twice in a row usually keeps doing so.
    """


@dataclass
class RetryPolicy:
    """How often and how long to retry a model call.

    Attributes:
        max_attempts: attempts in all, the first included.
        base_wait_s: first backoff wait in seconds; it doubles per attempt, plus up to
            ``base_wait_s`` of random jitter, when the server sent no ``Retry-After``.
        max_wait_s: cap on any single wait, ``Retry-After`` included (seconds).
        malformed_attempts: attempts in all when the latest failure is a malformed body.
        sleep: the sleeping function (tests pass a recorder to stay fast).
    """

    max_attempts: int = 6
    base_wait_s: float = 1.0
    max_wait_s: float = 60.0
    malformed_attempts: int = 3
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)


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
        message = f"{what}: HTTP {status}: {one_line(_error_detail(exc), 200)}"
        if status in _RETRYABLE_4XX or status >= 500:
            return TransientError(message, parse_retry_after(exc.response.headers))
        return ModelError(message)
    return exc


def call_with_retries(fn: Callable[[], T], policy: RetryPolicy, what: str) -> tuple[T, int]:
    """Call ``fn`` until it returns, retrying on :class:`TransientError` per ``policy``.

    Returns:
        ``(result, attempts)``; attempts counts the first call.

    Raises:
        ModelError: attempts exhausted (the message names the last failure), or ``fn`` raised
            a ModelError (non-retryable) itself.
    """
    attempts = 0

    def attempt() -> T:
        nonlocal attempts
        attempts += 1
        return fn()

    def stop(state: Any) -> bool:
        exc = state.outcome.exception()
        limit = policy.max_attempts
        if isinstance(exc, MalformedResponse):
            limit = min(limit, policy.malformed_attempts)
        return state.attempt_number >= limit

    def wait(state: Any) -> float:
        exc = state.outcome.exception()
        if isinstance(exc, TransientError) and exc.retry_after_s is not None:
            return min(exc.retry_after_s, policy.max_wait_s)
        backoff = policy.base_wait_s * 2 ** (state.attempt_number - 1)
        return min(backoff + random.uniform(0, policy.base_wait_s), policy.max_wait_s)

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
