"""Does a summary keep what the user said before what an answer looked up?

    uv run python bench/summary_sources.py DIR [DIR ...] [--data FILE]

Each DIR holds a thread a real model answered (`bench/memory_real.py --keep`:
DIR/<conversation>/chat.sqlite). Every three-turn block the product summarized is
summarized again by the extractive summarizer (what the product stores when a model's
summary is refused, and what the offline engine writes), from the same stored turns at the
same rate, twice:

- as the turns are (every answer's sentences scored alike);
- with the answers of turns that took in a document, a file or the web marked as such
  (`graph.untrusted.mark_looked_up`, the state's records), as the product does now.

For each, it counts the facts the data file's questions ask back whose statement is in the
block, and how many of them the summary holds; beside them, what the product stored (the
model's summary, or the extractive one when the model's was refused), and what it stores
now that a model's summary keeping none of the facts the user stated is refused too
(`checked`: the marked extractive one stands in, when it keeps one).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.memory_answers import DATA, holds  # noqa: E402
from bench.real_model import settings_env  # noqa: E402
from graph.session import load_thread, open_app  # noqa: E402
from graph.session.threads import threads  # noqa: E402
from graph.settings import load_settings  # noqa: E402
from graph.summarizer import ExtractiveSummarizer, keeps_none, users_facts  # noqa: E402
from graph.turns import original_chars, without_apologies  # noqa: E402
from graph.untrusted import UNTRUSTED_KEY, mark_looked_up  # noqa: E402


def asked_back(conversation: dict[str, Any]) -> list[tuple[int, str, dict[str, list[str]]]]:
    """(turn stated, fact, spellings) of each fact the conversation's questions ask back."""
    facts = []
    for turn in conversation["turns"]:
        if isinstance(turn, dict):
            stated = turn["stated"] if isinstance(turn["stated"], list) else [turn["stated"]]
            for fact in turn["expect"]:
                facts.extend((n, fact, turn.get("any", {})) for n in stated[:1])
    return facts


def blocks(folder: Path, conversation: dict[str, Any]) -> list[dict[str, Any]]:
    """Each summarized block of the stored thread: its facts held, three ways."""
    app = open_app(load_settings(settings_env({}, folder)))
    try:
        listed = threads(app)[0]
        thread = listed["thread_id"] if isinstance(listed, dict) else str(listed)
        view = load_thread(app, thread, recent_turns=10_000)
        values = app.graph.get_state({"configurable": {"thread_id": thread}}).values
    finally:
        app.persistence.close()
    records = values.get(UNTRUSTED_KEY) or []
    turns = dict(view.turns)
    meta = {tuple(m.get("turns") or ()): m for m in view.summary_meta}  # (first, last)
    facts = asked_back(conversation)
    rows = []
    for entry in view.summary_history:
        numbers = [int(n) for n in entry["turns"]]
        block = [turns[n] for n in numbers]
        rate = float(entry.get("compression_rate") or view.compression_rate)
        made = {}
        for way, records_used in (("as is", []), ("marked", records)):
            marked = mark_looked_up(block, numbers[0], records_used)
            spoken = without_apologies([m for t in marked for m in t])
            target = int(original_chars(spoken) * rate)
            made[way] = ExtractiveSummarizer().summarize(spoken, target, turn_label="").text
        inside = [(fact, spell) for n, fact, spell in facts if numbers[0] <= n <= numbers[-1]]
        # what the product stores now: the marked extractive summary for a refused one, and
        # a model's summary only if it keeps one of the facts the user stated
        told = users_facts(spoken)
        fallback = bool(meta.get((numbers[0], numbers[-1]), {}).get("fallback"))
        checked = entry["summary"]
        if fallback or (keeps_none(checked, told) and not keeps_none(made["marked"], told)):
            checked = made["marked"]
        looked_up = sorted({int(r["turn"]) for r in records} & set(numbers))
        rows.append(
            {
                "conversation": conversation["id"],
                "turns": numbers,
                "looked_up": looked_up,
                "facts": len(inside),
                "stored": sum(holds(entry["summary"], f, s) for f, s in inside),
                "stored_fallback": fallback,
                "as is": sum(holds(made["as is"], f, s) for f, s in inside),
                "marked": sum(holds(made["marked"], f, s) for f, s in inside),
                "checked": sum(holds(checked, f, s) for f, s in inside),
                "replaced": not fallback and checked != entry["summary"],
                "texts": made,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", type=Path, nargs="+")
    parser.add_argument("--data", type=Path, action="append")
    args = parser.parse_args()
    conversations = {
        c["id"]: c
        for path in args.data or [DATA]
        for c in json.loads(path.read_text("utf-8"))["conversations"]
    }
    rows = []
    for folder in args.dirs:
        for db in sorted(folder.glob("*/chat.sqlite")):
            rows += blocks(db.parent, conversations[db.parent.name])
    print("blocks with asked-back facts stated in them (* a turn of the block looked text up):")
    print(
        f"{'conversation':<20} {'turns':<9} {'facts':>5} {'stored':>7} {'checked':>8} "
        f"{'as is':>6} {'marked':>7}"
    )
    chosen = [r for r in rows if r["facts"]]
    for r in chosen:
        mark = " (fallback)" if r["stored_fallback"] else ""
        mark += " (replaced)" if r["replaced"] else ""
        star = "*" if r["looked_up"] else " "
        turns = f"{r['turns'][0]}-{r['turns'][-1]}{star}"
        print(
            f"{r['conversation']:<20} {turns:<9} {r['facts']:>5} "
            f"{r['stored']:>7} {r['checked']:>8} {r['as is']:>6} {r['marked']:>7}{mark}"
        )
    keys = ("facts", "stored", "checked", "as is", "marked")
    for name, part in (("all", chosen), ("looked up", [r for r in chosen if r["looked_up"]])):
        total = {k: sum(r[k] for r in part) for k in keys}
        print(
            f"{name}: {total['facts']} facts in {len(part)} blocks. Stored summaries hold "
            f"{total['stored']}, with the new check {total['checked']}; the extractive one "
            f"{total['as is']} as is, {total['marked']} marked"
        )


if __name__ == "__main__":
    main()
