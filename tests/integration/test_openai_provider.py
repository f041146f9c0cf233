"""The real langchain-openai client against a local OpenAI-compatible server."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, ToolMessage

from graph.providers import describe_engine
from graph.session import TurnEvents, load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from tests.fakes import openai_server as oai
from tests.unit.helpers import calculator


def _settings(server, tmp_path: Path, **extra: str):
    env = {
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": f"{server.url}/v1",
        # the model decides (the seed's path); auto is the rule for a local server
        "ROUTER_DECISION": "model",
        "RERANK_DECISION": "model",
        "TOOL_DECISION": "model",
        "CHAT_MODEL": "fake-model",
        "SUMMARY_MODEL": "fake-mini",
        "LLM_MAX_RETRIES": "0",
        "LLM_TIMEOUT_S": "5",
        "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
    }
    env.update(extra)
    return load_settings(env)


def test_streaming_tool_call_and_server_error(http_server, tmp_path: Path) -> None:
    script = [
        oai.text("안녕하세요, 무엇을 도와드릴까요?"),
        oai.tool("calculator", {"expression": "2+3"}),
        oai.text("2+3은 5입니다."),
        oai.status(500),
        oai.text("다시 정상입니다."),
    ]
    bodies = oai.install(
        http_server, script, summary=lambda body: "사용자가 인사하고 2+3을 계산했다."
    )
    settings = _settings(http_server, tmp_path)
    assert describe_engine(settings).kind == "compatible"
    app = open_app(settings, tools=[calculator], approval_required=frozenset())
    thread = new_thread(app)

    tokens: list[str] = []
    out = run_turn(
        app,
        thread,
        "안녕, 뭘 도와줄 수 있어?",  # not a plain greeting: routed, with tools
        turn_count=1,
        compression_rate=0.3,
        events=TurnEvents(
            "t", lambda e: tokens.append(e["content"]) if e["type"] == "token" else None
        ),
    )
    assert out.answer == "안녕하세요, 무엇을 도와드릴까요?"
    assert len(tokens) >= 3 and "".join(tokens) == out.answer  # streamed, not one block
    chat = [r for r in http_server.requests if r.path.endswith("/chat/completions")]
    assert chat[0].headers["authorization"] == "Bearer sk-test"
    chat = [b for b in bodies if b["model"] == "fake-model"]
    routed = [b for b in bodies if b.get("response_format")]
    assert chat[0]["stream"] is True
    assert chat[0]["tools"][0]["function"]["name"] == "calculator"
    assert routed and routed[0]["model"] == "fake-mini"  # the router uses the cheaper model

    out = run_turn(app, thread, "2+3 계산", turn_count=2, compression_rate=0.3)
    assert out.answer == "2+3은 5입니다."
    sent = [b for b in bodies if b["model"] == "fake-model"][2]["messages"]
    assert sent[-1] == {"role": "tool", "content": "5", "tool_call_id": "call_1"}

    out = run_turn(app, thread, "에러 나 봐", turn_count=3, compression_rate=0.3)
    assert out.error_code == "LLM_SERVER_ERROR"
    assert "LLM_SERVER_ERROR" in out.answer

    out = run_turn(app, thread, "다시", turn_count=4, compression_rate=0.3)
    assert out.answer == "다시 정상입니다."
    view = load_thread(app, thread)
    humans = [m.content for _, t in view.turns for m in t if isinstance(m, HumanMessage)]
    assert humans == ["안녕, 뭘 도와줄 수 있어?", "2+3 계산", "에러 나 봐", "다시"]
    assert any(isinstance(m, ToolMessage) for _, t in view.turns for m in t)
    assert view.errors[-1]["code"] == "LLM_SERVER_ERROR"
    assert view.summary_history[0]["summary"] == "사용자가 인사하고 2+3을 계산했다."


def test_llm_summary_is_held_to_its_target(http_server, tmp_path: Path) -> None:
    right = " ".join(f"{n}번 질문에 {n}번 답을 했다." for n in range(1, 9))
    replies = iter(["가" * 400, right])  # far too long, then about right

    def summary(body):
        return next(replies)

    bodies = oai.install(
        http_server, [oai.text(f"답변 {i}번입니다. " * 10) for i in range(1, 5)], summary
    )
    app = open_app(_settings(http_server, tmp_path), tools=[], approval_required=frozenset())
    thread = new_thread(app)
    for turn in range(1, 5):
        run_turn(
            app,
            thread,
            f"질문 {turn}번입니다. 자세히 알려주세요.",
            turn_count=turn,
            compression_rate=0.3,
        )
    view = load_thread(app, thread)
    entry = view.summary_history[0]
    target = int(entry["original_chars"] * 0.3)
    assert view.summary_meta[0]["model_calls"] == 2
    assert view.summary_meta[0]["target_chars"] == target
    assert entry["summary_chars"] == len(entry["summary"]) <= int(target * 1.25)
    summary_calls = [
        b for b in bodies if b["model"] == "fake-mini" and not b.get("response_format")
    ]
    assert len(summary_calls) == 2
    instruction, text = summary_calls[1]["messages"]
    # the target is the system's instruction, the too-long summary the text to rewrite
    assert instruction["role"] == "system" and f"{target}자" in instruction["content"]
    assert text["content"] == "가" * 400
    assert not view.summary_meta[0]["fallback"]


def test_recursive_memory_uses_model_entities_and_the_seeds_memory_rules(
    http_server, tmp_path: Path
) -> None:
    from graph.session import set_thread_strategy

    def memory(body):
        prompt = body["messages"][-1]["content"]
        assert "[1턴]" in prompt or "[6턴]" in prompt or "[11턴]" in prompt  # numbered turns
        found = {
            "[1턴]": [{"key": "provider", "value": "aws", "turn": 3}],
            "[6턴]": [{"key": "budget", "value": "$10,000", "turn": 7}],
        }.get(next(k for k in ("[1턴]", "[6턴]", "[11턴]") if k in prompt), [])
        return {"memory": "요약: 클라우드 비용을 논의했다.", "entities": found}

    bodies = oai.install(http_server, [], memory=memory)
    app = open_app(_settings(http_server, tmp_path), tools=[], index=None)
    thread = new_thread(app)
    set_thread_strategy(app, thread, "recursive")
    for turn in range(1, 17):
        run_turn(
            app,
            thread,
            f"{turn}번째: 클라우드 비용 이야기를 이어서 합니다.",
            turn_count=turn,
            compression_rate=0.3,
        )
    state = load_thread(app, thread).state
    assert state["entities"] == [
        {"key": "provider", "value": "aws", "turn": 3},
        {"key": "budget", "value": "$10,000", "turn": 7},
    ]
    updates = [
        b
        for b in bodies
        if ((b.get("response_format") or {}).get("json_schema") or {}).get("name") == "MemoryUpdate"
    ]
    assert len(updates) == 3  # after turns 6, 11 and 16: one call each, memory and entities
    assert all(b["model"] == "fake-mini" for b in updates)  # the summary model
    prompt = updates[1]["messages"][-1]["content"]
    for rule in (
        "최근 대화 우선",
        "끝난 이전 주제는 한 줄로",
        "관련 없는 세부 사항은 과감히 지우세요",
        "처음부터 다시 쓰고",
    ):
        assert rule in prompt
    assert "요약: 클라우드 비용을 논의했다." in prompt  # the memory so far goes in
    # the update calls are counted as model requests of the summarizer
    assert state["summary_model_calls"] == 3


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("cut_tool_args", "LLM_TRUNCATED"),  # cut text is kept: test_model_path.py
        ("unfinished", "LLM_INCOMPLETE"),
        ("no_choices", "LLM_INCOMPLETE"),
        ("empty", "LLM_EMPTY"),
        ("content_filter", "LLM_FILTERED"),
    ],
)
def test_broken_model_output_is_an_error_and_no_tool_runs(
    http_server, tmp_path: Path, kind: str, code: str
) -> None:
    from langchain_core.tools import tool

    ran: list[str] = []

    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression."""
        ran.append(expression)
        return "123456000"

    oai.install(http_server, [oai.broken(kind), oai.text("이번에는 제대로 된 답입니다.")])
    app = open_app(
        _settings(http_server, tmp_path),
        tools=[calculator],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    out = run_turn(app, thread, "123456*1000 계산해 줘", turn_count=1, compression_rate=0.3)
    assert out.error_code == code and code in out.answer
    assert ran == []  # a cut tool call is never run, not even "repaired"
    view = load_thread(app, thread)
    assert view.errors[-1]["code"] == code
    assert view.turns[0][1][0].content == "123456*1000 계산해 줘"  # the message is kept
    out = run_turn(app, thread, "다시 해 줘", turn_count=2, compression_rate=0.3)
    assert out.answer == "이번에는 제대로 된 답입니다." and out.error_code is None


def test_pii_never_reaches_the_provider_and_the_answer_shows_the_real_values(
    http_server, tmp_path: Path
) -> None:
    phone, mail, rrn = "010-2345-6789", "jiho.park@example.com", "900101-1234567"

    def echo(body):  # the model repeats the (masked) number it was given
        user = body["messages"][-1]["content"]
        token = next(w for w in user.replace(",", " ").split() if w.startswith("[PHONE_"))
        return oai.Reply(chunks=oai.stream_text(f"확인했습니다: {token}로 연락드릴게요."))

    bodies = oai.install(
        http_server, [echo, echo, echo, echo], summary=lambda b: "요약: 연락처를 받았다."
    )
    app = open_app(_settings(http_server, tmp_path), tools=[], index=None)
    thread = new_thread(app)
    for turn in range(1, 5):
        out = run_turn(
            app,
            thread,
            f"{turn}번째: 제 번호는 {phone}, 메일 {mail}, 주민번호 {rrn}이에요.",
            turn_count=turn,
            compression_rate=0.3,
        )
        assert out.answer == f"확인했습니다: {phone}로 연락드릴게요."  # unmasked locally
    wire = " ".join(str(b) for b in bodies)
    for value in (phone, mail, rrn):
        assert value not in wire  # neither the chat calls nor the summary calls carried it
    assert "[PHONE_" in wire and "[EMAIL_" in wire and "[RRN_" in wire
    view = load_thread(app, thread)
    assert phone in view.turns[0][1][0].content  # the stored conversation keeps the original
    assert view.state["safeguard"] == {
        "label": "PII",
        "policy": "mask",
        "reasons": ["EMAIL", "PHONE", "RRN"],
        "error_code": "SAFEGUARD_PII_MASKED",
    }


def test_with_safeguard_model_on_the_model_labels_each_message_too(
    http_server, tmp_path: Path
) -> None:
    def label(body):
        text = body["messages"][-1]["content"]
        return "HARMFUL" if "recipe for trouble" in text else "PASS"

    bodies = oai.install(http_server, [oai.text("평범한 답입니다.")], label=label)
    settings = _settings(http_server, tmp_path, SAFEGUARD_MODEL="on")
    app = open_app(settings, tools=[], index=None)
    thread = new_thread(app)
    out = run_turn(
        app, thread, "전화 010-2345-6789로 주세요. 날씨 어때요?", turn_count=1, compression_rate=0.3
    )
    assert out.answer == "평범한 답입니다."
    checks = [
        b
        for b in bodies
        if (b.get("response_format") or {}).get("json_schema", {}).get("name")
        == "SafeguardDecision"
    ]
    assert checks and "010-2345-6789" not in str(checks[0])  # the check itself sees no PII
    chats = len([b for b in bodies if b["model"] == "fake-model"])
    out = run_turn(
        app, thread, "give me the recipe for trouble", turn_count=2, compression_rate=0.3
    )
    assert out.error_code == "SAFEGUARD_BLOCKED"  # the rules passed it, the model did not
    assert (
        len([b for b in bodies if b["model"] == "fake-model"]) == chats
    )  # never sent to the chat model
    assert load_thread(app, thread).state["safeguard"]["reasons"] == ["model: fake"]


def _embeddings_route(server, status: int = 200) -> list[list[str]]:
    """Answer /v1/embeddings with hashing vectors (so the ranking means something)."""
    from graph.retrieval.embeddings import HashingEmbeddings
    from tests.fakes.http_server import Reply

    seen: list[list[str]] = []
    vectors = HashingEmbeddings()

    def handle(req):
        texts = req.json()["input"]
        texts = [texts] if isinstance(texts, str) else texts
        seen.append(texts)
        if status != 200:
            return Reply(status, {"error": {"message": "embeddings down", "type": "server_error"}})
        data = [
            {"object": "embedding", "index": i, "embedding": v}
            for i, v in enumerate(vectors.embed_documents(texts))
        ]
        return Reply(json_body={"object": "list", "data": data, "model": "fake-embed", "usage": {}})

    server.route("POST", "/v1/embeddings", handle)
    return seen


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "remote_work.md").write_text(
        "# 재택근무\n\n## 신청\n\n재택근무는 주 2일까지 가능하며 팀장 승인이 필요합니다.\n", "utf-8"
    )
    (docs / "expense.md").write_text(
        "# Expenses\n\n## Reports\n\nSubmit an expense report in the portal within 30 days.\n",
        "utf-8",
    )
    return docs


def test_documents_are_embedded_by_a_compatible_server_offline(http_server, tmp_path: Path) -> None:
    from graph.retrieval import open_index

    seen = _embeddings_route(http_server)
    settings = _settings(
        http_server,
        tmp_path,
        DOCS_DIR=str(_docs(tmp_path)),
        INDEX_DIR=str(tmp_path / "index"),
        EMBEDDING_MODEL="nomic-embed-text",  # named: unset, a compatible server is not asked
    )
    index = open_index(settings)
    hits = index.search("재택근무 며칠", k=1)
    assert hits and hits[0].source == "remote_work.md"
    assert seen and any("재택근무" in text for batch in seen for text in batch)  # the request
    status = index.status()
    assert status["mode"] == "hybrid" and not status["degraded"] and status["problems"] == []


def test_failing_embeddings_are_shown_as_a_degraded_index(http_server, tmp_path: Path) -> None:
    from graph.retrieval import open_index

    _embeddings_route(http_server, status=500)
    settings = _settings(
        http_server,
        tmp_path,
        DOCS_DIR=str(_docs(tmp_path)),
        INDEX_DIR=str(tmp_path / "index"),
        EMBEDDING_MODEL="nomic-embed-text",  # named: unset, a compatible server is not asked
    )
    index = open_index(settings)
    assert index.search("expense report", k=1)[0].source == "expense.md"  # keywords still work
    status = index.status()
    assert status["mode"] == "keyword" and status["degraded"]
    assert any("embeddings failed" in p for p in status["problems"])


def test_a_summary_keeps_the_users_facts_before_an_answer_from_documents(
    http_server, tmp_path: Path
) -> None:
    """A model answers a document question in plain bullets (no quote marks), in the block of
    two facts the user stated; its summary is refused, and the extractive one stands in: it
    keeps the user's facts, the answer's document text only where room is left."""
    bullets = (
        "숙박비 기준은 다음과 같습니다.\n- 서울: 1박 12만 원까지\n- 광역시: 1박 10만 원까지\n"
        "- 그 밖의 지역: 1박 8만 원까지\n- 해외: 1박 200달러까지 (2인 1실 권장)\n"
        "- 숙박비는 영수증을 첨부해 출장 후 10일 안에 정산합니다.\n- 한도를 넘은 금액은 본인이 냅니다."
    )

    def answer(body: dict) -> oai.Reply:
        asked = str(body["messages"][-1].get("content") or "")
        return oai.text(bullets if "숙박비" in asked else "알겠습니다.")(body)

    oai.install(http_server, [], summary=lambda body: "", default=answer)
    settings = load_settings(
        {
            "OPENAI_BASE_URL": f"{http_server.url}/v1",
            "CHAT_MODEL": "local-model",
            "LLM_MAX_RETRIES": "0",
            "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
            "INDEX_DIR": str(tmp_path / "index"),
        }
    )
    app = open_app(settings, tools=[], approval_required=frozenset())
    thread = new_thread(app)
    said = [
        "제 차 번호는 38가 1942예요.",
        "출장 숙박비 기준이 어떻게 돼?",
        "제 직속 상사는 문태오 매니저님이에요.",
        "오늘은 좀 피곤하네요.",
    ]
    for turn, text in enumerate(said, start=1):
        run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
    values = app.graph.get_state({"configurable": {"thread_id": thread}}).values
    view = load_thread(app, thread)
    app.persistence.close()
    assert any(str(m.content) == bullets for m in dict(view.turns)[2])  # stored as answered
    assert any(r["turn"] == 2 and r["source"].startswith("document") for r in values["untrusted"])
    assert view.summary_meta[0]["fallback"]  # the model's empty summary was refused
    summary = view.summary_history[0]["summary"]
    assert "38가 1942" in summary and "문태오" in summary, summary
