"""Per-turn graph time at the start and at the end of a replay, robust to scheduler noise.

A single turn takes a few milliseconds, so one replay's median over eleven turns moves by
30% from run to run on a 2-core machine. The benchmarks replay the same transcript several
times; each turn's time is the median over the runs, and a window's time is the median of
those.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graph.replay import ReplayModel
from graph.session import new_thread, open_app, run_turn, set_thread_strategy
from graph.settings import load_settings


def turn_ms(reports: Sequence[dict[str, Any]]) -> list[float]:
    """Median graph ms of each turn across the replays of one transcript."""
    runs = [[t["graph_ms"] for t in r["per_turn"]] for r in reports]
    return [statistics.median(times) for times in zip(*runs, strict=True)]


def start_end(reports: Sequence[dict[str, Any]]) -> tuple[float, float, list[float]]:
    """Median ms at turns 10-20 and at the last 11 turns, and each run's own end/start."""
    per = turn_ms(reports)
    n = len(per)
    start = statistics.median(per[9:20])
    end = statistics.median(per[max(0, n - 11) :])
    single = []
    for report in reports:
        times = [t["graph_ms"] for t in report["per_turn"]]
        single.append(statistics.median(times[max(0, n - 11) :]) / statistics.median(times[9:20]))
    return start, end, single


def buckets(reports: Sequence[dict[str, Any]], size: int = 30) -> list[tuple[int, int, float]]:
    """Median graph ms of each `size`-turn bucket (turns 1-30, 31-60, ...), per-turn medians."""
    per = turn_ms(reports)
    return [
        (first + 1, min(first + size, len(per)), statistics.median(per[first : first + size]))
        for first in range(0, len(per), size)
    ]


def describe_buckets(reports: Sequence[dict[str, Any]], size: int = 30) -> str:
    """`buckets` on one line, with the issue's two windows (turns 10-30 and 300 to the end)."""
    per = turn_ms(reports)
    parts = [f"{a}-{b}: {ms:.1f}" for a, b, ms in buckets(reports, size)]
    line = f"graph ms/turn by {size}-turn bucket (median per turn over {len(reports)} replays): "
    line += ", ".join(parts)
    if len(per) >= 300:
        line += (
            f"; turns 10-30 = {statistics.median(per[9:30]):.1f}, "
            f"turns 300-{len(per)} = {statistics.median(per[299:]):.1f}"
        )
    return line


def describe_timing(
    reports: Sequence[dict[str, Any]], early: float, late: float, target: float = 1.5
) -> str:
    """Both timing figures of a replay benchmark; the side-by-side one against `target`."""
    n = len(reports[0]["per_turn"])
    start, end, single = start_end(reports)
    return (
        f"graph ms/turn, median per turn over {len(reports)} replays: turns 10-20 = "
        f"{start:.2f}, turns {n - 10}-{n} = {end:.2f}, end/start = {end / start:.2f}x "
        f"(single replays: {', '.join(f'{r:.2f}x' for r in single)}; a replay's start and "
        f"end are minutes apart, so the machine's drift is in this ratio)\n"
        f"graph ms/turn, a short and a long thread run alternately in one database: turns "
        f"10-20 = {early:.2f}, turns {n - 10}-{n} = {late:.2f}, end/start = "
        f"{late / early:.2f}x (target <= {target}x)"
    )


OTHER_SEED = 8
"""Seed of the transcript the short thread of `interleaved` says (bench.transcripts' is 7)."""


def interleaved(
    turns: Sequence[dict[str, str]],
    rate: float,
    db_dir: Path,
    strategy: str = "three_turn",
    runs: int = 3,
    same_messages: bool = False,
    other: Sequence[dict[str, str]] | None = None,
    **env: str,
) -> tuple[float, float]:
    """Median graph ms of turns 10-20 and of the last 11 turns, measured side by side.

    Two threads share one database: one is replayed to turn 9 and the other to the turn
    before the last window; then their turns are run alternately (10 and 290, 11 and 291,
    ...), so both windows see the same machine, cache and database state, and drift of the
    machine during a long replay cancels out. The short thread says what the long one never
    did (`other`, by default the same kind of transcript drawn with another seed): had it
    sent turns 1-20 of `turns`, which the long thread sent on its way, their analysis would
    be remembered (`graph.memory.recall`'s caches) and the early window alone would skip it.
    With `same_messages`, the late window sends the early window's messages (the same
    ones again), so what differs is only the thread's length, not what is asked. Which
    window goes first at each step is drawn (seeded), so neither is always the one that
    finds a message analyzed or a vacuum of every fourth turn running. `env` holds
    further settings.
    """
    n = len(turns)
    if other is None:
        from bench.transcripts import make_transcript

        other = make_transcript(20, seed=OTHER_SEED)["turns"]
    early, late = [], []
    for run in range(runs):
        answers = {t["user"]: t["assistant"] for t in [*turns, *other]}
        settings = load_settings(
            {"CHAT_DB_PATH": str(db_dir / f"i{run}.sqlite"), "CHAT_PROVIDER": "offline", **env}
        )
        app = open_app(
            settings,
            model=LookupModel(answers=answers),
            tools=[],
            approval_required=frozenset(),
            index=None,
        )
        try:
            a, b = new_thread(app), new_thread(app)
            for thread in (a, b):
                set_thread_strategy(app, thread, strategy)
            for number in range(1, 10):
                _turn(app, a, other, number)
            for number in range(1, n - 10):
                _turn(app, b, turns, number)
            # the late window's messages: its own, or those of the early window
            said = [*turns[: n - 11], *other[9:20]] if same_messages else list(turns)
            order = random.Random(run)
            for step in range(11):
                pair = [(early, a, other, 10 + step), (late, b, said, n - 10 + step)]
                # which goes first is drawn: the second finds the same message analyzed,
                # and work done every few turns (PostgreSQL's vacuum) falls on either
                order.shuffle(pair)
                for times, thread, messages, number in pair:
                    times.append(_turn(app, thread, messages, number))
        finally:
            app.persistence.close()
    return statistics.median(early), statistics.median(late)


def _turn(
    app: Any, thread: str, turns: Sequence[dict[str, str]], number: int, message: int = 0
) -> float:
    """Run turn `number` of `thread` with the user message of transcript turn `message`."""
    start = time.perf_counter()
    text = turns[(message or number) - 1]["user"]
    run_turn(app, thread, text, turn_count=number, compression_rate=0.3)
    return (time.perf_counter() - start) * 1000


class LookupModel(ReplayModel):
    """Answers with the transcript's reply to the last user message (threads interleave)."""

    answers_by_user: dict[str, str] = {}

    def __init__(self, answers: dict[str, str]) -> None:
        super().__init__(answers_by_user=answers)

    def _generate(
        self, messages: list[Any], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        from langchain_core.messages import AIMessage, HumanMessage
        from langchain_core.outputs import ChatGeneration, ChatResult

        last = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
        text = self.answers_by_user.get(str(last.content) if last else "", "")
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])
