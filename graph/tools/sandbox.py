"""python_repl: run code in a separate, limited process (only after the user approves it).

The child runs `python -I` (isolated: no user site, no PYTHON* variables) in a fresh empty
directory, with an environment holding only PATH and LANG, resource limits on memory, CPU,
file size and open files, its own process group, and a wall-clock timeout after which the
whole group is killed. Output is capped.
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
"""


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
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024 * 1024, 1024 * 1024))
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_python(code: str, limits: Limits) -> str:
    """Run `code` in a child process; return its output, or raise ToolError on a limit."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    with tempfile.TemporaryDirectory(prefix="python_repl-") as workdir:
        proc = subprocess.Popen(  # noqa: S603 - fixed interpreter, code goes through stdin
            [sys.executable, "-I", "-c", _PRELUDE],
            cwd=workdir,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: _limit(limits),  # noqa: PLW1509 - limits must be set in the child
        )
        try:
            out, _ = proc.communicate(code.encode("utf-8"), timeout=limits.timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise ToolError(
                f"the code ran longer than {limits.timeout_s:g} s and was stopped"
            ) from None
    text = out.decode("utf-8", errors="replace")
    if proc.returncode == 137 and "MemoryError" in text or proc.returncode == -signal.SIGKILL:
        raise ToolError(f"the code exceeded the memory limit of {limits.memory_mb} MB")
    if proc.returncode == -signal.SIGXCPU:
        raise ToolError("the code used too much CPU time and was stopped")
    if len(text) > limits.max_output:
        text = text[: limits.max_output] + f"\n… (output cut at {limits.max_output} characters)"
    status = "ok" if proc.returncode == 0 else f"exit status {proc.returncode}"
    return f"[{status}]\n{text}" if text else f"[{status}] (no output)"
