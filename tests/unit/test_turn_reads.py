"""How often one offline turn reads its thread's config and state.

A turn builds its `TurnContext` once (thread id, config, the values it starts from, the
settings it needs) and hands it down; the helpers do not call `config_for`,
`thread_values` or the graph's `get_state` again for what it already holds. The counts
are pinned as upper bounds, so a helper that starts reading the state again shows here.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import graph.session.app as session_app
from graph.session import (
    ChatApp,
    TurnEvents,
    TurnRequest,
    load_thread,
    new_thread,
    open_app,
    run_request,
    start_turn,
)
from graph.settings import load_settings
from tests.fakes.chat import approving_app

CONFIG_FOR_MAX = 1
"""`config_for` calls in one turn: the context's, once (it was 4 before `TurnContext`: the
turn, closing an unanswered turn, the stream and the `turn` event each made their own)."""
STATE_READS_MAX = 2
"""`get_state` calls in one turn, `thread_values`' included: the state the turn starts
from, and the saved state the `turn` event reports (the graph wrote it meanwhile)."""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[ChatApp]:
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "reads.sqlite"), "CHAT_PROVIDER": "offline"}
    )
    chat = open_app(settings, index=None)
    yield chat
    chat.persistence.archive.close()


def _count(monkeypatch: pytest.MonkeyPatch, app: ChatApp) -> Counter[str]:
    """Count config_for, thread_values, pending_approval and get_state calls, wherever
    they are imported."""
    counts: Counter[str] = Counter()

    def counting(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return original(*args, **kwargs)

        return wrapper

    for name in ("config_for", "thread_values", "pending_approval"):
        original = getattr(session_app, name)
        wrapped = counting(name, original)
        for module in list(sys.modules.values()):
            if (module.__name__ or "").startswith("graph.") and getattr(
                module, name, None
            ) is original:
                monkeypatch.setattr(module, name, wrapped)
    monkeypatch.setattr(app.graph, "get_state", counting("get_state", app.graph.get_state))
    return counts


def test_one_offline_turn_reads_its_config_and_state_once(
    app: ChatApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second turn, answered: the answer is saved, and the reads stay within the bounds."""
    thread = new_thread(app)
    first = start_turn(app, TurnRequest(thread, message="제 이름은 민지예요")).result(60)
    assert first.answer and first.error_code is None
    counts = _count(monkeypatch, app)
    handle = start_turn(app, TurnRequest(thread, message="제 이름이 뭐예요?"))
    kinds = [event["type"] for event in handle.events()]
    outcome = handle.result(60)
    assert "민지" in outcome.answer and kinds[-1] == "done"
    print(f"one turn: {dict(counts)}")
    assert counts["config_for"] <= CONFIG_FOR_MAX, counts
    assert counts["get_state"] <= STATE_READS_MAX, counts
    assert counts["thread_values"] == 0, counts
    monkeypatch.undo()
    assert load_thread(app, thread).turn_count == 2


def test_a_decision_reads_the_pending_approval_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision naming its call: the approval it answers is read once, under the lease.

    It was read twice before (checked before the turn, then again under the lease), and
    the state three times.
    """
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "decide.sqlite"), "CHAT_PROVIDER": "offline"}
    )
    app = approving_app(settings, "call_1", "지웠습니다")
    try:
        thread = new_thread(app)
        sink = TurnEvents(thread, lambda _e: None)
        paused = run_request(app, TurnRequest(thread, message="/tmp/a를 지워 줘"), sink)
        assert paused.pending is not None and paused.pending["tool_call_id"] == "call_1"
        counts = _count(monkeypatch, app)
        decided = TurnRequest(thread, kind="resume", action="approve", tool_call_id="call_1")
        out = run_request(app, decided, sink)
        print(f"one decision: {dict(counts)}")
        assert out.answer == "지웠습니다" and out.pending is None
        assert counts["pending_approval"] == 1, counts
        assert counts["get_state"] <= STATE_READS_MAX, counts
        assert counts["config_for"] <= CONFIG_FOR_MAX, counts
    finally:
        app.persistence.archive.close()


def test_a_stopped_turn_reads_its_state_once_to_close_it(
    app: ChatApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn stopped at once is kept, unanswered, reading the saved state once to close it
    (twice before: once to check the message was saved, once more to close the turn)."""
    thread = new_thread(app)
    counts = _count(monkeypatch, app)
    stopped = TurnEvents(thread, lambda _e: None, cancelled=lambda: True)
    out = run_request(app, TurnRequest(thread, message="안녕하세요"), stopped)
    print(f"one stopped turn: {dict(counts)}")
    assert out.error_code == "CANCELLED"
    assert counts["get_state"] <= STATE_READS_MAX + 1, counts  # the start, the close, the event
    monkeypatch.undo()
    view = load_thread(app, thread)
    assert view.turn_count == 1 and view.retryable
