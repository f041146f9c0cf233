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
