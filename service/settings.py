"""The service's own settings (the chat's are `graph.settings.Settings`), read from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from graph.settings import Settings, env_field, from_env

NETWORK_BOUND_WORKERS = 16
"""Worker threads per process for `auto` when a model server answers."""


@dataclass(frozen=True)
class ServiceSettings:
    """How the API listens, who may call it, and where jobs run."""

    host: str = env_field("HOST", "127.0.0.1", "Address the API listens on (loopback by default).")
    port: str = env_field("PORT", "8000", "Port the API listens on.")
    api_token: str = env_field(
        "API_TOKEN", "", "When set, every request needs `Authorization: Bearer <token>`."
    )
    users_file: str = env_field(
        "USERS_FILE",
        "",
        "When set, a JSON-lines file of users and their token hashes "
        "(`python -m service.users add <user_id>`): each request's token says who calls, "
        "and a user sees only their own threads and jobs.",
    )
    allowed_hosts: str = env_field(
        "ALLOWED_HOSTS",
        "",
        "Comma-separated host names the API answers to besides localhost, 127.0.0.1 and "
        "[::1] (any port); any other `Host` header is refused (403), against DNS rebinding.",
    )
    allowed_origins: str = env_field(
        "ALLOWED_ORIGINS",
        "",
        "Comma-separated origins (`https://chat.example.com`) whose pages may use the "
        "WebSocket and the state-changing requests, besides the API's own origin.",
    )
    redis_url: str = env_field(
        "REDIS_URL",
        "",
        "Empty: jobs run in the API process. Set: jobs go to Redis and run in "
        "`python -m service.worker` processes.",
    )
    workers: str = env_field(
        "SERVICE_WORKERS",
        "auto",
        "Turns run at once, per API process when embedded, per worker process with Redis. "
        "auto: the number of CPUs for the offline engine (its turns are computation, and "
        "more threads only contend for the interpreter), 16 with a model server (its turns "
        "mostly wait for the network).",
    )
    max_streams: str = env_field(
        "MAX_OPEN_STREAMS", "256", "Open event streams (SSE and WebSocket) per API process."
    )
    max_client_streams: str = env_field(
        "MAX_STREAMS_PER_CLIENT",
        "64",
        "Open event streams per client address (of MAX_OPEN_STREAMS), so one client "
        "cannot take every slot.",
    )
    max_body_bytes: str = env_field(
        "MAX_BODY_BYTES", "1000000", "Largest request body accepted, in bytes."
    )
    short_term_sweep_s: str = env_field(
        "SHORT_TERM_SWEEP_S",
        "3600",
        "With REDIS_URL: every this many seconds the API process sweeps seed 003's "
        "short-term keys in batches (`python -m service.short_term_sweep`); 0: never.",
    )
    event_ttl_s: str = env_field(
        "EVENT_TTL_S", "3600", "How long a finished job's events stay readable (Redis)."
    )
    heartbeat_s: str = env_field(
        "WORKER_HEARTBEAT_S",
        "1",
        "How often a worker says it is alive and looks for dead ones (a worker on another "
        "host silent for 5 beats is dead; on this host the process table tells at once).",
    )
    ws_query_token: str = env_field(
        "WS_QUERY_TOKEN",
        "refuse",
        "refuse (default): the WebSocket takes its token from the `Authorization` header or "
        "as the subprotocol pair `bearer, <token>` only, and refuses a connection with "
        "`?token=` (1008), since URLs end up in proxy and access logs. allow: `?token=` is "
        "taken too, for clients that can do neither, and each such connection logs a warning.",
    )
    wait_s: str = env_field(
        "CHAT_WAIT_S", "300", "How long POST /chat and resume wait for the turn to end."
    )

    @property
    def query_token_allowed(self) -> bool:
        """WS_QUERY_TOKEN as a yes or no (ValueError for anything but refuse or allow)."""
        if self.ws_query_token not in ("refuse", "allow"):
            raise ValueError(f"WS_QUERY_TOKEN must be refuse or allow, not {self.ws_query_token!r}")
        return self.ws_query_token == "allow"

    def worker_count(self, chat: Settings) -> int:
        """SERVICE_WORKERS as a number of at least 1 (`auto` as documented above)."""
        if self.workers == "auto":
            if chat.resolved_provider == "offline":
                return max(1, os.cpu_count() or 1)
            return NETWORK_BOUND_WORKERS
        return max(1, int(self.workers))

    @property
    def stream_limit(self) -> int:
        """MAX_OPEN_STREAMS as a number."""
        return int(self.max_streams)

    @property
    def client_stream_limit(self) -> int:
        """MAX_STREAMS_PER_CLIENT as a number."""
        return int(self.max_client_streams)


def load_service_settings(env: Mapping[str, str] | None = None) -> ServiceSettings:
    """Read the service settings from `env` (default: `os.environ`)."""
    return from_env(ServiceSettings, env)
