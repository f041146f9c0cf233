"""Issue 42, item 3: one server for chat and embeddings. Does document embedding delay a turn?

    uv run python bench/shared_server.py [--model qwen0.5b] [--rounds 5]

Starts llama-cpp-python's server with a real model (`bench/real_model_server.py`) and opens
the product on it with EMBEDDING_MODEL set to the chat model's own name and a new, empty
index folder, so the 154 document sections are being embedded by the same single-slot
server while the turns run. It then asks, in a new thread each, plain questions and
document questions in turn (`ROUNDS` of each, written before the first run) and prints
each turn's seconds, whether the index was still building, how many sections it held, and
the medians: the target is a document question at most 2x a plain one.

With `--no-embed` the same turns run with EMBEDDING_MODEL unset (keyword search, the
product's default for a compatible server), for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import real_model_server as rms  # noqa: E402
from bench.real_model import settings_env  # noqa: E402
from graph.session import TurnEvents, new_thread, open_app  # noqa: E402
from graph.session.runner import TurnRequest, run_request  # noqa: E402
from graph.settings import load_settings  # noqa: E402

PLAIN = [
    "안녕하세요! 오늘 하루 어떻게 보내고 계세요?",
    "Can you give me one tip for staying focused in the afternoon?",
    "주말에 읽을 만한 가벼운 소설 하나만 추천해 줄래요?",
    "What is a good name for a cat that likes to sleep?",
    "요즘 날씨가 추운데 따뜻하게 지내는 방법 하나 알려줘.",
]
"""Plain questions: no document, no tool (written before the first run)."""
DOCUMENTS = [
    "재택근무 지원금은 한 달에 얼마 나와?",
    "How many days of annual leave do new employees get?",
    "법인카드를 잃어버리면 어떻게 해야 해?",
    "교육비 지원은 1년에 얼마까지 받을 수 있어?",
    "What should I do on my last day when I leave the company?",
]
"""Document questions about the handbook in data/docs (written before the first run)."""


def run(model: str, rounds: int, embed: bool) -> dict[str, Any]:
    gguf = rms.ensure_installed(model)
    if gguf is None:
        raise SystemExit(f"{model} is not installed: python bench/real_model_server.py --install")
    rows: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory(prefix="shared-server-") as tmp,
        rms.start_server(gguf, n_ctx=8192) as server,
    ):
        extra = {
            "CHAT_PROVIDER": "openai",
            "OPENAI_BASE_URL": server.base_url,
            "CHAT_MODEL": server.model_id,
            "SUMMARY_MODEL": server.model_id,
            "LLM_TEMPERATURE": "0",
            "LLM_SEED": "42",
        }
        if embed:
            extra["EMBEDDING_MODEL"] = server.model_id
        app = open_app(load_settings(settings_env(extra, Path(tmp))))
        try:
            for i in range(rounds):
                for kind, message in (
                    ("plain", PLAIN[i % len(PLAIN)]),
                    ("document", DOCUMENTS[i % len(DOCUMENTS)]),
                ):
                    status = app.index.status() if app.index is not None else {}
                    building = status.get("building")
                    thread = new_thread(app, f"{kind} {i + 1}")
                    start = time.perf_counter()
                    outcome = run_request(
                        app,
                        TurnRequest(thread, message=message),
                        TurnEvents(thread, lambda e: None),
                    )
                    seconds = time.perf_counter() - start
                    row = {
                        "kind": kind,
                        "message": message,
                        "seconds": seconds,
                        "building": building,
                        "error": outcome.error_code,
                        "answer": " ".join(outcome.answer.split())[:70],
                    }
                    rows.append(row)
                    print(
                        f"{kind:<8} {seconds:6.1f} s  index {_state(building, status)}"
                        f"  {row['error'] or 'answered'}: {row['answer']!r}",
                        flush=True,
                    )
            final = app.index.status() if app.index is not None else {}
        finally:
            app.persistence.close()
    plain = [r["seconds"] for r in rows if r["kind"] == "plain"]
    docs = [r["seconds"] for r in rows if r["kind"] == "document"]
    return {
        "rows": rows,
        "plain_median": statistics.median(plain),
        "document_median": statistics.median(docs),
        "building_all_along": all(r["building"] for r in rows) if embed else None,
        "final": final,
    }


def _state(building: dict[str, int] | None, status: dict[str, Any]) -> str:
    if building:
        return f"building {building['done']}/{building['total']}"
    return str(status.get("mode"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=sorted(rms.MODELS), default="qwen0.5b")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-embed", action="store_true")
    args = parser.parse_args()
    result = run(args.model, args.rounds, embed=not args.no_embed)
    ratio = result["document_median"] / result["plain_median"]
    done = result["final"].get("building")
    print(
        f"\n{args.model}, EMBEDDING_MODEL {'unset (keyword search)' if args.no_embed else 'set to the chat model'}: "
        f"plain median {result['plain_median']:.1f} s, document median {result['document_median']:.1f} s, "
        f"ratio {ratio:.2f} (target at most 2.00); index still building at every turn: "
        f"{result['building_all_along']}; after the turns: "
        f"{_state(done, result['final'])}"
    )


if __name__ == "__main__":
    main()
