"""A user's own facts (issue 44, item 4), through the offline graph as the app runs it.

Places, family, dates and ids the user states are answered back while the turn is raw
and after the turns were summarized; the extractive summary keeps them; a summary card's
facts are the conversation's (never the words of a passage an answer quoted), and a fact
it counts as kept is in the summary. The wordings are issue 44's sets
(`tests/fixtures/issue44/wordings.json`), written before the change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.memory.facts import normalize
from graph.session import lost_facts, new_thread, open_app, run_turn
from graph.session.app import thread_values
from graph.settings import load_settings

WORDINGS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures/issue44/wordings.json").read_text("utf-8")
)["item4_facts"]
IDS = [c["fact"] for c in WORDINGS["conversations"]]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("facts")
    app = open_app(
        load_settings(
            {
                "CHAT_DB_PATH": str(tmp / "a.sqlite"),
                "CHAT_PROVIDER": "offline",
                "INDEX_DIR": str(tmp / "index"),
            }
        )
    )
    yield app
    app.persistence.close()


def _talk(app, messages: list[str]) -> tuple[str, list[str]]:
    thread = new_thread(app)
    answers = [
        run_turn(app, thread, text, turn_count=n, compression_rate=0.3).answer
        for n, text in enumerate(messages, start=1)
    ]
    return thread, answers


def _has(text: str, fact: str) -> bool:
    return normalize(fact) in normalize(text)


@pytest.mark.parametrize("case", WORDINGS["conversations"], ids=IDS)
def test_a_fact_is_answered_back_while_its_turn_is_raw(app, case: dict) -> None:
    _, answers = _talk(app, [case["turns"][1], case["ask"]])
    assert _has(answers[-1], case["fact"]), answers[-1]


@pytest.mark.parametrize("case", WORDINGS["conversations"], ids=IDS)
def test_a_fact_is_kept_by_the_summary_counted_and_answered_back(app, case: dict) -> None:
    thread, answers = _talk(app, [*case["turns"], case["ask"]])  # turn 4 summarizes 1-3
    summary = thread_values(app, thread)["summary_history"][0]["summary"]
    assert _has(summary, case["fact"]), summary
    record = lost_facts(app, thread)[(1, 3)]
    counted = [text for text, _turn, _kind in record["facts"]]
    assert any(_has(text, case["fact"]) or _has(case["fact"], text) for text in counted), record
    for i, (text, _turn, _kind) in enumerate(record["facts"]):  # "kept" means in the summary
        assert (i in record["dropped"]) != _has(summary, text), (text, summary)
    assert _has(answers[-1], case["fact"]), answers[-1]


@pytest.mark.parametrize("turns", WORDINGS["document_turns"], ids=lambda t: t[0][:12])
def test_a_cards_facts_are_the_conversations_not_a_quoted_passage(app, turns) -> None:
    thread, answers = _talk(app, [*turns, "고마워요"])
    record = lost_facts(app, thread).get((1, 3)) or {"facts": []}
    said = " ".join(turns)
    for text, _turn, _kind in record["facts"]:
        # a fact of the user's words, or of the answers' own words (not a quote "> ...")
        own = "\n".join(
            line for a in answers[:3] for line in a.splitlines() if not line.startswith(">")
        )
        assert _has(said, text) or _has(own, text), (text, record["facts"])


def test_a_pinned_fact_shows_pinned_and_loses_its_button(db) -> None:
    from tests.integration.test_app import _app, _say

    cases = WORDINGS["conversations"]
    at = _app()
    # three turns of facts, then the summary of 1-3 (at 0.3) has room for one of them
    for text in [cases[0]["turns"][1], cases[2]["turns"][1], cases[3]["turns"][1]]:
        _say(at, text)
    _say(at, cases[0]["ask"])
    pins = [b for b in at.button if b.key and b.key.startswith("pin_")]
    assert pins, [c.value for c in at.caption if "사실" in c.value]
    fact = pins[0].label.removeprefix("📌 ")
    pins[0].click().run()
    assert not at.exception, at.exception
    left = [b.label for b in at.button if b.key and b.key.startswith("pin_")]
    assert f"📌 {fact}" not in left, left
    assert any(c.value.startswith("📌 고정됨") and fact in c.value for c in at.caption)
