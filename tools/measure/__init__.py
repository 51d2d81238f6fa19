"""Measurement: time, correctness and the score.

* :mod:`.timing`: interleaved timing, CUDA-graph replay, speedup estimators.
* :mod:`.correctness`: tolerance levels t and the comparison against the reference.
* :mod:`.scoring`: ES(t), S_t and AS (``shared/docs/SCORING.md``).
* :mod:`.profiling`: profiler tables of a subgraph's kernels.
* :mod:`.physics_floor`: the device's floor, a time no correct variant can beat.
"""
