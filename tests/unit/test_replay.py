"""The replay command: the report's fields, strategies side by side, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.replay import main

TURNS = [
    {
        "user": f"{n}번째 질문: 회의실 {n}호 예약은 {n}시인가요?",
        "assistant": f"네, {n}시에 예약했습니다.",
    }
    for n in range(1, 13)
]


@pytest.fixture
def transcript(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CHAT_PROVIDER", "offline")
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"turns": TURNS}, ensure_ascii=False), encoding="utf-8")
    return path


def test_report_has_the_issue_fields(
    transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    assert (
        main(
            [
                str(transcript),
                "--rate",
                "0.3",
                "--db",
                str(tmp_path / "r.sqlite"),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["turns"] == 12 and report["compression_rate"] == 0.3
    assert [e["turns"] for e in report["summary_history"]] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert [t["turn"] for t in report["per_turn"]] == list(range(1, 13))
    assert set(report["per_turn"][0]) >= {"turn", "context_chars", "context_messages", "graph_ms"}
    assert report["db_bytes"] > 0
    assert report["transcript_chars"] == sum(len(t["user"] + t["assistant"]) for t in TURNS)
    # the last context: system prompt with 3 summaries + raw turns 10, 11 + the current turn 12
    assert report["per_turn"][-1]["context_messages"] == 1 + 2 * 2 + 1
    assert report["last_context_chars"] == report["per_turn"][-1]["context_chars"]
    assert "summaries: 3 covering 9 turns" in capsys.readouterr().out


def test_all_strategies_side_by_side(
    transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "all.json"
    assert (
        main(
            [
                str(transcript),
                "--strategy",
                "all",
                "--db",
                str(tmp_path / "a.sqlite"),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    reports = json.loads(out.read_text(encoding="utf-8"))["strategies"]
    assert set(reports) == {"three_turn", "sliding_window", "recursive"}
    assert reports["recursive"]["memory"] and reports["recursive"]["entities"] is not None
    assert reports["sliding_window"]["window_summary"]
    assert reports["three_turn"]["per_turn"][-1]["context_chars"] > 0
    printed = capsys.readouterr().out
    assert "three_turn  sliding_window       recursive" in printed
    # each strategy has its own database next to the one named
    assert {p.name for p in tmp_path.glob("a-*.sqlite")} == {
        "a-three_turn.sqlite",
        "a-sliding_window.sqlite",
        "a-recursive.sqlite",
    }


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("not json", [], "is not valid JSON"),
        ('{"turns": []}', [], "must look like"),
        ('{"turns": [{"assistant": "x"}]}', [], "turn 1 needs a 'user' string"),
        (json.dumps({"turns": TURNS}), ["--rate", "0.9"], "--rate must be between 0.1 and 0.5"),
        (json.dumps({"turns": TURNS}), ["--strategy", "lru"], "invalid choice"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, args: list[str], message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main([str(path), "--db", str(tmp_path / "x.sqlite"), *args])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def _snapshot(db: Path) -> tuple[object, ...]:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return (
            conn.execute("SELECT count(*), max(checkpoint_id) FROM checkpoints").fetchone(),
            conn.execute("SELECT thread_id, turn, messages, stats FROM archive_turns").fetchall(),
            conn.execute("SELECT * FROM summary_costs").fetchall(),
        )
    finally:
        conn.close()


def test_ask_reports_the_next_context_and_leaves_the_thread_unchanged(tmp_path: Path) -> None:
    from graph.replay import ask_questions, replay

    db = tmp_path / "ask.sqlite"
    report = replay(TURNS, 0.3, db, CHAT_PROVIDER="offline")
    before = _snapshot(db)
    question = "회의실 예약 시간이 언제였죠?"
    asked = ask_questions(db, report["thread_id"], [question, "두 번째 질문"], 0.3)
    assert _snapshot(db) == before  # the scratch copy took the turn, not the thread
    first = asked[0]
    assert first["question"] == question
    assert first["context_chars"] == len(first["context"])
    parts = first["context"].split("\n\n")
    assert parts[0].startswith("당신은 유용한 AI 어시스턴트입니다.")
    assert parts[-1] == question
    # turn 13 triggers the summary of turns 10-12, and the context includes it
    assert "[10-12턴]" in first["context"]
    assert "[1-3턴]" in first["context"]
    # each question is asked on its own copy: the second does not see the first
    assert question not in asked[1]["context"]


def test_ask_flag_adds_asked_to_the_report(
    transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = tmp_path / "q.json"
    questions.write_text(json.dumps({"questions": ["3시 예약 맞나요?"]}), encoding="utf-8")
    out = tmp_path / "report.json"
    code = main(
        [
            str(transcript),
            "--db",
            str(tmp_path / "r.sqlite"),
            "--ask",
            str(questions),
            "--out",
            str(out),
        ]
    )
    assert code == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [a["question"] for a in report["asked"]] == ["3시 예약 맞나요?"]
    assert report["asked"][0]["context"].endswith("3시 예약 맞나요?")
    assert report["summary_history"]  # the existing fields stay
    assert "asked: 1 questions" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[]", "must look like"),
        ('{"questions": []}', "must look like"),
        ('{"questions": ["ok", ""]}', "question 2 must be a non-empty string"),
        ("{", "is not valid JSON"),
    ],
)
def test_bad_questions_file_is_refused(
    transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    questions = tmp_path / "q.json"
    questions.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main([str(transcript), "--db", str(tmp_path / "x.sqlite"), "--ask", str(questions)])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
