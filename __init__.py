"""passagent: language models write graph-compiler passes for PyTorch (see README.md)."""

__version__ = "0.1.0"


def __getattr__(name: str):
    # ``passagent.extract`` (capture your own model into the GraphNet format) imports torch;
    # resolve it lazily so every other ``passagent`` command starts fast.
    if name == "extract":
        from .bench.extractor import extract

        return extract
    # ``passagent.backend`` / ``passagent.compile``: apply passes to your own model.
    if name == "backend":
        from .tools.passes.apply import backend

        return backend
    if name == "compile":
        from .tools.passes.apply import compile_model

        return compile_model
    raise AttributeError(f"module 'passagent' has no attribute {name!r}")
