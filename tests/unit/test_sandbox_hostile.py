"""Hostile code against the real sandbox: each snippet reaches its attack (it prints a marker
first) and the test checks that the specific effect did not happen."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.tools.base import ToolError
from graph.tools.sandbox import MAX_PROCESSES, NOBODY, Limits, isolation_problem, run_python

ROOT = Path(__file__).resolve().parents[2]
CANARY = "sk-canary-7f3a9c"
PROBLEM = isolation_problem()

pytestmark = pytest.mark.skipif(
    PROBLEM is not None and os.environ.get("CI") != "true",
    reason=f"no isolation on this host: {PROBLEM}",
)


def test_isolation_is_available_where_ci_runs() -> None:
    # under CI a missing sandbox fails the suite instead of skipping the attacks
    assert PROBLEM is None, PROBLEM


@pytest.fixture
def secret(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    envfile = tmp_path / ".env"
    envfile.write_text(f"OPENAI_API_KEY={CANARY}\n")
    return envfile


@pytest.fixture
def victim() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(["sleep", "60"])  # noqa: S607 - a process the code must not reach
    yield proc
    proc.kill()
    proc.wait()


@pytest.fixture
def listener() -> Iterator[tuple[int, list[bytes]]]:
    received: list[bytes] = []
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
                received.append(conn.recv(100) or b"connected")
                conn.close()
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1], received
    stop.set()
    thread.join()
    server.close()


def _run(code: str, **limits: float) -> str:
    try:
        return run_python(code, Limits(**limits))  # type: ignore[arg-type]
    except ToolError as exc:
        return f"[tool error] {exc}"


def _nobody_processes() -> list[str]:
    out = subprocess.run(
        ["ps", "-o", "pid=,comm=", "-u", str(NOBODY)], capture_output=True, text=True
    )  # noqa: S607
    return [line for line in out.stdout.splitlines() if line.strip()]


def _no_leftovers() -> None:
    for _ in range(20):
        if not _nobody_processes():
            return
        time.sleep(0.1)
    raise AssertionError(f"processes survived the sandbox: {_nobody_processes()}")


SECRET_READS = {
    "parent environ": "import os\nprint('MARK')\nprint(open(f'/proc/{os.getppid()}/environ').read())",
    "every environ": (
        "import os\nprint('MARK')\n"
        "for p in os.listdir('/proc'):\n"
        "    try: print(open(f'/proc/{p}/environ').read())\n"
        "    except Exception as e: print(p, type(e).__name__)"
    ),
    "own environment": "import os\nprint('MARK')\nprint(dict(os.environ))",
    "dotenv by path": "print('MARK')\nprint(open('$ENVFILE').read())",
    "project files": "import os\nprint('MARK')\nprint(os.listdir('$ROOT'))\nprint(open('$README').read())",
    "home and root": "import os, glob\nprint('MARK')\nprint(glob.glob('/root/**', recursive=True)[:50], glob.glob('/home/**')[:50])",
    "walk the filesystem": (
        "import os\nprint('MARK')\n"
        "for d, _, files in os.walk('/'):\n"
        "    for f in files:\n"
        "        if f.endswith(('.env', '.sqlite')) or 'canary' in f: print(os.path.join(d, f))"
    ),
    "cmdline of others": "import os\nprint('MARK')\nprint([open(f'/proc/{p}/cmdline').read() for p in os.listdir('/proc') if p.isdigit()])",
    "ctypes getenv of parent": "import ctypes, os\nprint('MARK')\nprint(ctypes.CDLL(None).getenv(b'OPENAI_API_KEY'))",
}


@pytest.mark.parametrize("name", sorted(SECRET_READS))
def test_the_key_and_the_project_are_out_of_reach(name: str, secret: Path) -> None:
    code = (
        SECRET_READS[name]
        .replace("$ENVFILE", str(secret))
        .replace("$ROOT", str(ROOT))
        .replace("$README", str(ROOT / "README.md"))
    )
    out = _run(code)
    assert "MARK" in out, out  # the snippet ran and reached its attack
    assert CANARY not in out
    assert "OPENAI_API_KEY" not in out
    assert "Context Chat" not in out  # the README's first line


SIGNALS = {
    "kill the parent": "import os, signal\nprint('MARK')\nos.kill(os.getppid(), signal.SIGKILL)\nprint('after')",
    "kill by pid": "import os, signal\nprint('MARK')\ntry: os.kill($PID, signal.SIGKILL)\nexcept Exception as e: print(type(e).__name__)",
    "kill everything": "import os, signal\nprint('MARK')\ntry: os.kill(-1, signal.SIGKILL)\nexcept Exception as e: print(type(e).__name__)",
    "ctypes kill": "import ctypes\nprint('MARK')\nprint(ctypes.CDLL(None).kill($PID, 9))",
    "ptrace the victim": "import ctypes\nprint('MARK')\nprint(ctypes.CDLL(None).ptrace(16, $PID, 0, 0))",
}


@pytest.mark.parametrize("name", sorted(SIGNALS))
def test_the_code_cannot_signal_anything_outside(
    name: str, victim: subprocess.Popen[bytes]
) -> None:
    out = _run(SIGNALS[name].replace("$PID", str(victim.pid)))
    assert "MARK" in out, out
    time.sleep(0.1)
    assert victim.poll() is None, "a process outside the sandbox was killed"
    _no_leftovers()


NETWORK = {
    "tcp to a loopback server": "import socket\nprint('MARK')\nsocket.create_connection(('127.0.0.1', $PORT), 1).sendall(b'leak')",
    "tcp to the outside": "import socket\nprint('MARK')\nsocket.create_connection(('192.0.2.1', 80), 1)",
    "dns": "import socket\nprint('MARK')\nprint(socket.gethostbyname('example.com'))",
    "udp to the host": "import socket\nprint('MARK')\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.sendto(b'leak', ('10.0.2.2', 53))\nprint('sent')",
}


@pytest.mark.parametrize("name", sorted(NETWORK))
def test_there_is_no_network(name: str, listener: tuple[int, list[bytes]]) -> None:
    port, received = listener
    out = _run(NETWORK[name].replace("$PORT", str(port)))
    assert "MARK" in out, out
    assert "sent" not in out and "93." not in out
    time.sleep(0.2)
    assert received == []


def test_a_double_forked_setsid_child_dies_at_the_timeout() -> None:
    code = (
        "import os, time\nprint('MARK', flush=True)\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        while True: time.sleep(0.1)\n"
        "    os._exit(0)\n"
        "time.sleep(30)"
    )
    out = _run(code, timeout_s=1)
    assert "longer than 1 s" in out
    _no_leftovers()


def test_forks_cannot_multiply_the_memory_limit() -> None:
    code = (
        "import os, time\nprint('MARK', flush=True)\nkids = 0\n"
        "for _ in range(10):\n"
        "    try:\n"
        "        if os.fork() == 0:\n"
        "            x = bytearray(200 * 1024 * 1024)\n"
        "            time.sleep(2)\n"
        "            os._exit(0)\n"
        "        kids += 1\n"
        "    except OSError as e:\n"
        "        print('refused', e.errno); break\n"
        "print('kids', kids, flush=True)\n"
        "for _ in range(kids): os.wait()"
    )
    out = _run(code, timeout_s=15)  # about 2.5 s quiet; a busy machine starts the sandbox late
    assert "MARK" in out
    kids = int(out.split("kids ")[1].split()[0])
    assert kids <= MAX_PROCESSES - 1 and "refused" in out  # at most 4 x 256 MB in all
    _no_leftovers()


def test_a_fork_bomb_is_contained() -> None:
    out = _run(
        "import os\nprint('MARK', flush=True)\nwhile True:\n    try: os.fork()\n    except OSError: pass",
        timeout_s=1,
    )
    assert "MARK" in out or "longer than 1 s" in out, out  # it ran until it was stopped
    _no_leftovers()


PRIVILEGE = {
    "become root": "import os\nprint('MARK')\nos.setuid(0)\nprint('root')",
    "raise the limits": "import resource\nprint('MARK')\nresource.setrlimit(resource.RLIMIT_NPROC, (10000, 10000))\nprint('raised')",
    "mount": "import ctypes\nprint('MARK')\nr = ctypes.CDLL(None).mount(b'none', b'/tmp', b'tmpfs', 0, None)\nprint('mounted' if r == 0 else 'no')",
    "chroot": "import os\nprint('MARK')\nos.chroot('/tmp')\nprint('chrooted')",
    "write the system": "print('MARK')\nopen('/usr/bin/evil', 'w').write('x')\nprint('written')",
    "shadow file": "print('MARK')\nprint(open('/etc/shadow').read())",
    "raw memory": "print('MARK')\nprint(open('/dev/mem', 'rb').read(16))",
}


@pytest.mark.parametrize("name", sorted(PRIVILEGE))
def test_no_privilege_is_gained(name: str) -> None:
    out = _run(PRIVILEGE[name])
    assert "MARK" in out, out
    for effect in ("root\n", "raised", "mounted", "chrooted", "written"):
        assert effect not in out.split("MARK", 1)[1], out
    assert "root:" not in out
    assert not Path("/usr/bin/evil").exists()


def test_output_and_files_are_bounded() -> None:
    out = _run("print('MARK')\nopen('big', 'wb').write(b'x' * 50_000_000)\nprint('wrote')")
    assert "MARK" in out and "wrote" not in out
    out = _run("print('y' * 10_000_000)", max_output=100)
    assert len(out) < 400


NAMESPACES = {
    # each prints the call's result and errno; the sandbox must answer -1 (EPERM, or ENOSYS
    # for clone3, whose flags a seccomp filter cannot read)
    "unshare(CLONE_NEWUSER)": "print(libc.unshare(0x10000000), ctypes.get_errno())",
    "unshare(CLONE_NEWNS)": "print(libc.unshare(0x00020000), ctypes.get_errno())",
    "clone(CLONE_NEWUSER)": "print(libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0), ctypes.get_errno())",
    "clone3": "print(libc.syscall(435, 0, 0), ctypes.get_errno())",
    "setns": "print(libc.setns(os.open('/proc/self/ns/net', os.O_RDONLY), 0), ctypes.get_errno())",
    "mount a tmpfs": "print(libc.mount(b'none', b'/tmp', b'tmpfs', 0, None), ctypes.get_errno())",
}


@pytest.mark.parametrize("name", sorted(NAMESPACES))
def test_the_code_cannot_make_namespaces_or_mount(name: str) -> None:
    code = (
        "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nprint('MARK')\n"
        + NAMESPACES[name]
    )
    out = _run(code)
    assert "MARK" in out, out
    result, errno = out.split("MARK\n")[1].split()[:2]
    assert result == "-1", out
    assert errno in ("1", "38"), out  # EPERM, ENOSYS


def test_os_unshare_of_a_user_namespace_fails_and_ordinary_work_goes_on() -> None:
    code = (
        "import os, subprocess, threading\nprint('MARK')\n"
        "try:\n"
        "    os.unshare(os.CLONE_NEWUSER)\n"
        "    print('unshared')\n"
        "except (AttributeError, OSError) as e:\n"
        "    print('refused', type(e).__name__)\n"
        "t = threading.Thread(target=print, args=('thread ran',))\nt.start()\nt.join()\n"
        "print(subprocess.run(['echo', 'child ran'], capture_output=True, text=True).stdout)"
    )
    out = _run(code)
    assert "MARK" in out, out
    assert "unshared" not in out
    assert "thread ran" in out and "child ran" in out  # clone3's ENOSYS falls back to clone


def test_the_scratch_folder_cannot_fill_the_memory() -> None:
    """/tmp is writable now, and in memory: many small files stop at its size."""
    from graph.tools.sandbox import SCRATCH_BYTES

    out = _run(
        "print('MARK', flush=True)\nn = 0\n"
        "try:\n"
        "    while n < 1000:\n"
        "        open(f'f{n}', 'wb').write(b'x' * 512 * 1024); n += 1\n"
        "except OSError as e:\n"
        "    print('full', e.errno)\n"
        "print('files', n)"
    )
    assert "MARK" in out and "full 28" in out, out  # ENOSPC
    assert int(out.split("files ")[1].split()[0]) * 512 * 1024 <= SCRATCH_BYTES
