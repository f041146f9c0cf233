"""Request and response bodies of the API (pydantic: a malformed body is a 422 that says why).

A message's length is not limited here but by the chat's own limit, so that a message
that is too long gets a 413 naming the limit, the same limit the app applies.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from graph.approval import Answer, decision
from graph.settings import MAX_COMPRESSION_RATE, MIN_COMPRESSION_RATE
from service.users import USER_ID

Strategy = Literal["three_turn", "sliding_window", "recursive"]
Rate = Field(default=None, ge=MIN_COMPRESSION_RATE, le=MAX_COMPRESSION_RATE)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


MAX_HISTORY_TURNS = 100
"""Most earlier turns (user and assistant message pairs) a job's `history` may carry."""
MAX_METADATA_BYTES = 4096
"""Largest `metadata` object a job may carry, as compact JSON (it is read with every status)."""
MAX_METADATA_KEYS = 32


class HistoryItem(_Body):
    """One message of a job's `history`: who said it and what."""

    role: Literal["user", "assistant"]
    content: str = Field(min_length=1)

    @field_validator("content")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a history message must have text")
        return value


JOB_EXAMPLES: dict[str, dict[str, Any]] = {
    "message": {
        "summary": "A message (a new thread)",
        "value": {"message": "연차는 며칠이에요?"},
    },
    "thread": {
        "summary": "The next message of a thread",
        "value": {"message": "신청은 어디서 해요?", "thread_id": "session_0123abcd"},
    },
    "history": {
        "summary": "A new thread that starts with earlier turns",
        "description": "`history` is user and assistant messages in pairs, oldest first: it "
        "ends with an answer, and `message` is the turn after it.",
        "value": {
            "message": "그럼 신청은 어디서 해요?",
            "history": [
                {"role": "user", "content": "재택근무는 주 몇 회 가능해요?"},
                {"role": "assistant", "content": "주 2일까지 할 수 있습니다."},
            ],
            "turn_count": 2,
        },
    },
}
"""The bodies the docs (Swagger UI, ReDoc) show for `POST /chat/jobs`; each is accepted
(a body made from the schema's first choices is not: its `history` ends with a question)."""


class JobRequest(_Body):
    """`POST /chat/jobs`: a message for a new or existing thread (seed 001's job payload).

    The seed's queue payload is `job_id, trace_id, thread_id, query, history, turn_count,
    user_id` and an optional `metadata`; the service makes the two ids, and the client
    sends the rest:

    - `message` (or `query`, the seed's name; exactly one of them): the user's message.
    - `thread_id`: the conversation; none (or an unknown id) starts a new one.
    - `history`: earlier turns as `[{"role": "user"|"assistant", "content": ...}]`, in
      pairs, oldest first. The service keeps each thread's history itself (summaries,
      archive, recall), so a client never has to send it: `history` is taken only to
      *start* a thread, whose first turns it becomes (as an import would write them),
      before `message` is answered as the turn after them. For a thread that has turns
      already it is refused (409 HISTORY_CONFLICT) rather than merged or silently
      ignored: two versions of one conversation would otherwise disagree without anyone
      noticing.
    - `turn_count`: the number the client gives this turn (1 for a new thread, or the
      number of `history` turns + 1), a JSON integer (`true`, `1.0` and `"1"` are 422).
      Optional; when given it is checked (409
      TURN_OUT_OF_ORDER when the thread is elsewhere), so a client that counted wrong
      learns it instead of writing out of order.
    - `user_id`: who asks. With user tokens the token decides and a different `user_id`
      is 403 USER_MISMATCH; without them it is recorded on the job as given.
    - `metadata`: any JSON object of the client's (at most 32 keys and 4096 bytes),
      carried with the job and shown by `GET /chat/status/{job_id}`; it never reaches
      the model.
    """

    message: str | None = None
    query: str | None = None
    thread_id: str | None = None
    compression_rate: float | None = Rate
    strategy: Strategy | None = None
    history: list[HistoryItem] | None = None
    turn_count: int | None = Field(default=None, ge=1, strict=True)
    user_id: str | None = None
    metadata: dict[str, Any] | None = None

    @field_validator("user_id")
    @classmethod
    def _user_id(cls, value: str | None) -> str | None:
        if value is not None and not USER_ID.match(value):
            raise ValueError(
                f"{value!r} is not a user id: 1-64 letters, digits, '_', '.', '@' or '-', "
                "starting with a letter or digit"
            )
        return value

    @field_validator("metadata")
    @classmethod
    def _metadata(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is None:
            return None
        if len(value) > MAX_METADATA_KEYS:
            raise ValueError(f"metadata has {len(value)} keys; at most {MAX_METADATA_KEYS}")
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        if size > MAX_METADATA_BYTES:
            raise ValueError(f"metadata is {size} bytes as JSON; at most {MAX_METADATA_BYTES}")
        return value

    @field_validator("history")
    @classmethod
    def _history(cls, value: list[HistoryItem] | None) -> list[HistoryItem] | None:
        if not value:
            return value
        for i, item in enumerate(value):
            wanted = "user" if i % 2 == 0 else "assistant"
            if item.role != wanted:
                raise ValueError(
                    f"history[{i}] is from {item.role!r} but {wanted!r} was expected: history "
                    "is user and assistant messages in turns, oldest first"
                )
        if len(value) % 2:
            raise ValueError(
                "history ends with a user message that has no answer; send it as `message` instead"
            )
        if len(value) // 2 > MAX_HISTORY_TURNS:
            raise ValueError(
                f"history has {len(value) // 2} turns; at most {MAX_HISTORY_TURNS} are taken"
            )
        return value

    @model_validator(mode="after")
    def _one_message(self) -> JobRequest:
        if (self.message is None) == (self.query is None):
            raise ValueError('give exactly one of "message" or "query" (the same field)')
        turns = len(self.history or []) // 2
        if self.history and self.turn_count is not None and self.turn_count != turns + 1:
            raise ValueError(
                f"turn_count is {self.turn_count}, but after {turns} history turns this "
                f"message is turn {turns + 1}"
            )
        return self

    @property
    def text(self) -> str:
        """The user's message (`message` or `query`)."""
        return self.message if self.message is not None else self.query or ""

    def history_dicts(self) -> list[dict[str, str]] | None:
        """`history` as plain objects (None or empty: none)."""
        return [item.model_dump() for item in self.history] if self.history else None


class JobCreated(BaseModel):
    """What a client needs to follow a job."""

    job_id: str
    trace_id: str
    thread_id: str


class Progress(BaseModel):
    """How far a job is: steps done of the steps expected (`graph.session.events.progress`)."""

    done: int
    expected: int
    ratio: float
    current: str | None = None
    """The node or plan step running now (None between steps)."""
    plan_steps: int | None = None
    """The number of steps of the turn's plan, when a `plan` event said so."""


class JobState(BaseModel):
    """`GET /chat/status/{job_id}`."""

    job_id: str
    thread_id: str
    status: Literal["queued", "running", "waiting_human", "done", "failed", "cancelled"]
    turn: int | None = None
    error_code: str | None = None
    progress: Progress | None = None
    user_id: str | None = None
    turn_count: int | None = None
    """The turn number the job was sent with (None: the thread's next)."""
    metadata: dict[str, Any] | None = None
    """The client's `metadata`, as sent."""


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


class SessionStateResponse(BaseModel):
    """A thread as the API shows it: seed 004's session state, plus the panel's figures."""

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


class CheckpointListResponse(BaseModel):
    """`GET /api/sessions/{thread_id}/checkpoints`: one page, newest first (seed 004).

    `next_cursor`, passed as `?before=`, gives the next (older) page; None on the last.
    """

    thread_id: str
    checkpoints: list[dict[str, Any]]
    next_cursor: str | None = None


class ResumeResponse(ChatAnswer):
    """`POST /api/sessions/{thread_id}/resume`: the answer once the decision ran (seed 004).

    The fields of `POST /chat`'s answer.
    """


class Problem(BaseModel):
    """Every refusal: a stable code and a sentence for people."""

    code: str
    message: str
