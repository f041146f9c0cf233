"""A first turn whose message is stored as the disk fills (issue 43, item 5).

The message arrives (LangGraph's `input` checkpoint), the first node finishes and its
results are written, and then the disk is full: the checkpoint after the step is refused,
and so is every write that would settle the thread, for longer than the recheck waits
(24 processes contend for the file). The message is saved: the next reader keeps it, as
an unanswered turn. It must not be reported "not saved" (the user would send it twice,
and the first copy would come back closed TURN_INTERRUPTED).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

import graph.session.closing as turn_closing
from graph.session import load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from graph.storage.persistence import StorageError
from graph.turns import content_text


class FullDisk:
    """Writes of the saver refused from the N-th checkpoint put on, until `free()`."""

    def __init__(self, saver: Any, after_puts: int) -> None:
        self.saver, self.left, self.full = saver, after_puts, False
        self.put, self.put_writes = saver.put, saver.put_writes
        self.delete = saver.delete_checkpoint
        saver.put = self._put
        saver.delete_checkpoint = self._delete

    def _refuse(self) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    def _put(self, *args: Any, **kwargs: Any) -> Any:
        if not self.full and self.left == 0:
            self.full = True
        if self.full:
            self._refuse()
        self.left -= 1
        return self.put(*args, **kwargs)

    def _delete(self, *args: Any, **kwargs: Any) -> Any:
        if self.full:
            self._refuse()
        return self.delete(*args, **kwargs)

    def free(self) -> None:
        self.full, self.left = False, -1


def _said(app: Any, thread: str) -> list[str]:
    view = load_thread(app, thread)
    return [
        content_text(m)
        for _, messages in view.turns
        for m in messages
        if isinstance(m, HumanMessage)
    ]


@pytest.mark.faults
def test_a_first_message_stored_as_the_disk_fills_is_never_reported_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turn_closing, "RECHECK_S", 1.0)  # the disk stays full past the recheck
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "f.sqlite"), "CHAT_PROVIDER": "offline"}
    )
    app = open_app(settings, tools=[], approval_required=frozenset(), index=None)
    thread = new_thread(app)
    disk = FullDisk(app.persistence.saver, after_puts=1)  # the input checkpoint goes in
    first = "첫 메시지: 회의실 101호 예약"
    try:
        out = run_turn(app, thread, first, turn_count=None, compression_rate=0.3)
        reported = f"unanswered ({out.error_code})"
    except StorageError as exc:
        reported = f"not saved ({exc})"
    disk.free()
    # the user goes on: a refused message is sent again (the UI gives its text back),
    # an unanswered one stays and the next message follows it
    refused = reported.startswith("not saved")
    after = first + " (다시)" if refused else "다음 메시지"
    run_turn(app, thread, after, turn_count=None, compression_rate=0.3)
    said = _said(app, thread)
    assert not (refused and first in said), (reported, said)  # a false "not saved"
    assert said == [first, after], said  # kept as turn 1, and the next one is turn 2
    closing = load_thread(app, thread).turns[0][1][-1]
    assert closing.response_metadata.get("error_code") in ("STORAGE_ERROR", "TURN_INTERRUPTED")
    app.persistence.close()
