"""Shared fixtures: every test runs with no keys and no network."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.http_server import FakeHTTPServer

_KEYS = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "TAVILY_API_KEY",
    "OPENWEATHER_API_KEY",
    "CHAT_PROVIDER",
    "CHAT_DB_PATH",
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
