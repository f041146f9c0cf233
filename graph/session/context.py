"""What a turn reads of its thread once and hands down, and how it ended, handed back.

`TurnContext` goes down the turn's path (`runner` -> `start` or `resume` -> `streaming`
-> `closing` -> `settle`), so no module below reads the thread's config, its record, its
settings or its starting state again; `TurnOutcome` comes back up. Here too: a thread's
run configuration (`config_for`) and the settings its record holds, or the configured
defaults (`thread_strategy`, `thread_budget`, `thread_recall`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from langchain_core.runnables import RunnableConfig
from langgraph.types import StateSnapshot

from graph.approval import approval_in
from graph.memory import STRATEGIES
from graph.settings import Settings


def config_for(thread_id: str, settings: Settings) -> RunnableConfig:
    """The run configuration of a thread: its id and the recursion limit of a turn.

    Under the supervisor each of a plan's steps may take as many tool rounds as a turn.
    """
    from graph.supervisor import MAX_STEPS

    steps = MAX_STEPS if settings.supervised else 1
    return {
        "configurable": {"thread_id": thread_id},
        "recursion_limit": steps * (4 * settings.tool_round_limit + 10),
    }


class HasSettings(Protocol):
    """What is read here of the app (`graph.session.app.ChatApp`, or a context): settings."""

    @property
    def settings(self) -> Settings:
        """The app's settings."""
        ...


def thread_budget(app: HasSettings, record: Mapping[str, Any]) -> int:
    """The thread's summary budget, or the configured default."""
    value = record.get("budget")
    return int(value) if isinstance(value, int) else app.settings.summary_budget


def thread_recall(app: HasSettings, record: Mapping[str, Any]) -> bool:
    """Whether the thread recalls earlier turns, or the configured default."""
    value = record.get("recall")
    return value if isinstance(value, bool) else app.settings.recall_enabled


def thread_strategy(app: HasSettings, record: Mapping[str, Any]) -> str:
    """The strategy a thread record names, or the configured default."""
    name = str(record.get("strategy") or "")
    return name if name in STRATEGIES else app.settings.default_strategy


@dataclass(frozen=True)
class TurnContext:
    """A turn's thread, its run configuration and the state it starts from, read once.

    `run_request` (behind `start_turn`) makes it with `turn_context`; `run_turn` and the
    other turn functions add the thread's record and state, read under the writer lease
    (`started`), and pass it down, so no helper calls `config_for`, `require_thread`,
    `thread_values` or the graph's `get_state` again for what it holds, and the thread's
    settings (`strategy`, `budget`, `recall`) come from it. A state read after the graph
    has written (the answer, the `turn` event's metadata) is a new read, with this config.
    """

    thread_id: str
    config: RunnableConfig
    """The thread's run configuration (`config_for`); a helper that adds to it takes
    `run_config()`, a copy, so this one stays as it was built."""
    settings: Settings
    """The app's settings (the turn deadline, the checkpoints kept, the defaults)."""
    record: Mapping[str, Any] = field(default_factory=dict)
    """The thread's record as the turn started: title and per-thread settings."""
    snapshot: StateSnapshot | None = None
    """The thread's state as the turn started, under the writer lease (None before)."""

    @property
    def strategy(self) -> str:
        """The thread's memory strategy (`thread_strategy` of the record)."""
        return thread_strategy(self, self.record)

    @property
    def budget(self) -> int:
        """The thread's summary budget (`thread_budget` of the record)."""
        return thread_budget(self, self.record)

    @property
    def recall(self) -> bool:
        """Whether the thread recalls earlier turns (`thread_recall` of the record)."""
        return thread_recall(self, self.record)

    @property
    def approval(self) -> dict[str, Any] | None:
        """The approval the thread waits for as the turn started (None: none, or not read)."""
        return approval_in(self.snapshot.interrupts) if self.snapshot is not None else None

    @property
    def values(self) -> dict[str, Any]:
        """The state values the turn started from ({} before they are read, or none)."""
        return dict(self.snapshot.values or {}) if self.snapshot is not None else {}

    def run_config(self) -> RunnableConfig:
        """A copy of the config whose `configurable` a caller may add to."""
        return {**self.config, "configurable": dict(self.config.get("configurable") or {})}

    def started(
        self, *, record: Mapping[str, Any] | None = None, snapshot: StateSnapshot | None = None
    ) -> TurnContext:
        """This context with the record and state the turn starts from."""
        return replace(
            self,
            record=dict(record) if record is not None else self.record,
            snapshot=snapshot if snapshot is not None else self.snapshot,
        )


def turn_context(app: HasSettings, thread_id: str) -> TurnContext:
    """A turn's context before anything is read: the thread id, its config, the settings."""
    return TurnContext(thread_id, config_for(thread_id, app.settings), app.settings)


@dataclass
class TurnOutcome:
    """How a turn ended."""

    answer: str = ""
    """Final assistant text ('' while paused)."""
    error_code: str | None = None
    """Set when the turn ended in the fallback answer."""
    pending: dict[str, Any] | None = None
    """Set when the graph paused for approval: category, tool, args, tool_call_id."""
    refused: str | None = None
    """Set when nothing was saved (an empty or out-of-order message, a busy thread, a
    refused write): why, for the user, whose text goes back to the input."""
    cut_off: str | None = None
    """Set when the answer was kept although cut (LLM_TRUNCATED, LLM_TIMEOUT): Continue."""
