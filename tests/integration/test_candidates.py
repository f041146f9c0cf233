"""Parallel answer candidates (seed 001): fan-out, quorum fan-in, the documented choice
rule, one candidate for a tool step, the chosen answer streamed, all kept in state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.tools import tool

from graph.nodes.candidates import score
from graph.session import TurnEvents, TurnRequest, load_thread, new_thread, open_app, run_request
from graph.settings import load_settings
from tests.fakes.chat import ScriptedModel, tool_call


def _app(tmp_path: Path, script: list, count: int = 3, tools: list | None = None):
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "c.sqlite"),
            "CHAT_PROVIDER": "offline",
            "ANSWER_CANDIDATES": str(count),
        }
    )
    model = ScriptedModel(script)
    app = open_app(
        settings, model=model, tools=tools or [], approval_required=frozenset(), index=None
    )
    return app, model


def _run(app, thread: str, text: str) -> tuple[list[dict[str, Any]], Any]:
    events: list[dict[str, Any]] = []
    out = run_request(app, TurnRequest(thread, message=text), TurnEvents("t", events.append))
    return events, out


def test_the_rule_prefers_an_answer_about_the_question_with_grounded_numbers() -> None:
    context = "The workshop budget is 300 dollars, approved on Monday."
    question = "What is the workshop budget?"
    right = score("The workshop budget is 300 dollars.", question, context)
    made_up = score("The workshop budget is 450 dollars.", question, context)
    off_topic = score("I like turtles and long walks on the beach.", question, context)
    terse = score("300", question, context)
    assert right > made_up > off_topic
    assert right > terse
    assert 0 <= off_topic <= right <= 1


def test_three_candidates_one_failing_the_best_is_kept_and_streamed(tmp_path: Path) -> None:
    best = "The workshop budget is 300 dollars, as you said on Monday."
    app, model = _app(
        tmp_path,
        [
            *["noted, thanks"] * 3,  # the first turn is asked three times too
            "I am not sure what you mean, sorry about that.",
            TimeoutError("slow candidate"),
            best,
        ],
    )
    thread = new_thread(app)
    _run(app, thread, "Note: the workshop budget is 300 dollars.")
    model.calls.clear()
    events, out = _run(app, thread, "What is the workshop budget?")
    assert len(model.calls) == 3  # fan-out: three calls for the one answer step
    assert out.answer == best and out.error_code is None
    tokens = [e["content"] for e in events if e["type"] == "token"]
    assert "".join(tokens) == best and len(tokens) > 1  # streamed in pieces, once
    view = load_thread(app, thread)
    assert view.turns[-1][1][-1].content == best
    kept = view.state["candidates"]
    assert len(kept) == 3 and sum(c["chosen"] for c in kept) == 1
    assert sum("error" in c for c in kept) == 1 and "TimeoutError" in next(
        c["error"] for c in kept if "error" in c
    )
    chosen = next(c for c in kept if c["chosen"])
    assert chosen["preview"] == best and chosen["score"] == max(c["score"] for c in kept)
    reported = next(
        e["metadata"]
        for e in events
        if e["type"] == "metadata" and e["metadata"]["kind"] == "candidates"
    )
    assert reported["items"] == kept


def test_all_candidates_failing_is_the_fallback_with_their_code(tmp_path: Path) -> None:
    app, _ = _app(tmp_path, [TimeoutError("a"), TimeoutError("b")], count=2)
    thread = new_thread(app)
    events, out = _run(app, thread, "hello")
    assert out.error_code == "LLM_TIMEOUT"
    assert events[-2]["type"] == "error" and events[-2]["error_code"] == "LLM_TIMEOUT"
    kept = load_thread(app, thread).state["candidates"]
    assert [c["chosen"] for c in kept] == [False, False] and all("error" in c for c in kept)


RUNS: list[str] = []


@tool
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    RUNS.append(expression)
    return "42"


def test_a_tool_step_uses_one_candidate(tmp_path: Path) -> None:
    RUNS.clear()
    script = [
        tool_call("calculator", {"expression": "6*7"}, "call_a"),
        tool_call("calculator", {"expression": "6*7"}, "call_b"),
        "6 times 7 is 42.",
        "The answer to 6*7 is 42.",
    ]
    app, model = _app(tmp_path, script, count=2, tools=[calculator])
    thread = new_thread(app)
    events, out = _run(app, thread, "What is 6*7?")
    assert RUNS == ["6*7"]  # one candidate's call ran, not both
    results = [
        e for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "tool_result"
    ]
    assert len(results) == 1
    assert len(model.calls) == 4  # two for the tool step, two for the answer
    assert out.answer in ("6 times 7 is 42.", "The answer to 6*7 is 42.")
    assert "".join(e["content"] for e in events if e["type"] == "token") == out.answer


def test_one_candidate_is_the_plain_path(tmp_path: Path) -> None:
    app, model = _app(tmp_path, ["just one"], count=1)
    thread = new_thread(app)
    _, out = _run(app, thread, "hello")
    assert out.answer == "just one" and len(model.calls) == 1
    assert "candidates" not in load_thread(app, thread).state


def test_the_setting_is_checked() -> None:
    with pytest.raises(ValueError, match="ANSWER_CANDIDATES"):
        _ = load_settings({"ANSWER_CANDIDATES": "5"}).candidate_count


def test_the_panel_shows_the_candidates(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.integration.test_app import _app as app_test
    from tests.integration.test_app import _say

    monkeypatch.setenv("ANSWER_CANDIDATES", "2")
    at = app_test()
    _say(at, "What is 15% of 2400?")
    assert not at.exception, at.exception
    panel = [e for e in at.expander if e.label.startswith("🗳️")]
    assert len(panel) == 1 and "2" in panel[0].label
    shown = " ".join(m.value for m in panel[0].markdown)
    assert "✅" in shown and shown.count("score") + shown.count("점수") == 2


def test_the_fan_out_and_fan_in_are_graph_nodes(tmp_path: Path) -> None:
    app, _ = _app(tmp_path, [], count=3)
    nodes = set(app.graph.get_graph().nodes)
    assert {"llm_node", "candidate_node", "quorum_node"} <= nodes
    plain, _ = _app(tmp_path / "one", [], count=1)
    assert not {"candidate_node", "quorum_node"} & set(plain.graph.get_graph().nodes)


def test_candidates_run_as_parallel_send_tasks_then_one_quorum(tmp_path: Path) -> None:
    import time

    def slow(text: str):
        def answer(_messages):
            time.sleep(0.6)
            return text

        return answer

    app, model = _app(
        tmp_path,
        [slow("The budget is 300 dollars."), slow("It is 300."), slow("No idea, sorry.")],
    )
    thread = new_thread(app)
    started = time.monotonic()
    events, out = _run(app, thread, "What is the budget?")
    elapsed = time.monotonic() - started
    assert len(model.calls) == 3
    assert elapsed < 1.5, elapsed  # three 0.6 s calls at once, not one after another
    nodes = [
        (e["metadata"]["kind"], e["metadata"]["node"])
        for e in events
        if e["type"] == "metadata" and e["metadata"]["kind"] in ("node_start", "node_end")
    ]
    starts = [n for k, n in nodes if k == "node_start"]
    assert starts.count("candidate_node") == 3 and starts.count("quorum_node") == 1
    # the fan-in runs after every candidate has ended (the superstep is its barrier)
    last_candidate = max(i for i, n in enumerate(nodes) if n == ("node_end", "candidate_node"))
    assert nodes.index(("node_start", "quorum_node")) > last_candidate
    assert out.answer == "The budget is 300 dollars."
    kept = load_thread(app, thread).state
    assert kept["candidate_replies"] == []  # the fan-in cleared the step's replies
    from graph.session import checkpoints

    ran = {c["metadata"].get("node") for c in checkpoints(app, thread)}
    assert {"llm_node", "candidate_node", "quorum_node"} <= ran
