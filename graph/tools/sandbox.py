"""python_repl: run code in a separate, limited process (only after the user approves it).

The child runs `python -I` (isolated: no user site, no PYTHON* variables) in a fresh empty
directory, with an environment holding only PATH and LANG, resource limits on memory, CPU,
file size and open files, its own process group, and a wall-clock timeout after which the
whole group is killed. Output is capped. Not covered: a child that double-forks and calls
setsid() leaves the group and survives the kill (RLIMIT_NPROC is per user and ignored for
root, so it is not a usable fence here); run the app as an unprivileged user.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
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


def _limit(limits: Limits) -> None:  # runs in the child before exec
    memory = limits.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(limits.timeout_s) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_FILE_BYTES, OUTPUT_FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_python(code: str, limits: Limits) -> str:
    """Run `code` in a child process and return `[status]` plus its output (capped).

    Raises `ToolError` when the wall-clock timeout, the memory limit or the CPU limit stops
    the code. Output goes to an anonymous temporary file rather than a pipe, so the child's
    RLIMIT_FSIZE also bounds how much the parent ever has to hold.
    """
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    with (
        tempfile.TemporaryDirectory(prefix="python_repl-", ignore_cleanup_errors=True) as workdir,
        tempfile.TemporaryFile() as output,
    ):
        proc = subprocess.Popen(  # noqa: S603 - fixed interpreter, code goes through stdin
            [sys.executable, "-I", "-c", _PRELUDE],
            cwd=workdir,
            env=env,
            stdin=subprocess.PIPE,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: _limit(limits),  # noqa: PLW1509 - limits must be set in the child
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
    if proc.returncode == -signal.SIGKILL:
        raise ToolError(f"the code was killed (memory limit of {limits.memory_mb} MB?)")
    if proc.returncode == -signal.SIGXCPU:
        raise ToolError("the code used too much CPU time and was stopped")
    note = ""
    if proc.returncode == -signal.SIGXFSZ:
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
