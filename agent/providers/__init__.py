"""Model providers: OpenAI (Responses API for reasoning models, Chat Completions otherwise),
Anthropic (Messages API, with thinking), OpenAI-compatible servers, and a scripted test model.

The agent loop needs three things from here::

    client = resolve_model("gpt-x")         # or openai:<m>, anthropic:<m>, compat:<m>@<url>, scripted:<f>
    preflight(client)                        # ModelConfigError("cannot reach ...") before the run
    response = client.complete(messages, tools)   # ModelResponse; ModelError when it fails for good,
                                                  # ModelUnavailable when the service stays overloaded

The SDKs (``openai``, ``anthropic``) are imported only when a client of theirs is built, so
importing this package is cheap. API keys come only from environment variables.
"""

from .config import ModelEntry, ModelsFile, Price, find_models_file, load_models_file
from .registry import SPEC_FORMS, preflight, resolve_model
from .retry import RetryPolicy
from .scripted import ScriptedModel, ScriptedTurn

__all__ = [
    "SPEC_FORMS",
    "ModelEntry",
    "ModelsFile",
    "Price",
    "RetryPolicy",
    "ScriptedModel",
    "ScriptedTurn",
    "find_models_file",
    "load_models_file",
    "preflight",
    "resolve_model",
]
