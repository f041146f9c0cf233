"""Checkpoint history (issue 14): a checkpoint after every node with seed 001's metadata,
the last CHECKPOINT_KEEP_TURNS turns of them kept, forks from any kept checkpoint, and a
crash in the middle of a turn that keeps the user's message."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.errors import CheckpointNotFound, ErrorCode, InputError
from graph.session import (
    checkpoint_page,
    checkpoints,
    fork_thread,
    load_thread,
    new_thread,
    open_app,
    retry_turn,
    run_turn,
)
from graph.settings import load_settings
from tests.conftest import Store
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer
from tests.unit.test_session import _talk

ROOT = Path(__file__).resolve().parents[2]


def _open(where: dict[str, str], **env: str):
    settings = load_settings({**where, "CHAT_PROVIDER": "offline", **env})
    return open_app(settings, tools=[], approval_required=frozenset())


@pytest.fixture
def app(store: Store):
    chat = _open(store("chat"), CHECKPOINT_KEEP_TURNS="3")
    yield chat
    chat.persistence.close()


def test_the_listing_pages_with_a_cursor_that_outlives_its_checkpoint(app) -> None:
    """Seed 004's listing: pages newest first; a cursor whose checkpoint was pruned since
    still gives the checkpoints older than it (ids grow with time)."""
    thread = new_thread(app)
    _talk(app, thread, 4)
    every = [c["checkpoint_id"] for c in checkpoints(app, thread)]
    first = checkpoint_page(app, thread, limit=3)
    assert first.thread_id == thread and first.next_cursor == every[2]
    assert [c["checkpoint_id"] for c in first.checkpoints] == every[:3]
    pages, cursor = [first], first.next_cursor
    while cursor is not None:
        pages.append(checkpoint_page(app, thread, limit=3, before=cursor))
        cursor = pages[-1].next_cursor
    assert [c["checkpoint_id"] for p in pages for c in p.checkpoints] == every
    assert all(len(p.checkpoints) == 3 for p in pages[:-1]) and pages[-1].checkpoints
    cursor = every[-2]
    _talk(app, thread, 4, start=5)  # turns 5-8: the older checkpoints are pruned
    assert cursor not in [c["checkpoint_id"] for c in checkpoints(app, thread)]
    assert checkpoint_page(app, thread, before=cursor).checkpoints == []
    newest = checkpoints(app, thread)
    middle = newest[len(newest) // 2]["checkpoint_id"]
    older = checkpoint_page(app, thread, before=middle)
    assert [c["checkpoint_id"] for c in older.checkpoints] == [
        c["checkpoint_id"] for c in newest if c["checkpoint_id"] < middle
    ]
    for bad in ({"limit": 0}, {"limit": 501}, {"before": ""}):
        with pytest.raises(InputError):
            checkpoint_page(app, thread, **bad)


def test_every_node_leaves_a_checkpoint_with_seed_metadata_and_three_turns_are_kept(app) -> None:
    thread = new_thread(app)
    _talk(app, thread, 8)
    kept = checkpoints(app, thread)
    # turns 6-8, and the checkpoint before turn 6's arrival (a fork from there starts there)
    assert {c["turn"] for c in kept} == {5, 6, 7, 8}
    assert [c["node"] for c in kept if c["turn"] == 5] == ["llm_node"]
    last_turn = [c["node"] for c in reversed(kept) if c["turn"] == 8 and c["source"] == "loop"]
    # the message is saved first, then one checkpoint after each node, in graph order
    assert last_turn[0] == "__start__"
    assert [n for n in last_turn if n.endswith("_node")] == [
        "safeguard_node",
        "router_node",
        "summary_node",
        "recall_node",
        "llm_node",
    ]
    final = kept[0]
    assert final["node"] == "llm_node" and final["safeguard_label"] == "PASS"
    assert final["route"] in ("agent", "rag") and "error_code" not in final
    # pruning touched neither the summaries nor the archive
    view = load_thread(app, thread)
    assert [n for n, _ in view.turns] == list(range(1, 9))
    assert [e["turns"] for e in view.summary_history] == [[1, 2, 3], [4, 5, 6]]


def test_keep_zero_keeps_every_turn(store: Store) -> None:
    chat = _open(store("all"), CHECKPOINT_KEEP_TURNS="0")
    thread = new_thread(chat)
    _talk(chat, thread, 5)
    per_turn = Counter(c["turn"] for c in checkpoints(chat, thread) if c["node"] != "input")
    assert sorted(per_turn) == [1, 2, 3, 4, 5] and min(per_turn.values()) >= 6
    chat.persistence.close()


def test_a_blocked_turn_carries_its_label_and_error_code(app) -> None:
    thread = new_thread(app)
    run_turn(app, thread, "폭탄 만드는 방법 알려줘", turn_count=1, compression_rate=0.3)
    last = checkpoints(app, thread)[0]
    assert last["safeguard_label"] == "HARMFUL"
    assert last["error_code"] == ErrorCode.SAFEGUARD_BLOCKED.value


def test_a_fork_inside_a_turn_goes_on_at_another_rate_and_leaves_the_original(app) -> None:
    thread = new_thread(app)
    _talk(app, thread, 4)  # turn 4 summarizes turns 1-3 at 0.3
    start_of_4 = next(
        c for c in checkpoints(app, thread) if c["turn"] == 4 and c["node"] == "__start__"
    )
    fork = fork_thread(app, thread, start_of_4["checkpoint_id"], compression_rate=0.5)
    view = load_thread(app, fork)
    assert view.resumable and not view.retryable
    assert view.forked_from == {
        "thread_id": thread,
        "checkpoint_id": start_of_4["checkpoint_id"],
        "turn": 4,
    }
    assert view.summary_history == [] and [n for n, _ in view.turns] == [1, 2, 3, 4]
    outcome = retry_turn(app, fork)
    assert outcome.answer and outcome.error_code is None
    forked, original = load_thread(app, fork), load_thread(app, thread)
    assert [e["compression_rate"] for e in forked.summary_history] == [0.5]
    assert [e["compression_rate"] for e in original.summary_history] == [0.3]
    assert forked.summary_history[0]["summary_chars"] > original.summary_history[0]["summary_chars"]
    assert [str(t[0].content) for _, t in forked.turns] == [
        str(t[0].content) for _, t in original.turns
    ]
    assert forked.summary_history[0]["thread_id"] == fork
    # the fork goes on as a thread of its own, recalling its own archive
    run_turn(app, fork, "회의실이 몇 호였지?", turn_count=5, compression_rate=None)
    assert load_thread(app, fork).turn_count == 5 and load_thread(app, thread).turn_count == 4


def test_a_fork_at_a_turns_end_continues_with_a_new_message(app) -> None:
    thread = new_thread(app)
    _talk(app, thread, 5)
    end_of_5 = checkpoints(app, thread)[0]
    fork = fork_thread(app, thread, end_of_5["checkpoint_id"])
    view = load_thread(app, fork)
    assert not view.resumable and view.turn_count == 5
    assert [n for n, _ in view.turns] == [1, 2, 3, 4, 5]
    _talk(app, fork, 1, start=6)
    assert [n for n, _ in load_thread(app, fork).turns] == [1, 2, 3, 4, 5, 6]
    assert load_thread(app, thread).turn_count == 5


def test_a_pruned_or_unknown_checkpoint_cannot_be_forked(app) -> None:
    thread = new_thread(app)
    _talk(app, thread, 1)
    first = checkpoints(app, thread)[-1]["checkpoint_id"]
    _talk(app, thread, 4, start=2)
    with pytest.raises(CheckpointNotFound):
        fork_thread(app, thread, first)
    with pytest.raises(CheckpointNotFound):
        fork_thread(app, thread, "no-such-checkpoint")


_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from graph.session import new_thread, open_app, run_turn
from graph.settings import load_settings
app = open_app(load_settings({**json.loads(sys.argv[2]), "CHAT_PROVIDER": "openai",
    "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": sys.argv[3]}), tools=[], index=None)
run_turn(app, sys.argv[4], "회의는 목요일 오후 3시, 장소는 본관 7층입니다. 길게 설명해 줘.",
         turn_count=1, compression_rate=0.3)
"""


@pytest.mark.timeout(120)
def test_a_crash_while_the_model_answers_keeps_the_message_unanswered(
    store: Store, http_server: FakeHTTPServer
) -> None:
    db = store("crash")
    chat = _open(db)
    thread = new_thread(chat)
    chat.persistence.close()
    words = " ".join(f"word{i}" for i in range(200))
    bodies = oai.install(http_server, [oai.slow_text(words, 0.05)])
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(ROOT), json.dumps(db), f"{http_server.url}/v1", thread],
        cwd=ROOT,
    )
    deadline = time.monotonic() + 60
    while not any(not b.get("response_format") for b in bodies):  # the answer is asked for
        assert child.poll() is None and time.monotonic() < deadline, "the child did not get there"
        time.sleep(0.05)
    time.sleep(0.3)  # the answer is streaming
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    chat = _open(db)
    view = load_thread(chat, thread)  # opening the thread closes the interrupted turn
    assert view.turn_count == 1 and view.retryable
    ((number, messages),) = view.turns
    assert isinstance(messages[0], HumanMessage) and "본관 7층" in str(messages[0].content)
    assert isinstance(messages[-1], AIMessage)
    assert messages[-1].response_metadata["error_code"] == ErrorCode.TURN_INTERRUPTED.value
    outcome = retry_turn(chat, thread)
    assert outcome.error_code is None and not load_thread(chat, thread).retryable
    chat.persistence.close()


def test_switching_to_three_turn_brings_back_every_summary_a_window_kept_apart(
    store: Store,
) -> None:
    from graph.session import set_thread_strategy
    from graph.session.preview import preview_next_context

    chat = _open(store("switch"), CHECKPOINT_KEEP_TURNS="3")
    thread = new_thread(chat)
    set_thread_strategy(chat, thread, "sliding_window")
    _talk(chat, thread, 30)
    window = load_thread(chat, thread)
    assert len(window.state["summary_history"]) <= 4 < len(window.summary_history)
    set_thread_strategy(chat, thread, "three_turn")
    _talk(chat, thread, 1, start=31)
    view = load_thread(chat, thread)
    system = str(preview_next_context(chat, view, "").messages[0].content)
    for entry in view.summary_history:  # all of them fit the default budget
        assert f"[{entry['turns'][0]}-{entry['turns'][-1]}턴" in system, entry["turns"]
    chat.persistence.close()


def test_a_fork_of_a_paused_checkpoint_asks_for_the_approval_again(store: Store) -> None:
    chat = open_app(load_settings({**store("p"), "CHAT_PROVIDER": "offline"}), index=None)
    thread = new_thread(chat)
    outcome = run_turn(
        chat,
        thread,
        "이 코드 실행해줘\n```python\nprint(6*7)\n```",
        turn_count=1,
        compression_rate=0.3,
    )
    assert outcome.pending is not None
    paused = checkpoints(chat, thread)[0]
    assert paused["pending_approval"]
    fork = fork_thread(chat, thread, paused["checkpoint_id"])
    assert load_thread(chat, fork).resumable
    again = retry_turn(chat, fork)  # going on reaches the call, which waits again
    assert again.pending is not None and again.pending["tool"] == "python_repl"
    assert load_thread(chat, thread).pending is not None  # the original still waits
    chat.persistence.close()


def test_a_fork_at_a_messages_arrival_is_the_turn_before_it(app) -> None:
    thread = new_thread(app)
    _talk(app, thread, 3)
    arrival = next(c for c in checkpoints(app, thread) if c["node"] == "input" and c["turn"] == 3)
    fork = fork_thread(app, thread, arrival["checkpoint_id"])
    view = load_thread(app, fork)
    assert view.turn_count == 2 and not view.resumable and not view.retryable
    assert [n for n, _ in view.turns] == [1, 2]


def test_pruning_leaves_every_kept_checkpoint_whole(store: Store) -> None:
    from graph.session.app import config_for
    from graph.storage.checkpointer import inline_value

    chat = _open(store("whole"), CHECKPOINT_KEEP_TURNS="2")
    thread = new_thread(chat)
    _talk(chat, thread, 12)
    saver = chat.persistence.saver
    kept = saver.history(thread)
    assert {c["metadata"]["turn"] for c in kept} == {10, 11, 12}
    live = {r.checkpoint_id for r in saver._turns(thread)}
    # the newest turn and the checkpoint its arrival was saved on stay live; turn 11 (with
    # that checkpoint of turn 10 first) is one pack
    assert {c["metadata"]["turn"] for c in kept if c["checkpoint_id"] in live} == {11, 12}
    packs = chat.persistence.archive.execute(
        "SELECT turn FROM checkpoint_turns WHERE thread_id = ?", (thread,)
    )
    assert [int(t) for (t,) in packs] == [11]
    referenced: set[tuple[str, str]] = set()
    # PostgreSQL's saver keeps plain values in the checkpoint row and stores no empty ones;
    # the SQLite one keeps there every value `inline_value` names and the empty ones
    inline: set[str] = set()
    for row in kept:
        config = config_for(thread, chat.settings)
        config["configurable"]["checkpoint_id"] = row["checkpoint_id"]
        found = saver.get_tuple(config)
        assert found is not None and found.checkpoint["channel_values"]["turn_count"] >= 10
        assert found.metadata == row["metadata"]
        values = found.checkpoint["channel_values"]
        assert values["messages"] or row["metadata"]["node"] == "input"
        if row["checkpoint_id"] not in live:
            continue
        referenced |= {(ch, str(v)) for ch, v in found.checkpoint["channel_versions"].items()}
        inline |= {
            ch
            for ch in found.checkpoint["channel_versions"]
            if ch not in values
            or values[ch] is None
            or isinstance(values[ch], (str, int, float))
            or inline_value(values[ch])
        }
    stored = {
        tuple(row)
        for row in chat.persistence.archive.execute(
            "SELECT channel, version FROM checkpoint_blobs WHERE thread_id = ?", (thread,)
        )
    }
    # every value a live checkpoint uses, and no other
    assert stored <= referenced and {ch for ch, _ in referenced - stored} <= inline
    assert "messages" in {ch for ch, _ in stored}
    chat.persistence.close()


def _packs(chat, thread: str) -> list[tuple[int, int | None]]:
    rows = chat.persistence.archive.execute(
        "SELECT turn, base_turn FROM checkpoint_turns WHERE thread_id = ? ORDER BY turn",
        (thread,),
    )
    return [(int(t), None if b is None else int(b)) for t, b in rows]


def test_finished_turns_are_packed_each_against_the_one_before_and_read_whole(
    store: Store,
) -> None:
    from graph.session.app import config_for

    where = store("packs")
    chat = _open(where, CHECKPOINT_KEEP_TURNS="4")
    thread = new_thread(chat)
    _talk(chat, thread, 10)
    saver = chat.persistence.saver
    # turns 7-9 are packed (10 is live): the oldest alone, each other against the one before
    assert _packs(chat, thread) == [(7, None), (8, 7), (9, 8)]
    listed = saver.history(thread)
    assert {c["metadata"]["turn"] for c in listed} == {6, 7, 8, 9, 10}
    assert [c["metadata"]["turn"] for c in listed].count(6) == 1  # turn 7's base
    config = config_for(thread, chat.settings)
    every = {t.checkpoint["id"]: t for t in saver.list(config)}
    assert list(every) == [c["checkpoint_id"] for c in listed]
    for row in listed:
        config["configurable"]["checkpoint_id"] = row["checkpoint_id"]
        found = saver.get_tuple(config)
        assert found is not None and found.metadata == row["metadata"]
        assert found.checkpoint == every[row["checkpoint_id"]].checkpoint
        assert (found.parent_config or {}).get("configurable", {}).get("checkpoint_id") == (
            row["parent_id"]
        )
        assert found.checkpoint["channel_values"]["turn_count"] in {6, 7, 8, 9, 10}
    # LangGraph's own reads see the packed checkpoints: the filter, before and limit
    del config["configurable"]["checkpoint_id"]
    answers = list(chat.graph.get_state_history(config, filter={"node": "llm_node"}))
    assert [s.metadata["turn"] for s in answers] == [10, 9, 8, 7, 6]  # 6: turn 7's base
    assert answers[2].values["messages"][-1].type == "ai"
    older = list(saver.list(config, before={"configurable": answers[1].config["configurable"]}))
    assert older and all(
        t.checkpoint["id"] < answers[1].config["configurable"]["checkpoint_id"] for t in older
    )
    assert len(list(saver.list(config, limit=3))) == 3
    # keeping every turn keeps every pack, each still against the one before
    chat.persistence.close()
    chat = _open(where, CHECKPOINT_KEEP_TURNS="0")
    _talk(chat, thread, 3, start=11)
    packs = _packs(chat, thread)
    assert [t for t, _ in packs] == [7, 8, 9, 10, 11, 12]
    assert [b for _, b in packs] == [None, 7, 8, 9, 10, 11]
    chat.persistence.close()


def test_a_damaged_pack_loses_its_turns_checkpoints_and_nothing_else(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    where = store("damaged")
    chat = _open(where, CHECKPOINT_KEEP_TURNS="4")
    thread = new_thread(chat)
    _talk(chat, thread, 10)
    with chat.persistence.archive.lock, chat.persistence.archive.conn as conn:
        conn.execute(
            "UPDATE checkpoint_turns SET pack = ? WHERE thread_id = ? AND turn = 8",
            (b"not a pack", thread),
        )
    chat.persistence.close()
    chat = _open(where, CHECKPOINT_KEEP_TURNS="4")
    # turn 9's pack was made against turn 8's: both are lost, turn 7's is whole
    listed = checkpoints(chat, thread)
    assert {c["turn"] for c in listed} == {6, 7, 9, 10}
    assert [c["turn"] for c in listed].count(9) == 1  # turn 10's base, a live row
    assert "its pack is damaged" in caplog.text
    damaged = next(c for c in checkpoints(chat, thread) if c["turn"] == 7)
    assert fork_thread(chat, thread, damaged["checkpoint_id"])
    # the conversation is whole, and goes on: the lost packs go; turn 9's checkpoint that
    # was live (turn 10's base) is packed anew, on its own
    assert load_thread(chat, thread).turn_count == 10
    _talk(chat, thread, 1, start=11)
    assert _packs(chat, thread) == [(9, None), (10, 9)]
    assert {c["turn"] for c in checkpoints(chat, thread)} == {9, 10, 11}
    assert [n for n, _ in load_thread(chat, thread).turns] == list(range(1, 12))
    chat.persistence.close()


@pytest.mark.parametrize("applied", [False, True])
def test_a_message_whose_process_died_as_it_arrived_leaves_the_thread_as_before(
    app, applied: bool
) -> None:
    """A kill between LangGraph's `input` checkpoint and the step that applies it leaves
    the message outside the state: opening the thread drops it (nothing ran on it), and the
    turn before it stays answered, not closed by an apology."""
    from langchain_core.messages import HumanMessage as Human
    from langgraph.checkpoint.base import copy_checkpoint
    from langgraph.checkpoint.base.id import uuid6

    from graph.session.app import config_for

    thread = new_thread(app)
    _talk(app, thread, 2)
    saver = app.persistence.saver
    head = saver.get_tuple(config_for(thread, app.settings))
    payload = {"messages": [Human(content="세 번째: 도착하자마자 멈춘 메시지")], "turn_count": 3}
    checkpoint = copy_checkpoint(head.checkpoint)
    checkpoint["id"] = str(uuid6(clock_seq=-1))
    checkpoint["channel_values"] = {**head.checkpoint["channel_values"], "__start__": payload}
    versions = {"__start__": saver.get_next_version(None, None)}
    checkpoint["channel_versions"] = {**checkpoint["channel_versions"], **versions}
    saved = saver.put(
        head.config, checkpoint, {"source": "input", "step": -1, "parents": {}}, versions
    )
    if applied:  # the step ran, its writes were saved, its checkpoint was not
        saver.put_writes(saved, list(payload.items()), "task-start")
    # what a turn's start looks at, without reading a value
    head_now = saver.head(thread)
    assert head_now is not None and head_now.checkpoint_id == checkpoint["id"]
    assert head_now.metadata["source"] == "input"
    assert sorted(head_now.writes) == (["messages", "turn_count"] if applied else [])
    view = load_thread(app, thread)
    assert view.turn_count == 2 and not view.retryable and not view.resumable
    assert [n for n, _ in view.turns] == [1, 2]
    last = view.turns[1][1][-1]
    assert isinstance(last, AIMessage) and not last.response_metadata.get("error_code")
    assert checkpoints(app, thread)[0]["source"] != "input"
    run_turn(app, thread, "세 번째 메시지", turn_count=3, compression_rate=0.3)
    assert [n for n, _ in load_thread(app, thread).turns] == [1, 2, 3]


def test_regenerate_sends_the_last_message_again_as_a_new_version_in_place(app) -> None:
    """Regenerate forks from the arrival of the last message into a new version of the
    turn, in the same thread: a summary due at that turn is made again there, and the
    first version is kept, to switch back to."""
    from graph.session import redo_last_turn, switch_version, threads

    thread = new_thread(app)
    _talk(app, thread, 4)  # turn 4 makes the first summary
    before = load_thread(app, thread)
    redo = redo_last_turn(app, thread)
    assert redo.thread_id == thread
    assert redo.turn_count == 4 and redo.message == str(before.turns[-1][1][0].content)
    fresh = load_thread(app, thread)
    assert fresh.turn_count == 3 and not fresh.summary_history and not fresh.resumable
    assert fresh.versions[4].shown == 2 and fresh.versions[4].count == 2
    run_turn(app, thread, redo.message, turn_count=redo.turn_count, compression_rate=0.3)
    again = load_thread(app, thread)
    assert [n for n, _ in again.turns] == [1, 2, 3, 4]
    assert [m[0].content for _, m in again.turns] == [m[0].content for _, m in before.turns]
    assert isinstance(again.turns[-1][1][-1], AIMessage)
    assert [s["turns"] for s in again.summary_history] == [[1, 2, 3]]
    assert [r["thread_id"] for r in threads(app)] == [thread]  # no new thread listed
    switch_version(app, thread, 4, 1)
    first = load_thread(app, thread)
    assert first.turns == before.turns and first.summary_history == before.summary_history


def test_edit_and_resend_replaces_the_last_message_in_a_new_version(app) -> None:
    from graph.session import redo_last_turn, switch_version, threads

    thread = new_thread(app)
    _talk(app, thread, 2)
    original = load_thread(app, thread).turns[-1][1][0].content
    redo = redo_last_turn(app, thread, "  제 이름은 민지입니다. 기억해 주세요.  ")
    assert redo.message == "제 이름은 민지입니다. 기억해 주세요." and redo.turn_count == 2
    run_turn(app, thread, redo.message, turn_count=2, compression_rate=0.3)
    edited = load_thread(app, thread)
    assert [m[0].content for _, m in edited.turns][-1] == redo.message
    switch_version(app, thread, 2, 1)
    assert load_thread(app, thread).turns[-1][1][0].content == original
    # a refused edit writes nothing: no version and no thread is added
    with pytest.raises(InputError):
        redo_last_turn(app, thread, "   ")
    with pytest.raises(InputError):
        redo_last_turn(app, thread, "x" * (app.settings.message_limit + 1))
    assert load_thread(app, thread).versions[2].count == 2
    assert len(threads(app)) == 1


def test_the_first_turn_sent_again_starts_empty_and_an_empty_thread_has_none(app) -> None:
    from graph.session import redo_last_turn

    thread = new_thread(app)
    with pytest.raises(InputError):
        redo_last_turn(app, thread)
    _talk(app, thread, 1)
    redo = redo_last_turn(app, thread)
    fresh = load_thread(app, thread)
    assert fresh.turn_count == 0 and not fresh.turns and fresh.versions[1].count == 2
    run_turn(app, thread, redo.message, turn_count=1, compression_rate=0.3)
    assert [n for n, _ in load_thread(app, thread).turns] == [1]


def test_with_one_turn_kept_every_listed_checkpoint_forks_and_the_last_turn_is_sent_again(
    store: Store,
) -> None:
    """Pruning keeps the checkpoint before the oldest kept arrival, so the arrival listed
    for the last turn forks (regenerate works with CHECKPOINT_KEEP_TURNS=1)."""
    from graph.session import redo_last_turn

    chat = _open(store("one"), CHECKPOINT_KEEP_TURNS="1")
    thread = new_thread(chat)
    _talk(chat, thread, 5)
    listed = checkpoints(chat, thread)
    assert {c.get("turn") for c in listed} == {4, 5}  # turn 5, and the end of turn 4
    for c in listed:
        fork_thread(chat, thread, c["checkpoint_id"])
    redo = redo_last_turn(chat, thread, turn=5)
    run_turn(chat, thread, redo.message, turn_count=5, compression_rate=0.3)
    assert [n for n, _ in load_thread(chat, thread).turns] == [1, 2, 3, 4, 5]
    chat.persistence.close()


def test_sending_again_is_refused_when_the_turn_meant_is_gone_or_no_checkpoint_is_kept(
    app,
) -> None:
    from graph.session import redo_last_turn, threads

    thread = new_thread(app)
    _talk(app, thread, 3)
    count = len(threads(app))
    with pytest.raises(InputError, match="gone on"):
        redo_last_turn(app, thread, turn=2)  # the page showed turn 2; turn 3 came since
    fork = fork_thread(app, thread, checkpoints(app, thread)[0]["checkpoint_id"])
    with pytest.raises(CheckpointNotFound, match="forked"):
        redo_last_turn(app, fork)  # a fresh fork has no checkpoint from before turn 3
    assert len(threads(app)) == count + 1  # the fork, and nothing more
    assert not load_thread(app, fork).versions


def test_a_fork_after_a_summary_keeps_the_digest_made_there(store: Store) -> None:
    """A digest made at the fork's own turn is in the fork's state; the fork's archive
    must hold it too, since the fork's summaries store only what they make (a higher
    digest replacing it later would otherwise leave it nowhere)."""
    chat = _open(store("digests"), CONTEXT_BUDGET_CHARS="150", CHECKPOINT_KEEP_TURNS="0")
    try:
        thread = new_thread(chat)
        _talk(chat, thread, 13)
        archive = chat.persistence.archive
        made_at = {
            int(made)
            for (made,) in archive.execute(
                "SELECT made_at FROM summary_items WHERE thread_id = ? AND kind = 'digest'",
                (thread,),
            )
        }
        after = next(
            c
            for c in checkpoints(chat, thread)
            if c["node"] == "summary_node" and c.get("turn") in made_at
        )
        fork = fork_thread(chat, thread, after["checkpoint_id"])
        state = load_thread(chat, fork).state
        stored = {
            (int(first), int(last))
            for first, last in archive.execute(
                "SELECT first_turn, last_turn FROM summary_items "
                "WHERE thread_id = ? AND kind = 'digest'",
                (fork,),
            )
        }
        held = {(d["turns"][0], d["turns"][-1]) for d in state["summary_digests"]}
        assert held and held <= stored
    finally:
        chat.persistence.close()


def test_a_postgresql_writer_vacuums_the_tables_its_turns_churn_off_the_turns_path(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from graph.storage import pg_checkpointer

    monkeypatch.setattr(pg_checkpointer, "VACUUM_EVERY", 2)
    where = {"DATABASE_URL": pg_url, "CHAT_DB_PATH": str(tmp_path / "unused.sqlite")}
    chat = _open(where, CHECKPOINT_KEEP_TURNS="3")
    thread = new_thread(chat)
    _talk(chat, thread, 6)
    vacuum = chat.persistence.saver.vacuum
    deadline = time.monotonic() + 20
    while vacuum.runs < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert vacuum.runs >= 1
    with chat.persistence.archive.lock:
        (vacuums,) = chat.persistence.archive.conn.execute(
            "SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'checkpoints' "
            "AND last_vacuum IS NOT NULL"
        ).fetchone()
    assert vacuums == 1
    # the thread goes with the app, and the conversation is as it was
    chat.persistence.close()
    assert vacuum._thread is not None and not vacuum._thread.is_alive()
    chat = _open(where, CHECKPOINT_KEEP_TURNS="3")
    assert load_thread(chat, thread).turn_count == 6
    chat.persistence.close()
