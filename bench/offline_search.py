"""Issue 37: which offline search earns its keep? BM25, BM25 + glossary, hybrid (hashing).

    uv run python bench/offline_search.py [--skip-loop] [--glossary-topics]

Three configurations of the document index, offline (no embeddings server):

- `bm25`: keyword search alone, queries as written (`DocumentIndex(expand=False)`);
- `bm25+glossary`: keyword search with the office glossary's query expansion;
- `hybrid`: BM25 and FAISS over the weight-free hashing vectors, fused by reciprocal
  rank, with the glossary (the app's offline search before issue 37).

On every section set (`data/eval/section_questions*.jsonl`) it reports search hit@1 (the
top hit is a chunk of the expected section, as `bench/section_eval.py` counts it) and the
share of the whole offline graph's answers (RETRIEVAL_LOOP=on) that hold the answer
string; on the loop sets (`loop_questions*.jsonl`) the loop's answers holding every answer
string and its fallbacks on the questions no document answers written with each set, as
`bench/retrieval_loop.py` counts them (`--skip-loop` leaves out every whole-graph run). Then an exact McNemar test on the
per-question hits of all 330 section questions together: a configuration against another,
on the questions where exactly one of them is right.

`--glossary-topics` instead leaves out one topic of the glossary at a time (its rows in
`data/lexicon/glossary_*.tsv`) and reports, per topic whose absence changes anything, the
section questions BM25 + glossary gets right or wrong without it, all sets together and
the holdouts apart. A line of its own is too small to measure: most lines no question uses.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import retrieval_loop, section_eval  # noqa: E402
from graph.lexicon import read_table  # noqa: E402
from graph.retrieval import DocumentIndex, Mode, glossary  # noqa: E402
from graph.retrieval.embeddings import HashingEmbeddings  # noqa: E402

CONFIGS: dict[str, tuple[Mode, bool]] = {
    "bm25": ("keyword", False),
    "bm25+glossary": ("keyword", True),
    "hybrid": ("hybrid", True),
}
"""Name -> (search mode, glossary expansion)."""
SECTION_SETS = (
    ("questions", "section_questions.jsonl"),
    ("holdout", "section_questions_holdout.jsonl"),
    ("holdout2", "section_questions_holdout2.jsonl"),
    ("holdout3", "section_questions_holdout3.jsonl"),
    ("holdout4", "section_questions_holdout4.jsonl"),
    ("holdout5", "section_questions_holdout5.jsonl"),
    ("holdout8", "section_questions_holdout8.jsonl"),
    ("holdout9", "section_questions_holdout9.jsonl"),
    ("holdout10", "section_questions_holdout10.jsonl"),
)
LOOP_SETS = (
    ("loop", "loop_questions.jsonl", "retrieval_negatives.jsonl"),
    ("loop holdout6", "loop_questions_holdout6.jsonl", "retrieval_negatives_holdout6.jsonl"),
    ("loop holdout7", "loop_questions_holdout7.jsonl", "retrieval_negatives_holdout7.jsonl"),
)
"""(name, questions, questions no document answers): the loop's own kinds."""


def make_index(config: str, folder: Path) -> DocumentIndex:
    """The index over data/docs searched as `config` says."""
    mode, expand = CONFIGS[config]
    embeddings = HashingEmbeddings() if mode != "keyword" else None
    return DocumentIndex(ROOT / "data/docs", folder, embeddings, expand=expand, mode=mode)


def section_hits(config: str, items: list[dict[str, str]], folder: Path) -> list[bool]:
    """Per question: is the top hit a chunk of the expected section?"""
    index = make_index(config, folder)
    hits = []
    for item in items:
        top = index.search(item["question"], k=1)
        hits.append(bool(top) and section_eval.same_section(top[0].source, top[0].heading, item))
    return hits


def mcnemar(a: list[bool], b: list[bool]) -> tuple[int, int, float]:
    """(only a right, only b right, two-sided exact p) on paired per-question hits."""
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    n = only_a + only_b
    if not n:
        return 0, 0, 1.0
    tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2**n
    return only_a, only_b, min(1.0, 2 * tail)


def loop_figures(
    config: str, questions: list[dict[str, Any]], negatives_file: str
) -> dict[str, Any]:
    """The whole offline graph's answers and the loop's fallbacks (`retrieval_loop._run`)."""
    with tempfile.TemporaryDirectory() as tmp:
        index = make_index(config, Path(tmp) / "index")
        return retrieval_loop._run("on", questions, Path(tmp), negatives_file, index=index)


def glossary_topics() -> None:
    """Leave one glossary topic out at a time: the section hits it wins and loses."""
    items = [(name, item) for name, file in SECTION_SETS for item in section_eval.load(file)]
    rows = {name: read_table(name, 3) for name in glossary.GLOSSARY_FILES}
    english, korean = glossary.GLOSSARY_FILES
    original = glossary._glossary
    with tempfile.TemporaryDirectory() as tmp:
        index = make_index("bm25+glossary", Path(tmp))

        def hits() -> list[bool]:
            index._term_cache.clear()
            out = []
            for _, item in items:
                top = index.search(item["question"], k=1)
                out.append(
                    bool(top) and section_eval.same_section(top[0].source, top[0].heading, item)
                )
            return out

        baseline = hits()
        holdout = [name != "questions" for name, _ in items]
        topics = [
            (file, topic) for file in rows for topic in dict.fromkeys(r[0] for r in rows[file])
        ]
        changed = 0
        try:
            for file, topic in topics:
                kept = {f: [r for r in rows[f] if (f, r[0]) != (file, topic)] for f in rows}
                tables = (
                    glossary._parse(kept[english], glossary._english_key),
                    glossary._parse(kept[korean], glossary._korean_key),
                )
                glossary._glossary = lambda tables=tables: tables  # type: ignore[misc]
                without = hits()
                won = [b and not w for b, w in zip(baseline, without, strict=True)]
                lost = [w and not b for b, w in zip(baseline, without, strict=True)]
                if any(won) or any(lost):
                    changed += 1
                    held_won = sum(x for x, h in zip(won, holdout, strict=True) if h)
                    held_lost = sum(x for x, h in zip(lost, holdout, strict=True) if h)
                    print(
                        f"{file} / {topic}: without it {sum(won)} right answers lost, "
                        f"{sum(lost)} gained (holdouts: {held_won} lost, {held_lost} gained)"
                    )
        finally:
            glossary._glossary = original
            index._term_cache.clear()
    print(f"{changed} of {len(topics)} topics change any of the {len(items)} section hits")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-loop", action="store_true", help="section sets only")
    parser.add_argument("--glossary-topics", action="store_true", help="leave-one-topic-out")
    args = parser.parse_args()
    if args.glossary_topics:
        glossary_topics()
        return
    names = list(CONFIGS)
    hits: dict[str, dict[str, list[bool]]] = {c: {} for c in names}
    with tempfile.TemporaryDirectory() as tmp:
        for config in names:
            for name, file in SECTION_SETS:
                items = section_eval.load(file)
                hits[config][name] = section_hits(config, items, Path(tmp) / config)
    print(f"| set | n | {' | '.join(names)} |")
    print(f"|---|---:|{'---:|' * len(names)}")
    for name, _ in SECTION_SETS:
        n = len(hits[names[0]][name])
        cells = " | ".join(f"{sum(hits[c][name]) / n:.3f}" for c in names)
        print(f"| {name} (hit@1) | {n} | {cells} |")
    together = {c: [h for name, _ in SECTION_SETS for h in hits[c][name]] for c in names}
    holdouts = {c: [h for name, _ in SECTION_SETS[1:] for h in hits[c][name]] for c in names}
    for label, pooled in (("all section sets", together), ("holdouts only", holdouts)):
        n = len(pooled[names[0]])
        cells = " | ".join(f"**{sum(pooled[c]) / n:.3f}**" for c in names)
        print(f"| {label} (hit@1) | {n} | {cells} |")
    answered: dict[str, dict[str, list[bool]]] = {c: {} for c in names}
    if not args.skip_loop:
        for name, file in SECTION_SETS:
            questions = retrieval_loop._sections(file)
            cells = []
            for config in names:
                r = loop_figures(config, questions, "retrieval_negatives.jsonl")
                cells.append(f"{r['held']:.1%}")
                answered[config][name] = r["answered"]
            print(f"| {name} (answers) | {len(questions)} | {' | '.join(cells)} |")
        for label, sets in (
            ("all section sets", SECTION_SETS),
            ("holdouts only", SECTION_SETS[1:]),
        ):
            pooled = {c: [a for name, _ in sets for a in answered[c][name]] for c in names}
            cells = [f"**{sum(pooled[c]) / len(pooled[c]):.1%}**" for c in names]
            print(f"| {label} (answers) | {len(pooled[names[0]])} | {' | '.join(cells)} |")
        for name, questions_file, negatives_file in LOOP_SETS:
            cells = []
            for config in names:
                r = loop_figures(config, retrieval_loop._read(questions_file), negatives_file)
                fell, total = r["fallback"]
                cells.append(f"{r['held']:.1%}, {fell}/{total}")
            n = len(retrieval_loop._read(questions_file))
            print(f"| {name} (loop answers, fallbacks) | {n} | {' | '.join(cells)} |")
    print()
    measures = [("hit@1", together, holdouts)]
    if not args.skip_loop:
        measures.append(
            (
                "answers",
                {c: [a for name, _ in SECTION_SETS for a in answered[c][name]] for c in names},
                {c: [a for name, _ in SECTION_SETS[1:] for a in answered[c][name]] for c in names},
            )
        )
    for measure, every, held_out in measures:
        for a, b in (("bm25+glossary", "hybrid"), ("bm25", "bm25+glossary"), ("bm25", "hybrid")):
            for label, pooled in (("all", every), ("holdouts", held_out)):
                only_a, only_b, p = mcnemar(pooled[a], pooled[b])
                print(
                    f"McNemar {measure}, {a} vs {b} ({label}, n={len(pooled[a])}): only {a} "
                    f"right {only_a}, only {b} right {only_b}, exact two-sided p = {p:.3f}"
                )


if __name__ == "__main__":
    main()
