"""graph.structured without a network: the tolerant reader, the prompt's JSON shape, what
counts as a refusal, the level chain with fake models, and the turn's decision records."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from graph.nodes.safeguard import SafeguardDecision
from graph.retrieval.loop import JudgementSchema
from graph.routing import RouteDecision
from graph.state import this_turn
from graph.structured import (
    LEVEL_MEMORY,
    ask_structured,
    collect_decisions,
    decision_records,
    read_json,
    refusal,
    repair_json,
    with_shape,
)
from graph.summarizer import EntityItem, EntityList


@pytest.fixture(autouse=True)
def _fresh_levels() -> Iterator[None]:
    LEVEL_MEMORY.forget()
    yield
    LEVEL_MEMORY.forget()


# --- the reader ------------------------------------------------------------------------


def test_bare_json_is_read_as_is() -> None:
    value, exact, problem = read_json('{"route": "rag", "reason": "docs"}', RouteDecision)
    assert value == RouteDecision(route="rag", reason="docs") and exact and problem == ""


@pytest.mark.parametrize(
    "text",
    [
        'Sure! Here it is:\n```json\n{"route": "rag", "reason": "docs"}\n```\nHope it helps.',
        '```\n{"route": "rag", "reason": "docs"}\n```',
        'I would say {"route": "rag", "reason": "docs"} since it asks about rules.',
        "{'route': 'rag', 'reason': 'docs'}",
        '{"route": "rag", "reason": "docs",}',
        '{route: "rag", reason: "docs"}',
        'Options are {rag} or {agent}. Answer: {"route": "rag", "reason": "docs"}',
        '{"RouteDecision": {"route": "rag", "reason": "docs"}}',
        '{"Route": "RAG", "Reason": "docs"}',
    ],
)
def test_json_in_fences_prose_or_near_json_is_read_as_text(text: str) -> None:
    value, exact, _ = read_json(text, RouteDecision)
    assert value is not None and value.route == "rag" and value.reason == "docs"
    assert exact == text.startswith('{"R')  # only the bare object is exact JSON


def test_text_inside_values_is_kept_as_written() -> None:
    text = "{'route': 'agent', 'reason': \"it's a greeting, {not} a question\"}"
    value, _, _ = read_json(text, RouteDecision)
    assert value == RouteDecision(route="agent", reason="it's a greeting, {not} a question")
    assert repair_json("{'a': 'say \"hi\"', 'b': True, 'c': None,}") == (
        '{"a": "say \\"hi\\"", "b": true, "c": null}'
    )


def test_wrong_types_are_coerced_where_the_schema_leaves_no_doubt() -> None:
    text = (
        '{"ranked_indices": "2", "is_sufficient": "TRUE", "missing": null,'
        ' "next_action": "null", "refined_query": null, "confidence": "0.8"}'
    )
    value, exact, _ = read_json(text, JudgementSchema)
    assert exact and value == JudgementSchema(
        ranked_indices=[2],
        is_sufficient=True,
        missing=[],
        next_action=None,
        refined_query="",
        confidence=0.8,
    )
    value, _, _ = read_json('[{"key": "budget", "value": 10000, "turn": "3"}]', EntityList)
    assert value == EntityList(entities=[EntityItem(key="budget", value="10000", turn=3)])
    value, _, _ = read_json('{"label": " pass "}', SafeguardDecision)
    assert value == SafeguardDecision(label="PASS", reason="")


def test_missing_lists_and_strings_are_empty_but_a_missing_choice_is_not_guessed() -> None:
    text = '{"ranked_indices": [1], "is_sufficient": false, "confidence": 0.4}'
    value, _, _ = read_json(text, JudgementSchema)
    assert value is not None and value.missing == [] and value.next_action is None
    assert value.refined_query == ""
    value, _, problem = read_json('{"ranked_indices": [1], "confidence": 0.4}', JudgementSchema)
    assert value is None and "is_sufficient" in problem
    value, _, problem = read_json('{"reason": "no route given"}', RouteDecision)
    assert value is None and "route" in problem


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("I think this one is probably fine.", "no JSON object"),
        ("", "empty"),
        ('```json\n{"route": "rag", "rea', "no JSON object"),  # cut off mid-object
        ('{"route": "maybe", "reason": "x"}', "route"),  # not one of the Literal's values
        ('{"foo": 1}', "none of RouteDecision's fields"),
    ],
)
def test_what_cannot_be_read_says_why(text: str, problem: str) -> None:
    value, exact, why = read_json(text, RouteDecision)
    assert value is None and not exact and problem in why


# --- the prompt ------------------------------------------------------------------------


def test_the_json_shape_joins_the_system_message_or_leads_the_messages() -> None:
    routed = with_shape([SystemMessage("분류하세요."), HumanMessage("질문")], RouteDecision)
    assert len(routed) == 2 and routed[1].content == "질문"
    system = str(routed[0].content)
    assert system.startswith("분류하세요.") and "RouteDecision" in system
    assert '{"route": "rag" | "agent", "reason": string}' in system
    assert "- route: rag: needs the company documents" in system
    listed = with_shape([HumanMessage("대화")], EntityList)
    assert isinstance(listed[0], SystemMessage) and listed[1].content == "대화"
    assert '{"entities": [{"key": string, "value": string, "turn": integer}, ...]}' in str(
        listed[0].content
    )
    judged = str(with_shape([HumanMessage("q")], JudgementSchema)[0].content)
    assert '"next_action": "get_section" | "search_again" | null' in judged


# --- refusals --------------------------------------------------------------------------


class HTTPError(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"Error code: {status} - {body}")
        self.status_code = status
        self.body = body


LLAMA = {
    "error": {
        "message": "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
        "  Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema']"
    }
}


@pytest.mark.parametrize(
    ("exc", "refused"),
    [
        (HTTPError(500, LLAMA), True),
        (HTTPError(400, {"error": {"message": "json_schema is not supported"}}), True),
        (HTTPError(422, {"detail": "Unsupported value for response_format"}), True),
        (HTTPError(500, {"error": {"message": "fake 500"}}), False),
        (HTTPError(400, {"error": {"message": "context length exceeded"}}), False),
        (HTTPError(429, {"error": {"message": "rate limited"}}), False),
        (TimeoutError("read timed out"), False),
        (ConnectionError("connection refused"), False),
    ],
)
def test_a_refusal_is_an_http_error_naming_the_response_format(
    exc: Exception, refused: bool
) -> None:
    assert (refusal(exc) is not None) is refused


def test_a_wrapped_refusal_is_still_one() -> None:
    try:
        try:
            raise HTTPError(500, LLAMA)
        except HTTPError as inner:
            raise RuntimeError("model call failed") from inner
    except RuntimeError as outer:
        assert refusal(outer) is not None and "HTTP 500" in str(refusal(outer))


# --- the chain with models that are not ChatOpenAI -------------------------------------


class Model:
    """A chat model stand-in: structured output and plain text scripted."""

    def __init__(self, structured: Any = None, text: str = "", refuse: bool = False) -> None:
        self.structured, self.text, self.refuse = structured, text, refuse
        self.calls: list[str] = []

    def with_structured_output(self, schema: object) -> Model:
        if self.refuse:
            raise NotImplementedError("no structured output")
        self.calls.append("structured")
        return _Structured(self)

    def invoke(self, messages: object) -> AIMessage:
        self.calls.append("text")
        if isinstance(self.text, Exception):
            raise self.text
        return AIMessage(self.text)


class _Structured:
    def __init__(self, model: Model) -> None:
        self.model = model

    def invoke(self, messages: object) -> Any:
        if isinstance(self.model.structured, Exception):
            raise self.model.structured
        return self.model.structured


def _ask(model: Model, schema: type = RouteDecision) -> Any:
    return ask_structured(model, schema, [HumanMessage("q")], decision="router")  # type: ignore[arg-type]


def test_a_models_own_structured_output_is_used_first() -> None:
    model = Model(structured=RouteDecision(route="rag", reason="model"))
    answer = _ask(model)
    assert (answer.value.route, answer.how, answer.fallback) == ("rag", "json_schema", False)
    assert model.calls == ["structured"] and answer.requests == 1
    model = Model(structured={"route": "AGENT", "reason": 3})  # a dict: validated, coerced
    assert _ask(model).value == RouteDecision(route="agent", reason="3")


def test_a_model_without_structured_output_is_asked_for_text() -> None:
    model = Model(refuse=True, text='Sure:\n```json\n{"route": "rag", "reason": "x"}\n```')
    answer = _ask(model)
    assert (answer.value.route, answer.how, answer.requests) == ("rag", "text", 1)
    assert model.calls == ["text"]
    assert _ask(model).how == "text" and model.calls == ["text", "text"]  # remembered


def test_a_failure_that_is_no_refusal_leaves_the_rule_to_decide_without_asking_again() -> None:
    model = Model(structured=TimeoutError("read timed out"), text='{"route": "rag"}')
    answer = _ask(model)
    assert answer.value is None and answer.how == "rule" and answer.fallback
    assert "json_schema call failed" in answer.reason and "timed out" in answer.reason
    assert model.calls == ["structured"]  # not asked again another way
    assert _ask(model).how == "rule" and model.calls == ["structured", "structured"]


def test_an_unreadable_answer_leaves_the_rule_to_decide() -> None:
    model = Model(structured=AIMessage("I think it is about documents."))
    answer = _ask(model)
    assert answer.how == "rule" and "no valid RouteDecision" in answer.reason


def test_a_refusal_steps_down_once_and_is_remembered() -> None:
    model = Model(structured=HTTPError(500, LLAMA), text='{"route": "rag", "reason": "x"}')
    first = _ask(model)
    assert (first.how, first.requests) == ("text", 2)  # no json_object for a non-OpenAI model
    assert model.calls == ["structured", "text"]
    second = _ask(model)
    assert (second.how, second.requests) == ("text", 1) and model.calls[2:] == ["text"]


# --- the turn's records ----------------------------------------------------------------


def test_decisions_are_collected_in_the_context_that_asked() -> None:
    good = Model(structured=RouteDecision(route="agent", reason="x"))
    bad = Model(structured=AIMessage("no idea"))
    _ask(good)  # outside any collection: not recorded anywhere
    with collect_decisions() as made:
        _ask(good)
        _ask(bad)
    assert decision_records(made, 7) == [
        {"turn": 7, "decision": "router", "how": "json_schema", "fallback": False},
        {
            "turn": 7,
            "decision": "router",
            "how": "rule",
            "fallback": True,
            "reason": made[1].reason,
        },
    ]


def test_the_decisions_key_keeps_only_the_latest_turn() -> None:
    first = [{"turn": 1, "decision": "router"}]
    same = [{"turn": 1, "decision": "rerank"}]
    later = [{"turn": 2, "decision": "safeguard"}]
    assert this_turn(first, same) == first + same
    assert this_turn(first + same, later) == later
    assert this_turn(later, []) == later and this_turn(None, None) == []
