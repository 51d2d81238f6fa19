"""Sandbox primitives, exercised for real in child processes (each child confines only itself).

A test is skipped, with the reason, only where the OS lacks the feature (no Landlock, no
network namespaces); elsewhere a confinement that silently fails is a test failure.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from passagent.tools.process.sandbox import (
    apply_resource_limits,
    isolate_network_command,
    landlock_abi,
    restrict_writes,
    scrubbed_environment,
)


def run_child(script: str, *args: str, prefix: list[str] | None = None, env: dict[str, str] | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run a small Python script in a fresh interpreter (optionally under a command prefix)."""
    argv = [sys.executable, "-c", textwrap.dedent(script), *args]
    return subprocess.run([*(prefix or []), *argv], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)


def last_json(proc: subprocess.CompletedProcess[str]) -> dict:
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


class TcpServer:
    """A listening TCP socket on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


@pytest.fixture
def tcp_server():
    server = TcpServer()
    yield server
    server.close()


CONNECT = """
    import errno, socket
    def try_connect(port):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
            return "connected"
        except OSError as exc:
            return errno.errorcode.get(exc.errno, str(exc))
        finally:
            s.close()
"""


# --- resource limits -------------------------------------------------------------------------


def test_rlimit_as_turns_a_big_allocation_into_memory_error() -> None:
    proc = run_child("""
        import json
        from passagent.tools.process.sandbox import apply_resource_limits
        applied = apply_resource_limits(address_space_bytes=2 * 2**30)
        try:
            blob = bytearray(3 * 2**30)
            outcome = "allocated"
        except MemoryError:
            outcome = "MemoryError"
        print(json.dumps({"applied": applied, "outcome": outcome}))
    """)
    out = last_json(proc)
    assert out == {"applied": ["RLIMIT_AS=2.0 GiB"], "outcome": "MemoryError"}


def test_rlimit_fsize_stops_a_big_write(tmp_path: Path) -> None:
    proc = run_child("""
        import errno, json, sys
        from passagent.tools.process.sandbox import apply_resource_limits
        applied = apply_resource_limits(file_size_bytes=2**20, open_files=64)
        try:
            with open(sys.argv[1], "wb") as f:
                f.write(b"x" * (4 * 2**20))
            outcome = "written"
        except OSError as exc:
            outcome = errno.errorcode[exc.errno]
        files = []
        try:
            for _ in range(100):
                files.append(open(sys.argv[1], "rb"))
            nofile = "unlimited"
        except OSError as exc:
            nofile = errno.errorcode[exc.errno]
        print(json.dumps({"applied": applied, "outcome": outcome, "nofile": nofile}))
    """, str(tmp_path / "big.bin"))
    out = last_json(proc)
    assert out == {"applied": ["RLIMIT_NOFILE=64", "RLIMIT_FSIZE=1.0 MiB"], "outcome": "EFBIG", "nofile": "EMFILE"}
    assert (tmp_path / "big.bin").stat().st_size <= 2**20


def test_rlimit_cpu_kills_a_busy_loop() -> None:
    proc = run_child("""
        from passagent.tools.process.sandbox import apply_resource_limits
        print(apply_resource_limits(cpu_seconds=1), flush=True)
        while True:
            pass
    """, timeout=60)
    assert proc.returncode < 0, (proc.returncode, proc.stderr[-2000:])  # SIGXCPU (or SIGKILL at the hard limit)
    assert "RLIMIT_CPU=1 s" in proc.stdout


def test_a_hard_limit_is_never_raised() -> None:
    proc = run_child("""
        import json, resource
        from passagent.tools.process.sandbox import apply_resource_limits
        resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))
        applied = apply_resource_limits(open_files=1000)
        print(json.dumps({"applied": applied, "limit": resource.getrlimit(resource.RLIMIT_NOFILE)}))
    """)
    out = last_json(proc)
    assert out["limit"] == [100, 100]
    assert out["applied"] == ["RLIMIT_NOFILE=100 (clamped to the hard limit 100)"]


def test_no_limit_requested_changes_nothing() -> None:
    assert apply_resource_limits() == []


# --- Landlock --------------------------------------------------------------------------------

LANDLOCK_CHILD = CONNECT + """
    import json, os, subprocess, sys
    from pathlib import Path
    from passagent.tools.process.sandbox import restrict_writes
    allowed, other, port = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    result = {"description": restrict_writes([allowed])}

    def attempt(name, fn):
        try:
            fn()
            result[name] = "ok"
        except OSError as exc:
            result[name] = type(exc).__name__

    attempt("write_allowed", lambda: (allowed / "new.txt").write_text("fine"))
    attempt("mkdir_allowed", lambda: (allowed / "sub").mkdir())
    attempt("rename_allowed", lambda: os.replace(allowed / "new.txt", allowed / "sub" / "moved.txt"))
    attempt("write_other", lambda: (other / "new.txt").write_text("escape"))
    attempt("append_other", lambda: open(other / "existing.txt", "a").close())
    attempt("mkdir_other", lambda: (other / "sub").mkdir())
    attempt("unlink_other", lambda: (other / "existing.txt").unlink())
    attempt("read_other", lambda: (other / "existing.txt").read_text())
    attempt("dev_null", lambda: open("/dev/null", "w").write("x"))
    attempt("proc_self", lambda: open(f"/proc/{os.getpid()}/comm", "w").write("sandboxed"))  # CUDA needs it
    attempt("dev_shm", lambda: (Path("/dev/shm") / f"passagent-test-{os.getpid()}").write_text("x"))
    Path(f"/dev/shm/passagent-test-{os.getpid()}").unlink(missing_ok=True)
    # Children inherit the sandbox.
    result["child_write_other"] = subprocess.run(["sh", "-c", f"echo x > {other}/child.txt"],
                                                 capture_output=True).returncode
    result["tcp"] = try_connect(port)
    print(json.dumps(result))
"""


@pytest.fixture
def landlock() -> int:
    abi, why = landlock_abi()
    if abi < 1:
        pytest.skip(f"Landlock unavailable: {why}")
    return abi


def test_restrict_writes_confines_writes_and_tcp(tmp_path: Path, landlock: int, tcp_server: TcpServer) -> None:
    allowed, other = tmp_path / "allowed", tmp_path / "other"
    allowed.mkdir()
    other.mkdir()
    (other / "existing.txt").write_text("readable")
    out = last_json(run_child(LANDLOCK_CHILD, str(allowed), str(other), str(tcp_server.port)))
    assert out["description"].startswith(f"landlock ABI {landlock}: writes confined to {allowed}")
    assert out["write_allowed"] == out["mkdir_allowed"] == out["rename_allowed"] == "ok"
    assert out["write_other"] == out["append_other"] == out["mkdir_other"] == out["unlink_other"] == "PermissionError"
    assert out["read_other"] == "ok"
    assert out["dev_null"] == out["dev_shm"] == out["proc_self"] == "ok"
    assert out["child_write_other"] != 0
    assert sorted(p.name for p in other.iterdir()) == ["existing.txt"]
    assert (allowed / "sub" / "moved.txt").read_text() == "fine"
    if landlock >= 4:
        assert out["tcp"] == "EACCES" and tcp_server.accepted == 0
        assert "TCP bind/connect denied" in out["description"]


def test_restrict_writes_reports_missing_directories(tmp_path: Path, landlock: int) -> None:
    out = last_json(run_child("""
        import json, sys
        from pathlib import Path
        from passagent.tools.process.sandbox import restrict_writes
        print(json.dumps({"description": restrict_writes([Path(sys.argv[1]), Path(sys.argv[2])])}))
    """, str(tmp_path), str(tmp_path / "missing")))
    assert f"not writable: {tmp_path / 'missing'} (missing)" in out["description"]


# --- network namespace -----------------------------------------------------------------------


@pytest.fixture
def netns_prefix() -> list[str]:
    argv, description = isolate_network_command(["cmd"])
    if description.startswith("unavailable"):
        pytest.skip(f"network namespaces {description}")
    assert argv[-1] == "cmd" and len(argv) > 1
    return argv[:-1]


def test_isolated_command_cannot_reach_a_local_tcp_server(netns_prefix: list[str], tcp_server: TcpServer) -> None:
    script = textwrap.dedent(CONNECT) + "\nimport json, sys\nprint(json.dumps({'tcp': try_connect(int(sys.argv[1]))}))\n"
    control = last_json(run_child(script, str(tcp_server.port)))
    assert control["tcp"] == "connected"  # the server is reachable from outside the namespace
    isolated = last_json(run_child(script, str(tcp_server.port), prefix=netns_prefix))
    assert isolated["tcp"] in ("ENETUNREACH", "ECONNREFUSED", "EHOSTUNREACH")
    assert tcp_server.accepted == 1


def test_torch_compiles_inside_the_full_sandbox(tmp_path: Path, netns_prefix: list[str], landlock: int) -> None:
    """The worker's setting: no network, writes confined to its directory, limits applied."""
    work = tmp_path / "work"
    (work / "tmp").mkdir(parents=True)
    proc = run_child("""
        import json, sys
        from pathlib import Path
        from passagent.tools.process.sandbox import apply_resource_limits, restrict_writes
        description = restrict_writes([Path(sys.argv[1])])
        limits = apply_resource_limits(cpu_seconds=600, open_files=4096, file_size_bytes=2**30)
        import torch
        torch.manual_seed(0)
        x = torch.randn(8)
        y = torch.compile(lambda t: t.sin() + 1)(x)
        # atol 1e-6: where sin(x) is near -1 the sum is near 0, and a one-ulp difference of the
        # compiled sin (~6e-8) exceeded allclose's default atol of 1e-8 (seen once on CI).
        ok = torch.allclose(y, x.sin() + 1, atol=1e-6)
        print(json.dumps({"description": description, "limits": limits, "ok": bool(ok)}))
    """, str(work), prefix=netns_prefix, timeout=300, env={
        "TMPDIR": str(work / "tmp"),
        "TORCHINDUCTOR_CACHE_DIR": str(work / "inductor"),
        "TRITON_CACHE_DIR": str(work / "triton"),
    })
    out = last_json(proc)
    assert out["ok"] is True
    assert out["description"].startswith("landlock ABI")
    assert any(work.joinpath("inductor").iterdir())  # Inductor wrote its cache where allowed


def test_isolate_network_command_keeps_argv_when_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    import passagent.tools.process.sandbox as sandbox

    monkeypatch.setattr(sandbox, "_netns_prefix", lambda: ((), "unavailable: test"))
    assert isolate_network_command(["python", "-c", ""]) == (["python", "-c", ""], "unavailable: test")


# --- environment -----------------------------------------------------------------------------


def test_scrubbed_environment_drops_credentials_and_keeps_the_rest() -> None:
    secrets = {
        "OPENAI_API_KEY": "sk-1", "ANTHROPIC_API_KEY": "sk-2", "OPENAI_BASE_URL": "https://example.invalid",
        "HF_TOKEN": "hf_x", "HUGGING_FACE_HUB_TOKEN": "hf_y", "GITHUB_TOKEN": "gh", "AWS_ACCESS_KEY_ID": "A",
        "AWS_SECRET_ACCESS_KEY": "B", "AWS_SESSION_TOKEN": "C", "AZURE_CLIENT_SECRET": "D",
        "GOOGLE_APPLICATION_CREDENTIALS": "/k.json", "GCP_SERVICE_ACCOUNT": "x", "DB_PASSWORD": "pw",
        "PGPASSWORD": "pw", "MY_SERVICE_APIKEY": "k", "WANDB_API_KEY": "w", "SSH_AUTH_SOCK": "/tmp/agent",
        "HTTPS_PROXY": "http://user:pw@proxy:3128", "DATABASE_URL": "postgres://u:secretpw@db/x",
        "some_private_key": "x", "NPM_TOKEN": "n",
    }
    keep = {
        "PATH": "/usr/bin", "HOME": "/root", "LD_LIBRARY_PATH": "/usr/lib", "CUDA_VISIBLE_DEVICES": "0",
        "TORCHINDUCTOR_CACHE_DIR": "/c", "TRITON_CACHE_DIR": "/t", "PYTHONPATH": "/p",
        "TOKENIZERS_PARALLELISM": "false", "PASSAGENT_SHARED": "/s", "VIRTUAL_ENV": "/v", "LANG": "C.UTF-8",
        "OMP_NUM_THREADS": "2", "HF_HOME": "/hf", "KEYBOARD_LAYOUT": "us", "PYTHONFAULTHANDLER": "1",
    }
    assert scrubbed_environment({**secrets, **keep}) == keep


def test_unavailable_landlock_is_a_description_not_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    import passagent.tools.process.sandbox as sandbox

    monkeypatch.setattr(sandbox, "landlock_abi", lambda: (0, "the kernel has no Landlock (ENOSYS)"))
    assert restrict_writes([Path("/tmp")]) == "unavailable: the kernel has no Landlock (ENOSYS)"
