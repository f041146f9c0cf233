"""A job whose worker was killed, run again by another worker: at every point of the turn.

The scale-out run kills a worker at one moment; this kills the process running a job after
each of its turn's checkpoint writes in turn (a `put` or a step's `put_writes`), and after
the last, then runs the job again as the next worker does (`execute` with attempt 2) and
sends the next message. Whatever the dead process had saved, each message is answered once,
as itself, under its own turn number, and the next message is answered as the next one.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from graph.session import TurnRequest, load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from service.jobs import Job, LocalBroker
from service.worker import execute
from tests import forked
from tests.conftest import Store
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer
from tests.service.test_scale_out import _echo


def _killed_worker(settings: dict[str, str], job: Job, kill_at: int) -> None:
    """The worker (forked) that runs `job` and is killed right after its `kill_at`-th
    checkpoint write; it ends by itself if the turn makes fewer writes."""
    import threading

    app = open_app(load_settings(settings), tools=[], index=None)
    writes: list[int] = []
    lock = threading.Lock()

    def counted(write: Any) -> Any:
        # LangGraph saves in a background thread: one write at a time, counted in order
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with lock:
                result = write(*args, **kwargs)
                writes.append(1)
                if len(writes) == kill_at:  # saved, and nothing after it
                    os.kill(os.getpid(), signal.SIGKILL)
            return result

        return wrapper

    saver = app.persistence.saver
    saver.put, saver.put_writes = counted(saver.put), counted(saver.put_writes)
    broker = RecoveringBroker()
    broker.submit(job)
    execute(app, broker, broker.take(1.0))


class RecoveringBroker(LocalBroker):
    """The in-process broker, acting as Redis's does when a job outlives its worker."""

    recovers = True


def _settings(db: dict[str, str], http_server: FakeHTTPServer, tmp_path: Path) -> dict[str, str]:
    """The chat's settings on database `db`, its model the fake server."""
    return {
        **db,
        "CHAT_PROVIDER": "openai",
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": f"{http_server.url}/v1",
        "INDEX_DIR": str(tmp_path / "index"),
    }


def _message(turn: int) -> str:
    return f"c01 t{turn:02d}: 메모 {turn}번을 기억해 주세요."


def _run(app: Any, broker: LocalBroker, job: Job) -> str:
    """Take and execute `job` as a worker does; its answer (the tokens of its events)."""
    broker.submit(job)
    taken = broker.take(1.0)
    assert taken is not None and taken.job_id == job.job_id
    execute(app, broker, taken)
    events = broker.events(job.job_id)
    assert events[-1]["type"] == "done", events[-3:]
    errors = [e for e in events if e["type"] == "error"]
    assert not errors, errors
    return "".join(e["content"] for e in events if e["type"] == "token")


@pytest.mark.faults
@pytest.mark.timeout(600)
def test_a_job_run_again_after_its_worker_died_at_any_write_answers_each_message_once(
    tmp_path: Path, store: Store, http_server: FakeHTTPServer
) -> None:
    bodies = oai.install(
        http_server, [], summary=lambda body: "요약: 대화가 이어졌습니다.", default=_echo
    )
    points = 0
    while True:
        points += 1
        settings = _settings(store(f"k{points}"), http_server, tmp_path)
        app = open_app(load_settings(settings), tools=[], index=None)
        thread = new_thread(app)
        run_turn(app, thread, _message(1), turn_count=None, compression_rate=0.3)
        request = TurnRequest(thread, message=_message(2), sent_at="2026-11-24T10:00:00+00:00")
        job = Job.new(thread, request.as_dict())
        job.turn_before = 1
        app.persistence.close()

        child = forked.fork(_killed_worker, settings, Job.from_dict(job.as_dict()), points)
        out = child.communicate()
        assert child.returncode in (0, -signal.SIGKILL), out[-2000:]
        app = open_app(load_settings(settings), tools=[], index=None)
        broker = RecoveringBroker()
        job.attempts = 1  # the dead worker's take; this take makes it 2
        job.status = "running"
        if child.returncode == 0:  # every write was saved: the job had ended
            break
        rerun = _run(app, broker, job)
        assert "answer c01 t02" in rerun, (points, rerun, bodies[-1]["messages"])
        after = Job.new(thread, TurnRequest(thread, message=_message(3)).as_dict())
        answer = _run(app, broker, after)
        assert "answer c01 t03" in answer, (points, answer)

        view = load_thread(app, thread)
        said = [(n, str(ms[0].content)[:7], str(ms[-1].content)[:14]) for n, ms in view.turns]
        assert said == [(n, f"c01 t{n:02d}", f"answer c01 t{n:02d}") for n in (1, 2, 3)], (
            points,
            said,
        )
        app.persistence.close()
    assert points > 5, "a turn saves more than five times: the kills did not cover it"


def test_a_rerun_never_reports_the_turn_before_as_its_answer(
    tmp_path: Path, store: Store, http_server: FakeHTTPServer
) -> None:
    """The symptom the scale-out run once showed ("answer t02" for t03): a re-run that takes
    the thread's last answer for its own. Here the dead worker's record of the turn count
    is one too low and it saved nothing: the message is not the thread's, so it runs."""
    oai.install(http_server, [], summary=lambda body: "요약: 대화가 이어졌습니다.", default=_echo)
    settings = _settings(store("low"), http_server, tmp_path)
    app = open_app(load_settings(settings), tools=[], index=None)
    thread = new_thread(app)
    for turn in (1, 2):
        run_turn(app, thread, _message(turn), turn_count=None, compression_rate=0.3)
    job = Job.new(thread, TurnRequest(thread, message=_message(3)).as_dict())
    job.turn_before, job.attempts, job.status = 1, 1, "running"

    answer = _run(app, RecoveringBroker(), job)

    assert "answer c01 t03" in answer
    assert [str(ms[0].content)[:7] for _, ms in load_thread(app, thread).turns] == [
        "c01 t01",
        "c01 t02",
        "c01 t03",
    ]
    app.persistence.close()


def test_a_rerun_that_cannot_get_the_thread_says_so_and_frees_the_line(
    tmp_path: Path, http_server: FakeHTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dead worker ran on another host and its lease has not lapsed: the re-run waits
    for it (here 0.5 s instead of LEASE_S), then ends as THREAD_BUSY, error -> done, and
    the thread's next job may run."""
    from graph.storage.leases import acquire
    from service import worker

    oai.install(http_server, [], default=_echo)
    settings = _settings({"CHAT_DB_PATH": str(tmp_path / "busy.sqlite")}, http_server, tmp_path)
    app = open_app(load_settings(settings), tools=[], index=None)
    thread = new_thread(app)
    run_turn(app, thread, _message(1), turn_count=None, compression_rate=0.3)
    assert acquire(app.persistence.archive, thread, "elsewhere:4242:deadbeef")
    monkeypatch.setattr(worker, "LEASE_S", 0.5)
    broker = RecoveringBroker()
    job = Job.new(thread, TurnRequest(thread, message=_message(2)).as_dict())
    job.turn_before, job.attempts, job.status = 0, 1, "running"  # the count says: saved
    broker.submit(job)
    execute(app, broker, broker.take(1.0))

    events = broker.events(job.job_id)
    assert [e["type"] for e in events[-2:]] == ["error", "done"]
    assert events[-2]["error_code"] == "THREAD_BUSY"
    assert not broker.busy(thread)  # released: the thread's next job may run
    app.persistence.close()
