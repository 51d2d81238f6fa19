"""One agent run: the LangGraph loop, the tools a model gets, and the archive it leaves.

* :mod:`.solve`: a run from a task id and a model (``passagent solve``).
* :mod:`.loop`: the LangGraph graph (model, tools, control).
* :mod:`.toolbox`: the tools a model calls, over the harness.
* :mod:`.archive`, :mod:`.events`, :mod:`.runstate`: the run's event log, its kinds of event, and how
  it is read back and resumed.
* :mod:`.prompting`, :mod:`.context`, :mod:`.condense`, :mod:`.render`: the prompt, the context
  window and how tool results are written for a model.
* :mod:`.confirm`, :mod:`.live`: confirming the best pass; the live view.
"""
