"""OS-level confinement of the evaluation worker (see Integrity in DESIGN.md).

The static checks (:mod:`passagent.tools.integrity.static_checks`) read a pass before it runs; these
primitives bound what it can do when it runs anyway: resource limits, writes confined to a few
directories and no TCP (Linux Landlock), no network at all (a fresh network namespace), and no
credentials in the environment. Each degrades gracefully: where the OS lacks a feature it
returns a description starting with ``"unavailable: "`` instead of raising, so the caller can
record what protection an evaluation actually had.

:func:`apply_resource_limits` and :func:`restrict_writes` act on the calling process (call them
in the worker, before any pass code is imported); :func:`isolate_network_command` and
:func:`scrubbed_environment` prepare the worker's command line and environment in the parent.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import glob
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

# --- resource limits -------------------------------------------------------------------------


def _fmt_bytes(n: int) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def apply_resource_limits(
    address_space_bytes: int | None = None,
    cpu_seconds: int | None = None,
    open_files: int | None = None,
    file_size_bytes: int | None = None,
) -> list[str]:
    """Lower this process's RLIMIT_AS, RLIMIT_CPU, RLIMIT_NOFILE and RLIMIT_FSIZE.

    Args:
        address_space_bytes: virtual memory, bytes (allocations past it fail: MemoryError in
            Python, RuntimeError in torch). Not for CUDA workers: the driver maps far more
            address space than it uses.
        cpu_seconds: CPU time of all threads, seconds; SIGXCPU at the limit, SIGKILL 5 s later.
        open_files: file descriptors.
        file_size_bytes: largest file the process may write, bytes (writes past it fail with
            OSError EFBIG; CPython ignores SIGXFSZ).
        None leaves a limit as it is.

    Both soft and hard limits are lowered, so the pass cannot raise them back; a hard limit is
    never raised (a request above it is clamped to it). Limits are inherited by children.

    Returns:
        One line per limit: what was set, or why not (e.g. ``"unavailable: ..."``). Never raises.
    """
    try:
        import resource
    except ImportError:
        return ["unavailable: no POSIX resource limits on this platform"]
    wanted: list[tuple[str, int | None, Callable[[int], str], int]] = [
        ("RLIMIT_AS", address_space_bytes, _fmt_bytes, 0),
        ("RLIMIT_CPU", cpu_seconds, lambda n: f"{n} s", 5),
        ("RLIMIT_NOFILE", open_files, str, 0),
        ("RLIMIT_FSIZE", file_size_bytes, _fmt_bytes, 0),
    ]
    out = []
    for name, value, fmt, grace in wanted:
        if value is None:
            continue
        which = getattr(resource, name, None)
        if which is None:
            out.append(f"{name}: unavailable on this platform")
            continue
        try:
            _soft, hard = resource.getrlimit(which)
            soft = value if hard == resource.RLIM_INFINITY else min(value, hard)
            # CPU: the soft limit sends SIGXCPU (catchable), the hard one SIGKILL shortly after.
            new_hard = soft + grace if hard == resource.RLIM_INFINITY else min(soft + grace, hard)
            resource.setrlimit(which, (soft, new_hard))
        except (ValueError, OSError) as exc:
            out.append(f"{name}: not set ({exc})")
            continue
        clamped = f" (clamped to the hard limit {fmt(hard)})" if soft < value else ""
        out.append(f"{name}={fmt(soft)}{clamped}")
    return out


# --- Landlock --------------------------------------------------------------------------------

# landlock_create_ruleset / add_rule / restrict_self are 444/445/446 on every architecture
# using the unified syscall table (all added after 5.x's 424 renumbering); alpha differs.
_LANDLOCK_SYSCALLS = (444, 445, 446)
_LANDLOCK_ARCHES = frozenset({"x86_64", "amd64", "aarch64", "arm64", "riscv64", "ppc64le", "ppc64",
                              "s390x", "i386", "i686", "armv7l", "loongarch64"})
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# Filesystem rights (linux/landlock.h). Only write-type rights are handled, so reading and
# executing stay allowed everywhere. IOCTL_DEV (ABI 5) is deliberately not handled: the GPU
# driver is driven by ioctls on /dev/nvidia*, and ioctls grant no filesystem writes.
_FS_WRITE_FILE = 1 << 1
_FS_REMOVE_DIR = 1 << 4
_FS_REMOVE_FILE = 1 << 5
_FS_MAKE_CHAR = 1 << 6
_FS_MAKE_DIR = 1 << 7
_FS_MAKE_REG = 1 << 8
_FS_MAKE_SOCK = 1 << 9
_FS_MAKE_FIFO = 1 << 10
_FS_MAKE_BLOCK = 1 << 11
_FS_MAKE_SYM = 1 << 12
_FS_REFER = 1 << 13  # ABI 2: rename/link across directories
_FS_TRUNCATE = 1 << 14  # ABI 3
_FS_FILE_RIGHTS = _FS_WRITE_FILE | _FS_TRUNCATE  # the write rights that apply to a single file
_NET_BIND_TCP = 1 << 0  # ABI 4
_NET_CONNECT_TCP = 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
_SCOPE_SIGNAL = 1 << 1

#: Device files a worker writes to besides its directories (the GPU driver's nodes too).
_DEVICE_FILES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
_DEVICE_GLOBS = ("/dev/nvidia*", "/dev/nvidia-caps/*", "/dev/dri/*")


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is __attribute__((packed)): 12 bytes
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def confine(box: dict[str, Any] | None) -> list[str]:
    """Confine this process as a request's ``sandbox`` entry says: resource limits
    (:func:`apply_resource_limits`), writes only to ``writable_dirs`` (:func:`restrict_writes`),
    and the note of how its network was isolated when it was started.

    Args:
        box: ``address_space_bytes``, ``cpu_seconds``, ``open_files``, ``file_size_bytes``
            (None: unlimited), ``writable_dirs`` (paths), ``network`` (a description); None:
            no confinement.

    Returns:
        One line per measure applied, for the run's record.
    """
    applied: list[str] = []
    if box:
        applied += apply_resource_limits(
            address_space_bytes=box.get("address_space_bytes"),
            cpu_seconds=box.get("cpu_seconds"),
            open_files=box.get("open_files"),
            file_size_bytes=box.get("file_size_bytes"),
        )
        applied.append("writes: " + restrict_writes([Path(p) for p in box["writable_dirs"]]))
        applied.append("network: " + box.get("network", "not isolated"))
    return applied


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _syscall(number: int, *args: int) -> tuple[int, int]:
    """Returns (result, errno); arguments are passed as longs (pointers as addresses)."""
    fn = _libc().syscall
    fn.restype = ctypes.c_long
    res = fn(ctypes.c_long(number), *(ctypes.c_long(a) for a in args))
    return res, ctypes.get_errno() if res < 0 else 0


def landlock_abi() -> tuple[int, str]:
    """The kernel's Landlock ABI version (0 if unusable) and, when 0, why.

    Never raises.
    """
    if sys.platform != "linux":
        return 0, "Landlock needs Linux"
    if platform.machine().lower() not in _LANDLOCK_ARCHES:
        return 0, f"Landlock syscall numbers not known for {platform.machine()}"
    try:
        res, err = _syscall(_LANDLOCK_SYSCALLS[0], 0, 0, _CREATE_RULESET_VERSION)
    except (OSError, AttributeError) as exc:
        return 0, f"cannot call syscall(2): {exc}"
    if res < 0:
        why = {errno.ENOSYS: "the kernel has no Landlock (ENOSYS; needs Linux >= 5.13)",
               errno.EOPNOTSUPP: "Landlock is disabled at boot (EOPNOTSUPP)"}.get(err, os.strerror(err))
        return 0, why
    return int(res), ""


def restrict_writes(writable_dirs: list[Path], block_tcp: bool = True, scope_ipc: bool = True) -> str:
    """Confine this process and its future children to writing only under ``writable_dirs``.

    Uses Landlock (Linux >= 5.13): writes, creations, deletions, renames and truncations are
    denied everywhere except beneath ``writable_dirs``, ``/dev/shm``, this process's own
    ``/proc/<pid>`` (the CUDA driver needs it) and a few device files (``/dev/null``,
    ``/dev/nvidia*``...); reads and exec stay allowed everywhere. A child process that
    initialises CUDA itself would lack its own ``/proc/<pid>`` (Inductor's compile workers do
    not need it: checked with Triton kernels on an H200). With ABI >= 4
    and ``block_tcp``, every TCP bind and connect is denied (EACCES). With ABI >= 6 and
    ``scope_ipc``, signals and abstract Unix sockets cannot reach processes outside the sandbox.
    Irreversible for the process. Call it before threads start: Landlock confines the calling
    thread and the threads and processes it creates later, not threads already running.

    Args:
        writable_dirs: directories that stay writable (those that do not exist are skipped
            and named in the description). Point TMPDIR and the compiler caches inside them.

    Returns:
        A description of what was applied, or ``"unavailable: <why>"``. Never raises.
    """
    abi, why = landlock_abi()
    if abi < 1:
        return f"unavailable: {why}"
    fs = (_FS_WRITE_FILE | _FS_REMOVE_DIR | _FS_REMOVE_FILE | _FS_MAKE_CHAR | _FS_MAKE_DIR | _FS_MAKE_REG
          | _FS_MAKE_SOCK | _FS_MAKE_FIFO | _FS_MAKE_BLOCK | _FS_MAKE_SYM)
    if abi >= 2:
        fs |= _FS_REFER
    if abi >= 3:
        fs |= _FS_TRUNCATE
    net = _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 and block_tcp else 0
    scoped = _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 and scope_ipc else 0
    attr = _RulesetAttr(fs, net, scoped)
    size = 8 if abi < 4 else 16 if abi < 6 else 24  # the struct grew with the ABI
    ruleset, err = _syscall(_LANDLOCK_SYSCALLS[0], ctypes.addressof(attr), size, 0)
    if ruleset < 0:
        return f"unavailable: landlock_create_ruleset failed ({os.strerror(err)})"
    try:
        dirs = [Path(d).resolve() for d in writable_dirs]
        system = [
            Path("/dev/shm"),  # POSIX shared memory (torch's CPU tensor sharing, NCCL)
            # The CUDA driver writes beneath /proc/<its pid> when it initialises (cuInit fails
            # with error 304 otherwise; seen on the H200 machine). Only this process's own entries,
            # named as /proc names them: in a PID namespace of its own (tools/process/sandbox's
            # isolate_process_command) os.getpid() is 1 while /proc, the machine's, says otherwise.
            _own_proc_dir(),
        ]
        files = [Path(f) for f in _DEVICE_FILES] + [
            Path(f) for g in _DEVICE_GLOBS for f in sorted(glob.glob(g)) if not os.path.isdir(f)]
        allowed_dirs, skipped = [], []
        for path in dirs + system + files:
            if not path.exists():
                if path in dirs:
                    skipped.append(f"{path} (missing)")
                continue
            rights = fs if path.is_dir() else fs & _FS_FILE_RIGHTS
            problem = _add_path_rule(ruleset, path, rights)
            if problem:
                skipped.append(f"{path} ({problem})")
            elif path in dirs or path in system:
                allowed_dirs.append(str(path))
        # Landlock requires no_new_privs (or CAP_SYS_ADMIN): a setuid exec could not widen the sandbox.
        prctl = _libc().prctl
        prctl.restype = ctypes.c_int
        res = prctl(ctypes.c_int(_PR_SET_NO_NEW_PRIVS), ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
        err = ctypes.get_errno()
        if res < 0:
            return f"unavailable: prctl(PR_SET_NO_NEW_PRIVS) failed ({os.strerror(err)})"
        res, err = _syscall(_LANDLOCK_SYSCALLS[2], ruleset, 0)
        if res < 0:
            return f"unavailable: landlock_restrict_self failed ({os.strerror(err)})"
    finally:
        os.close(ruleset)
    parts = [f"landlock ABI {abi}: writes confined to {', '.join(allowed_dirs)} and device files"]
    if skipped:
        parts.append(f"not writable: {', '.join(skipped)}")
    parts.append("TCP bind/connect denied" if net else "TCP not restricted (ABI < 4)" if block_tcp else "TCP not restricted")
    if scoped:
        parts.append("signals and abstract Unix sockets scoped to the sandbox")
    threads = _thread_count()
    if threads > 1:
        parts.append(f"warning: {threads - 1} thread(s) already running are not confined")
    return "; ".join(parts)


def _own_proc_dir() -> Path:
    """``/proc/<pid>`` of this process as the mounted ``/proc`` numbers it (``/proc/self``'s target)."""
    try:
        return Path("/proc") / os.readlink("/proc/self")
    except OSError:
        return Path(f"/proc/{os.getpid()}")


def _add_path_rule(ruleset: int, path: Path, rights: int) -> str | None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        rule = _PathBeneathAttr(rights, fd)
        res, err = _syscall(_LANDLOCK_SYSCALLS[1], ruleset, _RULE_PATH_BENEATH, ctypes.addressof(rule), 0)
        return None if res >= 0 else os.strerror(err)
    finally:
        os.close(fd)


def _thread_count() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


# --- network namespace -----------------------------------------------------------------------


@functools.cache
def _netns_prefix() -> tuple[tuple[str, ...], str]:
    if sys.platform != "linux":
        return (), "unavailable: network namespaces need Linux"
    unshare = shutil.which("unshare")
    if unshare is None:
        return (), "unavailable: unshare(1) (util-linux) not found"
    candidates = [[unshare, "--net"]] if os.geteuid() == 0 else []
    candidates.append([unshare, "--user", "--map-root-user", "--net"])  # unprivileged user namespace
    errors = []
    for prefix in candidates:
        try:
            r = subprocess.run([*prefix, sys.executable, "-c", ""], capture_output=True, timeout=30,
                               stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            errors.append(f"{' '.join(prefix[1:])}: {exc}")
            continue
        if r.returncode == 0:
            return tuple(prefix), f"fresh network namespace ({' '.join(['unshare', *prefix[1:]])}): no interfaces up, not even loopback"
        errors.append(f"{' '.join(prefix[1:])}: {r.stderr.decode(errors='replace').strip() or f'exit {r.returncode}'}")
    return (), "unavailable: " + "; ".join(errors)


@functools.cache
def _pidns_prefix() -> tuple[tuple[str, ...], str]:
    net, description = _netns_prefix()
    if not net:
        return (), description
    # --mount-proc: a /proc of the namespace's own, so the process is /proc/1 there, as getpid() says
    # (the CUDA driver writes beneath /proc/<getpid()> when it starts: error 304 otherwise), and it
    # sees no process outside the namespace.
    prefix = (*net, "--pid", "--fork", "--kill-child", "--mount-proc")
    try:
        r = subprocess.run([*prefix, sys.executable, "-c", "import os; assert os.getpid() == 1 and os.readlink('/proc/self') == '1'"],
                           capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return net, f"{description}; no PID namespace ({exc})"
    if r.returncode != 0:
        return net, f"{description}; no PID namespace ({r.stderr.decode(errors='replace').strip() or f'exit {r.returncode}'})"
    return prefix, (f"{description}; its own PID namespace and /proc (unshare --pid --fork --kill-child --mount-proc): "
                    f"every process it starts stays its descendant and dies with it, and it sees no other process")


def isolate_process_command(argv: list[str]) -> tuple[list[str], str, bool]:
    """Prefix ``argv`` so it runs in a fresh network namespace and, where the OS allows, as the
    first process of its own PID namespace with a ``/proc`` of its own (``unshare --pid --fork
    --kill-child --mount-proc``).

    In its own PID namespace an orphan the process leaves is re-parented to it, never to the
    machine's init, so every process it ever starts stays its descendant (readable from outside
    as such), and all of them are killed when it ends. The command's process is then a child of
    ``unshare``, not ``unshare`` itself (``--fork``).

    Returns:
        (the new argv, a description, whether the command runs as a child of the first process
        started: True with a PID namespace). Never raises.
    """
    prefix, description = _pidns_prefix()
    return ([*prefix, *argv] if prefix else list(argv)), description, "--fork" in prefix


def isolate_network_command(argv: list[str]) -> tuple[list[str], str]:
    """Prefix ``argv`` so it runs in a fresh network namespace with no usable interface.

    Uses ``unshare --net`` as root, else ``unshare --user --map-root-user --net``; whether one
    works is probed once per process (running Python under it) and cached. The command keeps its
    PID (unshare execs it), so process-group kills still reach it. Inductor's compile workers talk
    over pipes, so compilation works inside.

    Returns:
        (the new argv, a description), or (``argv`` unchanged, ``"unavailable: <why>"``).
        Never raises.
    """
    prefix, description = _netns_prefix()
    return ([*prefix, *argv] if prefix else list(argv)), description


# --- environment -----------------------------------------------------------------------------

_SECRET_WORDS = frozenset({"TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD", "PASS",
                           "CREDENTIAL", "CREDENTIALS", "KEY", "KEYS", "APIKEY", "AUTH", "OAUTH",
                           "COOKIE", "COOKIES"})
_SECRET_SUBSTRINGS = ("API_KEY", "APIKEY", "ACCESS_KEY", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL",
                      "PRIVATE_KEY", "AUTH_TOKEN", "ACCESS_TOKEN")
_SECRET_PREFIXES = ("AWS_", "AZURE_", "GCP_", "GOOGLE_", "GCLOUD_", "OPENAI_", "ANTHROPIC_", "CLAUDE_",
                    "GEMINI_", "MISTRAL_", "COHERE_", "GROQ_", "TOGETHER_", "DEEPSEEK_", "OPENROUTER_",
                    "XAI_", "HUGGING_FACE_", "LANGCHAIN_", "LANGSMITH_", "WANDB_", "GITHUB_", "GH_",
                    "GITLAB_", "SSH_", "GPG_", "DOCKER_", "KUBE", "VAULT_", "NPM_", "PYPI_", "TWINE_")
_PROXY = re.compile(r"^(HTTPS?|FTP|ALL|NO|SOCKS)_PROXY$", re.IGNORECASE)
_URL_WITH_PASSWORD = re.compile(r"://[^/\s:@]+:[^/\s@]+@")


def is_secret_variable(name: str, value: str = "") -> bool:
    """Whether an environment variable looks like a credential (by name, or a URL with a password)."""
    upper = name.upper()
    words = set(re.split(r"[^A-Z0-9]+", upper))
    return bool(
        words & _SECRET_WORDS
        or any(s in upper for s in _SECRET_SUBSTRINGS)
        or upper.startswith(_SECRET_PREFIXES)
        or _PROXY.match(upper)  # proxies can embed credentials, and the worker has no network use
        or _URL_WITH_PASSWORD.search(value)
    )


def scrubbed_environment(env: dict[str, str]) -> dict[str, str]:
    """A copy of ``env`` without credentials: API keys, tokens, secrets, passwords, cloud and
    model-provider variables (``AWS_*``, ``OPENAI_*``, ``ANTHROPIC_*``, ``HF_TOKEN``...), SSH
    agent sockets, proxies and any value that is a URL with a password. The rest is kept.
    """
    return {k: v for k, v in env.items() if not is_secret_variable(k, v)}
