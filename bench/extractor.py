"""``passagent.extract``: capture your own model into GraphNet samples, the way the benchmark does.

Three ways to use it::

    import passagent

    # 1. wrap a module (or a function): the first call is captured, every call returns as usual
    model = passagent.extract("my_mlp", output_dir="samples")(model)
    y = model(x)

    # 2. decorate a module class or a function
    @passagent.extract("my_block", output_dir="samples")
    class Block(torch.nn.Module): ...

    # 3. as a context manager, capturing explicit calls
    with passagent.extract("my_model", output_dir="samples") as ex:
        y = ex.run(model, x, mask=m)
    print(ex.samples)          # the sample folders written

Each captured graph becomes ``<output_dir>/<name>/`` (``model.py``, ``weight_meta.py``,
``graph_net.json``, ``graph_hash.txt``; after a graph break ``<name>__g1`` and so on), already
validated: it reloads through the harness with equal outputs and Dynamo re-captures it
identically. A sample folder is a one-subgraph task: ``passagent eval samples/my_mlp --pass p.py``.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, Callable

import torch

from .capture import CaptureError, CaptureResult, capture_model

__all__ = ["extract", "CaptureError"]


def _default_dir() -> Path:
    return Path(os.environ.get("PASSAGENT_EXTRACT_DIR", "passagent_samples"))


class extract:
    """Capture models into GraphNet sample folders; a decorator, wrapper or context manager.

    Args:
        name: sample name (default: the class or function name). A second capture under one
            ``extract`` gets ``<name>_1``, and so on.
        output_dir: where sample folders are written (default ``$PASSAGENT_EXTRACT_DIR`` or
            ``./passagent_samples``).
        validate: reload every sample through the harness and re-capture it (default True).
        info: extra ``graph_net.json`` fields (``source``, ``domain``, ...).

    Attributes:
        results: one :class:`~passagent.bench.capture.CaptureResult` per capture so far.

    Raises (at capture time):
        CaptureError: the model does not run, Dynamo cannot trace it, or a graph cannot be
            serialised or reloaded with equal outputs (``.stage`` and ``.reason`` say which).
    """

    def __init__(self, name: str | None = None, output_dir: str | Path | None = None, *,
                 validate: bool = True, info: dict[str, Any] | None = None):
        self.name = name
        self.output_dir = Path(output_dir) if output_dir is not None else _default_dir()
        self.validate = validate
        self.info = dict(info or {})
        self.results: list[CaptureResult] = []
        self._capturing = False

    @property
    def samples(self) -> list[Path]:
        """Every sample folder written so far."""
        return [g.folder for r in self.results for g in r.graphs if g.folder is not None]

    # -- context manager -----------------------------------------------------------------------

    def __enter__(self) -> "extract":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def run(self, model: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Capture ``model(*args, **kwargs)`` and return the model's (eager) output.

        Raises:
            CaptureError: see the class docstring.
        """
        base = self.name or getattr(model, "__name__", None) or type(model).__name__
        name = base if not self.results else f"{base}_{len(self.results)}"
        self._capturing = True
        try:
            result = capture_model(model, args, kwargs, name=name, out_dir=self.output_dir,
                                   info={"source": "passagent.extract", **self.info}, validate=self.validate)
        finally:
            self._capturing = False
        self.results.append(result)
        with torch.no_grad():
            return model(*args, **kwargs)

    # -- decorator / wrapper -------------------------------------------------------------------

    def __call__(self, target: Any) -> Any:
        """Wrap a module instance, a module class or a function so that its first call is captured."""
        if isinstance(target, type) and issubclass(target, torch.nn.Module):
            return self._wrap_class(target)
        if isinstance(target, torch.nn.Module):
            return _ExtractedModule(target, self)
        if callable(target):
            return self._wrap_function(target)
        raise TypeError(f"extract() wraps a torch.nn.Module, a Module class or a function, not {type(target).__name__}")

    def _wrap_function(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        done = False

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            nonlocal done
            if done:
                return fn(*args, **kwargs)
            done = True
            return self.run(fn, *args, **kwargs)

        return wrapper

    def _wrap_class(self, cls: type[torch.nn.Module]) -> type[torch.nn.Module]:
        ex = self
        original = cls.forward

        def forward(module: torch.nn.Module, *args: Any, **kwargs: Any) -> Any:
            # Inside the capture (Dynamo tracing, the eager reference) run the real forward.
            if ex._capturing or getattr(module, "_passagent_extracted", False):
                return original(module, *args, **kwargs)
            module._passagent_extracted = True
            return ex.run(module, *args, **kwargs)

        forward.__doc__ = original.__doc__
        return type(cls.__name__, (cls,), {"forward": forward, "__module__": cls.__module__, "__qualname__": cls.__qualname__})


class _ExtractedModule(torch.nn.Module):
    """A module whose first call is captured by its :class:`extract`; it then forwards as usual."""

    def __init__(self, inner: torch.nn.Module, ex: extract):
        super().__init__()
        self.inner = inner
        self._ex = ex
        self._done = False
        if ex.name is None:
            ex.name = type(inner).__name__

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        if self._done:
            return self.inner(*args, **kwargs)
        self._done = True
        return self._ex.run(self.inner, *args, **kwargs)
