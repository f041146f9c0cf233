"""Fixtures of the app tests: a fresh database and the offline engine for each test (the
`store` fixture, both backends, is in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
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
