"""Every approved call runs exactly once: parallel calls on resume, and a crash mid-run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from langchain_core.tools import tool

from graph.session import load_thread, new_thread, open_app, pending_approval, resume_turn, run_turn
from graph.settings import load_settings
from tests.conftest import Store
from tests.fakes.chat import ScriptedModel, tool_calls

ROOT = Path(__file__).resolve().parents[2]


def _tools(log: Path):
    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression."""
        with log.open("a") as f:
            f.write(f"calculator {expression}\n")
        return "7"

    @tool
    def python_repl(code: str) -> str:
        """Run Python code."""
        with log.open("a") as f:
            f.write(f"python {code}\n")
        if "slow" in code:
            time.sleep(30)
        return f"[ok] ran {code}"

    return [calculator, python_repl]


def _app(where: dict[str, str], log: Path, script: list):
    settings = load_settings({**where, "CHAT_PROVIDER": "offline"})
    return open_app(
        settings,
        model=ScriptedModel(script),
        tools=_tools(log),
        approval_required=frozenset({"python_repl"}),
        index=None,
    )


def test_parallel_calls_each_run_once_across_approvals(tmp_path: Path, store: Store) -> None:
    log = tmp_path / "runs.log"
    message = tool_calls(
        ("calculator", {"expression": "3+4"}),
        ("python_repl", {"code": "print('first')"}),
        ("python_repl", {"code": "print('second')"}),
    )
    app = _app(store("c"), log, [message, "다 했습니다."])
    thread = new_thread(app)
    out = run_turn(app, thread, "계산하고 코드 두 개 돌려줘", turn_count=1, compression_rate=0.3)
    assert out.pending["tool_call_id"] == "call_1"
    out = resume_turn(app, thread, "approve")
    assert out.pending["tool_call_id"] == "call_2"
    out = resume_turn(app, thread, "reject")  # ends the task: the model is not asked again
    assert out.pending is None and out.error_code == "APPROVAL_REJECTED"
    assert log.read_text().splitlines() == ["calculator 3+4", "python print('first')"]
    tools = [m for m in load_thread(app, thread).turns[0][1] if m.type == "tool"]
    assert [m.content for m in tools] == [
        "7",
        "[ok] ran print('first')",
        "Error: the user rejected this call; it was not run.",
    ]


_RESUMER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from tests.integration.test_exactly_once import _app
from graph.session import resume_turn
app = _app(json.loads(sys.argv[2]), Path(sys.argv[3]), ["끝"])
resume_turn(app, sys.argv[4], "approve")
"""


def test_a_crash_between_approval_and_result_asks_again_before_running_again(
    tmp_path: Path, store: Store
) -> None:
    db, log = store("c"), tmp_path / "runs.log"
    app = _app(db, log, [tool_calls(("python_repl", {"code": "slow job"}))])
    thread = new_thread(app)
    run_turn(app, thread, "느린 코드 돌려줘", turn_count=1, compression_rate=0.3)
    app.persistence.close()
    child = subprocess.Popen(
        [sys.executable, "-c", _RESUMER, str(ROOT), json.dumps(db), str(log), thread], cwd=ROOT
    )
    # wait until the approved code started in the child: a condition, not a count of
    # polls (the child first loads the app, which on a loaded machine took over 10 s)
    deadline = time.monotonic() + 90
    while not (log.exists() and log.read_text()):
        assert child.poll() is None, "the child ended before the approved code started"
        assert time.monotonic() < deadline, "the approved code did not start in 90 s"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert log.read_text().splitlines() == ["python slow job"]
    app = _app(db, log, ["이번에는 끝났습니다."])
    pending = pending_approval(app, thread)
    assert pending is not None and pending["may_have_run"] is True  # asked again, with the note
    assert log.read_text().splitlines() == ["python slow job"]  # and not run meanwhile
    app.persistence.close()
