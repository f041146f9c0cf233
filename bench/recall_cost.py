"""Issue 10 benchmark: the cost of recall does not grow with the archive.

    uv run python bench/recall_cost.py [--turns 1000] [--repeats 7]

Replays one long conversation (`bench/transcripts.py`, offline) into a thread and times
`recall()` for the same questions when the thread's archive holds about 20, 300 and all
of its turns (copies of the database taken along the way), interleaved so that the
machine's drift cancels out. It prints the median ms per question at each size and the
ratios, and the database bytes per transcript byte at the end.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.transcripts import make_transcript  # noqa: E402
from graph.memory.recall import recall  # noqa: E402
from graph.replay import copy_database, replay_turns  # noqa: E402
from graph.session import new_thread, open_app  # noqa: E402
from graph.settings import load_settings  # noqa: E402
from graph.storage.persistence import database_bytes  # noqa: E402

QUESTIONS = [
    "부산 지사 리모델링 예산이 얼마였죠?",
    "판교 연구소 서버가 멈춘 원인이 뭐였어요?",
    "제주 연수원 출장 경비 한도 다시 알려줘",
    "이서연님과 회의 잡은 날짜가 언제였지?",
    "대전 센터 신입 채용 면접관은 누구로 했죠?",
    "What did we decide about the Seoul HQ meeting room?",
]


def _settings(db: Path):
    return load_settings({"CHAT_DB_PATH": str(db), "CHAT_PROVIDER": "offline"})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    turns = make_transcript(args.turns)["turns"]
    marks = sorted({20, min(300, args.turns), args.turns})
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "long.sqlite"
        from graph.replay import ReplayModel

        model = ReplayModel(answers=[t["assistant"] for t in turns])
        app = open_app(
            _settings(db), model=model, tools=[], approval_required=frozenset(), index=None
        )
        thread = new_thread(app)
        copies: dict[int, Path] = {}
        for record in replay_turns(app, thread, turns, 0.3):
            if record["turn"] in marks:
                copies[record["turn"]] = Path(tmp) / f"at-{record['turn']}.sqlite"
                copy_database(db, copies[record["turn"]])
        app.persistence.close()
        apps = {m: open_app(_settings(copies[m]), tools=[], index=None) for m in marks}
        archived = {
            m: a.persistence.archive.execute(
                "SELECT docs FROM thread_keys WHERE thread_id = ?", (thread,)
            )[0][0]
            for m, a in apps.items()
        }
        times: dict[int, list[float]] = {m: [] for m in marks}
        found: dict[int, float] = {m: 0.0 for m in marks}
        for _ in range(args.repeats):
            for mark in marks:  # interleaved: drift affects every size alike
                archive = apps[mark].persistence.archive
                start = time.perf_counter()
                hits = [recall(archive, thread, q, 2000) for q in QUESTIONS]
                times[mark].append((time.perf_counter() - start) * 1000 / len(QUESTIONS))
                found[mark] = statistics.mean(len(h) for h in hits)
        for a in apps.values():
            a.persistence.close()
        size = database_bytes(copies[marks[-1]])
    transcript = sum(len((t["user"] + t["assistant"]).encode()) for t in turns)
    base = statistics.median(times[marks[0]])
    print(f"recall of {len(QUESTIONS)} questions, median of {args.repeats} interleaved repeats")
    for mark in marks:
        ms = statistics.median(times[mark])
        print(
            f"  thread at turn {mark:>5} ({archived[mark]:>4} archived turns): {ms:6.2f} ms per "
            f"question, {found[mark]:.1f} turns recalled, {ms / base:.2f}x the smallest"
        )
    print(
        f"database at turn {marks[-1]}: {size:,} bytes for a {transcript:,}-byte transcript "
        f"({size / transcript:.2f}x)"
    )


if __name__ == "__main__":
    main()
