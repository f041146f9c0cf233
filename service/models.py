"""Request and response bodies of the API (pydantic: a malformed body is a 422 that says why).

A message's length is not limited here but by the chat's own limit, so that a message
that is too long gets a 413 naming the limit, the same limit the app applies.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graph.approval import Answer, decision
from graph.settings import MAX_COMPRESSION_RATE, MIN_COMPRESSION_RATE

Strategy = Literal["three_turn", "sliding_window", "recursive"]
Rate = Field(default=None, ge=MIN_COMPRESSION_RATE, le=MAX_COMPRESSION_RATE)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JobRequest(_Body):
    """`POST /chat/jobs`: a message for a new or existing thread."""

    message: str
    thread_id: str | None = None
    compression_rate: float | None = Rate
    strategy: Strategy | None = None


class JobCreated(BaseModel):
    """What a client needs to follow a job."""

    job_id: str
    trace_id: str
    thread_id: str


class JobState(BaseModel):
    """`GET /chat/status/{job_id}`."""

    job_id: str
    thread_id: str
    status: Literal["queued", "running", "waiting_human", "done", "failed", "cancelled"]
    turn: int | None = None
    error_code: str | None = None


class ChatRequest(_Body):
    """`POST /chat` (seed 004): a message, answered in the response."""

    message: str
    thread_id: str | None = None
    compression_rate: float | None = Rate
    strategy: Strategy | None = None


class ChatAnswer(BaseModel):
    """The answer of `POST /chat` and of a resume."""

    thread_id: str
    job_id: str
    turn: int | None
    answer: str
    error_code: str | None = None
    summarized: bool = False
    context_chars: int = 0


class Decision(_Body):
    """`POST /api/sessions/{thread_id}/resume` and the WebSocket's `human_response`.

    Seed 004: `{"approve": true}` runs the waiting call, `{"approve": false}` rejects it and
    ends the task (`APPROVAL_REJECTED`), `{"response": "free text"}` hands the text to the
    waiting call or step as the user's answer (the call is not run). Edited arguments as
    before: `{"response": {...}}`, or the app's `{"action": "edit", "args": {...}}`
    (`action` is also approve, reject or respond with `response`). `tool_call_id`, when
    given, must name the call that waits. The rules are the application API's
    (`graph.approval.decision`).
    """

    approve: bool | None = None
    response: str | dict[str, Any] | None = None
    action: Literal["approve", "reject", "edit", "respond"] | None = None
    args: dict[str, Any] | None = None
    tool_call_id: str | None = None

    @model_validator(mode="after")
    def _one_decision(self) -> Decision:
        self.answer()  # InputError is a ValueError: a 422 that says what is wrong
        return self

    def answer(self) -> Answer:
        """The decision as the application API takes it."""
        return decision(
            approve=self.approve, response=self.response, action=self.action, args=self.args
        )


class SessionPatch(_Body):
    """`PATCH /api/sessions/{thread_id}`: settings that apply from the next turn."""

    compression_rate: float | None = Rate
    strategy: Strategy | None = None
    title: str | None = Field(default=None, min_length=1, max_length=100)


class ForkRequest(_Body):
    """`POST /api/sessions/{thread_id}/fork`: a new thread from one of its kept checkpoints."""

    checkpoint_id: str = Field(min_length=1, max_length=100)
    compression_rate: float | None = Rate
    title: str | None = Field(default=None, min_length=1, max_length=100)


class RedoRequest(_Body):
    """`POST /api/sessions/{thread_id}/regenerate`: the last message sent again.

    With `message`, that text in its place (edit and resend). It is answered as a new
    version of the last turn, in the same thread; the earlier versions stay.
    """

    message: str | None = None
    turn: int | None = Field(default=None, ge=1)
    """The turn meant; refused (422) when the conversation has gone on since."""


class VersionRequest(_Body):
    """`POST /api/sessions/{thread_id}/turns/{turn}/versions`: a new version of any turn.

    Without `message` the turn's message is sent again (regenerate), with it that text in
    its place (edit and resend); the new version's continuation starts empty.
    """

    message: str | None = None


class TurnVersionsOut(BaseModel):
    """A turn's versions: the one shown (from 1) and how many there are."""

    turn: int
    shown: int
    count: int


class Forked(BaseModel):
    """The new thread; `resumable` when the checkpoint was inside a turn (a retry goes on)."""

    thread_id: str
    forked_from: dict[str, Any]
    resumable: bool


class Session(BaseModel):
    """A thread as the API shows it (seed 004's session state plus the panel's figures)."""

    thread_id: str
    title: str
    status: Literal["waiting_human", "in_progress", "completed", "idle"]
    turn_count: int
    compression_rate: float
    strategy: str
    summary_history: list[dict[str, Any]] = []
    statistics: dict[str, Any] = {}
    pending: dict[str, Any] | None = None
    """The call or step waiting for approval: category, tool, args, tool_call_id."""
    is_waiting_human: bool = False
    """Seed 004: true while an approval waits (`pending` is set), false otherwise."""
    forked_from: dict[str, Any] = {}
    versions: list[TurnVersionsOut] = []
    """The turns of the line shown that have more than one version."""
    """For a fork: the thread, checkpoint and turn it was taken from."""


class CheckpointList(BaseModel):
    """`GET /api/sessions/{thread_id}/checkpoints`: one page, newest first (seed 004).

    `next_cursor`, passed as `?before=`, gives the next (older) page; None on the last.
    """

    thread_id: str
    checkpoints: list[dict[str, Any]]
    next_cursor: str | None = None


class Problem(BaseModel):
    """Every refusal: a stable code and a sentence for people."""

    code: str
    message: str
