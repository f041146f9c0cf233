"""python_repl: run model-written code in an isolated sandbox (only after the user approves).

The code runs under Debian's `bubblewrap` in namespaces of its own:

- **PID**: it sees only its own processes; it cannot signal the app, and when the sandbox's
  init dies (timeout, or the app dying: `--die-with-parent`) the kernel kills every process
  in it, double-forked and `setsid` ones included.
- **network**: only a loopback interface of its own; nothing leaves the machine.
- **mount**: the system's `/usr` read-only and an empty `/tmp`; not the project, `.env`,
  the database or anyone's home. `/proc` is the sandbox's own, so `/proc/<ppid>/environ`
  and the app's processes are out of sight.
- **user**: it runs as `nobody` (uid 65534), never root, so RLIMIT_NPROC binds (at most
  `MAX_PROCESSES` processes, so forks cannot multiply the memory limit past
  `MAX_PROCESSES x memory_mb`); no capabilities, `no_new_privs`.
- **environment**: only PATH and LANG; the interpreter is the system's `/usr/bin/python3 -I`.
- limits on address space, CPU, file size, open files; a wall-clock timeout; output capped.

What it needs from the host: `bwrap` (apt package `bubblewrap`) and `/usr/bin/python3`; as
root, `setpriv` and `prlimit` (util-linux); as another user, unprivileged user namespaces.
Where they are missing or namespaces cannot be made, `isolation_problem()` says why and
python_repl is not offered (the sidebar shows the reason): never a weaker fallback.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass

from graph.tools.base import ToolError

_PRELUDE = """
import sys
try:
    exec(compile(sys.stdin.read(), "<python_repl>", "exec"), {"__name__": "__main__"})
except MemoryError:
    print("MemoryError", file=sys.stderr)
    sys.exit(137)
"""  # 137 (128 + SIGKILL) is what an OOM-killed process reports too
MEMORY_EXIT = 137
OUTPUT_FILE_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Limits of one run."""

    timeout_s: float = 5.0
    memory_mb: int = 256
    max_output: int = 10_000


PYTHON = "/usr/bin/python3"
"""The interpreter inside the sandbox: the system's, not the app's virtual environment."""
NOBODY = 65534
MAX_PROCESSES = 4
"""Processes the code may have at once (RLIMIT_NPROC of the sandbox user)."""
WORKDIR = "/tmp/python_repl"
"""The code's working directory: empty, in the sandbox's own /tmp."""


def sandbox_command(limits: Limits) -> list[str]:
    """The bubblewrap command line that runs `python3 -I -c PRELUDE` isolated and limited."""
    memory = limits.memory_mb * 1024 * 1024
    cpu = int(limits.timeout_s) + 1
    rlimits = [
        "/usr/bin/prlimit",
        f"--as={memory}",
        f"--cpu={cpu}",
        f"--fsize={OUTPUT_FILE_BYTES}",
        "--nofile=32",
        f"--nproc={MAX_PROCESSES}",
        "--core=0",
        "--",
    ]
    bwrap = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--setenv", "PATH", "/usr/bin:/bin",
        "--setenv", "LANG", "C.UTF-8",
        "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/lib", "/lib",
        "--symlink", "usr/lib64", "/lib64",
        "--symlink", "usr/bin", "/bin",
        "--proc", "/proc",
        "--dev", "/dev",
        "--tmpfs", "/tmp",
        "--dir", WORKDIR,
        "--chdir", WORKDIR,
    ]  # fmt: skip
    if os.geteuid() == 0:
        # root makes the namespaces itself and then becomes a real `nobody`, for whom
        # RLIMIT_NPROC counts (it does not bind root)
        drop = [
            "/usr/bin/setpriv",
            f"--reuid={NOBODY}",
            f"--regid={NOBODY}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
        return [*bwrap, "--", *drop, *rlimits, PYTHON, "-I", "-c", _PRELUDE]
    user = ["--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY)]
    return [*bwrap, *user, "--", *rlimits, PYTHON, "-I", "-c", _PRELUDE]


_problem: list[str | None] = []


def isolation_problem() -> str | None:
    """Why code cannot run isolated on this host, or None when it can (checked once)."""
    if not _problem:
        _problem.append(_probe())
    return _problem[0]


def _probe() -> str | None:
    if shutil.which("bwrap") is None:
        return "the sandbox needs bubblewrap (apt-get install bubblewrap)"
    needed = [PYTHON, "/usr/bin/prlimit"] + (["/usr/bin/setpriv"] if os.geteuid() == 0 else [])
    missing = [path for path in needed if not os.path.exists(path)]
    if missing:
        return f"the sandbox needs {', '.join(missing)}"
    check = "import os, socket; socket.create_connection(('192.0.2.1', 9), 0.2)"
    try:
        proc = subprocess.run(  # noqa: S603 - fixed command
            sandbox_command(Limits(timeout_s=5)),
            input=f"{check}".encode(),
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the sandbox could not start: {exc}"
    out = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    if "Network is unreachable" not in out and "OSError" not in out:
        return f"the sandbox did not isolate the network or did not start: {out.strip()[:200]}"
    return None


def run_python(code: str, limits: Limits) -> str:
    """Run `code` in the sandbox and return `[status]` plus its output (capped).

    Raises `ToolError` when the host cannot isolate it, or when the wall-clock timeout, the
    memory limit or the CPU limit stops the code. Output goes to an anonymous temporary
    file rather than a pipe, so RLIMIT_FSIZE also bounds what the app ever has to hold.
    """
    problem = isolation_problem()
    if problem is not None:
        raise ToolError(f"python_repl is off: {problem}")
    with tempfile.TemporaryFile() as output:
        proc = subprocess.Popen(  # noqa: S603 - fixed command, code goes through stdin
            sandbox_command(limits),
            stdin=subprocess.PIPE,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            proc.communicate(code.encode("utf-8"), timeout=limits.timeout_s)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise ToolError(
                f"the code ran longer than {limits.timeout_s:g} s and was stopped"
            ) from None
        finally:
            _kill_group(proc)  # leftovers the code started in its process group
        output.seek(0)
        text = output.read(limits.max_output * 4 + 4).decode("utf-8", errors="replace")
    if proc.returncode == MEMORY_EXIT:
        raise ToolError(f"memory limit of {limits.memory_mb} MB exceeded")
    killed = {-signal.SIGKILL, 128 + signal.SIGKILL}
    if proc.returncode in killed and "MemoryError" in text:
        raise ToolError(f"memory limit of {limits.memory_mb} MB exceeded")
    if proc.returncode in killed:
        raise ToolError(f"the code was killed (memory limit of {limits.memory_mb} MB?)")
    if proc.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        raise ToolError("the code used too much CPU time and was stopped")
    note = ""
    if proc.returncode in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ):
        note = f"\n… (stopped: output exceeded {OUTPUT_FILE_BYTES // 1024} KB)"
    if len(text) > limits.max_output:
        note = f"\n… (output cut at {limits.max_output} characters)"
        text = text[: limits.max_output]
    status = "ok" if proc.returncode == 0 else f"exit status {proc.returncode}"
    text += note
    return f"[{status}]\n{text}" if text else f"[{status}] (no output)"


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
