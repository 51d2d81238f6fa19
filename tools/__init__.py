"""The compiler harness: tasks, pass application, Inductor compile, correctness, timing, scoring.

Imports only torch, pydantic and the standard library, never LangGraph or a model SDK, so the
harness runs on its own (``passagent eval``) on a machine that has just torch (and triton).
"""
