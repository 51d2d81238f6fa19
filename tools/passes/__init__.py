"""Passes: the pass contract and everything that applies a pass to a graph.

* :mod:`.rules`: find and load a pass's rules (the PassNet contract).
* :mod:`.rewrite`: match and replace on the FX graph; :mod:`.no_match` why a rule matched nothing.
* :mod:`.backend`: the ``torch.compile`` backend that rewrites, then compiles with Inductor.
* :mod:`.inplace`, :mod:`.library_registry`, :mod:`.triton_ops`: in-place ops, custom-op
  libraries and a pass's Triton kernels registered as custom ops.
* :mod:`.apply`, :mod:`.compose`: a pass in your own model (``passagent.backend``,
  ``passagent.compile``); several passes as one.
* :mod:`.inductor_export`: a pass as an Inductor pre-grad ``CustomGraphPass``.
"""
