"""Seed 001's metadata event has one JSON Schema (graph/session/metadata.schema.json): every
metadata event of real turns (the offline engine: a tool turn, a summary at turn 4, a
document question, a failed model call, an approval, candidates) validates against it, and
`progress` counts those turns' steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from graph.session import TurnEvents, TurnRequest, new_thread, open_app, run_request
from graph.session.events import SCHEMA_PATH, metadata_schema, progress
from graph.settings import load_settings
from tests.fakes.chat import ScriptedModel, approving_app

VALIDATOR = jsonschema.Draft202012Validator(metadata_schema())


def _settings(tmp_path: Path, **extra: str):
    return load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "m.sqlite"),
            "CHAT_PROVIDER": "offline",
            "INDEX_DIR": str(tmp_path / "index"),
            **extra,
        }
    )


def _run(app, request: TurnRequest, sink: TurnEvents | None = None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    run_request(app, request, sink or TurnEvents("trace-m", events.append))
    return events


def _valid(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every metadata event is valid; returns their metadata objects."""
    meta = [e for e in events if e["type"] == "metadata"]
    for event in meta:
        errors = sorted(VALIDATOR.iter_errors(event), key=str)
        assert not errors, f"{event['metadata']['kind']}: {[e.message for e in errors]}"
    return [e["metadata"] for e in meta]


def test_the_schema_is_a_valid_json_schema_naming_every_kind() -> None:
    jsonschema.Draft202012Validator.check_schema(metadata_schema())
    from typing import get_args

    from graph.session.events import MetadataKind

    kinds = set(get_args(MetadataKind))
    listed = set(metadata_schema()["$defs"]["metadata"]["properties"]["kind"]["enum"])
    assert listed == kinds
    assert SCHEMA_PATH.name == "metadata.schema.json"


def test_real_offline_turns_validate_and_progress_ends_whole(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path))  # with the bundled documents' index
    thread = new_thread(app)
    seen: set[str] = set()
    routes: list[str] = []
    # a tool turn (calculator), a document question (rag), two plain turns, then turn 4
    # summarizes turns 1-3
    for text in [
        "What is 15% of 2400?",
        "연차 휴가는 며칠인가요?",
        "회의는 3시에 시작해요",
        "장소는 본관 2층이에요",
    ]:
        events = _run(app, TurnRequest(thread, message=text))
        meta = _valid(events)
        kinds = [m["kind"] for m in meta]
        seen.update(kinds)
        routes += [m["route"] for m in meta if m["kind"] == "turn"]
        whole = progress(events)
        assert whole["done"] == whole["expected"] > 0 and whole["ratio"] == 1.0
        assert whole["done"] == kinds.count("node_end")
        # before `done`, the count is under way and never past what is expected
        for cut in range(1, len(events)):
            part = progress(events[:cut])
            assert 0 <= part["done"] <= part["expected"]
    assert {"node_start", "node_end", "tool_call", "tool_result", "summary", "turn"} <= seen
    assert routes[1] == "rag" and len(routes) == 4  # the document question was looked up


def test_the_tool_turn_expects_the_tool_step_and_the_answer_after_it(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path), index=None)
    thread = new_thread(app)
    events = _run(app, TurnRequest(thread, message="What is 15% of 2400?"))
    _valid(events)
    ends = [
        i
        for i, e in enumerate(events)
        if e["type"] == "metadata" and e["metadata"]["kind"] == "node_end"
    ]
    first_llm = next(i for i in ends if events[i]["metadata"]["node"] == "llm_node")
    after = progress(events[: first_llm + 1])
    # safeguard, summary, recall, llm done; the tool step and the answering step ahead
    assert (after["done"], after["expected"]) == (4, 6)
    assert progress(events)["expected"] == 6


def test_a_failed_model_call_and_a_refusal_validate(tmp_path: Path) -> None:
    model = ScriptedModel([TimeoutError("the model is slow")])
    app = open_app(_settings(tmp_path), model=model, tools=[], index=None)
    thread = new_thread(app)
    events = _run(app, TurnRequest(thread, message="hello there"))
    turn = [m for m in _valid(events) if m["kind"] == "turn"][0]
    assert turn["error_code"] == "LLM_TIMEOUT" and turn["status"] == "failed"
    assert [e["type"] for e in events][-2:] == ["error", "done"]
    refused = _run(app, TurnRequest(thread, message="   "))
    assert [e["type"] for e in refused] == ["error", "done"]
    assert progress(refused) == {
        "done": 0,
        "expected": 0,
        "ratio": 1.0,
        "current": None,
        "plan_steps": None,
    }


def test_an_approval_validates_and_progress_waits_at_the_tool(tmp_path: Path) -> None:
    app = approving_app(_settings(tmp_path), "c1", "gone")
    thread = new_thread(app)
    events: list[dict[str, Any]] = []
    sink = TurnEvents("trace-m", events.append)
    _run(app, TurnRequest(thread, message="delete /tmp/a"), sink)
    kinds = [m["kind"] for m in _valid(events)]
    assert "approval_request" in kinds
    paused = progress(events)
    assert paused["current"] == "tool_node" and paused["done"] < paused["expected"]
    _run(app, TurnRequest(thread, kind="resume", action="approve", tool_call_id="c1"), sink)
    _valid(events)
    whole = progress(events)
    assert whole["done"] == whole["expected"] == 6  # the resumed tool step counted once


def test_candidates_validate(tmp_path: Path) -> None:
    model = ScriptedModel(["One answer about the budget.", TimeoutError("slow")])
    app = open_app(_settings(tmp_path, ANSWER_CANDIDATES="2"), model=model, tools=[], index=None)
    thread = new_thread(app)
    meta = _valid(_run(app, TurnRequest(thread, message="What is the budget?")))
    items = next(m for m in meta if m["kind"] == "candidates")["items"]
    assert len(items) == 2 and sum(i["chosen"] for i in items) == 1


def _event(meta: dict[str, Any], seq: int = 1) -> dict[str, Any]:
    return {"type": "metadata", "trace_id": "t", "seq": seq, "metadata": meta}


def test_a_supervisor_turn_validates_and_its_plan_steps_are_counted(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path, AGENT_MODE="supervisor"))
    thread = new_thread(app)
    events = _run(app, TurnRequest(thread, message="연차는 며칠이고 급여일은 언제야?"))
    meta = _valid(events)
    [plan] = [m for m in meta if m["kind"] == "plan"]
    steps = [m for m in meta if m["kind"] == "step"]
    assert len(plan["steps"]) == 2 and [s["status"] for s in steps].count("done") == 2
    whole = progress(events)
    assert whole["plan_steps"] == 2 and whole["done"] == whole["expected"]
    app.persistence.close()


def test_the_worker_and_supervisor_kinds_validate_and_count() -> None:
    restarted = _event({"kind": "restarted", "attempt": 2, "reason": "the worker stopped"})
    asked = {"agent": "web", "question": "q1", "category": "general"}
    plan = _event(
        {
            "kind": "plan",
            "goal": "two things",
            "parts": ["q1", "q2"],
            "category": "general",
            "steps": [asked, {**asked, "agent": "data", "question": "q2"}],
            "left_out": 0,
            "how": "rule",
        },
        2,
    )
    step = _event({"kind": "step", "n": 1, **asked, "status": "done", "sources": []}, 3)
    running = _event(
        {"kind": "step", "n": 2, **asked, "agent": "data", "status": "running", "sources": []},
        4,
    )
    for event in (restarted, plan, step, running):
        VALIDATOR.validate(event)
    now = progress([restarted, plan, step, running])
    assert now["plan_steps"] == 2 and now["current"] == "step 2: data"
    # one plan step of two done; the single agent's four nodes still ahead
    assert (now["done"], now["expected"]) == (1, 6)
    # a restart starts the count over
    again = progress([plan, step, _event({"kind": "restarted", "attempt": 2, "reason": "x"})])
    assert (again["done"], again["plan_steps"]) == (0, None)


@pytest.mark.parametrize(
    "meta",
    [
        {"kind": "node_start"},  # no node
        {"kind": "node_end", "node": "llm_node", "extra": 1},  # a field the schema lacks
        {"kind": "teleport"},  # an unknown kind
        {"kind": "tool_result", "tool_call_id": "c", "tool": "x", "content": "", "status": "ok"},
        {"kind": "turn", "thread_id": "t", "turn": 1},  # missing the outcome's fields
    ],
)
def test_events_off_the_schema_are_refused(meta: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(_event(meta))
