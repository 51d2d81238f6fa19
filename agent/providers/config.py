"""The models file: short model names, their provider settings, and the price table.

A TOML file (read with :mod:`tomllib`) of this shape::

    [models.gpt-x]                    # a short name for ``--model gpt-x``
    provider = "openai"               # openai | anthropic | compat
    model = "gpt-5.5"
    reasoning_effort = "medium"
    price = { input = 5.0, cached_input = 0.5, output = 30.0 }

    [prices."openai:gpt-5.4"]         # prices for specs used directly (``openai:gpt-5.4``)
    input = 2.5
    cached_input = 0.25
    output = 15.0

Prices are US dollars per million tokens. The first file found wins, whole (no merging):
an explicit path, then ``$PASSAGENT_MODELS_FILE``, then ``./models.toml``, then the
``agent/models.toml`` shipped with the package.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..protocols import ModelConfigError

ENV_MODELS_FILE = "PASSAGENT_MODELS_FILE"
PACKAGED_MODELS_FILE = Path(__file__).resolve().parent.parent / "models.toml"

DEFAULT_KEY_ENV = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "compat": "PASSAGENT_COMPAT_API_KEY",
}


class Price(BaseModel):
    """Prices in US dollars per million tokens.

    Attributes:
        input: uncached input tokens.
        output: output tokens (reasoning tokens included, as the providers bill them).
        cached_input: input tokens read from the prompt cache; defaults to ``input``.
        cache_write: input tokens written to the prompt cache (Anthropic); defaults to ``input``.
        long_context_above: input tokens above which a request is billed at ``long_context``
            rates, all of it (OpenAI's GPT-5.4/5.5 long-context tier: above 272K input tokens).
        long_context: the rates of that tier (same fields).
    """

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(None, ge=0)
    cache_write: float | None = Field(None, ge=0)
    long_context_above: int | None = Field(None, gt=0)
    long_context: "Price | None" = None

    def cost_usd(self, input_tokens: int, output_tokens: int, cached_input_tokens: int = 0,
                 cache_write_tokens: int = 0) -> float:
        """Cost of one call in US dollars; ``input_tokens`` includes cached and cache-write tokens."""
        if self.long_context is not None and self.long_context_above is not None \
                and input_tokens > self.long_context_above:
            return self.long_context.cost_usd(input_tokens, output_tokens, cached_input_tokens, cache_write_tokens)
        fresh = max(input_tokens - cached_input_tokens - cache_write_tokens, 0)
        cached = self.input if self.cached_input is None else self.cached_input
        write = self.input if self.cache_write is None else self.cache_write
        total = (fresh * self.input + cached_input_tokens * cached
                 + cache_write_tokens * write + output_tokens * self.output)
        return total / 1_000_000


# OpenAI models that reason (and so reject temperature/top_p and need the Responses API for
# tool calls with reasoning): the o-series and GPT-5.x. Source: OpenAI's reasoning guide
# (https://platform.openai.com/docs/guides/reasoning) and the 400 "Function tools with
# reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. Please use
# /v1/responses instead." (pipecat-ai/pipecat#4043, openai/openai-openapi#541).
_OPENAI_REASONING = re.compile(r"^(o\d|gpt-5)")


class ModelEntry(BaseModel):
    """One model's settings: provider, API, model id, endpoint, generation parameters, retries, price.

    Never holds an API key: only the *name* of the environment variable that holds it.
    """

    model_config = ConfigDict(extra="forbid")

    provider: Literal["openai", "anthropic", "compat"]
    model: str = Field(min_length=1, description="the provider's model id")
    api: Literal["responses", "chat", "messages"] | None = Field(
        None, description="wire API; None: 'responses' for OpenAI reasoning models (o*, gpt-5*) or when "
        "reasoning_effort is set, else 'chat' for openai/compat, 'messages' for anthropic")
    base_url: str | None = Field(None, description="endpoint; None: the SDK default (or its *_BASE_URL env var)")
    api_key_env: str | None = Field(None, description="env var holding the key; None: the provider's default")
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = Field(None, gt=0, description="output token cap; Anthropic needs one (default 8192)")
    reasoning_effort: str | None = Field(None, description="OpenAI reasoning models: none/minimal/low/medium/high/xhigh")
    thinking: Literal["adaptive", "enabled", "disabled"] | None = Field(
        None, description="Anthropic extended thinking: adaptive (the model decides; current Opus accepts "
        "only this), enabled (fixed thinking_budget_tokens), disabled; None: not sent")
    thinking_budget_tokens: int | None = Field(None, ge=1024, description="Anthropic thinking='enabled': token budget")
    effort: Literal["low", "medium", "high", "xhigh", "max"] | None = Field(
        None, description="Anthropic output_config.effort: how many tokens the model may spend, thinking included")
    seed: int | None = None
    prompt_cache: bool = Field(False, description="Anthropic: mark system prompt and history cacheable")
    context_window: int | None = Field(None, gt=0, description="input tokens the model accepts; the history is "
                                       "condensed before a request would pass 75% of it")
    extra_body: dict[str, Any] = Field(default_factory=dict, description="extra request fields, sent as-is")
    stream: bool | None = Field(None, description="stream the reply (the timeout then bounds the gap between "
                                "chunks, so a long generation is one request, not several timed-out ones); "
                                "None: on for the Responses and Messages APIs, off for chat completions")
    timeout_s: float = Field(300.0, gt=0, description="per-attempt HTTP timeout (seconds); when streaming, "
                             "the longest wait for the next chunk")
    max_attempts: int = Field(6, ge=1, description="attempts in all for errors other than overload")
    base_wait_s: float = Field(1.0, ge=0, description="first backoff wait (seconds)")
    overload_budget_s: float = Field(600.0, ge=0, description="wall-clock seconds an overloaded service "
                                     "(429/503/529) is retried before the run stops resumable")
    price: Price | None = None

    @model_validator(mode="after")
    def _check(self) -> "ModelEntry":
        if self.provider == "anthropic" and self.api not in (None, "messages"):
            raise ValueError(f"api: anthropic models use 'messages', not {self.api!r}")
        if self.provider != "anthropic" and self.api == "messages":
            raise ValueError(f"api: 'messages' is Anthropic's; {self.provider} models use 'responses' or 'chat'")
        if self.thinking == "enabled" and self.thinking_budget_tokens is None:
            raise ValueError("thinking_budget_tokens: required when thinking = 'enabled'")
        return self

    @property
    def key_env(self) -> str:
        """The environment variable the API key is read from."""
        return self.api_key_env or DEFAULT_KEY_ENV[self.provider]

    @property
    def reasoning(self) -> bool:
        """True for an OpenAI reasoning model (by id or because reasoning_effort is set)."""
        if self.provider == "anthropic":
            return False
        return self.reasoning_effort is not None or bool(_OPENAI_REASONING.match(self.model))

    @property
    def streamed(self) -> bool:
        """Whether replies are streamed (see ``stream``)."""
        return self.stream if self.stream is not None else self.wire_api in ("responses", "messages")

    @property
    def wire_api(self) -> str:
        """The API requests go to: ``responses``, ``chat`` or ``messages`` (see ``api``)."""
        if self.api is not None:
            return self.api
        if self.provider == "anthropic":
            return "messages"
        return "responses" if self.provider == "openai" and self.reasoning else "chat"


class ModelsFile(BaseModel):
    """A parsed models file: ``models`` by short name and ``prices`` by ``provider:model``.

    Attributes:
        path: where it was read from; None when no models file exists anywhere.
    """

    model_config = ConfigDict(extra="forbid")

    path: Path | None = None
    models: dict[str, ModelEntry] = Field(default_factory=dict)
    prices: dict[str, Price] = Field(default_factory=dict)

    def price_for(self, entry: ModelEntry) -> Price | None:
        """The entry's own price, else ``prices["provider:model"]``, else None (unpriced)."""
        return entry.price or self.prices.get(f"{entry.provider}:{entry.model}")


def find_models_file(path: str | Path | None = None) -> Path | None:
    """The models file to use: ``path`` > ``$PASSAGENT_MODELS_FILE`` > ``./models.toml`` > packaged.

    Returns None when none exists (then only direct specs work, all unpriced).

    Raises:
        ModelConfigError: ``path`` or the environment variable names a file that does not exist.
    """
    if path is not None:
        if not Path(path).is_file():
            raise ModelConfigError(f"models file {path} does not exist")
        return Path(path)
    env = os.environ.get(ENV_MODELS_FILE)
    if env:
        if not Path(env).is_file():
            raise ModelConfigError(f"models file {env} (from ${ENV_MODELS_FILE}) does not exist")
        return Path(env)
    local = Path.cwd() / "models.toml"
    if local.is_file():
        return local
    return PACKAGED_MODELS_FILE if PACKAGED_MODELS_FILE.is_file() else None


def load_models_file(path: str | Path | None = None) -> ModelsFile:
    """Find (see :func:`find_models_file`) and parse the models file.

    Raises:
        ModelConfigError: the file is missing, not valid TOML, or has an unknown or
            ill-typed field (the message names the file and the field).
    """
    found = find_models_file(path)
    if found is None:
        return ModelsFile()
    try:
        data = tomllib.loads(found.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ModelConfigError(f"models file {found}: {exc}") from exc
    if "path" in data:  # ours, not the file's: it records where the file was read from
        raise ModelConfigError(f"models file {found}: path: unknown top-level key")
    try:
        return ModelsFile.model_validate({**data, "path": found})
    except ValidationError as exc:
        raise ModelConfigError(f"models file {found}: {_first_problem(exc)}") from exc


def _first_problem(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"])
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {err['msg']}{more}"
