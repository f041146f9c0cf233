"""Same-origin by default: who may reach the API from a browser, and where it may listen.

A page on any site can make the visitor's browser talk to a service on their loopback:
a WebSocket has no same-origin rule of its own, and DNS rebinding gives a foreign name
(`evil.example`, resolving to 127.0.0.1) the API's responses. So every request and
WebSocket must name the API by one of its own host names (`Host`: loopback names, the
address it listens on, ALLOWED_HOSTS), and a WebSocket or a state-changing request that
comes from a page (`Origin`) must come from the API's own origin or ALLOWED_ORIGINS.
Requests with no `Origin` (curl, another server) are not a browser's and pass.

Past loopback there is no browser boundary left at all, so the API refuses to start
there without a token (`exposed_without_token`).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from service.settings import ServiceSettings

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""The names of the loopback interface, with any port."""

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Methods that change state: a foreign page's `Origin` on one is refused."""

ANY_ADDRESS = frozenset({"", "0.0.0.0", "::"})  # noqa: S104 - names, not a bind


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address) is this machine's loopback."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_name(value: str) -> str:
    """The name of a `Host` header or an ALLOWED_HOSTS entry, without port or brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value[1:]
    if value.count(":") == 1:
        value = value.partition(":")[0]
    return value


def _listed(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def allowed_hosts(settings: ServiceSettings) -> frozenset[str]:
    """Host names the API answers to: loopback, the address it listens on, ALLOWED_HOSTS."""
    names = set(LOOPBACK_NAMES)
    if settings.host not in ANY_ADDRESS:
        names.add(host_name(settings.host))
    names.update(host_name(entry) for entry in _listed(settings.allowed_hosts))
    return frozenset(names)


def allowed_origins(settings: ServiceSettings) -> frozenset[str]:
    """ALLOWED_ORIGINS as compared: lower case, no trailing slash."""
    return frozenset(entry.lower().rstrip("/") for entry in _listed(settings.allowed_origins))


def exposed_without_token(settings: ServiceSettings, users: int) -> str | None:
    """Why the API must not start (listening past loopback with no token), or None.

    Args:
        settings: The service settings.
        users: How many users the users file holds.
    """
    if is_loopback(settings.host) or settings.api_token or users:
        return None
    return (
        f"HOST={settings.host or '(all addresses)'} is not a loopback address, and no token "
        "is set: anyone who can reach it could read and run every conversation. Set "
        "API_TOKEN=<a long random secret>, or add users (USERS_FILE=<path>, then "
        "`python -m service.users add <user_id>`), or listen on HOST=127.0.0.1."
    )


class SameOrigin:
    """Refuse a foreign `Host` (any request) or `Origin` (a WebSocket, a state change): 403.

    A plain ASGI middleware, like the body limit: it reads headers only, and a foreign
    WebSocket is refused before it is accepted.
    """

    def __init__(self, app: ASGIApp, hosts: frozenset[str], origins: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = origins

    def problem(self, scope: Scope) -> tuple[str, str] | None:
        """(code, message) when the request is foreign, else None."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if host and host_name(host) not in self.hosts:
            return (
                "HOST_NOT_ALLOWED",
                f"This API does not answer to the host {host_name(host)!r}; add it to "
                "ALLOWED_HOSTS if it is one of its names.",
            )
        origin = headers.get("origin")
        if origin is None:
            return None
        if scope["type"] == "http" and scope.get("method", "GET") not in UNSAFE_METHODS:
            return None
        if not self._own(origin, host):
            return (
                "ORIGIN_NOT_ALLOWED",
                f"Pages of {origin[:100]!r} may not use this API; add the origin to "
                "ALLOWED_ORIGINS if they should.",
            )
        return None

    def _own(self, origin: str, host: str) -> bool:
        """Whether `origin` is the API's own (same scheme-less host and port) or allowed."""
        origin = origin.strip().lower().rstrip("/")
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host.lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, unless it is foreign."""
        if scope["type"] in ("http", "websocket"):
            found = self.problem(scope)
            if found is not None:
                code, message = found
                refusal = JSONResponse({"code": code, "message": message}, status_code=403)
                if scope["type"] == "http":
                    await refusal(scope, receive, send)
                    return
                socket = WebSocket(scope, receive, send)
                if "websocket.http.response" in scope.get("extensions", {}):
                    await socket.send_denial_response(refusal)
                else:  # the server answers the handshake with a bare 403
                    await socket.close(code=1008, reason=code)
                return
        await self.app(scope, receive, send)


def add_same_origin(api: FastAPI, settings: ServiceSettings) -> None:
    """Put the Host and Origin checks in front of everything else the API does."""
    api.add_middleware(SameOrigin, hosts=allowed_hosts(settings), origins=allowed_origins(settings))
