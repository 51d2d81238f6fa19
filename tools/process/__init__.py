"""Child processes: starting them, confining them, pinning them to a device, ending them.

* :mod:`.isolation`: what a child run returns and how its crash is described.
* :mod:`.sandbox`: the OS sandbox (Landlock, resource limits, a scrubbed environment).
* :mod:`.children`: the process groups a process started, killed at once on an interrupt.
* :mod:`.device_lease`, :mod:`.lease_gate`: one device, leased to one timed step at a time.
* :mod:`.compile_ahead`: compiling before the lease, running nothing.
* :mod:`.tracebacks`: a child's traceback trimmed to the lines a user can act on.
"""
