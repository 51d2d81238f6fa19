"""The agent side: CLI, LangGraph loop, model providers, trajectory archive, sweeps, export.

Heavy dependencies (LangGraph, the model SDKs) are imported by the modules that need them, so
``passagent eval`` works where only the harness's dependencies are installed.
"""
