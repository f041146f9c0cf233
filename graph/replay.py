"""Replay a transcript through the graph to see how it would be summarized.

    python -m graph.replay TRANSCRIPT.json --rate 0.3 --db PATH --out REPORT.json
    python -m graph.replay TRANSCRIPT.json --strategy all   # compare every memory strategy
    python -m graph.replay TRANSCRIPT.json --ask QUESTIONS.json   # what the model would see

Input: `{"turns": [{"user": "...", "assistant": "...", "time": "..."}, ...]}`, where the
optional `time` is when the turn was sent (ISO 8601 with a time zone; a turn without one
records none). The assistant side is
replayed verbatim by a scripted model; summaries come from the configured summarizer
(the offline extractive one when no key is set). `--strategy` picks the memory strategy
(three_turn by default); `all` replays the transcript once per strategy, each into its own
database, and prints their context sizes side by side. `--ask` takes
`{"questions": ["...", ...]}`: after the replay, each question is sent as the next user
message on a scratch copy of the database, and the report's `asked` list holds the exact
text the model received (system prompt first, the question last), leaving the thread as
it was.
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

from graph.context import context_chars
from graph.errors import InputError
from graph.memory import DEFAULT_STRATEGY, STRATEGIES, state_extras, strategy_context
from graph.session import (
    ChatApp,
    checkpoints,
    new_thread,
    open_app,
    run_turn,
    set_thread_strategy,
)
from graph.settings import load_settings
from graph.storage import summaries
from graph.storage.archive import load_summary_meta
from graph.storage.persistence import database_bytes, table_bytes
from graph.text import check_text
from graph.times import parse_time
from graph.turns import content_text


class ReplayModel(BaseChatModel):
    """Answers each call with the next scripted assistant message, whatever the context.

    It records what each call received (`seen`), which is how `--ask` captures a context.
    """

    answers: list[str] = []
    seen: list[list[BaseMessage]] = []

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
        self.seen.append(list(messages))
        text = self.answers.pop(0) if self.answers else ""
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def load_transcript(path: Path) -> list[dict[str, str]]:
    """Read and check a transcript file; raise ValueError with a clear message if malformed."""
    return parse_transcript(path.read_bytes(), str(path))


def _json_list(raw: bytes | str, name: str, key: str, shape: str) -> list[Any]:
    """The non-empty list under `key` of a JSON object; ValueError naming `shape` if not."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{name} is not valid JSON: {exc}") from exc
    items = data.get(key) if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        raise ValueError(f"{name} must look like {shape}")
    return items


def parse_transcript(raw: bytes | str, name: str = "the transcript") -> list[dict[str, str]]:
    """Parse `{"turns": [{"user", "assistant", "time"?}, ...]}`; raise ValueError if malformed."""
    turns = _json_list(raw, name, "turns", '{"turns": [{"user": ..., "assistant": ...}]}')
    for i, turn in enumerate(turns, 1):
        if not isinstance(turn, dict) or not isinstance(turn.get("user"), str):
            raise ValueError(f"turn {i} needs a 'user' string")
        if not isinstance(turn.get("assistant", ""), str):
            raise ValueError(f"turn {i}: 'assistant' must be a string")
        try:
            check_text(turn["user"], f"turn {i}: 'user'")
            check_text(turn.get("assistant", ""), f"turn {i}: 'assistant'")
        except InputError as exc:
            raise ValueError(str(exc)) from exc
        if turn.get("time") is not None:
            if not isinstance(turn["time"], str):
                raise ValueError(f"turn {i}: 'time' must be an ISO 8601 string")
            try:
                parse_time(turn["time"])
            except ValueError as exc:
                raise ValueError(f"turn {i}: {exc}") from exc
    return [
        {"user": t["user"], "assistant": t.get("assistant", "")}
        | ({"time": t["time"]} if t.get("time") else {})
        for t in turns
    ]


def parse_questions(raw: bytes | str, name: str = "the questions file") -> list[str]:
    """Parse `{"questions": ["...", ...]}`; raise ValueError if malformed."""
    questions = _json_list(raw, name, "questions", '{"questions": ["...", ...]}')
    for i, question in enumerate(questions, 1):
        if not isinstance(question, str) or not question.strip():
            raise ValueError(f"question {i} must be a non-empty string")
        try:
            check_text(question, f"question {i}")
        except InputError as exc:
            raise ValueError(str(exc)) from exc
    return list(questions)


def context_text(messages: Sequence[BaseMessage]) -> str:
    """The text contents of a model call's messages, joined by blank lines."""
    return "\n\n".join(content_text(m) for m in messages)


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database (WAL included), through SQLite's backup API."""
    import sqlite3

    src = sqlite3.connect(str(source))
    dst = sqlite3.connect(str(target))
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def ask_questions(
    db: Path, thread_id: str, questions: Sequence[str], rate: float, **settings_env: str
) -> list[dict[str, Any]]:
    """What the model would receive if each question were the thread's next message.

    Each question runs as a real turn (summary, recall, context) on its own scratch copy of
    the database, with a model that only records its input, so the thread is unchanged and
    the questions do not see each other.
    """
    import tempfile

    asked = []
    for question in questions:
        capture = ReplayModel(answers=["(captured)"], seen=[])
        with tempfile.TemporaryDirectory() as tmp:
            scratch = Path(tmp) / "scratch.sqlite"
            copy_database(db, scratch)
            env = {**_environ(), **settings_env, "CHAT_DB_PATH": str(scratch)}
            app = open_app(
                load_settings(env),
                model=capture,
                tools=[],
                approval_required=frozenset(),
                index=None,
            )
            try:
                turn = int(
                    app.graph.get_state({"configurable": {"thread_id": thread_id}}).values.get(
                        "turn_count", 0
                    )
                )
                run_turn(app, thread_id, question, turn_count=turn + 1, compression_rate=rate)
            finally:
                app.persistence.close()
        text = context_text(capture.seen[0]) if capture.seen else ""
        asked.append({"question": question, "context_chars": len(text), "context": text})
    return asked


def replay_turns(
    app: ChatApp, thread_id: str, turns: Sequence[dict[str, str]], rate: float
) -> Iterator[dict[str, Any]]:
    """Run each turn; yield its per-turn record (turn, context size, graph_ms)."""
    for number, turn in enumerate(turns, 1):
        start = time.perf_counter()
        run_turn(
            app,
            thread_id,
            turn["user"],
            turn_count=number,
            compression_rate=rate,
            sent_at=turn.get("time"),
        )
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
    turns: Sequence[dict[str, str]],
    rate: float,
    db: Path,
    strategy: str = DEFAULT_STRATEGY,
    questions: Sequence[str] = (),
    **settings_env: str,
) -> dict[str, Any]:
    """Replay `turns` into a new thread of the database at `db`; return the report.

    With `questions`, the report's `asked` holds the context each would get next.
    """
    env = {"CHAT_DB_PATH": str(db), **settings_env}
    settings = load_settings({**_environ(), **env})
    model = ReplayModel(answers=[t["assistant"] for t in turns], seen=[])
    app = open_app(settings, model=model, tools=[], approval_required=frozenset(), index=None)
    on_file = app.persistence.path is not None
    if questions and not on_file:
        app.persistence.close()
        raise ValueError("questions are asked of a copy of a SQLite file; unset DATABASE_URL")
    before = 0 if on_file else table_bytes(app.persistence.archive)
    try:
        thread_id = new_thread(app, title=f"replay ({len(turns)} turns, {strategy})")
        set_thread_strategy(app, thread_id, strategy)
        per_turn = list(replay_turns(app, thread_id, turns, rate))
        values = app.graph.get_state({"configurable": {"thread_id": thread_id}}).values
        # the context of the last model call: everything but its answer
        asked_state = {**values, "messages": values["messages"][:-1]}
        budgets = app.settings.token_budgets
        last_context = strategy_context(asked_state, state_extras(asked_state, budgets=budgets))
        summary_meta = load_summary_meta(app.persistence.archive, thread_id)
        history, digests, _ = summaries.load(app.persistence.archive, thread_id, values)
        kept = len(checkpoints(app, thread_id))
        if on_file:
            app.persistence.archive.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            size = database_bytes(db)
        else:  # PostgreSQL: what the project's tables grew by
            size = table_bytes(app.persistence.archive) - before
    finally:
        app.persistence.close()
    transcript = "".join(t["user"] + t["assistant"] for t in turns)
    extra: dict[str, Any] = {}
    if questions:
        extra["asked"] = ask_questions(db, thread_id, questions, rate, **env)
    return {
        "thread_id": thread_id,
        "turns": len(turns),
        "compression_rate": rate,
        "strategy": strategy,
        "summary_history": history,
        "summary_digests": digests,
        "checkpoints_kept": kept,
        "window_summary": values.get("window_summary", ""),
        "memory": values.get("memory", ""),
        "entities": values.get("entities", []),
        "summary_calls": values.get("summary_calls", 0),
        "summary_model_calls": values.get("summary_model_calls", 0),
        "last_context": [{"role": m.type, "content": content_text(m)} for m in last_context],
        "last_context_chars": context_chars(last_context),
        "summary_meta": summary_meta,
        "per_turn": per_turn,
        "db_bytes": size,
        "transcript_chars": len(transcript),
        "transcript_bytes": len(transcript.encode("utf-8")),
        **extra,
    }


def import_transcript(
    app: ChatApp, turns: Sequence[dict[str, str]], rate: float, strategy: str = DEFAULT_STRATEGY
) -> str:
    """Replay `turns` into a new thread of a running app's database; return the thread id.

    The thread uses `strategy`: importing one transcript under each strategy lets the user
    compare them side by side in the panel.
    """
    from graph.graph import build_graph
    from graph.session import ChatApp as _ChatApp

    model = ReplayModel(answers=[t["assistant"] for t in turns], seen=[])
    graph = build_graph(
        app.persistence.saver,
        archive=app.persistence.archive,
        settings=app.settings,
        model=model,
        tools=[],
        approval_required=frozenset(),
    )
    replayer = _ChatApp(graph=graph, persistence=app.persistence, settings=app.settings)
    thread_id = new_thread(replayer, title=f"import ({len(turns)} turns, {strategy})")
    set_thread_strategy(replayer, thread_id, strategy)
    for _ in replay_turns(replayer, thread_id, turns, rate):
        pass
    return thread_id


def thread_transcript(
    view_turns: Sequence[tuple[int, Sequence[BaseMessage]]],
) -> list[dict[str, str]]:
    """A thread's turns in the replay format: the user's message and the final answer."""
    from langchain_core.messages import HumanMessage

    from graph.turns import content_text as text_of

    out = []
    for _, messages in view_turns:
        user = next((text_of(m) for m in messages if isinstance(m, HumanMessage)), "")
        answers = [m for m in messages if isinstance(m, AIMessage) and not m.tool_calls]
        out.append({"user": user, "assistant": text_of(answers[-1]) if answers else ""})
    return [t for t in out if t["user"]]


def compare_strategies(
    turns: Sequence[dict[str, str]], rate: float, **settings_env: str
) -> dict[str, list[int]]:
    """Context characters per turn of `turns` replayed under every strategy.

    Each replay runs in its own temporary database with the offline extractive summarizer
    (no model calls, so a comparison costs nothing), whatever the app is configured with.
    """
    import tempfile

    sizes: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for strategy in STRATEGIES:
            report = replay(
                turns,
                rate,
                Path(tmp) / f"{strategy}.sqlite",
                strategy,
                **{**settings_env, "CHAT_PROVIDER": "offline", "INDEX_DIR": str(Path(tmp) / "i")},
            )
            sizes[strategy] = [t["context_chars"] for t in report["per_turn"]]
    return sizes


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
        f"turns: {report['turns']}  rate: {report['compression_rate']}  "
        f"strategy: {report.get('strategy', DEFAULT_STRATEGY)}",
        f"summaries: {len(history)} covering {sum(e['turn_length'] for e in history)} turns, "
        f"{original:,} -> {summarized:,} chars"
        + (f" ({100 * (1 - summarized / original):.0f}% saved)" if original else ""),
        f"context at the last turn: {last['context_chars']:,} chars in "
        f"{last['context_messages']} messages (without summaries: {last['full_chars']:,})",
        f"summarizer calls: {report.get('summary_calls', 0)} "
        f"(model requests: {report.get('summary_model_calls', 0)}), "
        f"digests: {len(report.get('summary_digests', []))}",
        f"database: {report['db_bytes']:,} bytes for a {report['transcript_bytes']:,}-byte "
        f"transcript ({report['db_bytes'] / max(1, report['transcript_bytes']):.2f}x), "
        f"{report.get('checkpoints_kept', 0)} checkpoints kept",
    ]
    if report.get("asked"):
        sizes = sorted(a["context_chars"] for a in report["asked"])
        lines.append(
            f"asked: {len(sizes)} questions, context {sizes[0]:,}-{sizes[-1]:,} chars "
            f"(median {sizes[len(sizes) // 2]:,})"
        )
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
    parser.add_argument(
        "--strategy",
        choices=[*STRATEGIES, "all"],
        default=DEFAULT_STRATEGY,
        help="memory strategy; 'all' compares every strategy on the transcript",
    )
    parser.add_argument(
        "--ask",
        type=Path,
        metavar="QUESTIONS.json",
        help='{"questions": [...]}: report the context each question would get next',
    )
    args = parser.parse_args(argv)
    if not 0.1 <= args.rate <= 0.5:
        parser.error(f"--rate must be between 0.1 and 0.5, got {args.rate}")
    try:
        turns = load_transcript(args.transcript)
        questions = parse_questions(args.ask.read_bytes(), str(args.ask)) if args.ask else []
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    if args.strategy == "all":
        reports: dict[str, dict[str, Any]] = {
            name: replay(turns, args.rate, _db_for(args.db, name), name, questions)
            for name in STRATEGIES
        }
        output: dict[str, Any] = {"strategies": reports}
        text = "\n\n".join(describe(r) for r in reports.values()) + "\n\n" + compare(reports)
    else:
        output = replay(turns, args.rate, args.db, args.strategy, questions)
        text = describe(output)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(output, ensure_ascii=False, indent=2), encoding="utf-8")
    print(text)
    return 0


def _db_for(db: Path, strategy: str) -> Path:
    return db.with_name(f"{db.stem}-{strategy}{db.suffix}")


def compare(reports: dict[str, dict[str, Any]], points: Sequence[int] = ()) -> str:
    """Context characters per turn of each strategy, side by side, as a text table."""
    turns = max(r["turns"] for r in reports.values())
    marks = list(points) or sorted({min(turns, t) for t in (1, 10, 30, 100, 300)} | {turns})
    header = f"{'turn':>6}" + "".join(f"{name:>16}" for name in reports)
    rows = [header]
    for mark in marks:
        cells = []
        for report in reports.values():
            per = report["per_turn"]
            cells.append(f"{per[mark - 1]['context_chars']:>16,}" if mark <= len(per) else " " * 16)
        rows.append(f"{mark:>6}" + "".join(cells))
    rows.append(
        f"{'calls':>6}" + "".join(f"{r.get('summary_calls', 0):>16}" for r in reports.values())
    )
    return "context characters per turn (calls = summaries and merges made)\n" + "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
