"""Issue 42, item 5: does a fact the user stated reach a real model's answer, and at what cost?

    uv run python bench/memory_real.py [--model qwen0.5b] [--conversations ko-study,en-pets]

The product's promise measured end to end: the conversations of
`bench/data/memory_answers.json` (issue 35's set, written before its first measurement)
are played through the product (`open_app`, `run_turn`, the default settings) on a real
model served by llama-cpp-python, temperature 0 and a fixed seed. At every question the
same model is also asked, directly, with

- the whole transcript: every earlier turn as the product stored it (the user's message
  and the product's answer), then the question;
- only the last 3 turns, then the question;

and for each of the three it is counted whether the asked-back facts (any listed
spelling) are in the answer, with the prompt tokens each sent (the product's answer
calls, metered by `bench/model_meter.py`; the baselines' from the server's `usage`).

Two cores give about 90 minutes of model time. The whole set (187 turns) does not fit, so
two whole conversations were chosen before the run, one Korean and one English, the two
with the fewest turns of each language: ko-study (34 turns, 11 questions, 11 facts) and
en-pets (37 turns, 11 questions, 12 facts). `--conversations` runs others.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench import real_model_server as rms  # noqa: E402
from bench.memory_answers import DATA, holds  # noqa: E402
from bench.model_meter import ModelMeter  # noqa: E402
from bench.real_model import DECLINE, settings_env  # noqa: E402
from graph.session import (  # noqa: E402
    TurnEvents,
    TurnRequest,
    load_thread,
    new_thread,
    open_app,
    run_request,
    run_turn,
)
from graph.settings import load_settings  # noqa: E402
from graph.turns import final_answer, user_text  # noqa: E402
from prompt import get_prompt  # noqa: E402

CHOSEN = ("ko-study", "en-pets")
"""Chosen before the run (module docstring)."""
SEED = 42
LAST = 3


def ask(base_url: str, model: str, messages: list[dict[str, str]]) -> tuple[str, int]:
    """One direct, unstreamed call: the answer and the prompt tokens the server counted."""
    reply = httpx.post(
        f"{base_url}/chat/completions",
        json={
            "model": model,
            "messages": messages,
            "temperature": 0,
            "seed": SEED,
            "max_tokens": 256,
        },
        timeout=900,
    )
    reply.raise_for_status()
    body = reply.json()
    return str(body["choices"][0]["message"].get("content") or ""), int(
        body["usage"]["prompt_tokens"]
    )


def transcript(turns: list[tuple[str, str]]) -> list[dict[str, str]]:
    messages: list[dict[str, str]] = []
    for said, answered in turns:
        messages.append({"role": "user", "content": said})
        messages.append({"role": "assistant", "content": answered})
    return messages


def play(
    conversation: dict[str, Any],
    server: rms.RunningServer,
    work: Path,
    asked: Callable[[list[dict[str, Any]]], None] = lambda rows: None,
) -> list[dict[str, Any]]:
    """Play `conversation` through the product; `asked(rows)` after each question, so a run
    cut short (a time limit) still leaves what it measured."""
    meter = ModelMeter(server.base_url, server.log_path).start()
    extra = {
        "CHAT_PROVIDER": "openai",
        "OPENAI_BASE_URL": meter.base_url,
        "CHAT_MODEL": server.model_id,
        "SUMMARY_MODEL": server.model_id,
        "LLM_TEMPERATURE": "0",
        "LLM_SEED": "42",
        "LLM_TIMEOUT_S": "600",
        "LLM_TURN_TIMEOUT_S": "900",
    }
    app = open_app(load_settings(settings_env(extra, work / conversation["id"])))
    rows: list[dict[str, Any]] = []
    system = {"role": "system", "content": get_prompt("system.base")}
    try:
        thread = new_thread(app, conversation["id"])
        for number, turn in enumerate(conversation["turns"], start=1):
            text = turn if isinstance(turn, str) else turn["ask"]
            meter.turn = number
            start = time.perf_counter()
            out = run_turn(app, thread, text, turn_count=number, compression_rate=0.3)
            for _ in range(5):  # a call the model asked for that waits: declined in words
                if out.pending is None:
                    break
                call = str(out.pending.get("tool_call_id") or "")
                decline = TurnRequest(
                    thread, kind="resume", action="respond", response=DECLINE, tool_call_id=call
                )
                out = run_request(app, decline, TurnEvents(thread, lambda _: None))
            seconds = time.perf_counter() - start
            print(
                f"  {conversation['id']} turn {number}: {seconds:.1f} s",
                file=sys.stderr,
                flush=True,
            )
            if isinstance(turn, str):
                continue
            view = load_thread(app, thread, recent_turns=10_000)
            before = [
                (user_text(messages), final_answer(messages))
                for n, messages in view.turns
                if n < number
            ]
            calls = [c for c in meter.of_turn(number) if c.kind == "answer"]
            whole, whole_tokens = ask(
                server.base_url,
                server.model_id,
                [system, *transcript(before), {"role": "user", "content": text}],
            )
            recent, recent_tokens = ask(
                server.base_url,
                server.model_id,
                [system, *transcript(before[-LAST:]), {"role": "user", "content": text}],
            )
            spellings = turn.get("any", {})
            for fact in turn["expect"]:
                rows.append(
                    {
                        "conversation": conversation["id"],
                        "turn": number,
                        "question": text,
                        "fact": fact,
                        "product": holds(out.answer, fact, spellings),
                        "whole": holds(whole, fact, spellings),
                        "last3": holds(recent, fact, spellings),
                        "product_tokens": sum(c.prompt_tokens or 0 for c in calls),
                        "product_estimated": any(c.estimated for c in calls),
                        "whole_tokens": whole_tokens,
                        "last3_tokens": recent_tokens,
                        "answers": {"product": out.answer, "whole": whole, "last3": recent},
                    }
                )
            latest = rows[-len(turn["expect"]) :]
            print(
                f"    asked back: product {sum(r['product'] for r in latest)}, whole "
                f"{sum(r['whole'] for r in latest)}, last 3 {sum(r['last3'] for r in latest)} "
                f"of {len(latest)}",
                file=sys.stderr,
                flush=True,
            )
            asked(rows)
    finally:
        app.persistence.close()
        meter.stop()
    return rows


def report(rows: list[dict[str, Any]], model: str) -> str:
    lines = [
        f"{model}: asked-back facts in the answer, and the prompt tokens each sent (median per question)",
        f"{'conversation':<12} {'facts':>5} {'product':>8} {'whole':>8} {'last 3':>8}   "
        f"{'tokens: product':>15} {'whole':>7} {'last 3':>7}",
    ]
    groups = sorted({r["conversation"] for r in rows}) + ["all"]
    for name in groups:
        part = rows if name == "all" else [r for r in rows if r["conversation"] == name]
        n = len(part)
        share = {k: f"{sum(r[k] for r in part)}/{n}" for k in ("product", "whole", "last3")}
        median = {
            k: statistics.median(r[k] for r in part) if part else 0.0
            for k in ("product_tokens", "whole_tokens", "last3_tokens")
        }
        mark = "~" if any(r["product_estimated"] for r in part) else ""
        lines.append(
            f"{name:<12} {n:>5} {share['product']:>8} {share['whole']:>8} {share['last3']:>8}   "
            f"{mark}{median['product_tokens']:>14.0f} {median['whole_tokens']:>7.0f} "
            f"{median['last3_tokens']:>7.0f}"
        )
    for r in rows:
        if not r["product"]:
            answer = " ".join(r["answers"]["product"].split())[:110]
            lines.append(
                f"  product missed {r['conversation']} turn {r['turn']} {r['fact']!r}: {answer}"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=sorted(rms.MODELS), default="qwen0.5b")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--conversations", help=f"default: {','.join(CHOSEN)}, or all of --data")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--keep", type=Path, help="keep each thread's database in this folder")
    args = parser.parse_args()
    data = json.loads(args.data.read_text("utf-8"))
    wanted = (args.conversations or "").split(",") if args.conversations else None
    if wanted is None and args.data == DATA:
        wanted = list(CHOSEN)
    conversations = [c for c in data["conversations"] if wanted is None or c["id"] in wanted]
    gguf = rms.ensure_installed(args.model)
    if gguf is None:
        raise SystemExit(
            f"{args.model} is not installed: python bench/real_model_server.py --install"
        )
    rows: list[dict[str, Any]] = []

    def save(more: list[dict[str, Any]]) -> None:
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps([*rows, *more], ensure_ascii=False, indent=1), "utf-8")

    start = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="memory-real-") as tmp,
        rms.start_server(gguf, n_ctx=8192, verbose=True) as server,
    ):
        for conversation in conversations:
            rows += play(conversation, server, args.keep or Path(tmp), save)
    save([])
    print(report(rows, rms.describe(args.model)))
    print(f"model time: {(time.perf_counter() - start) / 60:.0f} minutes")


if __name__ == "__main__":
    main()
