"""From a model spec on the command line to a :class:`ModelClient`, and a reachability check.

Specs: a short name from the models file (``gpt-x``), ``openai:<model>``,
``anthropic:<model>``, ``compat:<model>@<base_url>`` or ``scripted:<file.json>``. The
built-in offline policy (``builtin``) is not handled here: the caller checks for it first,
and any spec this module does not know raises :class:`ModelConfigError`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..protocols import ModelClient, ModelConfigError
from .config import ModelEntry, ModelsFile, load_models_file
from .retry import RetryPolicy
from .scripted import ScriptedModel

SPEC_FORMS = ("a name from the models file, openai:<model>, anthropic:<model>, "
              "compat:<model>@<base_url> or scripted:<file.json>")
_COMPAT = re.compile(r"(?P<model>[^@\s]+)@(?P<url>https?://\S+)")


def resolve_model(spec: str, models_file: str | Path | None = None, *,
                  retry: RetryPolicy | None = None) -> ModelClient:
    """Build the model client a spec names; sends no request (see :func:`preflight`).

    Args:
        spec: see the module docstring. A models-file name wins over a provider prefix.
        models_file: the models file; None: ``$PASSAGENT_MODELS_FILE``, ``./models.toml``,
            then the packaged ``agent/models.toml``.
        retry: overrides the entry's retry settings (tests pass one with a recording sleep).

    Raises:
        ModelConfigError: unknown name or provider prefix, malformed spec or models file,
            or the API key's environment variable is unset (one-line message).
    """
    spec = spec.strip()
    if spec.startswith("scripted:"):
        return ScriptedModel.from_file(spec.removeprefix("scripted:"))
    config = load_models_file(models_file)
    name, entry = _entry_for(spec, config)
    api_key = _api_key(name, entry)
    price = config.price_for(entry)
    if entry.provider == "anthropic":
        from .anthropic_messages import AnthropicModel
        return AnthropicModel(name, entry, price, api_key, retry)
    if entry.wire_api == "responses":
        from .openai_responses import OpenAIResponsesModel
        return OpenAIResponsesModel(name, entry, price, api_key, retry)
    from .openai_chat import CompatChatModel, OpenAIChatModel
    cls = CompatChatModel if entry.provider == "compat" else OpenAIChatModel
    return cls(name, entry, price, api_key, retry)


def preflight(client: ModelClient, timeout_s: float = 10.0) -> None:
    """Check before a run that the client's server answers (and accepts the key), within ``timeout_s`` seconds.

    Clients without a server (scripted, built-in) pass at once.

    Raises:
        ModelConfigError: ``cannot reach <name> at <url>: ...``, or a rejected key (401/403).
    """
    client.preflight(timeout_s)


def unknown_model_message(spec: str, config: ModelsFile) -> str:
    """One line for a model spec that names nothing: the closest valid names (difflib) when one
    is close, else the short names and the spec forms, kept short enough to read."""
    import difflib

    names = ["builtin", *sorted(config.models)]
    near = difflib.get_close_matches(spec, names, n=2, cutoff=0.6)
    if near:
        return f"unknown model {spec!r}; did you mean {' or '.join(near)}?"
    where = f" ({config.path.name})" if config.path else ""
    listed = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return f"unknown model {spec!r}: the names are {listed}{where}; or openai:<m>, anthropic:<m>, compat:<m>@<url>, scripted:<file>"


def _entry_for(spec: str, config: ModelsFile) -> tuple[str, ModelEntry]:
    if spec in config.models:
        return _label(spec), config.models[spec]
    provider, sep, rest = spec.partition(":")
    if not sep or provider not in ("openai", "anthropic", "compat") or not rest:
        raise ModelConfigError(unknown_model_message(spec, config))
    if provider == "compat":
        match = _COMPAT.fullmatch(rest)
        if match is None:
            raise ModelConfigError(f"bad model spec {spec!r}: expected compat:<model>@<base_url>, "
                                   "e.g. compat:qwen2.5-coder-7b@http://localhost:8000/v1")
        entry = ModelEntry(provider="compat", model=match["model"], base_url=match["url"])
        return _label(f"compat:{match['model']}"), entry
    return _label(spec), ModelEntry(provider=provider, model=rest)


def _api_key(name: str, entry: ModelEntry) -> str:
    # Keys are read here, handed to the SDK client and kept nowhere else.
    key = os.environ.get(entry.key_env, "").strip()
    if key:
        return key
    if entry.provider == "compat" and entry.api_key_env is None:
        return "EMPTY"  # local servers started without --api-key accept anything
    raise ModelConfigError(f"{name}: environment variable {entry.key_env} is not set (it must hold the API key)")


def _label(text: str) -> str:
    # The label names run folders: keep it to characters every filesystem takes (but ':').
    return re.sub(r"[^A-Za-z0-9._:+-]", "_", text)
