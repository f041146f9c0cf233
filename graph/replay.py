"""Replay a transcript through the graph to see how it would be summarized.

    python -m graph.replay TRANSCRIPT.json --rate 0.3 --db PATH --out REPORT.json

Input: `{"turns": [{"user": "...", "assistant": "..."}, ...]}`. The assistant side is
replayed verbatim by a scripted model; summaries come from the configured summarizer
(the offline extractive one when no key is set).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from graph.archive import load_summary_meta
from graph.persistence import database_bytes
from graph.session import ChatApp, new_thread, open_app, run_turn
from graph.settings import load_settings


class ReplayModel(BaseChatModel):
    """Answers each call with the next scripted assistant message, whatever the context."""

    answers: list[str] = []

    @property
    def _llm_type(self) -> str:
        return "replay"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ReplayModel:
        """Tools are ignored: the transcript already holds the answers."""
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        text = self.answers.pop(0) if self.answers else ""
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def load_transcript(path: Path) -> list[dict[str, str]]:
    """Read and check a transcript file; raise ValueError with a clear message if malformed."""
    return parse_transcript(path.read_bytes(), str(path))


def parse_transcript(raw: bytes | str, name: str = "the transcript") -> list[dict[str, str]]:
    """Parse `{"turns": [{"user", "assistant"}, ...]}`; raise ValueError if malformed."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{name} is not valid JSON: {exc}") from exc
    turns = data.get("turns") if isinstance(data, dict) else None
    if not isinstance(turns, list) or not turns:
        raise ValueError(f'{name} must look like {{"turns": [{{"user": ..., "assistant": ...}}]}}')
    for i, turn in enumerate(turns, 1):
        if not isinstance(turn, dict) or not isinstance(turn.get("user"), str):
            raise ValueError(f"turn {i} needs a 'user' string")
        if not isinstance(turn.get("assistant", ""), str):
            raise ValueError(f"turn {i}: 'assistant' must be a string")
    return [{"user": t["user"], "assistant": t.get("assistant", "")} for t in turns]


def replay_turns(
    app: ChatApp, thread_id: str, turns: Sequence[dict[str, str]], rate: float
) -> Iterator[dict[str, Any]]:
    """Run each turn; yield its per-turn record (turn, context size, graph_ms)."""
    for number, turn in enumerate(turns, 1):
        start = time.perf_counter()
        run_turn(app, thread_id, turn["user"], turn_count=number, compression_rate=rate)
        graph_ms = (time.perf_counter() - start) * 1000
        values = app.graph.get_state({"configurable": {"thread_id": thread_id}}).values
        stats = values["last_context"]
        yield {
            "turn": number,
            "context_chars": stats["context_chars"],
            "context_messages": stats["context_messages"],
            "full_chars": stats["full_chars"],
            "graph_ms": round(graph_ms, 3),
        }


def replay(
    turns: Sequence[dict[str, str]], rate: float, db: Path, **settings_env: str
) -> dict[str, Any]:
    """Replay `turns` into a new thread of the database at `db`; return the report."""
    env = {"CHAT_DB_PATH": str(db), **settings_env}
    settings = load_settings({**_environ(), **env})
    model = ReplayModel(answers=[t["assistant"] for t in turns])
    app = open_app(settings, model=model, tools=[], approval_required=frozenset())
    try:
        thread_id = new_thread(app, title=f"replay ({len(turns)} turns)")
        per_turn = list(replay_turns(app, thread_id, turns, rate))
        values = app.graph.get_state({"configurable": {"thread_id": thread_id}}).values
        summary_meta = load_summary_meta(app.persistence.archive, thread_id)
        app.persistence.saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        app.persistence.archive.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        app.persistence.close()
    transcript = "".join(t["user"] + t["assistant"] for t in turns)
    return {
        "thread_id": thread_id,
        "turns": len(turns),
        "compression_rate": rate,
        "summary_history": values.get("summary_history", []),
        "summary_meta": summary_meta,
        "per_turn": per_turn,
        "db_bytes": database_bytes(db),
        "transcript_chars": len(transcript),
        "transcript_bytes": len(transcript.encode("utf-8")),
    }


def import_transcript(app: ChatApp, turns: Sequence[dict[str, str]], rate: float) -> str:
    """Replay `turns` into a new thread of a running app's database; return the thread id."""
    from graph.graph import build_graph
    from graph.session import ChatApp as _ChatApp

    model = ReplayModel(answers=[t["assistant"] for t in turns])
    graph = build_graph(
        app.persistence.saver,
        archive=app.persistence.archive,
        settings=app.settings,
        model=model,
        tools=[],
        approval_required=frozenset(),
    )
    replayer = _ChatApp(graph=graph, persistence=app.persistence, settings=app.settings)
    thread_id = new_thread(replayer, title=f"import ({len(turns)} turns)")
    for _ in replay_turns(replayer, thread_id, turns, rate):
        pass
    return thread_id


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)


def describe(report: dict[str, Any]) -> str:
    """A short human-readable summary of a report."""
    history = report["summary_history"]
    original = sum(e["original_chars"] for e in history)
    summarized = sum(e["summary_chars"] for e in history)
    last = report["per_turn"][-1]
    lines = [
        f"turns: {report['turns']}  rate: {report['compression_rate']}",
        f"summaries: {len(history)} covering {3 * len(history)} turns, "
        f"{original:,} -> {summarized:,} chars"
        + (f" ({100 * (1 - summarized / original):.0f}% saved)" if original else ""),
        f"context at the last turn: {last['context_chars']:,} chars in "
        f"{last['context_messages']} messages (without summaries: {last['full_chars']:,})",
        f"database: {report['db_bytes']:,} bytes for a {report['transcript_bytes']:,}-byte "
        f"transcript ({report['db_bytes'] / max(1, report['transcript_bytes']):.2f}x)",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m graph.replay", description=__doc__.split("\n")[0]
    )
    parser.add_argument("transcript", type=Path)
    parser.add_argument("--rate", type=float, default=0.3, help="compression rate 0.1-0.5")
    parser.add_argument("--db", type=Path, default=Path(".state/replay.sqlite"))
    parser.add_argument("--out", type=Path, help="write the JSON report here")
    args = parser.parse_args(argv)
    if not 0.1 <= args.rate <= 0.5:
        parser.error(f"--rate must be between 0.1 and 0.5, got {args.rate}")
    try:
        turns = load_transcript(args.transcript)
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    report = replay(turns, args.rate, args.db)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    print(describe(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
