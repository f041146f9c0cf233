"""The service's own docs are true (issue 44, item 9): the body Swagger offers for
`POST /chat/jobs` is accepted, and the endpoint table of docs/service-api.md (moved there
from the README by issue 46) lists every route."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx

from tests.service.conftest import ROOT, start_service

WORDINGS = json.loads((ROOT / "tests/fixtures/issue44/wordings.json").read_text("utf-8"))[
    "item9_service"
]


def _swagger_bodies(openapi: dict) -> list[dict]:
    """The example bodies the docs show for `POST /chat/jobs` (Swagger's first one first)."""
    content = openapi["paths"]["/chat/jobs"]["post"]["requestBody"]["content"]
    media = content["application/json"]
    bodies = [e["value"] for e in (media.get("examples") or {}).values()]
    if "example" in media:
        bodies.insert(0, media["example"])
    return bodies


def test_the_bodies_the_docs_offer_for_a_job_are_accepted(tmp_path: Path) -> None:
    svc = start_service(tmp_path)
    try:
        openapi = httpx.get(f"{svc.url}/openapi.json", timeout=10).json()
        bodies = _swagger_bodies(openapi)
        # Swagger fills the box with the first example; without one it makes a body of
        # the schema's first choices, whose `history` ends with a user message (422)
        assert bodies, "no example body for POST /chat/jobs"
        for body in [*bodies, *WORDINGS["job_bodies"]]:
            answer = httpx.post(f"{svc.url}/chat/jobs", json=body, timeout=30)
            assert answer.status_code == 202, (body, answer.text)
    finally:
        svc.proc.stop()


_ROW = re.compile(
    r"^\| `((?:GET|POST|PATCH|DELETE|PUT|WS)(?:/(?:GET|POST|PATCH|DELETE|PUT))*) (/[^`\s]*)", re.M
)


def _table_routes(page: str) -> set[tuple[str, str]]:
    """(method, path with its parameters unnamed) of every row of the endpoint table."""
    table = page.split("| endpoint | what it does |", 1)[1].split("\n\n", 1)[0]
    rows: set[tuple[str, str]] = set()
    for methods, path in _ROW.findall(table):
        for method in methods.split("/"):
            rows.add((method, re.sub(r"\{[^}]+\}", "{}", path.split("?")[0])))
    # a row may name two paths ("`GET /api/sessions`, `GET/PATCH/DELETE /api/sessions/{id}`")
    for methods, path in re.findall(
        r"`((?:GET|POST|PATCH|DELETE)(?:/(?:GET|POST|PATCH|DELETE))*) (/[^`\s]*)`", table
    ):
        for method in methods.split("/"):
            rows.add((method, re.sub(r"\{[^}]+\}", "{}", path.split("?")[0])))
    return rows


def test_the_docs_endpoint_table_lists_every_route() -> None:
    from fastapi.routing import APIRoute, APIWebSocketRoute

    from service.api import create_app

    listed = _table_routes((ROOT / "docs/service-api.md").read_text("utf-8"))
    missing = []
    for route in create_app().routes:
        if isinstance(route, APIRoute) and route.include_in_schema:
            methods = sorted(route.methods or ())
        elif isinstance(route, APIWebSocketRoute):
            methods = ["WS"]
        else:
            continue
        path = re.sub(r"\{[^}]+\}", "{}", route.path)
        missing += [f"{m} {route.path}" for m in methods if (m, path) not in listed]
    assert missing == []
