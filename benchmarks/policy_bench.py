"""The built-in policy over a task list, against default Inductor: a driver of
:mod:`passagent.agent.sweep.policy_bench` (its docstring gives the options and the figures' meaning).

    python benchmarks/policy_bench.py --tasks-file benchmarks/tasks/policy_cpu.txt
"""

from passagent.agent.sweep.policy_bench import main

if __name__ == "__main__":
    raise SystemExit(main())
