"""Issue 10 benchmark: are facts from long ago still in the context at turn 320?

    uv run python bench/recall.py [--strategy all] [--out bench/out/recall.json]

Replays `bench/data/recall_transcript.json` (320 turns, Korean and English, facts stated
at different points and some of them updated later) under each memory strategy, then
asks every question of `bench/data/recall_questions.json` through `graph.replay --ask`'s
machinery: each question is the next user message on a scratch copy of the thread, and
the exact context the model would receive is captured.

It prints, per strategy and for the whole transcript as the context, the share of
questions whose normalized answer occurs in the context with the question itself removed,
and the median context size. Target: every strategy at least 80% of the whole-transcript
figure, with a median context of at most 8,000 characters. The transcript and questions
were written before the first measurement (see `bench/data/make_recall_data.py`) and the
retrieval is not tuned to them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graph.memory import STRATEGIES  # noqa: E402
from graph.replay import replay  # noqa: E402
from prompt import get_prompt  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
TARGET_SHARE = 0.8
TARGET_MEDIAN_CHARS = 8000


def normalize(text: str) -> str:
    """NFKC, case-folded, all whitespace removed: how answers are found in a context."""
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def found(answer: str, context: str, question: str) -> bool:
    """True when the answer occurs in the context once the question itself is cut off."""
    body = context[: -len(question)] if context.endswith(question) else context
    return normalize(answer) in normalize(body)


def whole_transcript_contexts(turns: list[dict[str, str]], questions: list[str]) -> list[str]:
    """The reference: the system prompt, every turn verbatim, then the question."""
    history = "\n\n".join(f"{t['user']}\n\n{t['assistant']}" for t in turns)
    return [f"{get_prompt('system.base')}\n\n{history}\n\n{q}" for q in questions]


def score(contexts: list[str], data: dict[str, Any]) -> dict[str, Any]:
    """Share of answers present, median context size, and the misses by kind."""
    hits = [
        found(a, c, q) for a, c, q in zip(data["answers"], contexts, data["questions"], strict=True)
    ]
    by_kind: dict[str, list[bool]] = {}
    for kind, hit in zip(data["kinds"], hits, strict=True):
        by_kind.setdefault(kind, []).append(hit)
    updated = [h for h, u in zip(hits, data["updated"], strict=True) if u]
    return {
        "share": sum(hits) / len(hits),
        "hits": hits,
        "median_chars": statistics.median(len(c) for c in contexts),
        "by_kind": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(by_kind.items())},
        "updated": f"{sum(updated)}/{len(updated)}",
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--strategy", choices=[*STRATEGIES, "all"], default="all")
    parser.add_argument("--rate", type=float, default=0.3)
    parser.add_argument("--out", type=Path, help="write every context and result as JSON")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE setting")
    args = parser.parse_args()
    turns = json.loads((DATA / "recall_transcript.json").read_text("utf-8"))["turns"]
    data = json.loads((DATA / "recall_questions.json").read_text("utf-8"))
    env = dict(item.split("=", 1) for item in args.env)
    env.setdefault("CHAT_PROVIDER", "offline")
    strategies = list(STRATEGIES) if args.strategy == "all" else [args.strategy]
    mean_turn = statistics.mean(len(t["user"]) + len(t["assistant"]) for t in turns)
    print(
        f"{len(turns)} turns (mean {mean_turn:.0f} chars), {len(data['questions'])} questions, "
        f"settings {env}"
    )
    results: dict[str, dict[str, Any]] = {}
    whole = score(whole_transcript_contexts(turns, data["questions"]), data)
    results["whole transcript"] = whole
    sizes: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for strategy in strategies:
            report = replay(
                turns,
                args.rate,
                Path(tmp) / f"{strategy}.sqlite",
                strategy,
                data["questions"],
                **env,
            )
            contexts = [a["context"] for a in report["asked"]]
            results[strategy] = score(contexts, data) | {"contexts": contexts}
            sizes[strategy] = [t["context_chars"] for t in report["per_turn"]]
    print(f"\n{'':>18}{'answers in context':>20}{'median chars':>14}   by kind; updated facts")
    for name, result in results.items():
        print(
            f"{name:>18}{result['share']:>20.1%}{result['median_chars']:>14,.0f}   "
            + ", ".join(f"{k} {v}" for k, v in result["by_kind"].items())
            + f"; updated {result['updated']}"
        )
    print("\ncontext characters at turns 30 / 100 / 300 of the replay:")
    for name, per in sizes.items():
        print(f"{name:>18}  " + " / ".join(f"{per[t - 1]:,}" for t in (30, 100, 300)))
    print()
    for name in strategies:
        result = results[name]
        ratio = result["share"] / whole["share"] if whole["share"] else 0.0
        ok = ratio >= TARGET_SHARE and result["median_chars"] <= TARGET_MEDIAN_CHARS
        print(
            f"{name}: {ratio:.0%} of the whole-transcript figure (target >= {TARGET_SHARE:.0%}), "
            f"median {result['median_chars']:,.0f} chars (target <= {TARGET_MEDIAN_CHARS:,}): "
            + ("met" if ok else "NOT met")
        )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
