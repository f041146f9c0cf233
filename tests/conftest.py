"""Shared fixtures: every test runs with no keys and no network."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.http_server import FakeHTTPServer
from tests.postgres import PostgresServer, start_or_skip

_KEYS = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "TAVILY_API_KEY",
    "OPENWEATHER_API_KEY",
    "CHAT_PROVIDER",
    "CHAT_DB_PATH",
    "DATABASE_URL",
)


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in _KEYS:
        monkeypatch.delenv(key, raising=False)


@pytest.fixture
def http_server() -> Iterator[FakeHTTPServer]:
    server = FakeHTTPServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the whole run (Debian's package, a temporary folder)."""
    server = start_or_skip(pytest.skip, pytest.fail)
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """A new, empty PostgreSQL database of that server."""
    return postgres.database()
