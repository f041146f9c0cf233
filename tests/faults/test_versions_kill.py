"""Versions are one transaction (issue 43, item 4), shown with kill -9.

- A new version made, then the process killed before its turn ran: after a restart the
  version can be sent (its text was kept), or switched away from, the shown line intact.
- A switch killed right after its rows moved, or at random points of switches back and
  forth: the version shown is always the line shown (never "4 of 4" over a 3-turn line).
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from graph.session import (
    load_thread,
    new_thread,
    new_version,
    open_app,
    redo_last_turn,
    run_turn,
    switch_version,
    threads,
    turn_versions,
)
from graph.settings import load_settings
from graph.turns import content_text
from tests import forked

EDITED = "편집한 질문: 회의실을 707호로 바꿔 주세요"


def _killed_child(db: Path, thread: str, mode: str, extra: str) -> None:
    """The killed child (forked): makes or switches versions and dies at `mode`'s moment."""
    app = _open(db)
    if mode == "new_version":
        new_version(app, thread, 3, extra)
        print("made", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # dies before the version's turn is run
    if mode == "after_move":
        import graph.session.versions as versions
        import graph.storage.archive as archive

        moved = archive.move_rows

        def move_then_die(*args: Any, **kwargs: Any) -> None:
            moved(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)  # the rows moved and were committed

        versions.move_rows = move_then_die  # in the child only
        switch_version(app, thread, 3, int(extra))
    if mode == "after_fork":
        import graph.session.versions as versions

        forked_thread = versions.fork_thread

        def fork_then_die(*args: Any, **kwargs: Any) -> Any:
            forked_thread(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)  # the fork written, the move not begun

        versions.fork_thread = fork_then_die  # in the child only
        new_version(app, thread, int(extra), "다른 질문")
    if mode == "switching":
        print("ready", flush=True)
        shown = 1
        while True:
            shown = 3 - shown
            switch_version(app, thread, 3, shown)


def _open(db: Path):
    settings = load_settings(
        {"CHAT_DB_PATH": str(db), "CHAT_PROVIDER": "offline", "CHECKPOINT_KEEP_TURNS": "0"}
    )
    return open_app(settings, tools=[], approval_required=frozenset(), index=None)


def _say(app, thread: str, text: str) -> None:
    turn = load_thread(app, thread, recent_turns=0).turn_count + 1
    out = run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
    assert out.error_code is None, out.answer


def _child(db: Path, thread: str, mode: str, extra: str = "") -> forked.Child:
    return forked.fork(_killed_child, db, thread, mode, extra)


def _asked(app, thread: str) -> list[str]:
    return [
        content_text(next(m for m in messages if isinstance(m, HumanMessage)))
        for _, messages in load_thread(app, thread).turns
    ]


def _two_lines(db: Path) -> str:
    """A thread whose turn 3 has two versions: version 1 goes on to turn 4, version 2 ends
    at turn 3 (and is shown)."""
    app = _open(db)
    thread = new_thread(app)
    for n in range(1, 4):
        _say(app, thread, f"메모 {n}: 회의실 {n}0{n}호")
    redo = new_version(app, thread, 3, EDITED)
    run_turn(app, thread, redo.message, turn_count=3, compression_rate=0.3)
    switch_version(app, thread, 3, 1)
    _say(app, thread, "메모 4: 회의실 404호")
    switch_version(app, thread, 3, 2)
    app.persistence.close()
    return thread


def _consistent(app, thread: str) -> str:
    """The version the record shows is the line the thread holds; returns 'v1' or 'v2'."""
    shown = turn_versions(app, thread)[3]
    asked = _asked(app, thread)
    assert shown.count == 2, shown
    if shown.shown == 1:
        assert asked == [f"메모 {n}: 회의실 {n}0{n}호" for n in range(1, 5)], asked
        return "v1"
    assert asked == ["메모 1: 회의실 101호", "메모 2: 회의실 202호", EDITED], asked
    return "v2"


@pytest.mark.faults
@pytest.mark.timeout(300)
def test_a_version_made_then_killed_can_be_sent_or_left_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "v.sqlite"
    app = _open(db)
    thread = new_thread(app)
    for n in range(1, 4):
        _say(app, thread, f"메모 {n}: 회의실 {n}0{n}호")
    app.persistence.close()
    child = _child(db, thread, "new_version", EDITED)
    out = child.communicate()
    assert child.returncode == -signal.SIGKILL and "made" in out, out[-2000:]

    app = _open(db)  # a restart
    view = load_thread(app, thread)
    assert view.turn_count == 2 and turn_versions(app, thread)[3].shown == 2
    # the version's text was kept with it: it is sent again, as it was asked
    redo = redo_last_turn(app, thread, turn=3)
    assert redo.turn_count == 3 and redo.message == EDITED
    out = run_turn(app, thread, redo.message, turn_count=3, compression_rate=0.3)
    assert out.error_code is None
    assert _asked(app, thread)[-1] == EDITED and load_thread(app, thread).turn_count == 3
    versions = turn_versions(app, thread)[3]
    assert (versions.shown, versions.count) == (2, 2)  # no third version made on the way
    # and the version before it is intact, a switch away
    switch_version(app, thread, 3, 1)
    assert _asked(app, thread)[-1] == "메모 3: 회의실 303호"
    app.persistence.close()


@pytest.mark.faults
@pytest.mark.timeout(300)
def test_a_version_never_sent_can_be_left_with_the_shown_line_intact(tmp_path: Path) -> None:
    db = tmp_path / "v.sqlite"
    app = _open(db)
    thread = new_thread(app)
    for n in range(1, 4):
        _say(app, thread, f"메모 {n}: 회의실 {n}0{n}호")
    app.persistence.close()
    child = _child(db, thread, "new_version", EDITED)
    child.communicate()
    app = _open(db)
    switch_version(app, thread, 3, 1)
    assert _asked(app, thread) == [f"메모 {n}: 회의실 {n}0{n}호" for n in range(1, 4)]
    _say(app, thread, "메모 4: 회의실 404호")  # the conversation goes on from it
    assert load_thread(app, thread).turn_count == 4
    app.persistence.close()


@pytest.mark.faults
@pytest.mark.timeout(300)
@pytest.mark.parametrize("turn", [1, 3])
def test_a_new_version_killed_after_its_fork_lists_no_stray_conversation(
    tmp_path: Path, turn: int
) -> None:
    db = tmp_path / "v.sqlite"
    app = _open(db)
    thread = new_thread(app)
    for n in range(1, 4):
        _say(app, thread, f"메모 {n}: 회의실 {n}0{n}호")
    app.persistence.close()
    child = _child(db, thread, "after_fork", str(turn))
    out = child.communicate()
    assert child.returncode == -signal.SIGKILL, out[-2000:]
    app = _open(db)
    assert [t["thread_id"] for t in threads(app)] == [thread]  # the fork was born hidden
    assert load_thread(app, thread).turn_count == 3 and turn not in turn_versions(app, thread)
    redo = new_version(app, thread, turn, "다른 질문")  # and a new version still works
    run_turn(app, thread, redo.message, turn_count=turn, compression_rate=0.3)
    assert _asked(app, thread)[-1] == "다른 질문"
    app.persistence.close()


@pytest.mark.faults
@pytest.mark.timeout(300)
def test_a_switch_killed_right_after_its_rows_moved_shows_what_it_holds(tmp_path: Path) -> None:
    db = tmp_path / "v.sqlite"
    thread = _two_lines(db)
    child = _child(db, thread, "after_move", "1")
    out = child.communicate()
    assert child.returncode == -signal.SIGKILL, out[-2000:]
    app = _open(db)
    assert _consistent(app, thread) == "v1"  # the switch happened, whole
    switch_version(app, thread, 3, 2)
    assert _consistent(app, thread) == "v2"
    app.persistence.close()


@pytest.mark.faults
@pytest.mark.timeout(600)
def test_kill_9_at_random_points_of_switches_never_splits_a_version(tmp_path: Path) -> None:
    db = tmp_path / "v.sqlite"
    thread = _two_lines(db)
    rng = random.Random(43)
    seen: dict[str, int] = {}
    trials = 12
    for _ in range(trials):
        child = _child(db, thread, "switching")
        child.readline()  # ready: switching from now on
        time.sleep(rng.uniform(0.05, 1.5))
        child.kill()
        child.communicate()
        app = _open(db)
        shown = _consistent(app, thread)
        seen[shown] = seen.get(shown, 0) + 1
        app.persistence.close()
    print(f"\n{trials} kills during switches: shown {seen}, every one whole")
