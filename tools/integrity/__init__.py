"""Integrity: the defences a pass meets, and the attacks they are tested against.

* :mod:`.static_checks`: what a pass's source may do, read before it runs.
* :mod:`.rules`: the rules the referee applies to what it reads from outside the candidate.
* :mod:`.strict_runtime`: the strict mode's runtime checks inside the candidate's process.
* :mod:`.redteam`: the adversarial corpus (one pass per public exploit pattern) and its runner.
"""
