"""Error codes of the fallback path (seed 001 asks for an Enum)."""

from __future__ import annotations

import sqlite3
from enum import StrEnum


class ErrorCode(StrEnum):
    """Why a turn ended in the fallback answer; stored in state and shown in the chat."""

    LLM_TIMEOUT = "LLM_TIMEOUT"
    """The model did not answer in time."""
    LLM_RATE_LIMIT = "LLM_RATE_LIMIT"
    """The model server answered HTTP 429."""
    LLM_SERVER_ERROR = "LLM_SERVER_ERROR"
    """The model server answered HTTP 5xx or could not be reached."""
    LLM_AUTH = "LLM_AUTH"
    """The key was refused (HTTP 401/403)."""
    LLM_BAD_RESPONSE = "LLM_BAD_RESPONSE"
    """The model answered something unusable, e.g. a malformed tool call."""
    LLM_TRUNCATED = "LLM_TRUNCATED"
    """The model stopped at its length limit (finish_reason=length): the answer or the tool
    arguments are cut off, so nothing of it is used and no tool runs."""
    LLM_INCOMPLETE = "LLM_INCOMPLETE"
    """The stream ended without a finish_reason (or with no choices): the answer may be cut."""
    LLM_EMPTY = "LLM_EMPTY"
    """The model finished with neither text nor a tool call."""
    LLM_FILTERED = "LLM_FILTERED"
    """The provider withheld the answer (finish_reason=content_filter)."""
    STORAGE_ERROR = "STORAGE_ERROR"
    """The message was saved but the answer could not be: the turn stays, unanswered."""
    STORAGE_CORRUPT = "STORAGE_CORRUPT"
    """A stored value is damaged (its checksum does not match, or it cannot be decoded)."""
    TURN_INTERRUPTED = "TURN_INTERRUPTED"
    """The turn never finished (a crash or a kill mid-turn); closed when the thread was next used."""
    CANCELLED = "CANCELLED"
    """The user (or a client of the service) stopped the turn; the message is kept."""
    INPUT_REJECTED = "INPUT_REJECTED"
    """The message or request was refused before anything was written (empty, too long,
    out of order, waiting for an approval); nothing changed."""
    NOTHING_PENDING = "NOTHING_PENDING"
    """A decision came for a thread with no call waiting (another decision took it first,
    or none was asked); nothing ran and nothing changed."""
    APPROVAL_REJECTED = "APPROVAL_REJECTED"
    """The user rejected a call (or a step) that waited for approval: it was not run and
    the task ended there (seed 004); the conversation before it stays as it was."""
    SAFEGUARD_BLOCKED = "SAFEGUARD_BLOCKED"
    """The safeguard blocked the message (HARMFUL); it was never sent to a model."""
    SAFEGUARD_PII_MASKED = "SAFEGUARD_PII_MASKED"
    """The safeguard found personal data (PII): the turn is answered, and each value is
    masked before any text leaves the machine for a model provider."""
    SAFEGUARD_INJECTION_WARNED = "SAFEGUARD_INJECTION_WARNED"
    """The safeguard labelled the message a prompt injection: the turn is answered with a
    warning, and tools that send text out of the machine need approval this turn."""
    THREAD_BUSY = "THREAD_BUSY"
    """Another process is running a turn of the same thread; nothing was written."""
    TOOL_LOOP_LIMIT = "TOOL_LOOP_LIMIT"
    """The model kept calling tools past the per-turn limit."""
    SUMMARY_FAILED = "SUMMARY_FAILED"
    """A summary could not be made; it is retried at the next turn."""
    RECALL_FAILED = "RECALL_FAILED"
    """Earlier turns could not be searched; the turn goes on without them."""
    UNKNOWN = "UNKNOWN"
    """Anything else."""


class InputError(ValueError):
    """A user input that is refused with a clear message (nothing is changed)."""


def error_record(
    turn: int, node: str, code: ErrorCode, exc: BaseException | str
) -> dict[str, object]:
    """One entry of the state's `errors` list: turn, node, code and a short message."""
    return {"turn": turn, "node": node, "code": code.value, "message": str(exc)[:500]}


class NothingPending(InputError):
    """A decision for a thread where no call waits for approval (the service: 409)."""

    code = ErrorCode.NOTHING_PENDING


class MessageTooLong(InputError):
    """A message past the configured limit (the service answers it with 413)."""


class CheckpointNotFound(InputError):
    """A checkpoint that is not (or no longer) kept for the thread (the service: 404)."""


class TurnCancelled(Exception):
    """Raised inside a turn's stream when its job was cancelled."""


class ThreadBusy(InputError):
    """Another turn of the thread is running (maybe in another process); try again shortly."""

    code = ErrorCode.THREAD_BUSY


class StorageCorrupt(sqlite3.DatabaseError):
    """A stored value is damaged: its checksum does not match, or it does not decode.

    Raised where the value is read, naming it, instead of a zlib, zstd or deserializer
    error. A `sqlite3.DatabaseError` (what SQLite itself raises for a damaged page), so
    every caller that already handles a failing database (`DB_ERRORS`, on either engine)
    handles it: housekeeping after a turn logs it, recall goes on without it.
    """

    code = ErrorCode.STORAGE_CORRUPT
