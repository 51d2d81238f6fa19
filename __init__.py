"""passagent: language models write graph-compiler passes for PyTorch (see README.md)."""

__version__ = "0.1.0"
