"""Issue 5 benchmark: recall@3 and MRR of keyword, FAISS and hybrid retrieval.

    uv run python bench/retrieval_eval.py

Builds the index over data/docs in a temporary folder (FAISS uses the weight-free hashing
embeddings, which the app no longer uses offline: issue 37, `bench/offline_search.py`)
and scores it on data/eval/retrieval_questions.jsonl. The gate is scored on the app's
offline search, BM25 with the glossary. Then issue 15's table,
seed 003's loop against a single search (`bench/retrieval_loop.py`, which also runs alone).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import retrieval_loop  # noqa: E402
from graph.retrieval import DocumentIndex, HashingEmbeddings, relevant  # noqa: E402

MODES = ("keyword", "faiss", "hybrid")


def _questions(name: str) -> list[dict[str, str]]:
    text = (ROOT / "data/eval" / name).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def main() -> None:
    for name in ("retrieval_questions.jsonl", "retrieval_questions_holdout.jsonl"):
        print(f"== {name}")
        evaluate(_questions(name))
    print("== the confidence gate (seed 003: below 0.5 the answer says nothing was found)")
    gate(_questions("retrieval_questions.jsonl"), _questions("retrieval_negatives.jsonl"))
    print("== seed 003's retrieval loop against a single search (bench/retrieval_loop.py)")
    retrieval_loop.main()


def gate(answerable: list[dict[str, str]], unanswerable: list[dict[str, str]]) -> None:
    """How often the gate passes a right passage, and how often it stops a question that no
    document answers (offline search, as the app runs it: BM25 with the glossary)."""
    with tempfile.TemporaryDirectory() as tmp:
        index = DocumentIndex(ROOT / "data/docs", Path(tmp), None)
        passed = sum(
            1
            for q in answerable
            if any(h.source == q["file"] for h in relevant(index.search(q["question"], k=3)))
        )
        stopped = [
            q["question"] for q in unanswerable if not relevant(index.search(q["question"], k=3))
        ]
    print(
        f"answerable questions whose right passage passes the gate: {passed}/{len(answerable)}; "
        f"unanswerable questions answered 'not found': {len(stopped)}/{len(unanswerable)}"
    )
    for q in unanswerable:
        if q["question"] not in stopped:
            print("  let through:", q["question"])


def evaluate(questions: list[dict[str, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        index = DocumentIndex(ROOT / "data/docs", Path(tmp), HashingEmbeddings())
        print(
            f"index: {index.doc_count} documents, {index.chunk_count} chunks, built in "
            f"{time.perf_counter() - start:.1f} s; {len(questions)} questions"
        )
        results: dict[str, dict[str, list[float]]] = {}
        missed: dict[str, list[str]] = {m: [] for m in MODES}
        for mode in MODES:
            per_lang: dict[str, list[float]] = {}
            for q in questions:
                sources = [h.source for h in index.search(q["question"], k=10, mode=mode)]
                rank = next(
                    (i + 1 for i, s in enumerate(dict.fromkeys(sources)) if s == q["file"]), None
                )
                hit3 = 1.0 if rank is not None and rank <= 3 else 0.0
                rr = 1.0 / rank if rank else 0.0
                for lang in ("all", q["lang"]):
                    per_lang.setdefault(f"{lang}:r3", []).append(hit3)
                    per_lang.setdefault(f"{lang}:mrr", []).append(rr)
                if not hit3:
                    missed[mode].append(
                        f"{q['question']} -> want {q['file']}, got {list(dict.fromkeys(sources))[:3]}"
                    )
            results[mode] = per_lang
    mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
    print(
        f"{'mode':8} {'recall@3':>9} {'MRR':>6}   {'ko r@3':>7} {'ko MRR':>7}   {'en r@3':>7} {'en MRR':>7}"
    )
    for mode, r in results.items():
        print(
            f"{mode:8} {mean(r['all:r3']):9.3f} {mean(r['all:mrr']):6.3f}   "
            f"{mean(r['ko:r3']):7.3f} {mean(r['ko:mrr']):7.3f}   {mean(r['en:r3']):7.3f} {mean(r['en:mrr']):7.3f}"
        )
    best = max(results, key=lambda m: (mean(results[m]["all:r3"]), mean(results[m]["all:mrr"])))
    print(f"best mode: {best} (target recall@3 >= 0.9)")
    for line in missed[best]:
        print("  missed:", line)


if __name__ == "__main__":
    main()
