"""One writer per thread across processes: of two processes sending to one thread at once,
one runs and the other is told the thread is busy; nothing is lost or duplicated."""

from __future__ import annotations

import multiprocessing
import time
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from graph.errors import InputError, ThreadBusy
from graph.session import load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from graph.storage.leases import acquire, release
from tests.conftest import Store

ROUNDS = 20


class SlowModel(BaseChatModel):
    """Answers after a pause, so that two turns started together overlap."""

    @property
    def _llm_type(self) -> str:
        return "slow"

    def bind_tools(self, tools: Any, **kwargs: Any) -> SlowModel:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        time.sleep(0.15)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="ok"))])


def _app(where: dict[str, str]):
    settings = load_settings({**where, "CHAT_PROVIDER": "offline"})
    return open_app(settings, model=SlowModel(), tools=[], index=None)


def _writer(db: dict[str, str], thread: str, name: str, barrier: Any, results: Any) -> None:
    app = _app(db)
    for round_ in range(ROUNDS):
        barrier.wait()
        turn = load_thread(app, thread, recent_turns=1).turn_count + 1
        try:
            run_turn(app, thread, f"{name} round {round_}", turn_count=turn, compression_rate=0.3)
            results.put((round_, name, "ok"))
        except ThreadBusy:
            results.put((round_, name, "busy"))
        except InputError as exc:  # the other finished first: the turn number moved on
            results.put((round_, name, "out of order" if "out of order" in str(exc) else str(exc)))
    app.persistence.close()


def test_two_processes_on_one_thread_one_runs_the_other_is_busy(store: Store) -> None:
    db = store("shared")
    app = _app(db)
    thread = new_thread(app)
    app.persistence.close()
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    workers = [
        ctx.Process(target=_writer, args=(db, thread, name, barrier, results))
        for name in ("A", "B")
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    outcomes = [results.get(timeout=5) for _ in range(2 * ROUNDS)]
    ok = [(r, n) for r, n, what in outcomes if what == "ok"]
    busy = sum(1 for *_, what in outcomes if what == "busy")
    assert all(what in ("ok", "busy", "out of order") for *_, what in outcomes), outcomes
    assert len({r for r, _ in ok}) == ROUNDS  # every round got its turn
    assert len(ok) == ROUNDS  # and only one: no round ran twice
    assert busy >= ROUNDS // 2, f"the turns did not overlap ({busy} busy)"
    app = _app(db)
    view = load_thread(app, thread)
    said = [m.content for _, t in view.turns for m in t if isinstance(m, HumanMessage)]
    assert said == [f"{n} round {r}" for r, n in sorted(ok)]  # every answered turn is stored
    assert view.turn_count == ROUNDS
    app.persistence.close()
    print(f"{ROUNDS} rounds: {busy} busy, {2 * ROUNDS - len(ok) - busy} out of order")


def test_a_lease_expires_and_can_be_renewed(store: Store) -> None:
    app = _app(store("l"))
    archive = app.persistence.archive
    assert acquire(archive, "t", "one", lease_s=0.2)
    assert not acquire(archive, "t", "two")  # held
    assert acquire(archive, "t", "one", lease_s=0.2)  # the holder renews
    time.sleep(0.3)
    assert acquire(archive, "t", "two")  # expired: a crashed holder blocks only so long
    release(archive, "t", "one")  # not the holder: nothing happens
    assert not acquire(archive, "t", "one")
    release(archive, "t", "two")
    assert acquire(archive, "t", "one")
    app.persistence.close()


def test_a_lease_whose_release_was_refused_does_not_block_this_process(store: Store) -> None:
    """A turn that ended while its release failed (a full disk) left its row behind: the
    next turn of the same process takes the thread, another live writer still cannot."""
    from graph.storage import leases

    app = _app(store("stale"))
    archive = app.persistence.archive
    original = leases.release
    try:
        leases.release = lambda *args: None  # the DELETE is refused
        with leases.writer_lease(archive, "t"):
            pass
    finally:
        leases.release = original
    assert archive.execute("SELECT count(*) FROM thread_leases")[0][0] == 1
    with leases.writer_lease(archive, "t") as owner:  # the stale row is taken over
        assert not acquire(archive, "t", leases.new_owner())  # a held lease is respected
    assert owner
    app.persistence.close()
