"""Inspection: what a model or a user learns about a task and a pass before evaluating it.

* :mod:`.ir`: FX and ATen graphs, Inductor's kernels, default Inductor's baseline (``show_ir``).
* :mod:`.divergence`: the first graph node whose value leaves a tolerance level against eager.
* :mod:`.check`: a pass's matches and verdict on one draw, in a confined child (``passagent check``).
* :mod:`.coverage`: a pass's reach over many full graphs; :mod:`.match_stage` and
  :mod:`.match_entry` its match step in a child process.
"""
