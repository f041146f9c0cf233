"""The HTTP service: seed 001's job API and seed 004's REST and WebSocket API.

A thin adapter: every endpoint calls the application API of `graph.session` or the job
broker, and every stream forwards the turn runner's events (seed 001's `token`,
`metadata`, `error`, `done`). Refusals are JSON `{"code": ..., "message": ...}` with the
status that says what went wrong (401, 404, 409, 413, 422, 429, 503).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Body, Depends, FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi_offline import FastAPIOffline
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from graph.errors import CheckpointNotFound, ErrorCode, InputError, MessageTooLong, ThreadBusy
from graph.memory.stats import summary_stats
from graph.session import (
    ChatApp,
    Event,
    Redo,
    TurnRequest,
    check_message,
    checkpoint_page,
    delete_thread,
    ensure_thread,
    export_thread,
    fork_thread,
    load_thread,
    new_version,
    open_app,
    pending_approval,
    redo_last_turn,
    rename_thread,
    sent_now,
    set_thread_rate,
    set_thread_strategy,
    switch_version,
    thread_exists,
    threads,
    unsent_version,
)
from graph.session.app import require_thread, thread_values
from graph.session.events import metadata_schema, progress
from graph.session.history import CHECKPOINT_PAGE
from graph.session.resume import ApprovalMismatch, check_decision
from graph.settings import Settings, load_settings
from graph.storage.persistence import StorageError
from graph.text import check_thread_id
from graph.turns import cut_off
from service import errors
from service.errors import Refusal
from service.frames import receive_object, refuse
from service.jobs import FINISHED, Broker, Job, LocalBroker
from service.limits import BodyLimit, StreamSlots, client_key, past_end
from service.models import (
    JOB_EXAMPLES,
    ChatAnswer,
    ChatRequest,
    CheckpointListResponse,
    Decision,
    Forked,
    ForkRequest,
    JobCreated,
    JobRequest,
    JobState,
    Progress,
    RedoRequest,
    ResumeResponse,
    SessionPatch,
    SessionStateResponse,
    TurnVersionsOut,
    VersionRequest,
)
from service.security import add_same_origin
from service.settings import ServiceSettings, load_service_settings
from service.users import (
    Tokens,
    Unauthorized,
    caller,
    job_owner,
    may_use,
    owns,
    set_caller,
    thread_owner,
    visible,
)
from service.worker import EmbeddedWorkers

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
"""A comment line on a quiet stream this often, so proxies keep it open."""


@dataclass
class Service:
    """What the endpoints share: the chat application, the broker and the limits."""

    settings: ServiceSettings
    chat: ChatApp
    broker: Broker
    streams: StreamSlots = field(init=False)
    known: set[str] = field(default_factory=set)
    """Threads this process has seen exist (a new job on one skips the database)."""

    def __post_init__(self) -> None:
        """The stream slots, sized by the settings."""
        self.streams = StreamSlots(self.settings.stream_limit, self.settings.client_stream_limit)

    def take_stream(self, client: str) -> None:
        """Count a stream of `client`; 429 past MAX_OPEN_STREAMS or MAX_STREAMS_PER_CLIENT."""
        self.streams.take(client)

    def give_stream(self, client: str) -> None:
        """A stream of `client` ended."""
        self.streams.give(client)


class _CountedStream(StreamingResponse):
    """An event stream that gives its slot back however it ends, even if never read."""

    def __init__(self, body: AsyncIterator[str], release: Callable[[], None]) -> None:
        super().__init__(
            body,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Send the stream; the slot is given back when it ends, whatever ends it."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


def create_app(
    settings: ServiceSettings | None = None, chat_settings: Settings | None = None
) -> FastAPI:
    """The FastAPI application; the chat app and workers start with it and stop with it."""
    config = settings or load_service_settings()
    holder: dict[str, Service] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        chat_config = chat_settings or load_settings()
        chat = await run_in_threadpool(open_app, chat_config)
        broker: Broker
        workers = None
        sweeper: asyncio.Task[None] | None = None
        if config.redis_url:
            from service.redis_broker import RedisBroker

            broker = RedisBroker(config.redis_url, ttl_s=float(config.event_ttl_s))
            every = float(config.short_term_sweep_s or 0)
            if every > 0 and chat_config.short_term_redis_url.strip():
                from service.short_term_sweep import schedule

                sweeper = asyncio.create_task(
                    schedule(chat_config, chat.persistence.archive, every)
                )
        else:
            broker = LocalBroker(ttl_s=float(config.event_ttl_s))
            workers = EmbeddedWorkers(chat, broker, config.worker_count(chat_config))
            workers.start()
        holder["service"] = Service(config, chat, broker)
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
            if workers is not None:
                workers.stop()
            await broker.aclose()
            broker.close()

    def service() -> Service:
        return holder["service"]

    tokens = Tokens.from_settings(config)
    users_on = tokens.users_on
    query_token = config.query_token_allowed
    if query_token:
        log.warning(
            "WS_QUERY_TOKEN=allow: WebSocket tokens are taken from the URL too, and URLs "
            "end up in proxy and access logs; prefer the Authorization header or the "
            "subprotocol pair 'bearer, <token>'"
        )

    async def authorized(authorization: str = Header(default="")) -> None:
        # async: the caller it records is seen by the endpoint (a sync one in the pool too)
        _check_token(tokens, authorization)

    # fastapi-offline serves Swagger UI and ReDoc from its own files (FastAPI's default
    # pages load them from a CDN, which a machine with no internet cannot reach)
    api = FastAPIOffline(
        title="Context chat service",
        description=(
            "The chat that summarizes itself as it grows, without a browser: jobs with an SSE "
            "event stream (seed 001), sessions, approvals and a WebSocket (seed 004)."
        ),
        version="1.0",
        lifespan=lifespan,
        redoc_url=None,  # its own page below: the installed ReDoc fetches a logo from a CDN
    )
    _add_redoc(api)
    _add_guards(api, config)
    add_same_origin(api, config)
    guarded = [Depends(authorized)]

    # ---- seed 001: jobs and their event stream
    @api.post("/chat/jobs", status_code=202, response_model=JobCreated, dependencies=guarded)
    async def create_job(
        body: Annotated[JobRequest, Body(openapi_examples=JOB_EXAMPLES)],
    ) -> JobCreated:
        """Queue a message (seed 001's payload fields; see `JobRequest`)."""
        svc = service()
        fields = _JobFields.of(body)
        args = (svc, body.text, body.thread_id, body.compression_rate, body.strategy, fields)
        fast = body.thread_id in svc.known and isinstance(svc.broker, LocalBroker)
        if fast and not users_on and fields.plain:
            job = _submit(*args)  # no I/O on this path: no thread hop
        else:
            job = await run_in_threadpool(_submit, *args)
        return _created(job)

    @api.get("/chat/stream/{job_id}", dependencies=guarded)
    async def stream(
        job_id: str,
        request: Request,
        last_event_id: str = Header(default=""),
    ) -> Response:
        svc = service()
        await run_in_threadpool(_job_or_404, svc, job_id)
        after = _seq(last_event_id or request.query_params.get("last_event_id", "0"))
        if await run_in_threadpool(past_end, svc.broker, job_id, after):
            # nothing can follow; 204 also tells a browser's EventSource not to reconnect
            return Response(status_code=204)
        client = client_key(request)
        svc.take_stream(client)

        async def body() -> AsyncIterator[str]:
            async for batch in _batches(svc, job_id, after):
                # what has come since the last write goes out in one write
                text = "".join(
                    f"id: {e['seq']}\ndata: {json.dumps(e, ensure_ascii=False)}\n\n" for e in batch
                )
                yield text or ": keepalive\n\n"

        return _CountedStream(body(), lambda: svc.give_stream(client))

    @api.get("/chat/status/{job_id}", response_model=JobState, dependencies=guarded)
    def status(job_id: str) -> JobState:
        """Where the job stands, with `progress` (steps done of expected, from its events)."""
        svc = service()
        job = _job_or_404(svc, job_id)
        return _state(job, svc.broker.events(job_id))

    @api.post("/chat/cancel/{job_id}", response_model=JobState, dependencies=guarded)
    def cancel(job_id: str) -> JobState:
        svc = service()
        job = _job_or_404(svc, job_id)
        if job.status in FINISHED:
            raise Refusal(409, "JOB_FINISHED", f"The job has already ended ({job.status}).")
        if job.status == "waiting_human":
            raise Refusal(
                409,
                "APPROVAL_PENDING",
                "The job waits for a tool approval; answer it (approve: false rejects the "
                "call and ends the task) at POST /api/sessions/{thread_id}/resume.",
                thread_id=job.thread_id,
            )
        svc.broker.cancel(job_id)
        return _state(job, svc.broker.events(job_id))

    @api.get("/schemas/metadata.json", include_in_schema=True)
    def metadata_schema_file() -> JSONResponse:
        """The JSON Schema of a `metadata` event, every `kind` with its fields.

        Open like /openapi.json: it describes the stream, it holds no data.
        """
        return JSONResponse(metadata_schema(), media_type="application/schema+json")

    @api.get("/health", dependencies=guarded)
    def health() -> JSONResponse:
        svc = service()
        report: dict[str, Any] = {"status": "ok", "database": "ok", "redis": "not used"}
        try:
            svc.chat.persistence.check_file()
            svc.chat.persistence.archive.execute("SELECT 1")
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            report.update(status="unavailable", database=str(exc)[:200])
        if config.redis_url:
            try:
                svc.broker.ping()
                report["redis"] = "ok"
            except Exception as exc:  # noqa: BLE001
                report.update(status="unavailable", redis=str(exc)[:200])
        return JSONResponse(report, status_code=200 if report["status"] == "ok" else 503)

    # ---- seed 004: REST
    @api.post("/chat", response_model=ChatAnswer, dependencies=guarded)
    async def chat(body: ChatRequest) -> ChatAnswer:
        svc = service()
        thread_id = await run_in_threadpool(
            lambda: _thread_for_chat(svc, body.thread_id, body.message)
        )
        job = await run_in_threadpool(
            _submit, svc, body.message, thread_id, body.compression_rate, body.strategy
        )
        return await _answer(svc, job, after=0)

    @api.get("/api/sessions", response_model=list[SessionStateResponse], dependencies=guarded)
    def sessions() -> list[SessionStateResponse]:
        svc = service()
        return [_session(svc, r["thread_id"]) for r in threads(svc.chat) if visible(r)]

    @api.get("/api/sessions/{thread_id}", response_model=SessionStateResponse, dependencies=guarded)
    def session(thread_id: str) -> SessionStateResponse:
        svc = service()
        _known(svc, thread_id)
        return _session(svc, thread_id)

    @api.patch(
        "/api/sessions/{thread_id}", response_model=SessionStateResponse, dependencies=guarded
    )
    def patch_session(thread_id: str, body: SessionPatch) -> SessionStateResponse:
        svc = service()
        _known(svc, thread_id)
        with _refusals():
            if body.title is not None:
                rename_thread(svc.chat, thread_id, body.title)
            if body.compression_rate is not None:
                set_thread_rate(svc.chat, thread_id, body.compression_rate)
            if body.strategy is not None:
                set_thread_strategy(svc.chat, thread_id, body.strategy)
        return _session(svc, thread_id)

    @api.delete("/api/sessions/{thread_id}", status_code=204, dependencies=guarded)
    def remove_session(thread_id: str) -> Response:
        svc = service()
        _known(svc, thread_id)
        _refuse_if_busy(svc, thread_id)
        with _refusals():
            delete_thread(svc.chat, thread_id)
        svc.known.discard(thread_id)
        return Response(status_code=204)

    @api.post(
        "/api/sessions/{thread_id}/resume", response_model=ResumeResponse, dependencies=guarded
    )
    async def resume(thread_id: str, body: Decision) -> ResumeResponse:
        svc = service()
        job, after = await run_in_threadpool(_decide, svc, thread_id, body)
        answer = await _answer(svc, job, after=after)
        return ResumeResponse(**answer.model_dump())

    @api.get("/api/sessions/{thread_id}/export", dependencies=guarded)
    def export_session(thread_id: str) -> dict[str, Any]:
        """The whole thread as the app's export file: every turn, summaries, settings."""
        svc = service()
        _known(svc, thread_id)
        with _refusals():
            return export_thread(svc.chat, thread_id)

    @api.get(
        "/api/sessions/{thread_id}/checkpoints",
        response_model=CheckpointListResponse,
        dependencies=guarded,
    )
    def list_checkpoints(
        thread_id: str, limit: int = CHECKPOINT_PAGE, before: str | None = None
    ) -> CheckpointListResponse:
        """The thread's kept checkpoints, newest first, with seed 001's metadata.

        A page at a time: `limit` of them (1-500), older than the checkpoint `before` (a
        page's `next_cursor`); `next_cursor` is None on the last page.
        """
        svc = service()
        _known(svc, thread_id)
        with _refusals():
            page = checkpoint_page(svc.chat, thread_id, limit=limit, before=before)
        return CheckpointListResponse(
            thread_id=page.thread_id, checkpoints=page.checkpoints, next_cursor=page.next_cursor
        )

    @api.post(
        "/api/sessions/{thread_id}/fork",
        status_code=201,
        response_model=Forked,
        dependencies=guarded,
    )
    def fork(thread_id: str, body: ForkRequest) -> Forked:
        """A new thread from one of the thread's kept checkpoints (the original stays)."""
        svc = service()
        _known(svc, thread_id)
        with _refusals(CheckpointNotFound, 404, "CHECKPOINT_NOT_FOUND"):
            new = fork_thread(
                svc.chat,
                thread_id,
                body.checkpoint_id,
                compression_rate=body.compression_rate,
                title=body.title or "",
            )
            view = load_thread(svc.chat, new, recent_turns=0)
        svc.known.add(new)
        return Forked(thread_id=new, forked_from=view.forked_from, resumable=view.resumable)

    @api.post(
        "/api/sessions/{thread_id}/retry",
        status_code=202,
        response_model=JobCreated,
        dependencies=guarded,
    )
    def retry(thread_id: str) -> JobCreated:
        """Answer the thread's unanswered last turn again, or finish a fork taken mid-turn.

        A new version of a turn that was shown but never answered (its job lost, its
        process killed) is sent, with the message it was made with.
        """
        svc = service()
        _known(svc, thread_id)
        _refuse_if_busy(svc, thread_id)
        with _refusals():
            view = load_thread(svc.chat, thread_id, recent_turns=0)
            unsent = (
                None if view.retryable or view.resumable else unsent_version(svc.chat, thread_id)
            )
        if unsent is not None:  # a version made but never answered (its job was lost)
            return _version_job(svc, thread_id, None, lambda _: unsent)
        if not (view.retryable or view.resumable):
            raise Refusal(409, "NOTHING_TO_RETRY", "The last turn has its answer.")
        return _created(_enqueue(svc, TurnRequest(thread_id, kind="retry")))

    @api.post(
        "/api/sessions/{thread_id}/continue",
        status_code=202,
        response_model=JobCreated,
        dependencies=guarded,
    )
    def continue_answer(thread_id: str) -> JobCreated:
        """Continue the thread's last answer, which was cut off; the text is appended to it."""
        svc = service()
        _known(svc, thread_id)
        _refuse_if_busy(svc, thread_id)
        with _refusals():
            messages = thread_values(svc.chat, thread_id).get("messages") or []
        if not messages or not cut_off(messages[-1]):
            raise Refusal(409, "NOTHING_TO_CONTINUE", "The last answer was not cut off.")
        return _created(_enqueue(svc, TurnRequest(thread_id, kind="continue")))

    @api.post(
        "/api/sessions/{thread_id}/regenerate",
        status_code=202,
        response_model=JobCreated,
        dependencies=guarded,
    )
    def regenerate(thread_id: str, body: RedoRequest) -> JobCreated:
        """Send the last message again, or `message` in its place: a new version of it.

        The new version is forked from just before the last message and shown in the same
        thread; the job answers it there. The earlier versions stay (`.../versions`).
        """
        return _version_job(
            service(),
            thread_id,
            body.message,
            lambda svc: redo_last_turn(svc.chat, thread_id, body.message, turn=body.turn),
        )

    @api.get(
        "/api/sessions/{thread_id}/turns/{turn}/versions",
        response_model=TurnVersionsOut,
        dependencies=guarded,
    )
    def versions(thread_id: str, turn: int) -> TurnVersionsOut:
        """A turn's versions: the one shown and how many (1 of 1 for a turn never redone)."""
        svc = service()
        _known(svc, thread_id)
        with _refusals():
            view = load_thread(svc.chat, thread_id, recent_turns=0)
        if turn in view.versions:
            found = view.versions[turn]
            return TurnVersionsOut(turn=turn, shown=found.shown, count=found.count)
        if not 1 <= turn <= view.turn_count:
            raise Refusal(404, "TURN_NOT_FOUND", f"This conversation has no turn {turn}.")
        return TurnVersionsOut(turn=turn, shown=1, count=1)

    @api.post(
        "/api/sessions/{thread_id}/turns/{turn}/versions",
        status_code=202,
        response_model=JobCreated,
        dependencies=guarded,
    )
    def add_version(thread_id: str, turn: int, body: VersionRequest) -> JobCreated:
        """Send turn `turn`'s message again, or `message` in its place, as a new version.

        Any turn: the new version is shown, its continuation empty, and the job answers it.
        """
        return _version_job(
            service(),
            thread_id,
            body.message,
            lambda svc: new_version(svc.chat, thread_id, turn, body.message),
        )

    @api.post(
        "/api/sessions/{thread_id}/turns/{turn}/versions/{version}",
        response_model=TurnVersionsOut,
        dependencies=guarded,
    )
    def show_version(thread_id: str, turn: int, version: int) -> TurnVersionsOut:
        """Show version `version` of turn `turn`, with its own continuation."""
        svc = service()
        _known(svc, thread_id)
        _refuse_if_busy(svc, thread_id)
        with _refusals():
            found = switch_version(svc.chat, thread_id, turn, version)
        return TurnVersionsOut(turn=turn, shown=found.shown, count=found.count)

    # ---- seed 004: WebSocket
    @api.websocket("/ws/{thread_id}")
    async def socket(websocket: WebSocket, thread_id: str) -> None:
        token, subprotocol = socket_token(websocket)
        if "token" in websocket.query_params:
            if not query_token:
                await websocket.close(
                    code=1008,
                    reason="no ?token= (it would be logged): send it in the Authorization "
                    "header or as the subprotocols 'bearer, <token>'",
                )
                return
            log.warning("a WebSocket token came in the URL (WS_QUERY_TOKEN=allow)")
            token = token or "Bearer " + websocket.query_params["token"]
        try:
            _check_token(tokens, token)
        except Refusal:
            await websocket.close(code=1008, reason="missing or wrong API token")
            return
        svc = service()
        if not await run_in_threadpool(may_use, svc.chat, thread_id):
            await _deny(websocket, 404, "SESSION_NOT_FOUND", f"Unknown thread {thread_id!r}.")
            return
        client = client_key(websocket)
        try:
            svc.take_stream(client)
        except Refusal as exc:
            await websocket.close(code=1013, reason=exc.message[:120])
            return
        try:
            await websocket.accept(subprotocol=subprotocol)
            await _converse(svc, websocket, thread_id)
        except WebSocketDisconnect:
            pass
        finally:
            svc.give_stream(client)

    return api


# ---- pieces of the endpoints


def socket_token(websocket: WebSocket) -> tuple[str, str | None]:
    """The WebSocket's `Authorization` value and the subprotocol to accept it with.

    From the `Authorization` header, or from the subprotocols a browser can send
    (`new WebSocket(url, ["bearer", token])`): the pair `bearer, <token>`, accepted as
    `bearer` so that the token is never echoed back.
    """
    header = websocket.headers.get("authorization", "")
    offered = [p.strip() for p in websocket.headers.get("sec-websocket-protocol", "").split(",")]
    if len(offered) >= 2 and offered[0].lower() == "bearer" and offered[1]:
        return header or f"Bearer {offered[1]}", "bearer"
    return header, None


def _check_token(tokens: Tokens, authorization: str) -> None:
    """401 without a known token; else the request's caller is who the token names."""
    try:
        set_caller(tokens.identify(authorization))
    except Unauthorized as exc:
        raise Refusal(401, "UNAUTHORIZED", str(exc)) from exc


async def _deny(websocket: WebSocket, status: int, code: str, message: str) -> None:
    """Refuse a WebSocket before accepting it: an HTTP answer where the server can send one."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        body = {"code": code, "message": message}
        await websocket.send_denial_response(JSONResponse(body, status_code=status))
    else:
        await websocket.close(code=1008, reason=code)


def _seq(raw: str) -> int:
    try:
        return max(0, int(raw))
    except ValueError as exc:
        raise Refusal(422, "INVALID_REQUEST", "Last-Event-ID must be an event's seq.") from exc


@contextmanager
def _refusals(
    special: type[InputError] | None = None, status: int = 422, code: str = ""
) -> Iterator[None]:
    """Turn the application API's refusals into HTTP ones (`special` into `status`, `code`).

    A thread busy with a turn (in any process) is 409 THREAD_BUSY.
    """
    try:
        yield
    except ThreadBusy as exc:
        raise Refusal(409, "THREAD_BUSY", str(exc)) from exc
    except InputError as exc:
        if special is not None and isinstance(exc, special):
            raise Refusal(status, code, str(exc)) from exc
        raise Refusal(422, "INVALID_REQUEST", str(exc)) from exc
    except StorageError as exc:
        raise Refusal(503, "STORAGE_ERROR", str(exc)) from exc


def _job_or_404(svc: Service, job_id: str) -> Job:
    job = svc.broker.job(job_id)
    if job is None or not owns(job):
        raise Refusal(404, "JOB_NOT_FOUND", f"No job {job_id!r} (unknown, or expired).")
    return job


def _known(svc: Service, thread_id: str) -> None:
    """404 for an unknown thread, and for another user's, which it must not tell apart."""
    try:
        record = require_thread(svc.chat, thread_id)
    except InputError as exc:
        raise Refusal(404, "SESSION_NOT_FOUND", str(exc)) from exc
    if not visible(record):
        raise Refusal(404, "SESSION_NOT_FOUND", f"Unknown thread {thread_id!r}.")


def _own_thread(svc: Service, thread_id: str | None) -> str:
    """The thread to talk in, made for the caller when new; 404 when another user's."""
    with _refusals():
        thread = ensure_thread(svc.chat, thread_id, thread_owner())
    if not may_use(svc.chat, thread):
        raise Refusal(404, "SESSION_NOT_FOUND", f"Unknown thread {thread!r}.")
    return thread


def _checked(svc: Service, message: str, where: str = "") -> str:
    """The message as the turn will take it: 413 past the limit, 422 when empty.

    `where` names the field in the refusal (a message of `history`).
    """
    prefix = f"{where}: " if where else ""
    try:
        return check_message(svc.chat, message)
    except MessageTooLong as exc:
        raise Refusal(413, "MESSAGE_TOO_LONG", f"{prefix}{exc}") from exc
    except InputError as exc:
        raise Refusal(422, "INVALID_REQUEST", f"{prefix}{exc}") from exc


@dataclass(frozen=True)
class _JobFields:
    """Seed 001's payload fields a client may send besides the message (see `JobRequest`)."""

    history: list[dict[str, str]] | None = None
    turn_count: int | None = None
    user_id: str | None = None
    metadata: dict[str, Any] | None = None

    @classmethod
    def of(cls, body: JobRequest) -> _JobFields:
        """The fields of a `POST /chat/jobs` body."""
        return cls(body.history_dicts(), body.turn_count, body.user_id, body.metadata)

    @property
    def plain(self) -> bool:
        """Whether none needs a check against the thread or the caller."""
        return not self.history and self.turn_count is None and self.user_id is None


def _state(job: Job, events: list[Event]) -> JobState:
    """A job as `GET /chat/status` shows it, its progress read from its kept events."""
    return JobState(
        job_id=job.job_id,
        thread_id=job.thread_id,
        status=job.status,
        turn=job.turn,
        error_code=job.error_code,
        progress=Progress(**progress(events)),
        user_id=job.user_id,
        turn_count=job.request.get("turn_count"),
        metadata=job.metadata,
    )


def _submit(
    svc: Service,
    message: str,
    thread_id: str | None,
    rate: float | None,
    strategy: str | None,
    fields: _JobFields | None = None,
) -> Job:
    fields = fields or _JobFields()
    text = _checked(svc, message)
    owner = _job_user(fields.user_id)
    for i, item in enumerate(fields.history or []):  # answers too: they are context
        _checked(svc, item["content"], f"history[{i}]")
    counted = bool(fields.history) or fields.turn_count is not None
    new = thread_id is None or (counted and not thread_exists(svc.chat, thread_id))
    if counted and new:  # checked before a thread is made for it
        _check_turns(svc, None, fields)
    if thread_id is None or thread_id not in svc.known or not may_use(svc.chat, thread_id):
        thread_id = _own_thread(svc, thread_id)
        svc.known.add(thread_id)
    thread = thread_id
    if counted and not new:
        _check_turns(svc, thread, fields)
    request = TurnRequest(
        thread,
        message=text,
        turn_count=fields.turn_count,
        compression_rate=rate,
        strategy=strategy,
        sent_at=sent_now(svc.chat),
        history=fields.history,
    )
    return _enqueue(svc, request, owner, fields.metadata)


def _job_user(user_id: str | None) -> str:
    """The job's `user_id`: the caller's; 403 USER_MISMATCH when the body names another.

    Without user tokens nothing tells who calls, so a `user_id` sent is recorded as given.
    """
    user = caller()
    if user is not None and user_id is not None and user_id != user:
        raise Refusal(
            403,
            "USER_MISMATCH",
            f"user_id {user_id!r} is not the user of this token ({user!r}); leave it out or "
            "send your own.",
        )
    return user_id if user is None and user_id is not None else job_owner()


def _check_turns(svc: Service, thread_id: str | None, fields: _JobFields) -> None:
    """`history` only for a thread with no turns; `turn_count` the thread's next turn.

    409 HISTORY_CONFLICT for history sent to a thread that has (or has queued) turns: it
    keeps its own. 409 TURN_OUT_OF_ORDER for a `turn_count` that is not the thread's next
    (checked here only while nothing of the thread is queued; the turn checks it again).
    `thread_id` None is a thread not made yet (no turns).
    """
    busy, saved = False, 0
    if thread_id is not None:
        busy = svc.broker.busy(thread_id)
        with _refusals():
            saved = int(thread_values(svc.chat, thread_id).get("turn_count", 0))
    if fields.history and (saved or busy):
        raise Refusal(
            409,
            "HISTORY_CONFLICT",
            f"This thread has {saved} turns{' and more queued' if busy else ''} and keeps "
            "its own history; send history only to start a new thread (no thread_id, or a "
            "new one), and leave it out afterwards.",
            thread_id=thread_id,
        )
    if fields.turn_count is None or busy:
        return
    expected = saved + 1 + len(fields.history or []) // 2
    if fields.turn_count != expected:
        raise Refusal(
            409,
            "TURN_OUT_OF_ORDER",
            f"turn_count is {fields.turn_count}, but this thread's next turn is {expected}.",
            thread_id=thread_id,
            expected_turn=expected,
        )


def _enqueue(
    svc: Service,
    request: TurnRequest,
    owner: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Job:
    """A new job for `request`, queued behind any other of its thread."""
    job = Job.new(request.thread_id, request.as_dict(), owner or job_owner(), metadata)
    svc.broker.submit(job)
    return job


def _created(job: Job) -> JobCreated:
    return JobCreated(job_id=job.job_id, trace_id=job.trace_id, thread_id=job.thread_id)


def _version_job(
    svc: Service, thread_id: str, message: str | None, make: Callable[[Service], Redo]
) -> JobCreated:
    """A new version of a turn (`make`, after the checks), answered by a job in the thread."""
    _known(svc, thread_id)
    _refuse_if_busy(svc, thread_id)
    if message is not None:
        _checked(svc, message)
    with _refusals(CheckpointNotFound, 404, "CHECKPOINT_NOT_FOUND"):
        redo = make(svc)
    svc.known.add(redo.thread_id)
    request = TurnRequest(
        redo.thread_id, message=redo.message, turn_count=redo.turn_count, sent_at=sent_now(svc.chat)
    )
    return _created(_enqueue(svc, request))


def _refuse_if_busy(svc: Service, thread_id: str) -> None:
    """409 THREAD_BUSY while a turn of the thread is queued or running."""
    if svc.broker.busy(thread_id):
        raise Refusal(
            409,
            "THREAD_BUSY",
            "A turn of this thread is queued or running.",
            thread_id=thread_id,
        )


def _thread_for_chat(svc: Service, thread_id: str | None, message: str) -> str:
    """POST /chat answers at once or refuses: 409 when the thread is busy or waiting."""
    _checked(svc, message)
    thread = _own_thread(svc, thread_id)
    svc.known.add(thread)
    _refuse_if_busy(svc, thread)
    pending = pending_approval(svc.chat, thread)
    if pending is not None:
        raise Refusal(
            409,
            "APPROVAL_PENDING",
            "A tool call waits for approval; answer it at /api/sessions/{thread_id}/resume.",
            thread_id=thread,
            **_pending_fields(pending),
        )
    return thread


PENDING_FIELDS = ("category", "reason", "sources", "tool", "args", "tool_call_id", "preview")
"""What a client sees of a waiting approval (`category`: contract, payment, sensitive, code
or outbound; `reason` for outbound; `sources`: the untrusted texts in the context, e.g.
`file notes.txt (read_file), turn 1`)."""


def _pending_fields(pending: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in pending.items() if k in PENDING_FIELDS}


def _decide(svc: Service, thread_id: str, body: Decision) -> tuple[Job, int]:
    """Queue a decision on the thread's pending call: the parked job goes on, or a new one."""
    _known(svc, thread_id)
    try:
        check_decision(svc.chat, thread_id, body.tool_call_id or "")
    except InputError as exc:
        code = "APPROVAL_MISMATCH" if isinstance(exc, ApprovalMismatch) else "NOTHING_PENDING"
        raise Refusal(409, code, str(exc), thread_id=thread_id) from exc
    answer = body.answer()
    if answer.action == "respond":
        _checked(svc, answer.response)  # the user's text, limited like a message (413)
    request = TurnRequest(
        thread_id,
        kind="resume",
        action=answer.action,
        args=answer.args,
        response=answer.response or None,
        tool_call_id=body.tool_call_id,
    )
    job = _unpark(svc, thread_id)
    if job is None:  # paused outside the service (the app), or before it restarted
        job = Job.new(thread_id, request.as_dict(), job_owner())
    else:  # the same job goes on: a new run, not a re-run after a worker died
        job.request, job.status, job.attempts = request.as_dict(), "queued", 0
    after = svc.broker.last_seq(job.job_id)
    svc.broker.submit(job)
    return job, after


PARK_WAIT_S = 2.0
"""How long a decision waits for the paused job to be parked (its worker is a few
statements away from it when the pause is reported)."""


def _unpark(svc: Service, thread_id: str) -> Job | None:
    """The thread's parked job, taken by this decision alone; None if none comes."""
    deadline = time.monotonic() + PARK_WAIT_S
    while (job := svc.broker.unpark(thread_id)) is None:
        # a job still in the thread's line is about to be parked; none: there is no job
        if not svc.broker.busy(thread_id) or time.monotonic() > deadline:
            return None
        time.sleep(0.01)
    return job


async def _batches(svc: Service, job_id: str, after: int) -> AsyncIterator[list[Event]]:
    """The job's events after `after` in batches as they come, until `done`.

    An empty batch stands for a quiet spell of KEEPALIVE_S.
    """
    while True:
        found = await svc.broker.wait_events(job_id, after, KEEPALIVE_S)
        if not found:
            if await run_in_threadpool(svc.broker.job, job_id) is None:
                return  # expired
            if await run_in_threadpool(past_end, svc.broker, job_id, after):
                return  # asked past the end of a job that has ended since
            yield []
            continue
        for i, event in enumerate(found):
            if event["type"] == "done":
                yield found[: i + 1]
                return
        after = found[-1]["seq"]
        yield found


async def _follow(svc: Service, job_id: str, after: int) -> AsyncIterator[Event | None]:
    """The job's events after `after` one by one, until `done`; None on a quiet spell."""
    async for batch in _batches(svc, job_id, after):
        if not batch:
            yield None
        for event in batch:
            yield event


async def _answer(svc: Service, job: Job, after: int) -> ChatAnswer:
    """Wait for the job's answer; 409 APPROVAL_PENDING when it stops for an approval."""
    tokens: list[str] = []
    turn: dict[str, Any] = {}
    error: dict[str, Any] = {}
    request: dict[str, Any] = {}
    timeout = float(svc.settings.wait_s)
    try:
        async with asyncio.timeout(timeout):
            async for event in _follow(svc, job.job_id, after):
                if event is None:
                    continue
                if event["type"] == "token":
                    tokens.append(event["content"])
                elif event["type"] == "error":
                    error = event
                elif event["type"] == "metadata":
                    meta = event["metadata"]
                    if meta.get("kind") == "approval_request":
                        request = meta
                    elif meta.get("kind") == "turn" and meta.get("status") == "waiting_human":
                        # the job is paused (its status is saved before this event); it is
                        # parked right after, and a decision waits for that (`_unpark`)
                        raise Refusal(
                            409,
                            "APPROVAL_PENDING",
                            "A tool call waits for approval; answer it at "
                            "/api/sessions/{thread_id}/resume.",
                            thread_id=job.thread_id,
                            job_id=job.job_id,
                            **_pending_fields(request),
                        )
                    elif meta.get("kind") == "turn":
                        turn = meta
    except TimeoutError as exc:
        raise Refusal(
            504,
            "STILL_RUNNING",
            f"The turn did not end within {timeout:.0f} s; follow it at /chat/stream/{job.job_id}.",
            job_id=job.job_id,
        ) from exc
    if error and not turn:  # refused: nothing was saved
        code = error["error_code"]
        status = {
            "THREAD_BUSY": 409,
            "NOTHING_PENDING": 409,  # a decision that lost to another one
            "INPUT_REJECTED": 422,
            "STORAGE_ERROR": 503,
        }.get(code, 500)
        raise Refusal(status, code, error["content"], job_id=job.job_id)
    if turn.get("error_code") == ErrorCode.APPROVAL_REJECTED.value:
        # seed 004: a rejection ends the task with an error response; the turn is closed
        raise Refusal(
            409,
            ErrorCode.APPROVAL_REJECTED.value,
            "The call was rejected: it was not run and the task ended. The conversation "
            "is kept; the next message goes on from it.",
            thread_id=job.thread_id,
            job_id=job.job_id,
            turn=turn.get("turn"),
            answer=error.get("content") or "".join(tokens),
        )
    return ChatAnswer(
        thread_id=job.thread_id,
        job_id=job.job_id,
        turn=turn.get("turn"),
        answer="".join(tokens) or (error.get("content") or ""),
        error_code=turn.get("error_code") or error.get("error_code"),
        summarized=bool(turn.get("summarized")),
        context_chars=int(turn.get("context_chars") or 0),
    )


def _session(svc: Service, thread_id: str) -> SessionStateResponse:
    view = load_thread(svc.chat, thread_id, recent_turns=0)
    status: Literal["waiting_human", "in_progress", "completed", "idle"]
    if view.pending is not None:
        status = "waiting_human"
    elif svc.broker.busy(thread_id):
        status = "in_progress"
    else:
        status = "completed" if view.turn_count else "idle"
    stats: dict[str, Any] = dict(summary_stats(view.summary_history))
    stats["last_context"] = view.state.get("last_context") or {}
    stats["summary_calls"] = int(view.state.get("summary_calls", 0))
    return SessionStateResponse(
        thread_id=thread_id,
        title=view.title,
        status=status,
        turn_count=view.turn_count,
        compression_rate=view.compression_rate,
        strategy=view.strategy,
        summary_history=view.summary_history,
        statistics=stats,
        forked_from=view.forked_from,
        pending=_pending_fields(view.pending) if view.pending else None,
        is_waiting_human=view.is_waiting_human,
        versions=[
            TurnVersionsOut(turn=v.turn, shown=v.shown, count=v.count)
            for _, v in sorted(view.versions.items())
        ],
    )


async def _converse(svc: Service, websocket: WebSocket, thread_id: str) -> None:
    """Seed 004's WebSocket conversation on one thread.

    The thread is made with the first message taken (`_submit`), not on connecting: a
    socket that sends nothing, or only refused messages, leaves no empty session behind.
    """
    try:
        with _refusals():
            thread = check_thread_id(thread_id)
    except Refusal as exc:
        await refuse(websocket, exc)
        return
    await websocket.send_json({"type": "connected", "thread_id": thread})
    while True:
        incoming = await receive_object(websocket)
        if not isinstance(incoming, dict) or incoming.get("type") != "message":
            await websocket.send_json(
                {
                    "type": "error",
                    "code": "INVALID_REQUEST",
                    "message": 'send {"type": "message", "content": "..."}',
                }
            )
            continue
        text = str(incoming.get("content", ""))
        try:
            job = await run_in_threadpool(_submit, svc, text, thread, None, None)
        except Refusal as exc:
            await websocket.send_json({"type": "error", "code": exc.code, "message": exc.message})
            continue
        await _relay(svc, websocket, job, 0)


async def _relay(svc: Service, websocket: WebSocket, job: Job, after: int) -> None:
    """Forward a job's events as seed 004's messages, asking for decisions on the way."""
    answer: list[str] = []
    turn: dict[str, Any] = {}
    error: dict[str, Any] = {}
    request: dict[str, Any] = {}
    while True:
        decision: Decision | None = None
        async for event in _follow(svc, job.job_id, after):
            if event is None:
                continue
            after = event["seq"]
            meta = event.get("metadata") or {}
            if event["type"] == "token":
                answer.append(event["content"])
            elif event["type"] == "error":
                error = event
            elif meta.get("kind") == "approval_request":
                request = meta
                continue  # asked once the job pauses (the `turn` event says so)
            elif meta.get("kind") == "turn" and meta.get("status") == "waiting_human":
                await websocket.send_json({"type": "hitl_request", **_pending_fields(request)})
                decision = await _ask(websocket)
                break
            elif meta.get("kind") == "turn":
                turn = meta
            message = _ws_message(event)
            if message is not None:
                await websocket.send_json(message)
        if decision is None:
            await websocket.send_json(
                {
                    "type": "final",
                    "content": "".join(answer) or error.get("content", ""),
                    "thread_id": job.thread_id,
                    "turn": turn.get("turn"),
                    "error_code": turn.get("error_code") or error.get("error_code"),
                }
            )
            return
        try:
            job, after = await run_in_threadpool(_decide, svc, job.thread_id, decision)
        except Refusal as exc:
            await websocket.send_json({"type": "error", "code": exc.code, "message": exc.message})
            return


async def _ask(websocket: WebSocket) -> Decision:
    """Wait for a valid `human_response`; say what is wrong with anything else."""
    while True:
        incoming = await receive_object(websocket)
        if isinstance(incoming, dict) and incoming.get("type") == "human_response":
            body = {k: v for k, v in incoming.items() if k != "type"}
            try:
                return Decision.model_validate(body)
            except ValueError as exc:
                message = str(exc).splitlines()[-1][:300]
        else:
            message = 'a tool call waits: send {"type": "human_response", "approve": true}'
        await websocket.send_json({"type": "error", "code": "INVALID_REQUEST", "message": message})


def _ws_message(event: Event) -> dict[str, Any] | None:
    """Seed 004's message for one event (None for what the socket does not show)."""
    kind = event["type"]
    if kind == "token":
        return {"type": "token", "content": event["content"], "node": event.get("node")}
    if kind == "error":
        return {"type": "error", "code": event["error_code"], "message": event["content"]}
    if kind != "metadata":
        return None
    meta = event["metadata"]
    if meta.get("kind") == "node_start":
        return {"type": "node_start", "node": meta.get("node")}
    if meta.get("kind") == "node_end":
        return {"type": "node_end", "node": meta.get("node")}
    return {"type": "metadata", "metadata": meta}


# ---- docs, guards and error bodies


REDOC_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self' 'unsafe-inline'; worker-src 'self' blob:; font-src 'self' data:"
)
"""What /redoc may load: its own files. ReDoc's sidebar shows a logo from cdn.redoc.ly,
which a machine with no internet cannot reach (and no page of the service should ask)."""


REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
"""The one address outside the service that the installed ReDoc script asks for."""


@cache
def _redoc_script() -> bytes:
    """fastapi-offline's ReDoc script with its CDN logo left out (an empty image it hides)."""
    import fastapi_offline

    path = Path(fastapi_offline.__file__).parent / "static" / "redoc.standalone.js"
    return path.read_bytes().replace(REDOC_LOGO.encode(), b"data:,")


def _add_redoc(api: FastAPI) -> None:
    """`/redoc` from fastapi-offline's files, with a policy that keeps the page on this host."""
    from fastapi.openapi.docs import get_redoc_html

    @api.get("/redoc/redoc.standalone.js", include_in_schema=False)
    async def redoc_script() -> Response:
        return Response(_redoc_script(), media_type="text/javascript")

    @api.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_redoc_html(
            openapi_url=f"{root}{api.openapi_url}",
            title=f"{api.title} - ReDoc",
            redoc_js_url=f"{root}/redoc/redoc.standalone.js",
            redoc_favicon_url=f"{root}/static-offline-docs/favicon.png",
            with_google_fonts=False,
        )
        page.headers["Content-Security-Policy"] = REDOC_POLICY
        return page


def _add_guards(api: FastAPI, config: ServiceSettings) -> None:
    api.add_middleware(BodyLimit, limit=int(config.max_body_bytes))
    errors.install(api)
