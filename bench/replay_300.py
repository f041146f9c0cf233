"""Issue 2 benchmark: replay a 300-turn conversation; DB growth and per-turn graph time.

    uv run python bench/replay_300.py [--turns 300]

Prints DB bytes / transcript UTF-8 bytes (target <= 3x) and the median graph ms per turn
at turns 10-20 vs 290-300 (target: the end within 1.5x of the start), measured in one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.transcripts import make_transcript  # noqa: E402
from graph.replay import describe, replay  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--rate", type=float, default=0.3)
    args = parser.parse_args()
    turns = make_transcript(args.turns)["turns"]
    with tempfile.TemporaryDirectory() as tmp:
        report = replay(turns, args.rate, Path(tmp) / "bench.sqlite", CHAT_PROVIDER="offline")
    per = report["per_turn"]
    n = len(per)
    start = [t["graph_ms"] for t in per[9:20]]
    end = [t["graph_ms"] for t in per[max(0, n - 11) : n]]
    ratio_db = report["db_bytes"] / report["transcript_bytes"]
    ms_start, ms_end = statistics.median(start), statistics.median(end)
    print(describe(report))
    print(
        f"db_bytes={report['db_bytes']} transcript_bytes={report['transcript_bytes']} "
        f"db/transcript={ratio_db:.2f}x (target <= 3x)"
    )
    print(
        f"graph ms/turn median: turns 10-20 = {ms_start:.2f}, turns {n - 10}-{n} = {ms_end:.2f}, "
        f"end/start = {ms_end / ms_start:.2f}x (target <= 1.5x)"
    )
    print(
        f"context chars: turn 30 = {per[min(29, n - 1)]['context_chars']}, turn {n} = {per[-1]['context_chars']}, "
        f"without summaries at turn {n} = {per[-1]['full_chars']}"
    )


if __name__ == "__main__":
    main()
