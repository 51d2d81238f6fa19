"""Entry point of an evaluation child process (clean or candidate role).

Run as ``python -m passagent.tools.evaluation.serve SPEC.json``. The spec names the role, the
sandbox, the device type and the two pipe file descriptors it inherited. The process confines
itself first (before ``import torch`` can start threads: Landlock confines the calling thread
and what it starts afterwards), does its imports, answers ``ready`` and then serves one request
per line until its request pipe closes.

Deliberately imports neither torch nor the roles at module level.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

#: The reply to ``go``, written without JSON encoding: the timed window ends when it is read.
DONE = b'{"done":1}\n'


def settle_process(device_type: str, cpu_threads: int | None) -> None:
    """What every evaluation child sets before any graph is compiled: thread count, Dynamo
    settings (no silent fallback to eager, static shapes per compile), Inductor's random
    numbers from eager's generator, compiles in this process on CUDA."""
    import torch

    if cpu_threads:
        torch.set_num_threads(int(cpu_threads))
    torch._dynamo.config.suppress_errors = False
    torch._dynamo.config.automatic_dynamic_shapes = False
    import torch._inductor.config as inductor_config

    inductor_config.fallback_random = True
    if device_type == "cuda":
        # Inductor's compile-worker subprocesses initialise CUDA themselves, which the write
        # confinement does not allow them (seen on an H200); compiling in this process keeps it whole.
        inductor_config.compile_threads = 1


def serve(spec: dict[str, Any]) -> int:
    from ..process.sandbox import confine

    applied = confine(spec.get("sandbox"))
    from .wire import ChildChannel

    channel = ChildChannel(int(spec["read_fd"]), int(spec["write_fd"]))
    t0 = time.perf_counter()
    settle_process(spec["device_type"], spec.get("cpu_threads"))
    if spec.get("profile"):
        from ..measure.profiling import enable_cpp_kernel_profile

        enable_cpp_kernel_profile()  # before anything is compiled: C++ kernels get profiler records
    from .steps import preload

    preload(spec["device_type"])
    role_name = spec["role"]
    outbox = Path(spec["outbox"])
    if role_name == "clean":
        from .clean import CleanRole

        role: Any = CleanRole(spec["device"], outbox)
    else:
        from .candidate import CandidateRole

        role = CandidateRole(spec["device"], outbox)
    channel.reply({"event": "ready", "role": role_name, "sandbox": applied, "import_s": round(time.perf_counter() - t0, 3),
                   "pid_seen": os.getpid()})
    windows = role.windows
    write_fd = channel.write_fd
    while True:
        msg = channel.recv()
        if msg is None:
            return 0
        op = msg.get("op")
        if op == "go":
            try:
                windows.go()
            except Exception as exc:  # noqa: BLE001 - a timed call raised: the referee fails the variant
                from ..process.tracebacks import one_line

                channel.reply({"ok": False, "error": one_line(exc), "traceback": "".join(traceback.format_exception(exc))[-4000:]})
                continue
            os.write(write_fd, DONE)
            continue
        if op == "exit":
            channel.reply({"ok": True})
            return 0
        try:
            reply = role.handle(str(op), msg)
        except Exception as exc:  # noqa: BLE001 - reported to the referee, which classifies it
            from ..process.tracebacks import one_line

            reply = {"ok": False, "error": one_line(exc), "traceback": "".join(traceback.format_exception(exc))[-4000:]}
        channel.reply(reply)


def main(argv: list[str]) -> int:
    spec = json.loads(Path(argv[1]).read_text())
    return serve(spec)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
