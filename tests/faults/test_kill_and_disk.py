"""Fault injection on the real storage: kill -9 at random points, and a full disk.

Each test asserts that nothing committed is lost and nothing is reported wrongly, and
prints its counts (run with -s to see them).
"""

from __future__ import annotations

import gc
import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.session import load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from graph.storage.checkpointer import ChatSaver
from graph.storage.persistence import StorageError
from tests import forked

KILLS = 20


def _converse_forever(db: Path, thread: str) -> None:
    """The killed child: turn after turn on `thread`, each announced and confirmed."""
    app = _app(db)
    while True:
        turn = load_thread(app, thread, recent_turns=1).turn_count + 1
        print(f"start {turn}", flush=True)
        text = f"메시지 {turn}: 회의실 {turn}0{turn}호 예약은 오후 {turn % 9 + 1}시, 예산 {turn * 10}만원."
        run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
        print(f"committed {turn}", flush=True)


def _app(db: Path):
    return open_app(
        load_settings({"CHAT_DB_PATH": str(db), "CHAT_PROVIDER": "offline"}), tools=[], index=None
    )


@pytest.mark.faults
@pytest.mark.timeout(300)
def test_kill_9_at_random_points_loses_no_committed_turn(tmp_path: Path) -> None:
    forked.warm()
    db = tmp_path / "kill.sqlite"
    app = _app(db)
    thread = new_thread(app)
    app.persistence.close()
    rng = random.Random(11)
    committed: dict[int, str] = {}
    mid_turn = 0
    for _ in range(KILLS):
        child = forked.fork(_converse_forever, db, thread)
        # let the child commit one turn, then kill it at a random point of the following turns
        first = [child.readline().strip(), child.readline().strip()]
        assert first[0].startswith("start") and first[1].startswith("committed"), first
        time.sleep(rng.uniform(0.0, 0.25))
        child.kill()
        lines = [*first, *child.communicate().split("\n")]
        for line in lines:
            if line.startswith("committed"):
                turn = int(line.split()[1])
                committed[turn] = f"메시지 {turn}:"
        if lines and [x for x in lines if x][-1].startswith("start"):
            mid_turn += 1
        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    app = _app(db)
    view = load_thread(app, thread)
    by_number = dict(view.turns)
    lost = [n for n in committed if n not in by_number]
    for number in committed:
        messages = by_number.get(number, [])
        assert messages and isinstance(messages[0], HumanMessage)
        assert str(messages[0].content).startswith(committed[number])
        assert isinstance(messages[-1], AIMessage)  # a committed turn has its answer
    assert [n for n, _ in view.turns] == list(range(1, len(view.turns) + 1))
    # the conversation goes on with the right numbering
    run_turn(app, thread, "이어서", turn_count=view.turn_count + 1, compression_rate=0.3)
    app.persistence.close()
    print(
        f"\n{KILLS} kills, {mid_turn} landed inside a turn, {len(committed)} committed turns, "
        f"{len(lost)} lost"
    )
    assert lost == []
    assert len(committed) >= KILLS, "too few turns committed to say anything"
    assert mid_turn >= KILLS // 4, "the kills did not reach the middle of turns"


def _turn_killed_at_step(db: Path, thread: str, kill_at: int, turn: int) -> None:
    """The killed child: one turn, killed once its `kill_at`-th step's results are saved
    (pending writes) and before that step's checkpoint is."""
    steps: list[int] = []
    put = ChatSaver.put

    def killing_put(
        self: ChatSaver, config: Any, checkpoint: Any, metadata: Any, versions: Any
    ) -> Any:
        if metadata.get("source") == "loop":
            steps.append(1)
            if len(steps) == kill_at:
                # LangGraph saves the step's results from another thread than this
                # checkpoint: the kill waits until they are saved, as in the moment this
                # test is about
                deadline = time.monotonic() + 10
                while not self.get_tuple(config).pending_writes and time.monotonic() < deadline:
                    time.sleep(0.01)
                os.kill(os.getpid(), signal.SIGKILL)
        return put(self, config, checkpoint, metadata, versions)

    ChatSaver.put = killing_put  # type: ignore[method-assign]  # in the child only
    app = _app(db)
    text = f"메시지 {turn}: 회의실 202호 예약은 오후 3시."
    run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)


@pytest.mark.faults
@pytest.mark.parametrize(
    ("turn", "kill_at", "answered"),
    [(1, 1, False), (2, 1, False), (2, 3, False), (2, 5, True)],
)
def test_a_kill_between_a_step_and_its_checkpoint_keeps_the_step(
    tmp_path: Path, turn: int, kill_at: int, answered: bool
) -> None:
    """LangGraph saves a step's results before the checkpoint after it. A kill in between
    (here after the message's arrival step, the summary step or the answer) leaves a step
    the state shows but the next message would start without: the answer then vanished,
    and the next message joined the turn before it, so every later turn was numbered one
    too low (found by the random kill -9 test above). The step is kept: a message that
    arrived is the thread's (unanswered, to be retried), the first one included."""
    forked.warm()
    db = tmp_path / "step.sqlite"
    app = _app(db)
    thread = new_thread(app)
    if turn == 2:
        run_turn(app, thread, "메시지 1: 안녕하세요", turn_count=1, compression_rate=0.3)
    app.persistence.close()
    child = forked.fork(_turn_killed_at_step, db, thread, kill_at, turn)
    out = child.communicate()
    assert child.returncode == -signal.SIGKILL, out[-2000:]
    app = _app(db)
    view = load_thread(app, thread)
    assert [n for n, _ in view.turns] == list(range(1, turn + 1))
    last = view.turns[-1][1][-1]
    assert isinstance(last, AIMessage)
    assert (last.response_metadata.get("error_code") is None) == answered
    assert view.retryable != answered  # an interrupted turn is closed, to be retried
    run_turn(app, thread, f"메시지 {turn + 1}: 이어서", turn_count=turn + 1, compression_rate=0.3)
    view = load_thread(app, thread)
    assert [(n, str(m[0].content)[:5]) for n, m in view.turns] == [
        (n, f"메시지 {n}") for n in range(1, turn + 2)
    ]
    assert all(isinstance(m[-1], AIMessage) for _, m in view.turns)
    app.persistence.close()


@pytest.mark.faults
@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a size-limited tmpfs needs root")
def test_a_full_disk_is_an_error_that_loses_nothing(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk)], check=True)  # noqa: S607
    try:
        db = disk / "full.sqlite"
        app = _app(db)
        thread = new_thread(app)
        filler = disk / "filler"
        filler.write_bytes(b"\0" * (2 * 1024 * 1024 + 512 * 1024))
        answered: list[int] = []
        failure = ""
        for turn in range(1, 200):
            text = f"{turn}번째 긴 메시지: " + "회의록 내용을 길게 붙여 둡니다. " * 300
            try:
                out = run_turn(app, thread, text[:7900], turn_count=turn, compression_rate=0.5)
            except StorageError as exc:  # the message itself could not be saved
                failure = f"not saved at turn {turn}: {exc}"
                break
            if out.error_code:
                failure = f"{out.error_code} at turn {turn}"
                break
            answered.append(turn)
        assert failure, "the disk never filled up"
        assert "STORAGE_ERROR" in failure or "could not be saved" in failure, failure
        view = load_thread(app, thread)
        numbers = dict(view.turns)
        assert all(n in numbers and isinstance(numbers[n][-1], AIMessage) for n in answered)
        filler.unlink()  # space again: the conversation goes on, nothing lost
        run_turn(
            app,
            thread,
            "공간이 생겼어요",
            turn_count=load_thread(app, thread).turn_count + 1,
            compression_rate=0.3,
        )
        app.persistence.close()
        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        print(f"\ndisk full: {len(answered)} turns answered, then {failure.split(':')[0]}")
    finally:
        _unmount(disk)


def _unmount(disk: Path) -> None:
    """Unmount the test's tmpfs, leaving no mount behind.

    A database connection the garbage collector has not closed yet keeps it busy: collect,
    try again, and if it is still busy detach it lazily (it goes when its last file closes).
    """
    for _ in range(2):
        done = subprocess.run(["umount", str(disk)], check=False, capture_output=True)  # noqa: S607
        if done.returncode == 0:
            return
        gc.collect()
    subprocess.run(["umount", "--lazy", str(disk)], check=True)  # noqa: S607


@pytest.mark.faults
def test_random_bytes_in_the_file_are_caught_or_contained(tmp_path: Path) -> None:
    from graph.session import salvage_thread, threads

    original = tmp_path / "good.sqlite"
    app = _app(original)
    for _ in range(2):
        thread = new_thread(app)
        for turn in range(1, 11):
            run_turn(
                app,
                thread,
                f"메시지 {turn}: 예산 {turn * 10}만원, 회의실 {turn}호",
                turn_count=turn,
                compression_rate=0.3,
            )
    app.persistence.close()
    conn = sqlite3.connect(original)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    size = original.stat().st_size
    rng = random.Random(5)
    caught = contained = clean = 0
    for trial in range(12):
        db = tmp_path / f"trial-{trial}.sqlite"
        data = bytearray(original.read_bytes())
        offset = rng.randrange(4096, size - 64)  # past the header page
        data[offset : offset + 64] = bytes(rng.randrange(256) for _ in range(64))
        db.write_bytes(bytes(data))
        try:
            app = _app(db)
        except StorageError:  # named, not a raw exception
            caught += 1
            continue
        if app.persistence.notice:  # found at open and moved aside, never deleted
            assert list(tmp_path.glob(f"trial-{trial}.sqlite.corrupt-*"))
            caught += 1
            app.persistence.close()
            continue
        failures = 0
        for record in threads(app):
            try:
                load_thread(app, str(record["thread_id"]))
            except Exception:  # noqa: BLE001 - the app shows this thread as damaged
                failures += 1
                salvaged = salvage_thread(app, str(record["thread_id"]))  # never raises
                assert salvaged["thread_id"] == record["thread_id"]
        contained += bool(failures)
        clean += not failures
        app.persistence.close()
    print(
        f"\n12 corruptions: {caught} caught at open, {contained} contained to their thread, "
        f"{clean} without visible effect"
    )
    assert caught + contained + clean == 12
