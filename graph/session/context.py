"""What one turn reads of its thread once, and hands down to the helpers that run it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import StateSnapshot

from graph.session.app import ChatApp, config_for
from graph.settings import Settings


@dataclass(frozen=True)
class TurnContext:
    """A turn's thread, its run configuration and the state it starts from, read once.

    `run_request` (behind `start_turn`) makes it with `turn_context`; `run_turn` and the
    other turn functions add the thread's record and state, read under the writer lease
    (`started`), and pass it down, so no helper calls `config_for`, `thread_values` or the
    graph's `get_state` again for what it holds. A state read after the graph has written
    (the answer, the `turn` event's metadata) is a new read, with this config.
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


def turn_context(app: ChatApp, thread_id: str) -> TurnContext:
    """A turn's context before anything is read: the thread id, its config, the settings."""
    return TurnContext(thread_id, config_for(thread_id, app.settings), app.settings)
