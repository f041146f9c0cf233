"""Seed 003's recursive memory as written, against a fake OpenAI-compatible server.

The real langchain-openai client talks HTTP to a local fake that answers the chat, and
answers seed 003's memory update (`MemoryUpdate`, one structured call returning the memory
and the entities). The tests count the calls at the HTTP layer, and time them against the
events the client receives: the update comes after the answer's last token.
"""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from graph.memory.recursive import MAX_SENTENCES
from graph.session import (
    TurnEvents,
    TurnRequest,
    continue_turn,
    load_thread,
    new_thread,
    open_app,
    run_request,
    run_turn,
    set_thread_strategy,
)
from graph.session.app import thread_values
from graph.settings import load_settings
from graph.summarizer import sentences
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer, Reply, Request

MEMORY = "사용자는 클라우드 비용을 줄이는 중이다. 공급자는 aws이고 예산은 $10,000이다."


class FakeModel:
    """Chat answers and memory updates, each request logged with the time it arrived."""

    def __init__(self, memory_delay_s: float = 0.0) -> None:
        self.memory_delay_s = memory_delay_s
        self.log: list[tuple[float, str, dict[str, Any]]] = []
        self.lock = threading.Lock()

    def handle(self, req: Request) -> Reply:
        body = req.json()
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
        with self.lock:
            self.log.append((time.monotonic(), schema or "chat", body))
        if schema == "MemoryUpdate":
            prompt = body["messages"][-1]["content"]
            first = int(re.search(r"\[(\d+)턴\]", prompt).group(1))  # type: ignore[union-attr]
            update = {
                "memory": MEMORY + f" {first}-{first + 4}턴까지 기억했다.",
                "entities": [{"key": "last_block", "value": str(first), "turn": first}],
            }
            return Reply(
                chunks=oai.stream_text(json.dumps(update, ensure_ascii=False)),
                delay_s=self.memory_delay_s,
            )
        if schema:
            return Reply(chunks=oai.stream_text("{}"))
        said = str(body["messages"][-1]["content"])
        return Reply(chunks=oai.stream_text(f"네, {said[:12]}에 답합니다. 더 궁금한 점이 있나요?"))

    def kinds(self) -> list[str]:
        return [kind for _, kind, _ in self.log]

    def memory_calls(self) -> list[tuple[float, dict[str, Any]]]:
        return [(at, body) for at, kind, body in self.log if kind == "MemoryUpdate"]


@pytest.fixture
def chat(tmp_path: Path, http_server: FakeHTTPServer):
    def make(model: FakeModel):
        http_server.route("POST", "/v1/chat/completions", model.handle)
        settings = load_settings(
            {
                "CHAT_DB_PATH": str(tmp_path / "recursive.sqlite"),
                "CHAT_PROVIDER": "openai",
                "OPENAI_API_KEY": "sk-test",
                "OPENAI_BASE_URL": f"{http_server.url}/v1",
                "CHAT_MODEL": "fake-model",
                "SUMMARY_MODEL": "fake-mini",
                "LLM_MAX_RETRIES": "0",
            }
        )
        app = open_app(settings, tools=[], approval_required=frozenset(), index=None)
        thread = new_thread(app)
        set_thread_strategy(app, thread, "recursive")
        return app, thread

    return make


def _say(turn: int) -> str:
    return f"{turn}번째 질문: 클라우드 비용 이야기를 이어서 합니다."


def test_one_model_call_per_update_after_turns_6_11_16_of_20(chat) -> None:
    model = FakeModel()
    app, thread = chat(model)
    per_turn: dict[int, list[str]] = {}
    for turn in range(1, 21):
        before = len(model.log)
        run_turn(app, thread, _say(turn), turn_count=turn, compression_rate=0.3)
        per_turn[turn] = model.kinds()[before:]
    # exactly one MemoryUpdate request per update, after that turn's answer; no summary,
    # rewrite or entity request besides it
    updates = [t for t, kinds in per_turn.items() if "MemoryUpdate" in kinds]
    assert updates == [6, 11, 16]
    for turn, kinds in per_turn.items():
        assert kinds == (["chat", "MemoryUpdate"] if turn in updates else ["chat"]), turn
    folded = [
        re.findall(r"\[(\d+)턴\]", body["messages"][-1]["content"])
        for _, body in model.memory_calls()
    ]
    assert folded == [[str(t) for t in range(f, f + 5)] for f in (1, 6, 11)]
    # the chat calls saw the last 5 turns raw (and, from turn 7, the memory)
    chats = [body for _, kind, body in model.log if kind == "chat"]
    for turn, body in enumerate(chats, start=1):
        users = [m["content"] for m in body["messages"] if m["role"] == "user"]
        assert users == [_say(t) for t in range(max(1, turn - 5), turn + 1)], turn
        # the fixed prompt first, the memory in a system message of its own (stable_first)
        system = "\n".join(m["content"] for m in body["messages"] if m["role"] == "system")
        assert ("[장기 기억]" in system) == (turn >= 7), turn
    view = load_thread(app, thread)
    state = view.state
    assert state["memory"] == MEMORY + " 11-15턴까지 기억했다."
    assert len(sentences(state["memory"])) <= MAX_SENTENCES
    assert state["entities"] == [{"key": "last_block", "value": "11", "turn": 11}]
    assert state["summary_model_calls"] == 3 and state["summary_calls"] == 3
    assert [m["model_calls"] for m in view.summary_meta] == [1, 1, 1]
    assert [m["how"] for m in view.summary_meta] == ["json_schema"] * 3
    assert [m["made_at_turn"] for m in view.summary_meta] == [6, 11, 16]
    assert [e["turns"] for e in view.summary_history] == [list(range(f, f + 5)) for f in (1, 6, 11)]
    # the update's request carries seed 003's memory rules and asks for the entities too
    prompt = model.memory_calls()[1][1]["messages"][-1]["content"]
    for rule in ("최근 대화 우선", "끝난 이전 주제는 한 줄로", "과감히 지우세요", "entities"):
        assert rule in prompt
    assert MEMORY in prompt  # M_i = LLM(M_{i-1}, S_i): the memory so far goes in


def test_the_answers_last_token_reaches_the_client_before_the_update_starts(chat) -> None:
    model = FakeModel(memory_delay_s=0.5)
    app, thread = chat(model)
    for turn in range(1, 6):
        run_turn(app, thread, _say(turn), turn_count=turn, compression_rate=0.3)
    received: list[tuple[float, dict[str, Any]]] = []
    events = TurnEvents("t6", lambda e: received.append((time.monotonic(), e)))
    # the runner the app and the service share: tokens, metadata, then done
    outcome = run_request(app, TurnRequest(thread, message=_say(6), turn_count=6), events)
    tokens = [(at, e) for at, e in received if e["type"] == "token"]
    assert "".join(e["content"] for _, e in tokens) == outcome.answer
    last_token_at, last_token = tokens[-1]
    ((memory_asked_at, _),) = model.memory_calls()
    # the whole answer was with the client before the memory update was even asked for
    assert last_token_at < memory_asked_at
    done_at = next(at for at, e in received if e["type"] == "done")
    assert done_at - last_token_at >= 0.5  # the update took its time after the answer
    seq = {
        name: next(
            e["seq"]
            for _, e in received
            if e["type"] == "metadata"
            and e["metadata"]["kind"] == kind
            and e["metadata"].get("node") in (None, node)
        )
        for name, kind, node in (
            ("answer_end", "node_end", "llm_node"),
            ("memory_start", "node_start", "memory_node"),
            ("summary", "summary", None),
            ("memory_end", "node_end", "memory_node"),
        )
    }
    done = received[-1][1]
    assert done["type"] == "done"
    assert (
        last_token["seq"]
        < seq["answer_end"]
        < seq["memory_start"]
        < seq["summary"]
        < seq["memory_end"]
        < done["seq"]
    )
    summary = next(
        e for _, e in received if e["type"] == "metadata" and e["metadata"]["kind"] == "summary"
    )
    assert summary["metadata"]["turns"] == [1, 2, 3, 4, 5]
    turn_meta = next(
        e["metadata"]
        for _, e in received
        if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
    )
    assert (
        turn_meta["summarized"]
        and {"decision": "memory", "how": "json_schema", "fallback": False}
        in turn_meta["decisions"]
    )


def test_an_update_that_did_not_run_is_made_after_the_next_answer(chat) -> None:
    """Stopped as the memory step starts (a crash there is the same): the answer stands,
    the turns wait raw, and the next answer's update folds the oldest 5; nothing is lost."""
    model = FakeModel()
    app, thread = chat(model)
    for turn in range(1, 6):
        run_turn(app, thread, _say(turn), turn_count=turn, compression_rate=0.3)
    answered = threading.Event()

    def sink(event: dict[str, Any]) -> None:
        meta = event.get("metadata") or {}
        if meta.get("kind") == "node_end" and meta.get("node") == "llm_node":
            answered.set()  # stop now: the run stops as the next step (memory_node) starts

    outcome = run_turn(
        app,
        thread,
        _say(6),
        turn_count=6,
        compression_rate=0.3,
        events=TurnEvents("t6", sink, cancelled=answered.is_set),
    )
    assert outcome.answer.startswith("네, ") and outcome.error_code is None
    values = thread_values(app, thread)
    assert not values.get("memory") and model.memory_calls() == []
    # Continue is not refused for the update that did not run (the answer was not cut
    # off, so it says exactly that)
    with pytest.raises(ValueError, match="not cut off"):
        continue_turn(app, thread)
    run_turn(app, thread, _say(7), turn_count=7, compression_rate=0.3)
    chats = [body for _, kind, body in model.log if kind == "chat"]
    users = [m["content"] for m in chats[-1]["messages"] if m["role"] == "user"]
    assert users == [_say(t) for t in range(1, 8)]  # 6 waiting: all raw, none lost
    values = thread_values(app, thread)
    assert values["memory"].endswith("1-5턴까지 기억했다.")
    run_turn(app, thread, _say(8), turn_count=8, compression_rate=0.3)
    users = [m["content"] for m in model.log[-1][2]["messages"] if m["role"] == "user"]
    assert users == [_say(t) for t in range(3, 9)]
