"""Tool calls written as text, chat-template tokens and prompt echoes (graph.markup)."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from graph.markup import MarkupGate, has_markup, read_calls, strip_markup


class Calc(BaseModel):
    expression: str


class Weather(BaseModel):
    city: str


SCHEMAS: dict[str, type[BaseModel] | None] = {
    "calculator": Calc,
    "get_weather": Weather,
    "get_current_datetime": None,
}

CALC = '{"name": "calculator", "arguments": {"expression": "37 * 12 + 5"}}'


@pytest.mark.parametrize(
    ("text", "form"),
    [
        (f"<tool_call>\n{CALC}\n</tool_call>", "tag"),
        (CALC, "json"),
        (f"```json\n{CALC}\n```", "fence"),
        (f"```\n{CALC}\n```", "fence"),
        ('{"name": "calculator", "parameters": {"expression": "37 * 12 + 5"}}', "json"),
        ('{"name": "calculator", "arguments": "{\\"expression\\": \\"37 * 12 + 5\\"}"}', "json"),
        ('{"type": "function", "function": ' + CALC + "}", "json"),
        ('functions.calculator:{"expression": "37 * 12 + 5"}', "functions"),
    ],
)
def test_each_common_form_is_one_runnable_call(text: str, form: str) -> None:
    found = read_calls(text, SCHEMAS)
    assert found.runnable, found.problems()
    assert [(c.name, c.args, c.form) for c in found.calls] == [
        ("calculator", {"expression": "37 * 12 + 5"}, form)
    ]
    assert found.text == ""


def test_several_calls_in_a_row_and_a_list_are_all_taken() -> None:
    two = f'<tool_call>{CALC}</tool_call>\n<tool_call>{{"name": "get_weather", "arguments": {{"city": "Seoul"}}}}</tool_call>'
    assert [c.name for c in read_calls(two, SCHEMAS).calls] == ["calculator", "get_weather"]
    listed = f'```json\n[{CALC}, {{"name": "get_current_datetime", "arguments": {{}}}}]\n```'
    found = read_calls(listed, SCHEMAS)
    assert found.runnable
    assert [c.name for c in found.calls] == ["calculator", "get_current_datetime"]
    bare = f'{CALC}\n{{"name": "get_weather", "arguments": {{"city": "Busan"}}}}'
    assert [c.args for c in read_calls(bare, SCHEMAS).calls][1] == {"city": "Busan"}


def test_the_text_around_a_call_stays() -> None:
    found = read_calls(f"Let me work that out.\n<tool_call>{CALC}</tool_call>", SCHEMAS)
    assert found.runnable
    assert found.text == "Let me work that out."


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"name": "leave_policy", "arguments": {"employee_id": "HB-1"}}', "no such tool"),
        ('{"name": "calculator", "arguments": {"expr": "3*5"}}', "arguments refused"),
        ('{"name": "calculator", "arguments": {"expression": "3*5", "x": 1}}', "arguments refused"),
        ('{"name": "get_weather", "arguments": {"city": ["Seoul"]}}', "arguments refused"),
        ('{"name": "calculator", "arguments": "not json"}', "not JSON"),
    ],
)
def test_a_call_to_no_bound_tool_or_with_bad_arguments_cannot_run(text: str, problem: str) -> None:
    found = read_calls(text, SCHEMAS)
    assert found.found and not found.runnable
    assert problem in "; ".join(found.problems())
    assert found.text == ""  # never shown


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "calculator", "arguments": {"expression": "123456*1000',
        '{"name": "calculator", "arguments": {"expression": "1+',
        f"<tool_call>{CALC}",  # the tag never closes
        f"```json\n{CALC}",  # nor the fence
        "Sure: <tool_call>\n",
        'functions.calculator:{"expression": "2*',
    ],
)
def test_a_cut_or_unterminated_call_never_runs_and_is_never_shown(text: str) -> None:
    found = read_calls(text, SCHEMAS)
    assert found.cut and not found.runnable
    assert "calculator" not in found.text and "tool_call" not in found.text


@pytest.mark.parametrize(
    "text",
    [
        "Here is code:\n```python\nprint({'name': 1})\n```\nDone.",
        "The set {a, b} has a < b.",
        '{"name": "Kim", "age": 3}',  # data, not a call: no arguments, no bound tool
        "See [1] and [2] (출처: 가이드 > 휴가).",
        '```json\n{"city": "Seoul", "temp": 3}\n```',
    ],
)
def test_text_that_is_not_markup_is_left_as_it_is(text: str) -> None:
    found = read_calls(text, SCHEMAS)
    assert not found.found
    assert found.text == text
    assert not has_markup(text)


def test_template_tokens_and_prompt_echoes_are_taken_out() -> None:
    assert strip_markup("The answer is 15.<|im_end|>") == "The answer is 15."
    assert (
        strip_markup("<start_of_turn>model\n답은 3입니다.<end_of_turn>") == "model\n답은 3입니다."
    )
    assert strip_markup("[INST] hi [/INST] Hello") == "hi  Hello"
    echo = "당신은 유용한 AI 어시스턴트입니다.\n휴가는 15일입니다."
    assert strip_markup(echo) == "휴가는 15일입니다."
    assert has_markup(echo)
    # a sentence the model is told to say word for word is an answer, not an echo
    assert strip_markup("관련 문서를 찾지 못했습니다.") == "관련 문서를 찾지 못했습니다."


def _fed(text: str, rng: random.Random) -> tuple[list[str], str]:
    gate, out, i = MarkupGate(), [], 0
    while i < len(text):
        step = rng.randint(1, 7)
        out.append(gate.feed(text[i : i + step]))
        i += step
    out.append(gate.close())
    return out, gate.shown


@pytest.mark.parametrize(
    "text",
    [
        f"결과를 계산해 볼게요. <tool_call>{CALC}</tool_call> 잠시만요.",
        f"```json\n{CALC}\n```",
        f"{CALC}\n{CALC}",
        '답: {"name": "calculator", "arguments": {"expression": "1+',
        "The answer is 444.<|im_end|>",
        "Code:\n```python\nprint(1 < 2)\n```\nand {x} is fine [1].",
    ],
)
def test_the_gate_never_lets_markup_out_however_the_reply_is_cut(text: str) -> None:
    rng = random.Random(7)
    for _ in range(25):
        pieces, shown = _fed(text, rng)
        streamed = "".join(pieces)
        assert '"name"' not in streamed and "tool_call" not in streamed
        assert "<|im_end|>" not in streamed
        assert streamed.strip() == strip_markup(text)
        assert shown.strip() == strip_markup(text)


def test_the_gate_lets_plain_text_out_as_it_comes() -> None:
    gate = MarkupGate()
    assert gate.feed("안녕하세요, ") == "안녕하세요, "
    assert gate.feed("반갑습니다.") == "반갑습니다."
    assert gate.feed(" {") == " "  # an object may be starting: held
    assert gate.feed("x}") == "{x}"  # it closed as no call: let out
    assert gate.close() == ""
