"""What the hosted providers share: argument parsing, the retried call, cost, preflight.

:class:`HostedModel` holds one SDK client and runs every call through
:func:`~.retry.call_with_retries`; subclasses only translate messages to their wire format
(``_send``) and back (``_parse``).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..protocols import Message, ModelConfigError, ModelError, ModelResponse, ToolSpec, Usage
from .config import ModelEntry, Price
from .retry import (
    MalformedResponse,
    RetryPolicy,
    TransientError,
    call_with_retries,
    classify_sdk_error,
    one_line,
)

CHARS_PER_TOKEN = 4  # the usual rule of thumb for English and code with BPE tokenizers


def estimate_tokens(text: str | int) -> int:
    """A local token estimate, ``ceil(characters / 4)``, of a text or a character count; for
    servers that report no usage and for context-window checks."""
    n = text if isinstance(text, int) else len(text)
    return -(-n // CHARS_PER_TOKEN)

log = logging.getLogger("passagent.providers")


def parse_arguments(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    """Parse a tool call's arguments string into ``(object, None)`` or ``(None, why_not)``.

    An empty string counts as ``{}``: some OpenAI-compatible servers send it for tools
    without parameters. Never raises.
    """
    if not raw.strip():
        return {}, None
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        return None, f"arguments are not valid JSON: {exc.msg} at char {exc.pos}"
    if not isinstance(value, dict):
        return None, f"arguments must be a JSON object, got {type(value).__name__}"
    return value, None


@dataclass
class Reply:
    """One parsed response, before cost and timing are added. Token counts: input includes
    cached and cache-write tokens."""

    message: Message
    model: str
    finish_reason: str | None
    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    truncated: bool = False
    refusal: str | None = None
    has_usage: bool = True


class HostedModel:
    """Base of the SDK-backed providers; implements :class:`~passagent.agent.protocols.ModelClient`.

    Attributes:
        name: the label used in run paths (the short name, or the spec without any URL).
        entry: the settings it was built from (no API key: keys live only in the SDK client).
        price: USD per million tokens, or None when the price table has no entry.
        priced: False when ``price`` is None; then every ``cost_usd`` is 0, not a real cost.
        retry: the retry policy (attempts, waits); replaceable, e.g. with a recording sleep.
    """

    provider: str = ""
    _sdk: ModuleType

    def __init__(self, name: str, entry: ModelEntry, price: Price | None,
                 retry: RetryPolicy | None = None):
        self.name = name
        self.entry = entry
        self.price = price
        self.priced = price is not None
        self.retry = retry or RetryPolicy(max_attempts=entry.max_attempts, base_wait_s=entry.base_wait_s,
                                          overload_budget_s=entry.overload_budget_s)
        self._said: set[str] = set()
        self._pending_notices: list[str] = []  # said once, on the next response
        self._request_chars = 0
        if not self.priced:
            # Local servers are usually free, so an unpriced compat model is no surprise.
            level = logging.INFO if entry.provider == "compat" else logging.WARNING
            log.log(level, "%s: no price in the models file; its cost is reported as 0 USD", name)

    @property
    def context_window(self) -> int | None:
        """The entry's context window (tokens), None when the models file gives none."""
        return self.entry.context_window

    @property
    def max_tokens(self) -> int | None:
        """The entry's output cap (tokens), None when the models file gives none."""
        return self.entry.max_tokens

    @property
    def base_url(self) -> str:
        """The endpoint requests go to."""
        return str(self._client.base_url)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, model={self.entry.model!r}, base_url={self.base_url!r})"

    def config(self) -> dict[str, Any]:
        """The settings as plain data for the run record; holds no API key, only its env var's name."""
        data = self.entry.model_dump(mode="json", exclude_none=True)
        data.update(name=self.name, api_key_env=self.entry.key_env, base_url=self.base_url, priced=self.priced)
        return data

    def notice_once(self, text: str) -> None:
        """Tell the user ``text`` once per client (logged now, and on the next response's notices)."""
        if text not in self._said:
            self._said.add(text)
            self._pending_notices.append(text)
            log.warning("%s", text)

    def complete(self, messages: list[Message], tools: list[ToolSpec]) -> ModelResponse:
        """Send the conversation and tools; return the next assistant message.

        ``latency_s`` is wall-clock seconds including retries and their waits; ``usage.cost_usd``
        is US dollars from the price table (0 when unpriced); ``usage.unconfirmed_cost_usd`` is the
        worst case of attempts that timed out after being sent (they may have been billed).

        Raises:
            ModelUnavailable: the service stayed overloaded for the entry's ``overload_budget_s``.
            ContextTooLong: the request is larger than the model's context window.
            ModelError: a non-retryable HTTP error (400, 401, 403, 404...), or retries exhausted;
                ``exc.unconfirmed_cost_usd`` carries the worst case of timed-out attempts.
        """
        start = time.monotonic()
        unconfirmed = 0.0

        def on_failure(exc: TransientError) -> None:
            nonlocal unconfirmed
            if getattr(exc, "maybe_billed", False) and self.price is not None:
                # A request that timed out may still have been generated and billed in full.
                unconfirmed += self.price.cost_usd(estimate_tokens(self._request_chars),
                                                   self.entry.max_tokens or 32_000)

        try:
            reply, attempts = call_with_retries(lambda: self._attempt(messages, tools), self.retry, self.name,
                                                on_failure)
        except ModelError as exc:
            exc.unconfirmed_cost_usd = unconfirmed  # type: ignore[attr-defined]
            raise
        if not reply.has_usage:  # e.g. a llama.cpp build without usage: keep --max-tokens meaningful
            reply.input_tokens = estimate_tokens(self._request_chars)
            reply.output_tokens = estimate_tokens(reply.message.content + "".join(
                c.raw_arguments for c in reply.message.tool_calls))
        usage = Usage(input_tokens=reply.input_tokens, output_tokens=reply.output_tokens,
                      cached_input_tokens=reply.cached_input_tokens, reasoning_tokens=reply.reasoning_tokens,
                      unconfirmed_cost_usd=unconfirmed, estimated=not reply.has_usage)
        if self.price is not None:
            usage.cost_usd = self.price.cost_usd(reply.input_tokens, reply.output_tokens,
                                                 reply.cached_input_tokens, reply.cache_write_tokens)
        notices, self._pending_notices = self._pending_notices, []
        return ModelResponse(message=reply.message, usage=usage, model=reply.model or self.entry.model,
                             latency_s=time.monotonic() - start, finish_reason=reply.finish_reason,
                             attempts=attempts, truncated=reply.truncated, refusal=reply.refusal,
                             notices=notices)

    def _attempt(self, messages: list[Message], tools: list[ToolSpec]) -> Reply:
        kwargs = self._request(messages, tools)
        self._request_chars = len(json.dumps(kwargs, default=str))
        try:
            raw = self._post(kwargs)
        except Exception as exc:
            mapped = classify_sdk_error(exc, self._sdk, self.name)
            if mapped is exc:
                raise
            if isinstance(exc, self._sdk.APITimeoutError):
                mapped.maybe_billed = True  # type: ignore[attr-defined]
            raise mapped from exc
        try:
            return self._parse(raw)
        except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
            raise MalformedResponse(f"{self.name}: malformed response: {one_line(exc, 160)}") from exc

    def preflight(self, timeout_s: float = 10.0) -> None:
        """Check that the endpoint answers and accepts the key, by listing its models.

        Raises:
            ModelConfigError: connection refused or timed out (``cannot reach ...``), or the key
                was rejected (401/403).
        """
        sdk = self._sdk
        try:
            served = self._list_models(timeout_s)
        except sdk.APIConnectionError as exc:
            why = "timed out" if isinstance(exc, sdk.APITimeoutError) else one_line(exc.__cause__ or exc, 160)
            raise ModelConfigError(f"cannot reach {self.name} at {self.base_url}: {why}") from exc
        except sdk.APIStatusError as exc:
            if exc.status_code in (401, 403):
                raise ModelConfigError(f"{self.name}: {self.base_url} rejected the API key from "
                                       f"${self.entry.key_env} (HTTP {exc.status_code})") from exc
            return  # it answered; a server without a models listing is still reachable
        except Exception:  # noqa: BLE001 - an odd listing body still proves the server is up
            return
        self._check_served(served)

    _probe_cap_field = "max_tokens"

    def probe(self, tools: list[ToolSpec], timeout_s: float = 60.0) -> None:
        """Send one tiny request with the run's real tools and settings (output capped at 64
        tokens), once, no retries: a server that cannot serve the run fails here in one line.

        Only for ``compat`` servers (local, free); hosted APIs are checked by :meth:`preflight`.
        What it catches, e.g.: llama.cpp started without templates answers ``500 tools param
        requires --jinja flag`` (defilantech/LLMKube#126, containers/ramalama#988); vLLM started
        without ``--enable-auto-tool-choice`` rejects tool requests; a context window smaller
        than the tool schemas; a wrong model name (404).

        Raises:
            ModelConfigError: the server answered the test request with an error (other than
                "busy": 429/503/529, which the run's retries handle), or could not be reached.
        """
        if self.entry.provider != "compat":
            return
        sdk = self._sdk
        kwargs = self._request([Message(role="user", content="Reply with the word: ok")], tools)
        kwargs[self._probe_cap_field] = 64
        saved = self._client
        self._client = saved.with_options(timeout=min(timeout_s, self.entry.timeout_s), max_retries=0)
        try:
            self._post(kwargs)
        except sdk.APIConnectionError as exc:
            raise ModelConfigError(f"cannot reach {self.name} at {self.base_url}: "
                                   f"{one_line(exc.__cause__ or exc, 160)}") from exc
        except sdk.APIStatusError as exc:
            if exc.status_code in (429, 503, 529):
                return
            detail = classify_sdk_error(exc, sdk, self.name)
            raise ModelConfigError(f"{one_line(detail, 300)} (a test request with the run's tools and settings; "
                                   "check how the server was started)") from exc
        finally:
            self._client = saved

    def _check_served(self, served: list[str]) -> None:
        """Hook: warn if the model is not among ``served`` (only compat servers do)."""

    def _request(self, messages: list[Message], tools: list[ToolSpec]) -> dict[str, Any]:
        """The SDK call's keyword arguments for this conversation."""
        raise NotImplementedError

    def _post(self, kwargs: dict[str, Any]) -> Any:
        """Send one request built by :meth:`_request`; return the SDK's response object."""
        raise NotImplementedError

    def _parse(self, raw: Any) -> Reply:
        raise NotImplementedError

    def _list_models(self, timeout_s: float) -> list[str]:
        raise NotImplementedError
