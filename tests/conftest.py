"""Shared fixtures: every test runs with no keys and no network."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


_SHARED_FIXTURE = re.compile(r"""scope\s*=\s*["'](?:module|class|package)["']""")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadscope` (pyproject's addopts), by the test, but by the module where tests share.

    The suite runs on parallel workers, mostly waiting (servers starting, browsers,
    subprocesses). Each test is its own unit of work, so the workers stay evenly busy, but
    the tests of a module that builds a module- or class-scoped fixture (a 199-turn replay,
    a real model's six turns) go to one worker together: spread over four, the fixture would
    be built four times. (xdist's `loadgroup` marks do not reach its scheduler under pytest 9.)
    """
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    shares: dict[str, bool] = {}

    def module_shares(path: str) -> bool:
        if path not in shares:
            file = config.rootpath / path
            text = file.read_text(encoding="utf-8") if file.is_file() else ""
            shares[path] = bool(_SHARED_FIXTURE.search(text))
        return shares[path]

    class ByTestUnlessShared(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if module_shares(path) else nodeid

    return ByTestUnlessShared(config, log)


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
