"""Issue 43: how often each wording set asks for approval, offline (the rules alone).

    uv run python bench/approval_wordings.py [--heldout] [--misses]

The sets are `tests/data/approval_wordings/*.tsv` (written before the rules changed; see
the folder's README). Each wording is tried the way it reaches the tool node:

- payment, contract and benign: the user's message, and a `web_search` call (an outbound
  tool, no untrusted text in the context) whose query is the same text;
- sensitive: a `web_search` call whose query is the text, after a neutral message.

For each set it prints the share of wordings for which the call waits for approval
(`asks`), and the share whose category is the set's own (`category`: payment for the
payment set, contract for the contract set, sensitive or payment for the sensitive set);
then the same for a supervisor step whose question is the wording (`step asks`: the
step's category is not general). Targets (issue 43): payment and contract asks >= 0.95,
sensitive asks 1.0, benign asks <= 0.05.

`--heldout` adds the held-out sets; `--misses` lists the wordings each set got wrong
(only for the sets tuned against: the held-out ones are never listed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graph.nodes.tools import approval_category  # noqa: E402
from graph.supervisor.plan import PlannedStep, step_category  # noqa: E402

SETS = ROOT / "tests" / "data" / "approval_wordings"
NAMES = ("payment", "contract", "sensitive", "benign")
WANTED = {
    "payment": {"payment"},
    "contract": {"contract"},
    "sensitive": {"sensitive", "payment"},
    "benign": set(),
}
NEUTRAL = "이거 찾아 줘"
"""The message of a sensitive set's call: the data is in the argument alone."""


def wordings(name: str) -> list[tuple[str, str]]:
    """(kind, text) rows of a set's file."""
    lines = (SETS / f"{name}.tsv").read_text("utf-8").splitlines()[1:]
    return [(k, t) for k, t in (line.split("\t", 1) for line in lines if line.strip())]


def call_category(base: str, text: str) -> str | None:
    """The category the tool node gives a web_search call of this wording (None: runs)."""
    message = NEUTRAL if base == "sensitive" else text
    found = approval_category("web_search", {"query": text}, message, frozenset({"python_repl"}))
    return found.value if found is not None else None


def step_asks(text: str) -> bool:
    """Whether a supervisor step asking this wording waits for approval."""
    return step_category(PlannedStep(agent="general", question=text)) != "general"


def measure(name: str, misses: bool) -> tuple[str, int, float, float, float]:
    """One set's line: name, size, asks, right category, step asks."""
    base = name.removesuffix("_heldout")
    rows = wordings(name)
    asked = right = steps = 0
    wrong: list[str] = []
    for kind, text in rows:
        found = call_category(base, text)
        asked += found is not None
        right += found in WANTED[base] if WANTED[base] else found is None
        steps += step_asks(text) if base != "sensitive" else 0
        if misses and (found is None) == bool(WANTED[base]):
            wrong.append(f"    {kind}\t{text}\t-> {found}")
    if wrong:
        print(f"  misses of {name}:", *wrong, sep="\n")
    n = len(rows)
    return name, n, asked / n, right / n, steps / n


def main() -> None:
    """Print the rates of every set."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heldout", action="store_true", help="measure the held-out sets too")
    parser.add_argument("--misses", action="store_true", help="list the tuned sets' misses")
    options = parser.parse_args()
    names = [*NAMES, *(f"{n}_heldout" for n in NAMES)] if options.heldout else list(NAMES)
    lines = [measure(n, options.misses and not n.endswith("_heldout")) for n in names]
    print(f"{'set':<20}{'n':>5}{'asks':>8}{'category':>10}{'step asks':>11}")
    for name, n, asks, right, steps in lines:
        step = "-" if name.startswith("sensitive") else f"{steps:.2f}"
        print(f"{name:<20}{n:>5}{asks:>8.2f}{right:>10.2f}{step:>11}")


if __name__ == "__main__":
    main()
