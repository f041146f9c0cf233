"""Seed 001's job payload, malformed field by field: each is a 422 naming the field, and
nothing is made. The cases only read, so they share one `python -m service` process (a
module-scoped fixture: one start instead of fifteen; the suite's scheduler keeps this
module on one worker)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.service.conftest import Service, start_service
from tests.service.test_job_contract import HISTORY, _problem


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """One embedded service for the module's refused payloads."""
    svc = start_service(tmp_path_factory.mktemp("payloads"))
    yield svc
    svc.proc.stop()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"message": "a", "query": "b"}, ['exactly one of "message" or "query"']),
        ({}, ['exactly one of "message" or "query"']),
        (
            {"message": "a", "history": HISTORY[:3]},
            ["history", "ends with a user message"],
        ),
        (
            {"message": "a", "history": [HISTORY[1], HISTORY[0]]},
            ["history[0]", "'assistant'", "'user' was expected"],
        ),
        (
            {"message": "a", "history": [{"role": "system", "content": "x"}, HISTORY[1]]},
            ["history.0.role"],
        ),
        (
            {"message": "a", "history": [HISTORY[0], {"role": "assistant", "content": " "}]},
            ["must have text"],
        ),
        ({"message": "a", "history": [{"role": "user"}, HISTORY[1]]}, ["history.0.content"]),
        ({"message": "a", "turn_count": 0}, ["turn_count"]),
        ({"message": "a", "history": HISTORY, "turn_count": 2}, ["turn_count is 2", "turn 3"]),
        ({"message": "a", "user_id": "no spaces please"}, ["user_id", "not a user id"]),
        ({"message": "a", "metadata": ["not", "an", "object"]}, ["metadata"]),
        ({"message": "a", "metadata": {"k": "x" * 5000}}, ["metadata is", "at most 4096"]),
        (
            {"message": "a", "metadata": {f"k{i}": i for i in range(40)}},
            ["metadata has 40 keys"],
        ),
        ({"message": "a", "history": HISTORY * 51}, ["history has 102 turns", "at most 100"]),
        ({"message": "a", "priority": "high"}, ["priority"]),
    ],
)
def test_malformed_payload_fields_are_422_saying_which(
    service: Service, body: dict[str, Any], words: list[str]
) -> None:
    with service.client() as client:
        _problem(client.post("/chat/jobs", json=body), 422, "INVALID_REQUEST", *words)
        # nothing was made: no session appeared
        assert client.get("/api/sessions").json() == []
