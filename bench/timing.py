"""Per-turn graph time at the start and at the end of a replay, robust to scheduler noise.

A single turn takes a few milliseconds, so one replay's median over eleven turns moves by
30% from run to run on a 2-core machine. The benchmarks replay the same transcript several
times; each turn's time is the median over the runs, and a window's time is the median of
those.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any


def turn_ms(reports: Sequence[dict[str, Any]]) -> list[float]:
    """Median graph ms of each turn across the replays of one transcript."""
    runs = [[t["graph_ms"] for t in r["per_turn"]] for r in reports]
    return [statistics.median(times) for times in zip(*runs, strict=True)]


def start_end(reports: Sequence[dict[str, Any]]) -> tuple[float, float, list[float]]:
    """Median ms at turns 10-20 and at the last 11 turns, and each run's own end/start."""
    per = turn_ms(reports)
    n = len(per)
    start = statistics.median(per[9:20])
    end = statistics.median(per[max(0, n - 11) :])
    single = []
    for report in reports:
        times = [t["graph_ms"] for t in report["per_turn"]]
        single.append(statistics.median(times[max(0, n - 11) :]) / statistics.median(times[9:20]))
    return start, end, single
