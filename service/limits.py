"""What one client may take of the service: body bytes, open streams, and a stream's end.

- `BodyLimit` counts the body bytes actually read, so a chunked body (no Content-Length)
  stops at MAX_BODY_BYTES like any other, instead of being read whole first.
- `StreamSlots` counts open event streams per process and per client.
- `past_end` tells a stream request that can only wait for nothing (a finished job asked
  from its last event or later), so it is answered at once instead of holding a slot.
"""

from __future__ import annotations

from collections import Counter

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import Refusal, problem
from service.jobs import Broker
from service.users import caller


def _too_large(limit: int, size: int, exact: bool) -> Refusal:
    said = f"{size:,} bytes" if exact else f"more than {limit:,} bytes"
    # Connection: close: the rest of the body is never read, so the connection ends here
    return Refusal(
        413,
        "BODY_TOO_LARGE",
        f"The request body has {said}; the limit is {limit:,}.",
        headers={"Connection": "close"},
    )


class BodyLimit:
    """Refuse a request body past `limit` bytes (413), by Content-Length or as it is read.

    A plain ASGI middleware: Starlette's `BaseHTTPMiddleware` would copy every streamed
    response through a memory stream, and the event streams are most of the traffic. The
    count is kept by wrapping `receive`: the chunk that crosses the limit raises a 413
    `Refusal` where the body is being read (FastAPI passes HTTP exceptions through), and
    nothing after it is read.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on with its body counted; 413 once it is past the limit."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = dict(scope["headers"]).get(b"content-length", b"")
        if size.isdigit() and int(size) > self.limit:
            await self._refuse(_too_large(self.limit, int(size), exact=True), scope, receive, send)
            return
        read = 0
        started = False

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.limit:
                    raise _too_large(self.limit, read, exact=False)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except Refusal as exc:
            # read outside a FastAPI route (whose handler answers it): answer it here
            if exc.code != "BODY_TOO_LARGE" or started:
                raise
            await self._refuse(exc, scope, receive, send)

    @staticmethod
    async def _refuse(exc: Refusal, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse(
            problem(exc.code, exc.message), status_code=exc.status, headers=exc.headers
        )
        await response(scope, receive, send)


def client_key(connection: HTTPConnection) -> str:
    """Who a stream is counted against: the calling user, else the client's address.

    With USERS_FILE each token names a user (set by the token check before this is asked);
    without it, one shared API_TOKEN (or none) says nothing about who calls, and the
    address is the identity there is.
    """
    try:
        user = caller()
    except LookupError:  # no token check ran for this connection
        user = None
    if user is not None:
        return f"user:{user}"
    return f"address:{connection.client.host if connection.client else 'unknown'}"


class StreamSlots:
    """Open streams (SSE and WebSocket) of this process, in all and per client.

    Taken and given back on the event loop only (no await in between), so no lock.
    """

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self.open: Counter[str] = Counter()

    def take(self, client: str) -> None:
        """Count a stream of `client`; 429 past either limit."""
        if sum(self.open.values()) >= self.total:
            raise Refusal(
                429,
                "TOO_MANY_STREAMS",
                f"{self.total} streams are open; the limit is {self.total}. Try again shortly.",
            )
        if self.open[client] >= self.per_client:
            raise Refusal(
                429,
                "TOO_MANY_STREAMS",
                f"This client ({client}) has {self.open[client]} streams open; the limit "
                f"per client is {self.per_client} (MAX_STREAMS_PER_CLIENT). Close one and "
                "try again.",
            )
        self.open[client] += 1

    def give(self, client: str) -> None:
        """One of `client`'s streams ended."""
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]


def past_end(broker: Broker, job_id: str, after: int) -> bool:
    """Whether the job has ended (its `done` is kept) and `after` is at or past that `done`.

    The job's status is saved before its `done` event is kept, so the event decides:
    until it is there, a stream has something to wait for.
    """
    last = broker.last_seq(job_id)
    if after < last:
        return False
    tail = broker.events(job_id, max(0, last - 1))
    return bool(tail) and tail[-1]["type"] == "done"
