"""The lost-facts check: what a summary kept of its source turns' facts, and what it dropped."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage

from graph.memory.entities import extract_entities
from graph.memory.facts import check_facts, extract_facts, normalize, turn_facts

TURNS = [
    [
        HumanMessage(
            "워크숍은 3월 15일 강릉에서 하고, 예산은 1억원이에요. 담당은 오세훈 과장님입니다."
        ),
        AIMessage("알겠습니다. 3월 15일 강릉 워크숍으로 준비하겠습니다."),
    ],
    [
        HumanMessage("My employee ID is HX-4418 and my e-mail is jiho@example.com."),
        AIMessage("Noted. I will use HX-4418 on the form."),
    ],
    [
        HumanMessage("참석자는 12명이고 버스는 오전 7시 30분에 출발해요. 문의는 010-2345-6789로."),
        AIMessage("네, 12명 기준으로 버스를 예약하겠습니다."),
    ],
]
SUMMARY = "사용자: 워크숍은 강릉, 담당 오세훈. ID HX-4418, 참석 12명, 버스 오전 7시 30분 출발."


def test_facts_of_every_kind_are_found_once() -> None:
    facts = turn_facts(1, TURNS)
    assert [(f.text, f.kind, f.turn) for f in facts] == [
        ("3월 15일", "date", 1),
        ("1억원", "amount", 1),
        ("오세훈", "name", 1),
        ("HX-4418", "code", 2),
        ("jiho@example.com", "email", 2),
        ("12명", "number", 3),
        ("오전 7시 30분", "time", 3),
        ("010-2345-6789", "phone", 3),
    ]


def test_the_lost_facts_list_of_a_known_summary() -> None:
    record = check_facts(turn_facts(1, TURNS), SUMMARY)
    dropped = [record["facts"][i][0] for i in record["dropped"]]
    assert dropped == ["3월 15일", "1억원", "jiho@example.com", "010-2345-6789"]
    assert (record["kept"], record["total"]) == (4, 8)


def test_kept_means_the_normalized_text_occurs() -> None:
    assert normalize(" $10,000 ") == normalize("$10000") == "$10000"
    record = check_facts(
        extract_facts("The budget is $10,000 for June 9, 2026.", 4), "budget 10000 usd, JUNE 9 2026"
    )
    assert record["dropped"] == [0]  # "$10000" is not in the summary; the date is, case-folded


def test_seed_003_examples_are_entities_and_facts() -> None:
    assert {
        (e["key"], e["value"])
        for e in extract_entities("provider는 aws이고 budget $10,000이에요", 3)
    } >= {
        ("provider", "aws"),
        ("budget", "$10,000"),
    }
    assert [f.text for f in extract_facts("top_service: ec2", 7)] == ["ec2"]
    assert [f.text for f in extract_facts("2번째 안건입니다", 1)] == []  # an ordinal is not a fact
