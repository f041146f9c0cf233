"""Shared fixtures: every test runs with no keys and no network."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

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


@pytest.fixture(autouse=True)
def _servers_unknown() -> None:
    """What a server refused is remembered per URL for a process: a test's fake server on
    a port an earlier test's had used must not inherit it."""
    from graph.compat import forget_profiles
    from graph.structured import LEVEL_MEMORY

    forget_profiles()
    LEVEL_MEMORY.forget()


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


Store = Callable[[str], dict[str, str]]
"""name -> the settings that put a new database of that name on the backend under test."""


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """Each test using it runs on both backends: a SQLite file, then a new database on the
    test run's PostgreSQL server (the index and other files stay in the test's folder)."""
    if request.param == "postgres":
        server = request.getfixturevalue("postgres")
        return lambda name: {
            "DATABASE_URL": server.database(),
            "CHAT_DB_PATH": str(tmp_path / f"{name}.sqlite"),
        }
    return lambda name: {"CHAT_DB_PATH": str(tmp_path / f"{name}.sqlite")}
