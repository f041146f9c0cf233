"""Replay a long conversation: database growth and per-turn graph time (issues 2 and 14).

    uv run python bench/replay_300.py [--turns 300]     # and --turns 1000
    uv run python bench/replay_300.py --postgres         # the same on PostgreSQL

With the default settings: a checkpoint after every node, the last CHECKPOINT_KEEP_TURNS
(20) turns of them kept, recall on. Prints the database's bytes after a WAL checkpoint (no
VACUUM) over the transcript's UTF-8 bytes (issue 14's target: at most 2x), and the median
graph ms per turn at turns 10-20 vs the last eleven (target: within 1.2x). With
`--postgres` (a temporary server from Debian's package, as the tests start it) or
`--set DATABASE_URL=...`, the bytes are the growth of `pg_total_relation_size` summed over
the project's tables during the replay (target: at most 4x); the replays share the
database, so the second and third say what one more conversation costs once each table
has its first pages. Each turn's time is its median over three replays of the same
transcript, and, to cancel the machine's drift during a long replay, also measured with a
short and a long thread run alternately, in five runs (`--runs`; see bench/timing.py: the
short thread says what the long one never did, so neither finds its messages analyzed
before; the issue's figure). Then the per-turn medians by bucket of 30 turns (`--bucket`),
to show that a turn's overhead stays flat along the thread (issue 46: turns 10-30 against
300-323 with `--turns 323`); `--runs 0` prints only these, skipping the side-by-side measure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import describe_buckets, describe_timing, interleaved  # noqa: E402
from bench.transcripts import make_transcript  # noqa: E402
from graph.replay import describe, replay  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--rate", type=float, default=0.3)
    parser.add_argument("--repeats", type=int, default=3, help="replays timed (median per turn)")
    parser.add_argument(
        "--runs",
        type=int,
        default=5,
        help="runs of each side-by-side measure (the median is over all their turns; 0 skips it)",
    )
    parser.add_argument(
        "--bucket", type=int, default=30, help="turns a bucket of the per-turn medians holds"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting for every replay, e.g. RECALL=off (repeatable)",
    )
    parser.add_argument(
        "--postgres", action="store_true", help="replay on a temporary PostgreSQL server"
    )
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.set)
    server = None
    if args.postgres:
        from tests.postgres import PostgresServer

        # A replay runs turns about a hundred times faster than people type: autovacuum
        # looks every second instead of every minute, to keep the same pace per turn.
        server = PostgresServer(autovacuum_naptime="1s")
        env["DATABASE_URL"] = server.database()
    try:
        _run(args, env)
    finally:
        if server is not None:
            server.stop()


def _run(args: argparse.Namespace, env: dict[str, str]) -> None:
    turns = make_transcript(args.turns)["turns"]
    on_postgres = bool(env.get("DATABASE_URL"))
    target = 4 if on_postgres else 2
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.repeats):
            db = Path(tmp) / f"bench-{run}.sqlite"
            reports.append(replay(turns, args.rate, db, CHAT_PROVIDER="offline", **env))
    report = reports[0]
    per = report["per_turn"]
    n = len(per)
    ratio_db = report["db_bytes"] / report["transcript_bytes"]
    print(describe(report))
    print(
        f"db_bytes={report['db_bytes']} transcript_bytes={report['transcript_bytes']} "
        f"db/transcript={ratio_db:.2f}x (target <= {target}x) on "
        f"{'PostgreSQL' if on_postgres else 'SQLite'}"
    )
    if on_postgres and len(reports) > 1:
        # the replays share one database: the first one's growth includes each table's
        # first pages (heap, indexes, TOAST, and the free-space and visibility maps its
        # first vacuum makes), which every later conversation finds there
        further = ", ".join(
            f"{r['db_bytes']:,} B ({r['db_bytes'] / r['transcript_bytes']:.2f}x)"
            for r in reports[1:]
        )
        print(f"each further conversation of {n} turns in the same database: {further}")
    print(describe_buckets(reports, args.bucket))
    if args.runs < 1:
        return
    with tempfile.TemporaryDirectory() as tmp:
        early, late = interleaved(turns, args.rate, Path(tmp), runs=args.runs, **env)
    print(describe_timing(reports, early, late, target=1.2))
    with tempfile.TemporaryDirectory() as tmp:
        same_early, same_late = interleaved(
            turns, args.rate, Path(tmp), runs=args.runs, same_messages=True, **env
        )
    print(
        f"graph ms/turn, the same messages (those of turns 10-20) sent at turns 10-20 of one "
        f"thread and at turns {len(turns) - 10}-{len(turns)} of another: {same_early:.2f} vs "
        f"{same_late:.2f}, end/start = {same_late / same_early:.2f}x (target <= 1.2x)"
    )
    print(
        f"context chars: turn 30 = {per[min(29, n - 1)]['context_chars']}, turn {n} = {per[-1]['context_chars']}, "
        f"without summaries at turn {n} = {per[-1]['full_chars']}"
    )


if __name__ == "__main__":
    main()
