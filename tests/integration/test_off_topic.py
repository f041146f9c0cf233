"""Off-topic questions get no passage, and no word the documents hold is called absent
(issue 44, item 5), through the offline graph as the app runs it.

The question sets were written before the change (`data/eval/offtopic_questions_i44.jsonl`,
`data/eval/ontopic_questions_i44.jsonl`; `bench/topic_eval.py` prints the same figures),
and so were the wordings of the absent-word note (`tests/fixtures/issue44/wordings.json`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.section_eval import judge_answer
from bench.topic_eval import OFF_TOPIC, ON_TOPIC, load, quotes_a_document
from graph.session import new_thread, open_app, run_turn
from graph.session.app import thread_values
from graph.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
WORDINGS = json.loads((ROOT / "tests/fixtures/issue44/wordings.json").read_text("utf-8"))
ON_TOPIC_BEFORE = 26
"""Offline answers right of the on-topic set before the change (bench/topic_eval.py)."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("topics")
    app = open_app(
        load_settings(
            {
                "CHAT_DB_PATH": str(tmp / "t.sqlite"),
                "CHAT_PROVIDER": "offline",
                "INDEX_DIR": str(tmp / "index"),
            }
        )
    )
    yield app
    app.persistence.close()


def _ask(app, question: str) -> tuple[str, dict]:
    thread = new_thread(app)
    out = run_turn(app, thread, question, turn_count=1, compression_rate=0.3)
    return out.answer, thread_values(app, thread)


def test_nine_in_ten_off_topic_questions_get_no_passage(app) -> None:
    questions = load(OFF_TOPIC)
    got = []
    for item in questions:
        answer, values = _ask(app, item["question"])
        if values.get("retrieved") or quotes_a_document(answer):
            got.append(item["question"])
    assert len(questions) - len(got) >= 0.9 * len(questions), got


def test_on_topic_questions_are_answered_no_worse_than_before(app) -> None:
    right = sum(judge_answer(_ask(app, i["question"])[0], i)[0] for i in load(ON_TOPIC))
    assert right >= ON_TOPIC_BEFORE


def _documents_text() -> str:
    return "\n".join(p.read_text("utf-8") for p in (ROOT / "data/docs").rglob("*.md"))


@pytest.mark.parametrize("question", WORDINGS["item5_absent"]["questions"])
def test_no_word_the_documents_hold_is_called_absent(app, question: str) -> None:
    answer, values = _ask(app, question)
    text = _documents_text()
    said_absent = list((values.get("retrieval") or {}).get("absent") or [])
    note = re.search(r"질문의 (.+?)은\(는\) 어떤 문서에도", answer)
    if note:
        said_absent += re.findall(r"‘(.+?)’", note.group(1))
    held = [word for word in said_absent if word in text]
    assert held == [], (held, answer)
