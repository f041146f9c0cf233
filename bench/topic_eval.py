"""Issue 44 benchmark: do off-topic questions get no passage, and on-topic ones the right one?

    uv run python bench/topic_eval.py [--show-misses]

Two sets, written before the first measurement and before any change for the issue:

- `data/eval/offtopic_questions_i44.jsonl` (28): questions no company document answers
  (programming, cooking, science, trivia, recommendations). A question "gets no passage"
  when the whole offline graph, as the app runs it, ends the turn with no retrieved
  passage and its answer quotes no document (no `출처:` / `Source:` line). Target: at
  least 90% get none.
- `data/eval/ontopic_questions_i44.jsonl` (27): questions a section answers, each with its
  file, section and answer string. It reports the search's section hit@1 and the offline
  answer's score as `bench/section_eval.py` judges them (one cited section, the expected
  one, and its quote holds the answer). Target: no worse than before the change.

Every figure is a count of questions out of the set, and its share in percent.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.section_eval import judge_answer, same_section  # noqa: E402
from graph.retrieval import DocumentIndex  # noqa: E402
from graph.session import new_thread, open_app, run_turn  # noqa: E402
from graph.session.app import thread_values  # noqa: E402
from graph.settings import load_settings  # noqa: E402

OFF_TOPIC = "offtopic_questions_i44.jsonl"
ON_TOPIC = "ontopic_questions_i44.jsonl"
OFF_TARGET = 0.9


def load(name: str) -> list[dict[str, str]]:
    """The questions of one set."""
    text = (ROOT / "data/eval" / name).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def quotes_a_document(answer: str) -> bool:
    """Whether an answer cites a document passage."""
    return any(line.startswith(("출처:", "Source:")) for line in answer.splitlines())


def main() -> None:
    """Run both sets through the offline graph and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    off, on = load(OFF_TOPIC), load(ON_TOPIC)
    with tempfile.TemporaryDirectory() as tmp:
        index = DocumentIndex(ROOT / "data/docs", Path(tmp) / "search", None)
        hits = 0
        for item in on:
            top = index.search(item["question"], k=1)
            hits += bool(top) and same_section(top[0].source, top[0].heading, item)
        settings = load_settings(
            {
                "CHAT_DB_PATH": str(Path(tmp) / "eval.sqlite"),
                "CHAT_PROVIDER": "offline",
                "DOCS_DIR": str(ROOT / "data/docs"),
                "INDEX_DIR": str(Path(tmp) / "app-index"),
            }
        )
        app = open_app(settings)
        started = time.perf_counter()
        none = 0
        for item in off:
            thread = new_thread(app)
            out = run_turn(app, thread, item["question"], turn_count=1, compression_rate=0.3)
            retrieved = thread_values(app, thread).get("retrieved") or []
            clean = not retrieved and not quotes_a_document(out.answer)
            none += clean
            if args.show_misses and not clean:
                print(f"  off-topic got a passage: {item['question']}")
                print(f"       {' '.join(out.answer.split())[:160]}")
        right = 0
        for item in on:
            thread = new_thread(app)
            out = run_turn(app, thread, item["question"], turn_count=1, compression_rate=0.3)
            ok, why = judge_answer(out.answer, item)
            right += ok
            if args.show_misses and not ok:
                print(f"  on-topic miss [{why}] {item['question']}")
                print(f"       want {item['file']} > {item['heading']} : {item['answer']}")
                print(f"       got  {' '.join(out.answer.split())[:160]}")
        elapsed = time.perf_counter() - started
        app.persistence.close()
    met = "met" if none / len(off) >= OFF_TARGET else "NOT met"
    print(
        f"off-topic, no passage:    {none}/{len(off)} questions ({100 * none / len(off):.0f}%; "
        f"target >= {OFF_TARGET:.0%}: {met})"
    )
    print(f"on-topic, search hit@1:   {hits}/{len(on)} questions ({100 * hits / len(on):.0f}%)")
    print(f"on-topic, offline answer: {right}/{len(on)} questions ({100 * right / len(on):.0f}%)")
    print(f"({1000 * elapsed / (len(off) + len(on)):.0f} ms per question through the graph)")


if __name__ == "__main__":
    main()
