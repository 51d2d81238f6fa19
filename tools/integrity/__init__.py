"""Integrity: the defences a pass meets (the attacks they are tested against are :mod:`..redteam`).

* :mod:`.static_checks`: what a pass's source may do, read before it runs.
* :mod:`.rules`: the rules the referee applies to what it reads from outside the candidate.
* :mod:`.strict_runtime`: the strict mode's runtime checks inside the candidate's process.
"""
