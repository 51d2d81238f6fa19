"""Tasks: where a task is loaded and its inputs made.

* :mod:`.loader`: a task from a built-in id, a PassNet folder or a GraphNet sample (``load_task``).
* :mod:`.meta`: a sample's ``weight_meta.py`` read without running it.
* :mod:`.inputs`: inputs synthesised from that metadata, as GraphNet does.
* :mod:`.builtin`: the built-in benchmark's manifest and task ids.
* :mod:`.graph_source`: a subgraph's ``model.py`` source and its FX graph.
"""
