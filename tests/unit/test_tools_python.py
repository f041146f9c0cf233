"""python_repl runs code in a separate, limited process with no secrets."""

from __future__ import annotations

import time

import pytest

from graph.tools.base import ToolError
from graph.tools.sandbox import Limits, run_python


def test_runs_code_and_returns_its_output() -> None:
    out = run_python("print(sum(range(10)))\nprint('한글')", Limits())
    assert out == "[ok]\n45\n한글\n"


def test_errors_are_returned_with_the_exit_status() -> None:
    out = run_python("raise ValueError('boom')", Limits())
    assert out.startswith("[exit status 1]") and "ValueError: boom" in out


def test_killed_at_the_wall_clock_timeout() -> None:
    start = time.perf_counter()
    with pytest.raises(ToolError, match="longer than 1 s"):
        run_python("import time\nwhile True: time.sleep(0.01)", Limits(timeout_s=1))
    assert time.perf_counter() - start < 3


def test_busy_loop_is_killed_too() -> None:
    start = time.perf_counter()
    with pytest.raises(ToolError):
        run_python("while True: pass", Limits(timeout_s=1))
    assert time.perf_counter() - start < 3


def test_memory_limit() -> None:
    start = time.perf_counter()
    with pytest.raises(ToolError, match="memory limit of 256 MB exceeded"):
        run_python("x = bytearray(1024 * 1024 * 1024)\nprint(len(x))", Limits(memory_mb=256))
    assert time.perf_counter() - start < 3


def test_ordinary_memory_use_works_under_the_limit() -> None:
    out = run_python("x = bytearray(50 * 1024 * 1024)\nprint(len(x))", Limits(memory_mb=256))
    assert out == "[ok]\n52428800\n"


def test_cannot_read_the_apps_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-123")
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-secret")
    out = run_python("import os\nprint(dict(os.environ))", Limits())
    assert "sk-secret-123" not in out and "tvly-secret" not in out
    assert "OPENAI_API_KEY" not in out


def test_runs_in_an_empty_directory_outside_the_project() -> None:
    out = run_python("import os\nprint(os.getcwd())\nprint(os.listdir('.'))", Limits())
    cwd, listing = out.splitlines()[1:3]
    assert cwd == "/tmp/python_repl" and listing == "[]"


def test_output_is_capped() -> None:
    out = run_python("print('x' * 50000)", Limits(max_output=1000))
    assert "output cut at 1000 characters" in out
    assert len(out) < 1100


def test_flood_of_output_does_not_fill_the_apps_memory() -> None:
    start = time.perf_counter()
    out = run_python("while True: print('x' * 100_000)", Limits(timeout_s=5, max_output=500))
    assert time.perf_counter() - start < 5
    assert "output cut at 500 characters" in out and len(out) < 700


def test_files_the_code_writes_are_small_and_gone_afterwards() -> None:
    out = run_python(
        "import os\nopen('big', 'wb').write(b'x' * (5 * 1024 * 1024))", Limits(timeout_s=3)
    )
    assert out.startswith("[exit status")  # stopped by the file-size limit
    again = run_python("import os\nprint(os.listdir('.'))", Limits())
    assert again == "[ok]\n[]\n"


def test_child_processes_are_killed_with_the_group() -> None:
    start = time.perf_counter()
    with pytest.raises(ToolError, match="longer than 1 s"):
        run_python(
            "import subprocess, sys\n"
            "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
            "import time\ntime.sleep(30)",
            Limits(timeout_s=1),
        )
    assert time.perf_counter() - start < 3


def test_stop_kills_the_code_and_keeps_what_it_printed() -> None:
    pressed = time.monotonic() + 1.0
    started = time.monotonic()
    out = run_python(
        "import time\nprint('PARTIAL', flush=True)\ntime.sleep(20)\nprint('FINISHED')",
        Limits(timeout_s=30),
        cancelled=lambda: time.monotonic() > pressed,
    )
    assert time.monotonic() - started < 5  # not the 20 s the code asked for
    assert out.startswith("[stopped]") and "PARTIAL" in out and "FINISHED" not in out


def test_the_code_can_write_its_own_scratch_folder() -> None:
    """Even with the app as root: the working directory and /tmp belong to the code."""
    out = run_python(
        "open('notes.txt', 'w').write('in cwd')\n"
        "open('/tmp/other.txt', 'w').write('in tmp')\n"
        "print(open('notes.txt').read(), open('/tmp/other.txt').read())",
        Limits(),
    )
    assert out == "[ok]\nin cwd in tmp\n", out


def test_one_sandbox_holding_its_processes_does_not_block_anothers_forks() -> None:
    """The process limit is per sandbox: code holding its MAX_PROCESSES in one sandbox
    leaves another sandbox's forks alone."""
    import threading

    from graph.tools.sandbox import MAX_PROCESSES

    holder = (
        "import os, time\nkids = 0\n"
        f"for _ in range({MAX_PROCESSES - 1}):\n"
        "    if os.fork() == 0:\n        time.sleep(4); os._exit(0)\n"
        "    kids += 1\n"
        "print('holding', kids + 1, flush=True)\n"
        "for _ in range(kids): os.wait()"
    )
    held: list[str] = []
    first = threading.Thread(target=lambda: held.append(run_python(holder, Limits(timeout_s=8))))
    first.start()
    time.sleep(2)  # the first sandbox holds its processes now
    other = run_python(
        "import os\nforked = 0\n"
        "for _ in range(2):\n"
        "    pid = os.fork()\n"
        "    if pid == 0: os._exit(0)\n"
        "    os.waitpid(pid, 0); forked += 1\n"
        "print('forked', forked)",
        Limits(),
    )
    first.join()
    assert held == [f"[ok]\nholding {MAX_PROCESSES}\n"], held
    assert other == "[ok]\nforked 2\n", other
