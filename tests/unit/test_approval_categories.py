"""Seed 004's approval categories (`graph.approval`): contract, payment, sensitive, or none;
and a client's decision in each of its shapes."""

from __future__ import annotations

import pytest

from graph.approval import (
    LOCAL_TOOLS,
    Answer,
    Category,
    category_of,
    classify_call,
    decision,
    read_answer,
)
from graph.errors import InputError
from graph.lexicon import read_table
from graph.nodes.tools import approval_category
from graph.wording import CATEGORIES, KINDS, words


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("python_repl", {"code": "sign(doc)"}, "이 계약서에 서명해 줘"),
        ("web_search", {"query": "임대차 계약"}, "임대차 계약 해지해 주세요"),
        ("web_search", {"query": "lease"}, "Please sign the lease for me."),
        ("python_repl", {"code": "api.terminate()"}, "Terminate my contract with the gym."),
        ("web_search", {"query": "약관"}, "서비스 약관에 동의해 줘"),
    ],
)
def test_contract(tool: str, args: dict, message: str) -> None:
    assert category_of(tool, args, message) is Category.CONTRACT


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("web_search", {"query": "항공권"}, "제주 항공권 구매해 줘"),
        ("python_repl", {"code": "bank.send(50000)"}, "지수에게 5만 원 송금해 줘"),
        ("get_weather", {"city": "Seoul"}, "Transfer money to my landlord."),
        ("web_search", {"query": "pay 4111 1111 1111 1111"}, "hello"),  # a card number (Luhn)
        ("web_search", {"query": "card number: 1234"}, ""),  # a labelled card field
        ("python_repl", {"code": "x"}, "결제 해 줘"),  # spaces in Korean do not matter
    ],
)
def test_payment(tool: str, args: dict, message: str) -> None:
    assert category_of(tool, args, message) is Category.PAYMENT


@pytest.mark.parametrize(
    "args",
    [
        {"query": "900101-1234567 조회"},  # a resident registration number
        {"query": "010-1234-5678 누구 번호"},  # a phone number
        {"query": "mail minji@example.com"},  # an e-mail address
        {"query": "my password is hunter2"},
        {"query": "비밀번호: abc"},
        {"query": "계좌번호 110-123-456789"},
        {"query": "진단명: 제2형 당뇨"},
        {"query": "I was diagnosed with asthma"},
        {"options": {"passport number": "M1234567"}},  # nested arguments count too
    ],
)
def test_sensitive(args: dict) -> None:
    assert category_of("web_search", args, "찾아 줘") is Category.SENSITIVE


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("web_search", {"query": "서울 날씨"}, "서울 날씨 알려줘"),
        ("python_repl", {"code": "print(6 * 7)"}, "이 코드 실행해줘"),
        ("web_search", {"query": "계약 해지 조건"}, "계약 해지 조건이 뭐야?"),  # asks, acts not
        ("web_search", {"query": "password reset"}, "How do I reset a password?"),  # no value
        ("web_search", {"query": "diabetes diagnosis criteria"}, ""),
        ("web_search", {"query": "AES 암호화 방식"}, ""),
        ("web_search", {"query": "contractor"}, "Design the contractor page"),
        ("web_search", {"query": "taxes"}, "How do I pay taxes in Korea?"),
    ],
)
def test_an_ordinary_call_has_no_category(tool: str, args: dict, message: str) -> None:
    assert category_of(tool, args, message) is None


def test_local_tools_have_nothing_to_approve() -> None:
    """They only read or compute here: a card number in a sum is no payment made."""
    for tool in LOCAL_TOOLS:
        assert category_of(tool, {"expression": "4111 1111 1111 1111"}, "결제해 줘") is None
    assert category_of(None, {}, "결제해 줘") is Category.PAYMENT  # a step, no tool


def test_the_first_category_wins_and_the_reason_never_holds_the_value() -> None:
    found = classify_call("web_search", {"query": "카드 4111 1111 1111 1111"}, "계약서에 서명해")
    assert found == (Category.CONTRACT, "asks to '서명해'")
    assert classify_call("web_search", {"q": "900101-1234567"}) == (Category.SENSITIVE, "RRN")
    assert classify_call("web_search", {"q": "비밀번호는 s3cret"}) == (
        Category.SENSITIVE,
        "labelled '비밀번호'",
    )


def test_requests_keep_the_reasons_asked_before() -> None:
    """python_repl always asks (code), an outbound call after untrusted text too."""
    code = frozenset({"python_repl"})
    assert approval_category("python_repl", {"code": "1"}, "실행해", code) is Category.CODE
    assert approval_category("python_repl", {"code": "1"}, "결제해 줘", code) is Category.PAYMENT
    outbound = approval_category("web_search", {"query": "x"}, "", code, "data_in_context")
    assert outbound is Category.OUTBOUND
    assert approval_category("web_search", {"query": "x"}, "", code) is None
    assert approval_category("calculator", {"expression": "1+1"}, "", code) is None


def test_the_word_list_is_data() -> None:
    rows = read_table("approval.tsv", 3)
    assert {r[0] for r in rows} == CATEGORIES
    assert {r[1] for r in rows} <= KINDS
    assert "pay" in words("payment", "verb") and "서명" in words("contract", "noun_ko")


@pytest.mark.parametrize(
    ("body", "answer"),
    [
        ({"approve": True}, Answer("approve")),
        ({"approve": False}, Answer("reject")),
        ({"response": "그냥 42라고 해"}, Answer("respond", response="그냥 42라고 해")),
        ({"response": {"code": "print(1)"}}, Answer("edit", {"code": "print(1)"})),
        ({"action": "approve"}, Answer("approve")),
        ({"action": "reject", "args": None}, Answer("reject")),
        ({"action": "edit", "args": {"code": "x"}}, Answer("edit", {"code": "x"})),
        ({"action": "respond", "response": "아니"}, Answer("respond", response="아니")),
    ],
)
def test_a_decision_in_each_shape(body: dict, answer: Answer) -> None:
    assert decision(**body) == answer


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({}, "exactly one"),
        ({"approve": True, "response": "x"}, "exactly one"),
        ({"response": "  "}, "empty"),
        ({"action": "edit"}, "edited arguments"),
        ({"action": "respond"}, "as text"),
        ({"action": "approve", "approve": True}, "not both"),
        ({"action": "reject", "response": "x"}, 'no "response"'),
        ({"action": "later"}, "Unknown decision"),
        ({"approve": True, "args": {}}, '"args" goes with'),
    ],
)
def test_an_unclear_decision_is_refused(body: dict, says: str) -> None:
    with pytest.raises(InputError, match=says):
        decision(**body)


def test_a_resume_value_reads_back_and_anything_else_is_a_reject() -> None:
    for answer in (Answer("approve"), Answer("edit", {"a": 1}), Answer("respond", response="r")):
        assert read_answer(answer.resume_value()) == answer
    assert read_answer({"action": "approve", "args": None}) == Answer("approve")  # older value
    assert read_answer(None) == Answer("reject")
    assert read_answer({"action": "respond", "response": ""}) == Answer("reject")
    assert read_answer({"action": "explode"}) == Answer("reject")
