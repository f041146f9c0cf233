"""Service, worker and Streamlit processes forked from a warm parent (a "zygote").

`python -m service` spends about 4 CPU-seconds importing FastAPI, LangGraph and LangChain
before it answers, and its first turns load the Korean tokenizer and analyze the documents;
the service and browser tests start about 100 such processes, so on two cores that alone
cost minutes. One zygote per test process imports and warms them once and forks each
process from there: the child sets the test's environment, working folder, arguments and
log, then runs the module as `python -m` would (`runpy`), so the same `main()` serves.

Protocol (one JSON line each way on the zygote's stdin/stdout):
- {"op": "spawn", "module": ..., "args": [...], "env": {...}, "cwd": ..., "log": ...}
  -> {"pid": N}
- {"op": "poll", "pid": N} -> {"returncode": int | null}  (the zygote reaps its children)
End of input: the zygote kills the children it started (by their PIDs) and exits.

The cold path stays tested: the tests that start `python -m service` themselves
(tests/service/test_security.py's refusals, the `uvicorn --factory` test) and every
`.ci/run` that starts the app.
"""

from __future__ import annotations

import json
import os
import runpy
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any, NoReturn

from tests.forked import exit_after

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("service", "service.worker", "streamlit")
"""What the zygote starts (`python -m <module> [args]`); anything else is started cold."""


def _preload() -> None:
    import streamlit.web.bootstrap  # noqa: F401
    import streamlit.web.cli  # noqa: F401

    import component.chat  # noqa: F401
    import component.history_panel  # noqa: F401
    import component.sidebar  # noqa: F401
    import component.summary_panel  # noqa: F401
    import graph.session  # noqa: F401
    import service.__main__  # noqa: F401
    import service.api  # noqa: F401
    import service.redis_broker  # noqa: F401
    import service.worker  # noqa: F401
    from tests.forked import warm

    warm()


def _child(request: dict[str, Any]) -> NoReturn:
    """In the forked child: become `python -m <module>` with the request's environment."""
    try:
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    except OSError:
        os._exit(1)  # no log to tell it in; the test sees the exit code

    def run() -> None:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [request["module"], *request.get("args", [])]
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)

    exit_after(log, run)  # never back into the zygote's loop


def serve() -> None:
    """The zygote's loop: preload, say ready, then spawn and poll until end of input."""
    _preload()
    out = sys.stdout
    children: dict[int, int | None] = {}
    print(json.dumps({"ready": True}), file=out, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "spawn":
            out.flush()
            pid = os.fork()
            if pid == 0:
                _child(request)
            children[pid] = None
            reply: dict[str, Any] = {"pid": pid}
        else:
            pid = int(request["pid"])
            if children.get(pid) is None:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    children[pid] = os.waitstatus_to_exitcode(status)
            reply = {"returncode": children.get(pid)}
        print(json.dumps(reply), file=out, flush=True)
    for pid, returncode in children.items():
        if returncode is None:
            try:
                os.kill(pid, signal.SIGKILL)  # our own child, by its PID
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


class Zygote:
    """The test process's handle on its zygote (started on first use, one per process)."""

    def __init__(self) -> None:
        self._proc = subprocess.Popen(  # noqa: S603 - our own interpreter and module
            [sys.executable, "-m", "tests.zygote"],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._lock = threading.Lock()
        ready = self._read()
        if not ready.get("ready"):
            raise RuntimeError(f"the zygote did not start: {ready}")

    def _read(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError("the zygote exited")
        return dict(json.loads(line))

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            stdin: IO[str] | None = self._proc.stdin
            assert stdin is not None
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            return self._read()

    def spawn(
        self, module: str, env: dict[str, str], log: Path, args: list[str] | None = None
    ) -> ForkedProcess:
        """`python -m module *args` with `env`, its output in `log`, from this zygote."""
        request = {"module": module, "args": args or [], "env": env, "log": str(log)}
        reply = self.ask({"op": "spawn", "cwd": str(ROOT), **request})
        return ForkedProcess(self, int(reply["pid"]))

    def close(self) -> None:
        """End of input: the zygote kills what it started and exits."""
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(5)


class ForkedProcess:
    """What the tests use of `subprocess.Popen`, for a process the zygote forked."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self._zygote = zygote
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._zygote.ask({"op": "poll", "pid": self.pid})["returncode"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0)
            time.sleep(0.02)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)  # a process this test started, by its PID

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


_ZYGOTE: Zygote | None = None


def zygote() -> Zygote:
    """This test process's zygote, started on first use and closed at its exit."""
    global _ZYGOTE
    if _ZYGOTE is None:
        import atexit

        _ZYGOTE = Zygote()
        atexit.register(_ZYGOTE.close)
    return _ZYGOTE


if __name__ == "__main__":
    serve()
