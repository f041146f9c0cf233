"""Every refusal as `{"code", "message"}`: the exception, the handlers, and strict JSON bodies.

`Refusal` is an `HTTPException`, so one raised while FastAPI reads a body (the body limit,
the JSON checks below) reaches its handler instead of becoming a bare 400. Starlette's own
404 and 405, validation errors and anything unexpected get the same shape.

Request bodies are parsed here rather than by `json.loads` alone: Python's parser takes
`NaN`, `Infinity`, `1e999` (as infinity) and a lone surrogate escape, which no
client means and which later fail as a 500 (a float check that is never true, a string
that cannot be encoded); it also recurses once per nesting level.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects a body may have (the API's own bodies use 3)."""

_SURROGATE = re.compile("[\ud800-\udfff]")

_CODES = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    406: "NOT_ACCEPTABLE",
    413: "BODY_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "INVALID_REQUEST",
    429: "TOO_MANY_REQUESTS",
}


class Refusal(HTTPException):
    """An HTTP refusal with a stable code: answered as {"code", "message", ...extra}."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(status, message, headers)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def problem(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The body of a refusal (also a WebSocket error frame's fields)."""
    return {"code": code, "message": message, **extra}


def strict_json(raw: bytes | str) -> Any:
    """Parse a JSON body; refuse what `json.loads` alone would let through.

    Raises:
        Refusal: 400 for a body that is not UTF-8 or nests deeper than MAX_JSON_DEPTH;
            422 for text that is not JSON, a number that is not finite (NaN, Infinity,
            1e999) or a string holding a lone surrogate, naming where it is.
    """
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Refusal(
                400, "INVALID_ENCODING", f"The body is not UTF-8 (byte {exc.start})."
            ) from exc
    else:
        text = raw
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise _too_deep() from exc
    except json.JSONDecodeError as exc:
        # 422 like any other malformed body (a client's mistake in what it sent, not how)
        raise Refusal(422, "INVALID_REQUEST", f"The body is not JSON: {exc}.") from exc
    _check(value)
    return value


def _too_deep() -> Refusal:
    return Refusal(
        400, "JSON_TOO_DEEP", f"The body nests deeper than {MAX_JSON_DEPTH} arrays or objects."
    )


def _check(value: Any) -> None:
    """Walk the parsed body without recursion: depth, finite numbers, whole Unicode."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise _too_deep()
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, inner in pairs:
                if isinstance(key, str) and _SURROGATE.search(key):
                    raise _not_unicode(where or "body")
                stack.append((inner, f"{where}.{key}" if where else str(key), depth + 1))
        elif isinstance(item, float) and not math.isfinite(item):
            raise Refusal(
                422,
                "INVALID_REQUEST",
                f"{where or 'body'}: {item} is not a finite number "
                "(NaN, Infinity and numbers past 1.8e308 are refused).",
            )
        elif isinstance(item, str) and _SURROGATE.search(item):
            raise _not_unicode(where or "body")


def _not_unicode(where: str) -> Refusal:
    return Refusal(
        422,
        "INVALID_REQUEST",
        f"{where}: the text holds a lone surrogate (an unpaired \\ud800-\\udfff escape), "
        "which is not Unicode.",
    )


class StrictJSONRequest(Request):
    """A request whose JSON body goes through `strict_json`."""

    async def json(self) -> Any:
        """The body, parsed once and checked."""
        if not hasattr(self, "_json"):
            self._json = strict_json(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """FastAPI's route, reading JSON bodies with `StrictJSONRequest`.

    A custom route class is FastAPI's documented way to change how a body is read.
    """

    def get_route_handler(self) -> Any:
        """The usual handler, given the stricter request."""
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict


def _plain(value: Any) -> Any:
    """`value` as JSON can carry it: other objects as text, NaN and Infinity as names."""
    return json.loads(json.dumps(value, default=str), parse_constant=str)


def install(api: FastAPI) -> None:
    """Read bodies strictly and answer every error as `{"code", "message"}`.

    Call before the routes are declared (the route class applies to routes added after).
    """
    api.router.route_class = StrictJSONRoute

    @api.exception_handler(Refusal)
    async def refused(_: Request, exc: Refusal) -> JSONResponse:
        return JSONResponse(
            problem(exc.code, exc.message, **exc.extra),
            status_code=exc.status,
            headers=exc.headers,
        )

    @api.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code in (204, 304):
            return Response(status_code=exc.status_code, headers=exc.headers)
        code = _CODES.get(exc.status_code, "HTTP_ERROR")
        message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404:
            message = f"No such endpoint: {request.method} {request.url.path}."
        elif exc.status_code == 405:
            allowed = (exc.headers or {}).get("allow", (exc.headers or {}).get("Allow", ""))
            message = f"{request.method} is not allowed here" + (
                f"; use {allowed}." if allowed else "."
            )
        return JSONResponse(
            problem(code, message),
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @api.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'body'}: {e.get('msg')}"
            for e in exc.errors()
        ]
        return JSONResponse(
            problem(
                "INVALID_REQUEST",
                "; ".join(problems) or "The request is malformed.",
                detail=_plain(exc.errors()),
            ),
            status_code=422,
        )

    @api.exception_handler(Exception)
    async def failed(_: Request, exc: Exception) -> JSONResponse:
        # Starlette logs the exception after this answer; the client learns only its kind
        return JSONResponse(
            problem("INTERNAL_ERROR", f"The server failed ({type(exc).__name__})."),
            status_code=500,
        )
