"""Bounded context for the 3-turn scheme: merge the oldest summaries into digests.

`summary_history` keeps every summary for inspection. The context holds the *active*
items: digests, and summaries no digest covers. When their total length passes the
budget, the oldest active items (summaries or earlier digests) are merged into a new
digest, recursively, so the context stays bounded however long the thread runs.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from graph.times import item_time

DIGEST_FAN_IN = 3
"""Active items merged into one digest at a time."""

Item = dict[str, Any]


def _span(item: Mapping[str, Any]) -> tuple[int, int]:
    return int(item["turns"][0]), int(item["turns"][-1])


def active_items(
    history: Sequence[Mapping[str, Any]], digests: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """What the context holds: top-level digests and the summaries they do not cover.

    Runs every turn over the whole history, so it is linear: top-level digests cover
    disjoint turn ranges, found by bisection.
    """
    replaced = {tuple(r) for d in digests for r in d["replaces"]}
    tops = sorted((d for d in digests if _span(d) not in replaced), key=_span)
    starts = [_span(d)[0] for d in tops]
    loose = []
    for entry in history:
        first, last = _span(entry)
        i = bisect.bisect_right(starts, first) - 1
        if i < 0 or _span(tops[i])[1] < last:
            loose.append(entry)
    return sorted([*tops, *loose], key=_span)


def over_budget(items: Sequence[Mapping[str, Any]], budget: int) -> bool:
    """True when the active items' text passes the budget (and two or more could merge)."""
    return len(items) >= 2 and sum(len(i["summary"]) for i in items) > budget


def next_merge(items: Sequence[Mapping[str, Any]]) -> list[Item]:
    """The active items to merge next: like the levels of a log-structured merge tree.

    The oldest run of DIGEST_FAN_IN neighbours of the lowest level that has such a run is
    merged (three summaries become a level-1 digest, three level-1 digests a level-2 one),
    so a turn's content is re-compressed about log3(turns) times, not at every merge. When
    no level has such a run, the oldest items are merged.
    """
    levels = [int(i.get("level", 0)) for i in items]
    for level in sorted(set(levels)):
        for start in range(len(items) - DIGEST_FAN_IN + 1):
            if all(lv == level for lv in levels[start : start + DIGEST_FAN_IN]):
                return [dict(i) for i in items[start : start + DIGEST_FAN_IN]]
    return [dict(i) for i in items[: max(2, min(DIGEST_FAN_IN, len(items)))]]


def make_digest(
    parts: Sequence[Mapping[str, Any]],
    text: str,
    rate: float,
    times: Mapping[str, Sequence[str]] | None = None,
) -> Item:
    """A digest record: the turn range it covers, what it replaced, its sizes and time span."""
    original = sum(len(p["summary"]) for p in parts)
    spans = [item_time(p, times or {}) for p in parts]
    known = [s for s in spans if s]
    return {
        "turns": [_span(parts[0])[0], _span(parts[-1])[1]],
        "level": 1 + max(int(p.get("level", 0)) for p in parts),
        "replaces": [list(_span(p)) for p in parts],
        "original_chars": original,
        "summary_chars": len(text),
        "compression_rate": rate,
        "summary": text,
        **({"time": [known[0][0], known[-1][-1]]} if known else {}),
    }
