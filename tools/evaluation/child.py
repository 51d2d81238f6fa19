"""Starting, talking to and ending an evaluation child process (clean or candidate role).

A child is a fresh interpreter (never a fork) in its own process group, started by
:mod:`.serve` with two pipes (requests in, replies out) and its output going to a log file in its
folder. With the sandbox on it runs in a fresh network namespace and, where the OS allows, as
the first process of its own PID namespace (:func:`..process.sandbox.isolate_process_command`), confined
to writing its folder and its compiler cache.

The two roles get different compiler caches: the clean role Inductor's cache under
``<cache root>/inductor``, which no candidate can write; candidates one under
``<cache root>/candidates/<scope>``, shared only by candidates of that scope (a run, a model).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..process import children as registry
from ..process.sandbox import isolate_process_command, scrubbed_environment
from .observe import ProcessObserver, children_of
from .wire import Channel, ChannelClosed, ChannelTimeout, ProtocolError

#: Seconds a child may take to start (interpreter, imports, Inductor's CPU probe) on a loaded machine.
START_TIMEOUT_S = 300.0


class ChildFailed(Exception):
    """A child died, stopped answering, or broke the protocol.

    Attributes:
        kind: ``"died"``, ``"timeout"`` or ``"protocol"``.
        detail: what happened (exit status, the protocol problem).
        role: the child's role (``clean`` or ``candidate``).
    """

    def __init__(self, kind: str, detail: str, role: str = "candidate"):
        self.kind = kind
        self.detail = detail
        self.role = role
        super().__init__(f"the {role} process: {kind}: {detail}")


def scope_folder(scope: str) -> str:
    """A folder name for a candidate cache scope (any string): readable prefix plus a digest."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in scope)[:40]
    return f"{safe}-{hashlib.sha256(scope.encode()).hexdigest()[:12]}"


def thread_environment(env: dict[str, str], threads: int | None) -> dict[str, str]:
    """Set ``env``'s thread pools as every process that compiles or runs a task's graphs has them
    (the evaluation's roles, ``check``, IR inspection): ``threads`` for OpenMP, MKL and OpenBLAS
    (None leaves their defaults), and idle OpenMP threads that sleep. Returns ``env``.

    Idle OpenMP threads sleep instead of spinning (OpenMP 5.2 spec, ``OMP_WAIT_POLICY``): a
    spinning pool burns CPU after every parallel region, which the referee would read as work the
    candidate did outside its timed windows."""
    if threads:
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            env[var] = str(threads)
    env["OMP_WAIT_POLICY"] = "PASSIVE"
    return env


def role_environment(role: str, cache_root: Path, workdir: Path, scope: str = "shared",
                     threads: int | None = None) -> dict[str, str]:
    """A child's environment: ours without credentials; compiler caches by role (see the module
    docstring); temporary files in ``workdir``; ``threads`` for the OpenMP/MKL pools.

    ``TORCHINDUCTOR_CACHE_DIR`` is always set, never inherited: Inductor writes its default into
    ``os.environ`` the first time it compiles in a process (``torch/_inductor/runtime/cache_dir_utils.py``),
    so an inherited value could send a child to a cache another role writes."""
    env = scrubbed_environment(dict(os.environ))
    inductor = cache_root / "inductor" if role == "clean" else cache_root / "candidates" / scope_folder(scope) / "inductor"
    env["TORCHINDUCTOR_CACHE_DIR"] = str(inductor)
    env["TRITON_CACHE_DIR"] = str(inductor / "triton")
    env["CUDA_CACHE_PATH"] = str(inductor / "cuda")
    env["TMPDIR"] = str(workdir)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONFAULTHANDLER"] = "1"  # a segfault prints the Python stack, with pass-file lines
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    thread_environment(env, threads)
    # The same allocator behaviour in every role (glibc ``mallopt(3)`` through its environment): a
    # fixed mmap threshold (its maximum on 64-bit, 32 MiB, which turns off the dynamic threshold)
    # and no trimming, so freed memory is reused rather than returned and faulted in again: what
    # an allocation costs then does not depend on the process's history, and each variant's
    # process pays it alike.
    env["MALLOC_MMAP_THRESHOLD_"] = str(32 * 2**20)
    env["MALLOC_TRIM_THRESHOLD_"] = str(2**40)
    return env


def seed_candidate_cache(cache_root: Path, scope: str = "shared") -> int:
    """Copy into a candidate scope's Inductor cache the compiled C++ kernels (``<2 chars>/*.so``) and
    precompiled headers the clean processes' cache holds and it lacks; returns how many files.

    Inductor keys a compiled kernel by its source, so a candidate whose generated kernel is one the
    baseline already compiled (the parts of the graph a pass leaves alone) loads it instead of
    compiling it again (seconds of ``g++`` each on a small CPU). The files are copied, never
    linked: a candidate may write its own cache, and a hard link would let it write the clean
    one's. Each copy is written beside its target and renamed into place, so a candidate reading
    the cache meanwhile never sees half a file; and each source is copied under the lock Inductor
    holds while it writes it (``<cache>/locks/<key>.lock`` for kernels, ``precompiled_headers/locks``
    for headers: ``torch/_inductor/codecache.py``, ``_worker_compile_cpp``), so a kernel a clean
    process is still linking is left for the candidate to compile rather than copied half written."""
    import shutil

    from filelock import FileLock, Timeout

    src = cache_root / "inductor"
    dst = cache_root / "candidates" / scope_folder(scope) / "inductor"
    if not src.is_dir():
        return 0
    copied = 0
    patterns = [(d.name, "*.so") for d in src.iterdir() if d.is_dir() and len(d.name) == 2]
    patterns.append(("precompiled_headers", "*.h*"))
    for sub, pattern in patterns:
        locks = src / sub / "locks" if sub == "precompiled_headers" else src / "locks"
        for f in (src / sub).glob(pattern):
            target = dst / sub / f.name
            if target.exists() or not f.is_file() or not locks.is_dir():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{f.name}.{os.getpid()}.tmp")
            try:
                with FileLock(str(locks / f"{f.name.split('.')[0]}.lock"), timeout=0):
                    shutil.copyfile(f, tmp)
                os.replace(tmp, target)
                copied += 1
            except (OSError, Timeout):
                tmp.unlink(missing_ok=True)
    return copied


def role_sandbox(env: dict[str, str], workdir: Path, *, address_space_bytes: int | None, cpu_seconds: int | None
                 ) -> dict[str, Any]:
    """A child's confinement (:func:`..inspection.match_entry.confine`): resource limits, writes only to
    ``workdir`` and its role's compiler cache (created here), no network."""
    inductor = Path(env["TORCHINDUCTOR_CACHE_DIR"])
    inductor.mkdir(parents=True, exist_ok=True)
    Path(env["TRITON_CACHE_DIR"]).mkdir(parents=True, exist_ok=True)
    return {
        "address_space_bytes": address_space_bytes,
        "cpu_seconds": cpu_seconds,
        "open_files": 4096,
        "file_size_bytes": 4 * 2**30,
        "writable_dirs": [str(workdir), str(inductor), env["TRITON_CACHE_DIR"]],
        "network": isolate_process_command(["true"])[1],
    }


@dataclass
class Launch:
    """How a child is started.

    Attributes:
        role: ``clean`` or ``candidate``.
        device: the device the child uses (``cpu``, or ``cuda:0`` for the one GPU it sees).
        env: its environment (:func:`role_environment`; ``CUDA_VISIBLE_DEVICES`` pins its GPU).
        sandbox: its confinement (:func:`role_sandbox`), or None to run unconfined.
        cpu_threads: torch's intra-op threads in the child (None: torch's default).
    """

    role: str
    device: str
    env: dict[str, str]
    sandbox: dict[str, Any] | None
    cpu_threads: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def device_type(self) -> str:
        return self.device.split(":")[0]

    def key(self, workdir: Path) -> str:
        """What two launches must share for one child to serve both (the folder neutralised)."""
        def neutral(value: Any) -> Any:
            if isinstance(value, str):
                return value.replace(str(workdir), "<workdir>")
            if isinstance(value, list):
                return [neutral(v) for v in value]
            if isinstance(value, dict):
                return {k: neutral(v) for k, v in value.items()}
            return value

        blob = json.dumps([self.role, self.device, neutral(self.env), neutral(self.sandbox), self.cpu_threads, self.extra],
                          sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:24]


class Child:
    """One running child process and its channel.

    Use :meth:`start`; then :meth:`wait_ready`, :meth:`request`, :meth:`kill`.
    """

    def __init__(self, launch: Launch, workdir: Path, proc: subprocess.Popen[bytes], channel: Channel, forked: bool,
                 log_path: Path):
        self.launch = launch
        self.workdir = workdir
        self.proc = proc
        self.channel = channel
        self.forked = forked
        self.log_path = log_path
        self.ready_info: dict[str, Any] | None = None
        self._pid: int | None = None
        self._observer: ProcessObserver | None = None

    @classmethod
    def start(cls, launch: Launch, workdir: Path) -> "Child":
        """Spawn the child in ``workdir`` (its outbox, log and temporary files live there)."""
        workdir.mkdir(parents=True, exist_ok=True)
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        spec = {"role": launch.role, "device": launch.device, "device_type": launch.device_type,
                "sandbox": launch.sandbox, "read_fd": req_r, "write_fd": rep_w, "outbox": str(workdir),
                "cpu_threads": launch.cpu_threads, **launch.extra}
        spec_path = workdir / f"{launch.role}.json"
        spec_path.write_text(json.dumps(spec))
        argv = [sys.executable, "-m", "passagent.tools.evaluation.serve", str(spec_path)]
        forked = False
        if launch.sandbox is not None:
            argv, _description, forked = isolate_process_command(argv)
        log_path = workdir / f"{launch.role}.log"
        try:
            with open(log_path, "wb") as log:
                proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=workdir,
                                        env=launch.env, start_new_session=True, pass_fds=(req_r, rep_w))
        finally:
            os.close(req_r)
            os.close(rep_w)
        child = cls(launch, workdir, proc, Channel(req_w, rep_r), forked, log_path)
        CHILDREN.add(child)
        registry.register(proc)  # an interrupt of the command ends it (:func:`passagent.tools.process.children.kill_all`)
        return child

    # -- talking ---------------------------------------------------------------------------------

    def wait_ready(self, deadline: float | None = None) -> dict[str, Any]:
        """Block until the child has done its imports; its ``ready`` message.

        Raises:
            ChildFailed: it died or did not get ready before ``deadline`` (``time.monotonic``).
        """
        if self.ready_info is None:
            self.ready_info = self.request(None, deadline or time.monotonic() + START_TIMEOUT_S)
        return self.ready_info

    def request(self, msg: dict[str, Any] | None, deadline: float | None) -> dict[str, Any]:
        """Send ``msg`` (None: only read) and return the reply.

        Raises:
            ChildFailed: the child died, did not answer before ``deadline``, or sent garbage.
        """
        try:
            if msg is not None:
                self.channel.send(msg)
            return self.channel.recv(deadline)
        except ChannelClosed:
            detail = self.exit_description()
            if self.launch.role == "clean" or self.ready_info is None:
                # A clean process runs only the harness and the task, and a process that dies before it is
                # ready ran no pass: what it printed is the harness's, and says why.
                tail = self.log_tail(8)
                detail += f"; its log ends:\n{tail}" if tail else ""
            raise ChildFailed("died", detail, self.launch.role) from None
        except ChannelTimeout:
            raise ChildFailed("timeout", "no answer within the time limit", self.launch.role) from None
        except ProtocolError as exc:
            raise ChildFailed("protocol", str(exc), self.launch.role) from None

    def exit_description(self) -> str:
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "its reply pipe closed"
        if self.forked and code is not None and code > 128:
            code = -(code - 128)  # unshare --fork reports the child's signal as 128 + N
        if code is not None and code < 0:
            try:
                return f"signal {signal.Signals(-code).name}"
            except ValueError:
                return f"signal {-code}"
        return f"exit code {code}"

    # -- the process ----------------------------------------------------------------------------

    @property
    def pid(self) -> int:
        """The interpreter's process id (the child of ``unshare`` where a PID namespace wraps it)."""
        if self._pid is None:
            pid = self.proc.pid
            if self.forked:
                for _ in range(100):
                    kids = children_of(self.proc.pid)
                    if kids:
                        pid = kids[0]
                        break
                    time.sleep(0.01)
            self._pid = pid
        return self._pid

    @property
    def observer(self) -> ProcessObserver:
        if self._observer is None:
            self._observer = ProcessObserver(self.pid)
        return self._observer

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """End the child's whole process group (and, in its PID namespace, everything it started)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self.channel.close()
        CHILDREN.discard(self)
        registry.unregister(self.proc)

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join([ln for ln in text if ln.strip()][-lines:])


class _Children:
    """Every live child of this process, so an interrupt or exit can end them all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: set[Child] = set()
        atexit.register(self.kill_all)

    def add(self, child: Child) -> None:
        with self._lock:
            self._live.add(child)

    def discard(self, child: Child) -> None:
        with self._lock:
            self._live.discard(child)

    def kill_all(self) -> None:
        with self._lock:
            live, self._live = list(self._live), set()
        for child in live:
            try:
                os.killpg(child.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


#: The process's live evaluation children.
CHILDREN = _Children()


class ChildPool:
    """Children kept for reuse, by key: the clean process of a task (its references and compiled
    baselines are facts about the task) and pre-started candidate processes (imports done, no pass).

    Args:
        size: children kept at most (the oldest is ended first).
    """

    def __init__(self, size: int = 1):
        self.size = size
        self._items: list[tuple[str, Child]] = []
        self._lock = threading.Lock()
        atexit.register(self.close)

    def take(self, key: str) -> Child | None:
        """The live child kept under ``key``, removed from the pool, or None."""
        with self._lock:
            for item in list(self._items):
                k, child = item
                if not child.alive():
                    self._items.remove(item)
                    _discard(child)
                elif k == key:
                    self._items.remove(item)
                    return child
        return None

    def put(self, key: str, child: Child) -> None:
        """Keep ``child`` under ``key``, ending the oldest past ``size``."""
        with self._lock:
            self._items.append((key, child))
            while len(self._items) > self.size:
                _discard(self._items.pop(0)[1])

    def wait_ready(self, timeout_s: float = START_TIMEOUT_S) -> bool:
        """Block until every kept child has finished its imports (or died); True if all are ready."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            children = [c for _k, c in self._items]
        ok = True
        for child in children:
            try:
                child.wait_ready(deadline)
            except ChildFailed:
                ok = False
        return ok

    def close(self) -> None:
        with self._lock:
            items, self._items = self._items, []
        for _k, child in items:
            _discard(child)

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


def _discard(child: Child) -> None:
    child.kill()
    shutil.rmtree(child.workdir, ignore_errors=True)


def new_workdir(role: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"passagent-{role}-"))


#: Clean processes kept between evaluations (the references' and default Inductor's of one task).
CLEAN_POOL = ChildPool(size=4)
#: Pre-started candidate processes (``EvalOptions(standby=True)``).
STANDBY_POOL = ChildPool(size=1)
