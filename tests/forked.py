"""Children forked from the warm test process, to be killed with kill -9.

A fresh interpreter pays about 5 CPU-seconds of imports, and its first turn the Korean
tokenizer's load, before it reaches the moment a kill test is about; twenty of them made a
test take 230-600 s on two cores. A fork of the test process, which has both loaded, starts
at once. Each child is still a real process with its own database connections (the parent
holds none open when it forks, and `warm` leaves none), killed by its own PID only.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TextIO


@dataclass
class Child:
    """A forked child: its PID and what it printed (stdout and stderr, one pipe)."""

    pid: int
    out: TextIO
    returncode: int | None = None

    def readline(self) -> str:
        return self.out.readline()

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)

    def wait(self) -> int:
        """The exit status as `subprocess` gives it: -N for a child killed by signal N."""
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def communicate(self) -> str:
        """The rest of the output, once the child has ended (it ends by itself or was killed)."""
        rest = self.out.read()
        self.wait()
        self.out.close()
        return rest


def exit_after(out_fd: int, body: Callable[[], object]) -> NoReturn:
    """In a forked child: print to `out_fd` (stdout and stderr), run `body`, and leave.

    The child never returns into its parent's code (a test, the zygote's loop): it leaves
    with os._exit, 0 when `body` returns, a SystemExit's code, or 1 with the traceback
    printed when it raises.
    """
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", buffering=1, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, encoding="utf-8", closefd=False)  # noqa: SIM115
        body()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - printed where the child's output goes, never raised
        traceback.print_exc()
    finally:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def fork(target: Callable[..., Any], *args: Any) -> Child:
    """Run `target(*args)` in a forked child whose stdout and stderr come back through a pipe."""
    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_fd)
        exit_after(write_fd, lambda: target(*args))
    os.close(write_fd)
    return Child(pid, open(read_fd, encoding="utf-8"))  # noqa: SIM115


def warm() -> None:
    """Load what first turns load (the tokenizer, the graph, the documents' search tokens)
    in this process, on a throwaway database that is closed again, so forked children
    start at once."""
    from graph.session import new_thread, open_app, run_turn
    from graph.settings import load_settings

    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(
            {
                "CHAT_DB_PATH": str(Path(folder) / "warm.sqlite"),
                "INDEX_DIR": str(Path(folder) / "index"),
                "CHAT_PROVIDER": "offline",
            }
        )
        app = open_app(settings)
        thread = new_thread(app)
        run_turn(app, thread, "준비: 회의실 101호", turn_count=1, compression_rate=0.3)
        run_turn(app, thread, "연차 휴가는 며칠인가요?", turn_count=2, compression_rate=0.3)
        app.persistence.close()
