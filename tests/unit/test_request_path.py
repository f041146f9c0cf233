"""A turn request's path through graph/session runs down (issue 46): bench/request_path.py.

Each kind of request (a new message, one stopped at once, a retry, an approval's decision)
is traced as module hops. It may return upward at most twice before it hands its outcome
back (the issue's figure), and the graph runs once. A guard, not a change shown: main's
code before the split returned upward twice on each of these four paths too (through
`context` -> `app.config_for` and back), the split once (twice for a stop, which goes down
to `closing` from `streaming`). The reads the split saved are tests/unit/test_turn_reads.py's.
"""

from __future__ import annotations

from pathlib import Path

from bench.request_path import KINDS, request_paths

RETURNS_MAX = 2
"""Returns upward a request's path may take (the issue's figure)."""


def test_each_request_runs_down_and_returns_upward_at_most_twice(tmp_path: Path) -> None:
    """Message, stop, retry and decision: at most two returns upward, one graph run each."""
    paths = request_paths(tmp_path, 2)
    assert [kind for kind, _, _ in paths] == list(KINDS)
    for kind, turn, (path, counts) in paths:
        shown = f"{kind} (turn {turn}): {' '.join(path)}"
        print(shown)
        assert counts["returns"] <= RETURNS_MAX, shown
        words = " ".join(path).replace("[", " ").replace("]", " ").split()
        assert words.count("stream") == 1, shown
