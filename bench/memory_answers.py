"""Issue 35 benchmark: when the context holds a fact the user stated, does the answer?

    uv run python bench/memory_answers.py [--strategy three_turn] [--rate 0.3] [--out FILE]

Plays each conversation of `bench/data/memory_answers.json` (written before the first
measurement) through the real application API with the offline engine: every turn runs
the whole graph (summaries, recall, routing, tools), and the model records what it was
given. At each question it checks, for every fact asked for, whether the fact is in the
context the model received (the question itself cut off) and whether it is in the answer.

It prints, per conversation and overall: facts in context, facts in answer, and the share
of in-context facts that reach the answer (target: at least 0.95), then each miss. Of
the summaries it prints how many of the asked-back facts the stored summaries hold, and
the summary cards' own figure (facts kept of the facts found in the summarized turns).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langchain_core.messages import BaseMessage  # noqa: E402

from graph.offline import OfflineChatModel  # noqa: E402
from graph.replay import context_text  # noqa: E402
from graph.session import new_thread, open_app, run_turn, set_thread_strategy  # noqa: E402
from graph.settings import load_settings  # noqa: E402
from graph.storage.facts import load_facts  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "memory_answers.json"
TARGET = 0.95


class RecordingOffline(OfflineChatModel):
    """The offline engine, keeping what each call received (shared with its tool-bound copy)."""

    seen: list[list[BaseMessage]] = []

    def respond(self, messages: Any) -> Any:
        """Record the call, then answer as the offline engine does."""
        self.seen.append(list(messages))
        return super().respond(messages)


def normalize(text: str) -> str:
    """NFKC, case-folded, whitespace removed: how a fact is looked for in a text."""
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def holds(text: str, fact: str, spellings: dict[str, list[str]]) -> bool:
    """Whether `text` holds `fact` in one of its listed spellings."""
    body = normalize(text)
    return any(normalize(s) in body for s in spellings.get(fact, [fact]))


def play(conversation: dict[str, Any], strategy: str, rate: float, tmp: Path) -> dict[str, Any]:
    """Run one conversation; the per-fact findings and the summaries stored at its end."""
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp / f"{conversation['id']}.sqlite"),
            "CHAT_PROVIDER": "offline",
            "INDEX_DIR": str(tmp / "index"),
        }
    )
    model = RecordingOffline(seen=[])
    app = open_app(settings, model=model)
    facts: list[dict[str, Any]] = []
    try:
        thread = new_thread(app)
        set_thread_strategy(app, thread, strategy)
        for number, turn in enumerate(conversation["turns"], start=1):
            text = turn if isinstance(turn, str) else turn["ask"]
            model.seen.clear()
            out = run_turn(app, thread, text, turn_count=number, compression_rate=rate)
            if isinstance(turn, str):
                continue
            context = context_text(model.seen[-1][:-1]) if model.seen else ""
            for fact in turn["expect"]:
                facts.append(
                    {
                        "conversation": conversation["id"],
                        "turn": number,
                        "question": text,
                        "fact": fact,
                        "in_context": holds(context, fact, turn.get("any", {})),
                        "in_answer": holds(out.answer, fact, turn.get("any", {})),
                        "answer": out.answer,
                    }
                )
        values = app.graph.get_state({"configurable": {"thread_id": thread}}).values
        summaries = " ".join(e.get("summary", "") for e in values.get("summary_history", []))
        cards = load_facts(app.persistence.archive, thread).values()
        card_kept = sum(int(r["kept"]) for r in cards)
        card_total = sum(int(r["total"]) for r in cards)
    finally:
        app.persistence.close()
    stated = [t for t in conversation["turns"] if isinstance(t, dict)]
    kept = [holds(summaries, fact, t.get("any", {})) for t in stated for fact in t["expect"]]
    return {
        "facts": facts,
        "summary_kept": sum(kept),
        "summary_facts": len(kept),
        "card_kept": card_kept,
        "card_total": card_total,
    }


def report(results: list[dict[str, Any]]) -> tuple[str, float]:
    """The table, the misses, and the share of in-context facts in the answer."""
    lines = [f"{'conversation':<12} {'facts':>5} {'in context':>10} {'in answer':>9} {'share':>6}"]
    every: list[dict[str, Any]] = []
    for result in results:
        facts = result["facts"]
        every += facts
        lines.append(_row(facts[0]["conversation"] if facts else "?", facts))
    lines.append(_row("all", every))
    in_context = [f for f in every if f["in_context"]]
    share = sum(f["in_answer"] for f in in_context) / len(in_context) if in_context else 0.0
    kept = sum(r["summary_kept"] for r in results)
    total = sum(r["summary_facts"] for r in results)
    lines.append(f"asked-back facts the stored summaries hold: {kept}/{total}")
    card_kept = sum(r["card_kept"] for r in results)
    card_total = sum(r["card_total"] for r in results)
    lines.append(f"summary cards' facts kept: {card_kept}/{card_total}")
    lines.append(f"target: in answer / in context >= {TARGET} -> {share:.3f}")
    for fact in every:
        if fact["in_context"] and not fact["in_answer"]:
            answer = " ".join(fact["answer"].split())[:160]
            lines.append(
                f"  MISS {fact['conversation']} turn {fact['turn']} {fact['question']!r}"
                f" wants {fact['fact']!r}: {answer}"
            )
        elif not fact["in_context"]:
            lines.append(
                f"  NOT IN CONTEXT {fact['conversation']} turn {fact['turn']} {fact['fact']!r}"
            )
    return "\n".join(lines), share


def _row(name: str, facts: list[dict[str, Any]]) -> str:
    context = sum(f["in_context"] for f in facts)
    answer = sum(f["in_answer"] and f["in_context"] for f in facts)
    share = answer / context if context else 0.0
    return f"{name:<12} {len(facts):>5} {context:>10} {answer:>9} {share:>6.3f}"


def main(argv: list[str] | None = None) -> int:
    """Play the set, print the table; exit 1 below the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategy", default="three_turn")
    parser.add_argument("--rate", type=float, default=0.3)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    data = json.loads(args.data.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        results = [play(c, args.strategy, args.rate, Path(tmp)) for c in data["conversations"]]
    text, share = report(results)
    print(f"strategy {args.strategy}, rate {args.rate}, offline engine")
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0 if share >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
