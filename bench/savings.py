"""Seed 000's "about 90% of the tokens saved on a long conversation", at 50 messages.

    uv run python bench/savings.py [--turn 50] [--rates 0.1,0.15,...,0.5]

Replays the 50 turns of seed 002's table test (`tests/unit/test_seed_table.py`: turns of
about 300 and about 500 characters, user + assistant) under each memory strategy and each
compression rate of the slider (0.1-0.5, step 0.05), with the default settings otherwise
(recall on, the 8,000-character summary budget). For each it prints the saving at the
turn asked: 1 - (characters of the context the model receives) / (characters of the whole
transcript sent as it is), from the turn's own `last_context` record, and the lowest rate
the rates at which 90% is reached (the highest such rate is printed), or that no rate in 0.1-0.5 reaches it.

Characters stand in for tokens: both the context and the transcript are the same Korean
text, so the ratio is the same up to the tokenizer's rounding.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graph.memory import STRATEGIES  # noqa: E402
from graph.replay import replay  # noqa: E402
from tests.unit.test_seed_table import turn_text  # noqa: E402

RATES = [round(0.1 + 0.05 * i, 2) for i in range(9)]
TARGET = 0.9


def transcript(turns: int, size: int) -> list[dict[str, str]]:
    """Seed 002's table turns: `size` 300 or 500 characters a turn."""
    out = []
    for turn in range(1, turns + 1):
        user, assistant = turn_text(turn, size)
        out.append({"user": user, "assistant": assistant})
    return out


def saving(report: dict[str, object], turn: int) -> float:
    """1 - context / whole transcript at `turn`."""
    record = report["per_turn"][turn - 1]  # type: ignore[index]
    return 1 - record["context_chars"] / record["full_chars"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turn", type=int, default=50)
    parser.add_argument("--rates", default=",".join(str(r) for r in RATES))
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE setting")
    args = parser.parse_args()
    rates = [float(r) for r in args.rates.split(",")]
    env = dict(item.split("=", 1) for item in args.env)
    env.setdefault("CHAT_PROVIDER", "offline")
    print(f"saving at turn {args.turn} (1 - context / whole transcript), settings {env}")
    print(f"{'strategy':>15} {'turn':>5}  " + "".join(f"{r:>7}" for r in rates) + "   90% from")
    with tempfile.TemporaryDirectory() as tmp:
        for strategy in STRATEGIES:
            for size in (300, 500):
                turns = transcript(args.turn, size)
                found = []
                for rate in rates:
                    db = Path(tmp) / f"{strategy}-{size}-{rate}.sqlite"
                    report = replay(turns, rate, db, strategy, **env)
                    found.append(saving(report, args.turn))
                reached = [r for r, s in zip(rates, found, strict=True) if s >= TARGET]
                where = f"rates <= {max(reached)}" if reached else "no rate in 0.1-0.5"
                cells = "".join(f"{s:>7.1%}" for s in found)
                print(f"{strategy:>15} {size:>4}c  {cells}   {where}", flush=True)


if __name__ == "__main__":
    main()
