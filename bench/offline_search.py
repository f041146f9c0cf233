"""Issue 37: which offline search earns its keep? BM25, BM25 + glossary, hybrid (hashing).

    uv run python bench/offline_search.py [--skip-loop]

Three configurations of the document index, offline (no embeddings server):

- `bm25`: keyword search alone, queries as written (`DocumentIndex(expand=False)`);
- `bm25+glossary`: keyword search with the office glossary's query expansion;
- `hybrid`: BM25 and FAISS over the weight-free hashing vectors, fused by reciprocal
  rank, with the glossary (the app's offline search before issue 37).

On every section set (`data/eval/section_questions*.jsonl`) it reports search hit@1 (the
top hit is a chunk of the expected section, as `bench/section_eval.py` counts it); on the
loop sets (`loop_questions*.jsonl`) the retrieval loop's answers holding every answer
string and its fallbacks on the questions no document answers, as `bench/retrieval_loop.py`
counts them (the whole offline graph, RETRIEVAL_LOOP=on). Then an exact McNemar test on the
per-question hits of all 330 section questions together: a configuration against another,
on the questions where exactly one of them is right.
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
from graph.retrieval import DocumentIndex, Mode  # noqa: E402
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


def loop_figures(config: str, questions_file: str, negatives_file: str) -> dict[str, Any]:
    """The loop's answers and fallbacks on one loop set (`retrieval_loop._run`)."""
    questions = retrieval_loop._read(questions_file)
    with tempfile.TemporaryDirectory() as tmp:
        index = make_index(config, Path(tmp) / "index")
        return retrieval_loop._run("on", questions, Path(tmp), negatives_file, index=index)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-loop", action="store_true", help="section sets only")
    args = parser.parse_args()
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
    if not args.skip_loop:
        for name, questions_file, negatives_file in LOOP_SETS:
            cells = []
            for config in names:
                r = loop_figures(config, questions_file, negatives_file)
                fell, total = r["fallback"]
                cells.append(f"{r['held']:.1%}, {fell}/{total}")
            n = len(retrieval_loop._read(questions_file))
            print(f"| {name} (loop answers, fallbacks) | {n} | {' | '.join(cells)} |")
    print()
    for a, b in (("bm25", "hybrid"), ("bm25", "bm25+glossary"), ("bm25+glossary", "hybrid")):
        for label, pooled in (("all", together), ("holdouts", holdouts)):
            only_a, only_b, p = mcnemar(pooled[a], pooled[b])
            print(
                f"McNemar {a} vs {b} ({label}, n={len(pooled[a])}): only {a} right {only_a}, "
                f"only {b} right {only_b}, exact two-sided p = {p:.3f}"
            )


if __name__ == "__main__":
    main()
