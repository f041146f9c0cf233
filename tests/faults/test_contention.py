"""24 processes, two conversations each, on one SQLite file at once (issue 34, row 7).

The file's disk (a tmpfs) fills up mid-run and empties again, while 48 writers contend
for its lock: some writes are refused. A message reported "not saved"
(StorageError: the UI gives the text back and the user sends it again) must truly be
absent, or it is sent twice; and every thread must stay numbered 1..n, each turn with its
own message. Run with -s to see the counts.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from graph.errors import InputError, ThreadBusy
from graph.session import load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from graph.storage.persistence import StorageError
from graph.turns import content_text
from tests.faults.test_kill_and_disk import _unmount

PROCESSES = 24
THREADS = 2
"""Conversations per process, each driven by its own OS thread (one app per process)."""
TURNS = 6
"""Messages each conversation gets answered, or kept unanswered (resends not counted)."""
TRIES = 40
"""Sends of one conversation at most (refused ones are sent again, as the UI lets a user)."""
FULL_AFTER_S = 1.5
"""When the disk fills up, after the children start (forked from a warm parent: at once)."""
FULL_FOR_S = 3.0
"""How long it stays full."""


def _app(db: Path) -> Any:
    return open_app(
        load_settings({"CHAT_DB_PATH": str(db), "CHAT_PROVIDER": "offline"}), tools=[], index=None
    )


def _converse(app: Any, thread: str, name: str, log: list[tuple[str, str, str]]) -> None:
    """Send TURNS messages to `thread`; a refused one is sent again under a new text."""
    kept = 0
    for attempt in range(TRIES):
        if kept == TURNS:
            return
        text = f"{name} 메시지 {attempt}: 회의실 {attempt}0{attempt}호 예약"
        try:
            outcome = run_turn(app, thread, text, turn_count=None, compression_rate=0.3)
        except StorageError:
            log.append((thread, text, "refused"))
            time.sleep(0.25)  # a user reads the notice before sending again
            continue
        except ThreadBusy:
            log.append((thread, text, "busy"))  # nothing saved either: sent again
            continue
        except InputError as exc:
            log.append((thread, text, f"input: {exc}"))
            continue
        kept += 1
        log.append((thread, text, outcome.error_code or "answered"))


def _process(db: Path, threads: list[str], name: str, barrier: Any, results: Any) -> None:
    app = _app(db)
    log: list[tuple[str, str, str]] = []
    barrier.wait()
    workers = [
        threading.Thread(target=_converse, args=(app, thread, f"{name}.{i}", log))
        for i, thread in enumerate(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    app.persistence.close()
    results.put(log)


def _fill(disk: Path) -> Path:
    """Take every free byte of `disk`: writes from now on fail with SQLITE_FULL."""
    filler = disk / "filler"
    try:
        with filler.open("wb") as out:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
    except OSError:  # full (on a busy machine the writers may have filled it first)
        pass
    return filler


@pytest.mark.faults
@pytest.mark.timeout(300)
@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a size-limited tmpfs needs root")
@pytest.mark.parametrize("full_after_s", [0.0, FULL_AFTER_S], ids=["full-at-once", "full-mid-run"])
def test_24_processes_on_one_file_refuse_only_what_was_not_saved(
    tmp_path: Path, full_after_s: float
) -> None:
    """The disk fills mid-run, or at once (the threads' first turns meet the full disk)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(disk)], check=True)  # noqa: S607
    try:
        _run(disk, full_after_s)
    finally:
        _unmount(disk)


def _run(disk: Path, full_after_s: float = FULL_AFTER_S) -> None:
    db = disk / "shared.sqlite"
    app = _app(db)
    threads = [[new_thread(app) for _ in range(THREADS)] for _ in range(PROCESSES)]
    warm = new_thread(app)  # the first turn loads the tokenizer: once, before the fork
    run_turn(app, warm, "준비", turn_count=1, compression_rate=0.3)
    app.persistence.close()
    ctx = multiprocessing.get_context("fork")
    # the children and this process: the disk fills once every child has opened the app
    # (under load a child started late met the full disk while opening, and left)
    barrier, results = ctx.Barrier(PROCESSES + 1), ctx.Queue()
    procs = [
        ctx.Process(target=_process, args=(db, threads[p], f"p{p}", barrier, results))
        for p in range(PROCESSES)
    ]
    started = time.monotonic()
    for proc in procs:
        proc.start()
    barrier.wait(timeout=120)
    time.sleep(full_after_s)
    filler = _fill(disk)  # the disk fills up mid-run ...
    time.sleep(FULL_FOR_S)
    filler.unlink(missing_ok=True)  # ... and space comes back: the conversations go on
    logs = [results.get(timeout=240) for _ in procs]
    for proc in procs:
        proc.join(30)
        assert proc.exitcode == 0
    elapsed = time.monotonic() - started
    entries = [entry for log in logs for entry in log]
    unexpected = [e for e in entries if e[2].startswith("input")]
    assert not unexpected, unexpected[:5]

    app = _app(db)
    false_refusals: list[tuple[str, str]] = []
    shifted: list[str] = []
    refused = 0
    for thread in (t for group in threads for t in group):
        view = load_thread(app, thread)
        said = [
            [content_text(m) for m in messages if isinstance(m, HumanMessage)]
            for _, messages in view.turns
        ]
        stored = [text for texts in said for text in texts]
        sent = [(text, what) for t, text, what in entries if t == thread]
        for text, what in sent:
            if what in ("refused", "busy"):
                refused += what == "refused"
                if text in stored:
                    false_refusals.append((thread, text))
        kept = [text for text, what in sent if what not in ("refused", "busy")]
        numbers = [n for n, _ in view.turns]
        if (
            numbers != list(range(1, len(numbers) + 1))
            or view.turn_count != len(numbers)
            or any(len(texts) != 1 for texts in said)  # an apology-only turn, or two messages
            or stored != [text for text, _ in sent if text in stored]  # in the order sent
            or not set(kept) <= set(stored)
        ):
            shifted.append(thread)
    app.persistence.close()
    outcomes: dict[str, int] = {}
    for *_, what in entries:
        outcomes[what] = outcomes.get(what, 0) + 1
    print(
        f"\n{PROCESSES} processes x {THREADS} threads in {elapsed:.0f} s: {outcomes}; "
        f"false refusals {len(false_refusals)} of {refused}; shifted threads {len(shifted)}"
    )
    assert not false_refusals, false_refusals[:5]
    assert not shifted, shifted[:5]
