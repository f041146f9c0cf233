"""Fixtures of the app tests: a fresh database and the offline engine for each test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import streamlit as st


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The app's database path; the app's cached resources start fresh."""
    path = tmp_path / "chat.sqlite"
    monkeypatch.setenv("CHAT_DB_PATH", str(path))
    monkeypatch.setenv("CHAT_PROVIDER", "offline")
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    st.cache_resource.clear()
    yield path
    st.cache_resource.clear()


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
