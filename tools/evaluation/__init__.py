"""The clean-room evaluation: process roles, the data that crosses between them, the referee.

A pass is untrusted code (``shared/docs/DESIGN.md``, "Process roles"). It runs in a *candidate*
process of its own; the references and the baselines come from a *clean* process that never
imports, traces or runs a pass; the *referee* (the caller's process) drives both, times their
rounds from outside, and watches the candidate's CPU time, threads and children through the OS.
What a pass changes in its own process can only change its own time.

* :mod:`.wire`: messages over pipes and tensors as files (the only things that cross).
* :mod:`.observe`: what the OS says about a process (CPU time, threads, children).
* :mod:`.draws`: the inputs every role draws alike (correctness draws, timing pools, held-out shapes).
* :mod:`.serve`: the child's entry point; :mod:`.clean` and :mod:`.candidate` its two roles.
* :mod:`.child`: starting, talking to and ending a child process.
* :mod:`.rounds`: the paired timed rounds and the outside checks around them.
* :mod:`.referee`: one evaluation, subgraph by subgraph, from both roles' answers.
"""
