"""The built-in offline policy's expert knowledge: a catalogue of pass recipes.

:mod:`.recipes` holds the catalogue and ``propose_rules``, which writes concrete pass files
(pattern, replacement_args, replacement_func) instantiated for the Dynamo FX graph of a
subgraph's IR. :mod:`.fx_reader` parses that graph from its printed code without executing it;
:mod:`.algebra` recognises fragments however they are spelled; :mod:`.emit` writes patterns node
by node and checks them with torch.fx's matcher; :mod:`.drafts` turns a fragment into a checked
draft; the recipes themselves are in :mod:`.cleanup`, :mod:`.fusions` and :mod:`.attention`.
"""
