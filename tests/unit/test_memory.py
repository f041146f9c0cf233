"""Memory strategies: the rules of seeds 000 (sliding window) and 003 (recursive memory and
entities), and the bounded context of the default 3-turn strategy."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from graph.budgets import RECURSIVE_BUDGETS, SEED_003_TOTAL, estimate_tokens
from graph.context import context_chars
from graph.memory.bounded import active_items, make_digest, next_merge, over_budget
from graph.memory.entities import MAX_ENTITIES, extract_entities, update_entities
from graph.memory.recursive import MAX_SENTENCES, MEMORY_TOKENS, bound_memory, due_block
from graph.memory.window import (
    MAX_SUMMARIES,
    SUMMARY_SEPARATOR,
    add_summary_to_window,
    format_summary_for_prompt,
    needs_summary,
    orphaned_tool_results,
    split_point,
    window_summaries,
)
from graph.storage.archive import load_archived_turns
from graph.summarizer import ExtractiveSummarizer, sentences
from tests.fakes.chat import ScriptedModel, tool_call
from tests.unit.helpers import ARCHIVES, all_digests, history, make_graph

# --- sliding window (seed 000) ---------------------------------------------------------


def test_window_keeps_the_newest_three_summaries_joined_by_the_separator() -> None:
    window = ""
    for n in range(1, 6):
        window = add_summary_to_window(window, f"요약 {n}")
    assert window == SUMMARY_SEPARATOR.join(["요약 3", "요약 4", "요약 5"])
    assert window_summaries(window) == ["요약 3", "요약 4", "요약 5"]
    assert len(window_summaries(window)) == MAX_SUMMARIES


def test_window_starts_empty_and_numbers_its_summaries_for_the_prompt() -> None:
    assert add_summary_to_window("", "첫 요약") == "첫 요약"
    assert window_summaries("") == []
    text = format_summary_for_prompt(add_summary_to_window("첫 요약", "둘째 요약"))
    assert text == "[대화 기록 1]\n첫 요약\n\n[대화 기록 2]\n둘째 요약"
    assert SUMMARY_SEPARATOR.strip() not in text


def test_window_triggers_past_ten_messages() -> None:
    ten = [HumanMessage(content=str(i)) for i in range(10)]
    assert not needs_summary(ten)
    assert needs_summary([*ten, HumanMessage(content="x")])


def _tool_turn(n: int) -> list[Any]:
    return [
        HumanMessage(content=f"계산 {n}", id=f"h{n}"),
        AIMessage(content="", tool_calls=[tool_call_dict(n)], id=f"a{n}"),
        ToolMessage(content="2", tool_call_id=f"c{n}", name="calculator", id=f"t{n}"),
        AIMessage(content=f"답 {n}", id=f"f{n}"),
    ]


def tool_call_dict(n: int) -> dict[str, Any]:
    return {"name": "calculator", "args": {"expression": "1+1"}, "id": f"c{n}"}


def test_split_point_never_separates_a_tool_result_from_its_call() -> None:
    messages = [m for n in range(1, 3) for m in _tool_turn(n)] + [
        HumanMessage(content="계산 3", id="h3"),
        AIMessage(content="답 3", id="f3"),
        HumanMessage(content="지금", id="h4"),
    ]
    # the plain cut (all but the last 5) would fall between turn 2's call and its result
    assert not isinstance(messages[len(messages) - 5], HumanMessage)
    cut = split_point(messages)
    assert isinstance(messages[cut], HumanMessage)
    assert len(messages) - cut >= 5
    assert orphaned_tool_results(messages[cut:]) == []
    assert orphaned_tool_results(messages[len(messages) - 5 :]) != []


def test_sliding_window_graph_summarizes_past_ten_messages_and_keeps_pairs() -> None:
    replies: list[Any] = []
    for turn in range(1, 16):
        if turn % 3 == 0:
            replies += [tool_call("calculator", {"expression": "2+2"}, f"c{turn}"), f"답 {turn}"]
        else:
            replies.append(f"답 {turn}: 알겠습니다.")
    model = ScriptedModel(replies)
    graph = make_graph(model)
    state: dict[str, Any] = {}
    for turn in range(1, 16):
        state = graph.invoke(
            {
                "messages": [
                    HumanMessage(content=f"{turn}번째 질문입니다. 제 숫자는 {turn}0입니다.")
                ],
                "session_id": "w",
                "turn_count": turn,
                "compression_rate": 0.3,
                "strategy": "sliding_window",
            },
            {"configurable": {"thread_id": "w"}},
        )
    assert history(graph, state), "no summary was made in 15 turns"
    assert len(window_summaries(state["window_summary"])) <= MAX_SUMMARIES
    covered = [t for e in history(graph, state) for t in e["turns"]]
    assert covered == list(range(1, len(covered) + 1))  # whole turns, in order, no gaps
    for context in model.calls:
        body = context[1:]
        assert orphaned_tool_results(body) == []
        assert isinstance(context[0], SystemMessage)
        # at most MAX_MESSAGES live messages plus the current turn's tool round
        assert len(body) <= 10 + 3
    # the first summary fired at turn 6 (1 + 2x5 messages > 10) ... unless a tool turn came first
    assert history(graph, state)[0]["turns"][0] == 1


# --- recursive memory and entities (seed 003) ------------------------------------------


def test_entities_update_moves_the_key_to_the_end() -> None:
    entities = update_entities([], [{"key": "provider", "value": "aws", "turn": 3}])
    entities = update_entities(entities, [{"key": "budget", "value": "$10,000", "turn": 5}])
    entities = update_entities(entities, [{"key": "provider", "value": "gcp", "turn": 7}])
    assert entities == [
        {"key": "budget", "value": "$10,000", "turn": 5},
        {"key": "provider", "value": "gcp", "turn": 7},
    ]


def test_entities_are_capped_at_25_oldest_first_out() -> None:
    entities: list[dict[str, Any]] = []
    for n in range(30):
        entities = update_entities(entities, [{"key": f"k{n}", "value": str(n), "turn": n}])
    assert len(entities) == MAX_ENTITIES
    assert entities[0]["key"] == "k5" and entities[-1]["key"] == "k29"


def test_entities_spotted_by_rule_names_numbers_dates_amounts() -> None:
    found = extract_entities(
        "제 이름은 김민준이고, 예산은 300만원이에요. 마감일은 12월 15일입니다. "
        "연락처 010-1234-5678, 메일 minjun@example.com",
        4,
    )
    pairs = {(e["key"], e["value"]) for e in found}
    assert ("이름", "김민준") in pairs
    assert ("예산", "300만원") in pairs
    assert ("마감일", "12월 15일") in pairs
    assert ("전화", "010-1234-5678") in pairs
    assert ("이메일", "minjun@example.com") in pairs
    assert {e["turn"] for e in found} == {4}
    assert extract_entities("오늘 날씨가 좋네요", 1) == []


def test_recursive_trigger_and_bound() -> None:
    assert not due_block(5)  # 5 waiting: they are the short-term memory
    assert due_block(6)  # more than 5 wait: the oldest 5 are folded
    memory = " ".join(f"문장 {n}입니다." for n in range(40))
    bounded = bound_memory(memory)
    assert len(sentences(bounded)) == MAX_SENTENCES
    assert bounded.endswith("문장 39입니다.")  # recent conversation first
    long = " ".join(
        f"{n}번째로 긴 문장에는 아주 많은 한국어 글자가 들어 있습니다." for n in range(20)
    )
    assert estimate_tokens(long) > MEMORY_TOKENS
    held = bound_memory(long)
    assert estimate_tokens(held) <= MEMORY_TOKENS and held.endswith(
        "19번째로 긴 문장에는 아주 많은 한국어 글자가 들어 있습니다."
    )
    assert estimate_tokens(bound_memory("가" * 2000)) <= MEMORY_TOKENS  # one sentence, cut


def _run(
    graph: Any, thread: str, turns: int, strategy: str, text: Any, first: int = 1
) -> dict[str, Any]:
    """Send turns `first..turns` of `text(turn)` under `strategy`; the last state."""
    state: dict[str, Any] = {}
    for turn in range(first, turns + 1):
        state = graph.invoke(
            {
                "messages": [HumanMessage(content=text(turn))],
                "session_id": thread,
                "turn_count": turn,
                "compression_rate": 0.3,
                "strategy": strategy,
            },
            {"configurable": {"thread_id": thread}},
        )
    return state


def test_recursive_timing_over_20_turns() -> None:
    """Seed 003's arithmetic (see graph/memory/recursive.py): after turn t's answer, when
    more than 5 turns wait outside the memory, the oldest 5 are folded in. Updates come
    after turns 6, 11 and 16; the model always sees the last 5 turns raw."""
    model = ScriptedModel(default="네, 기억하겠습니다.")
    graph = make_graph(model)

    def say(turn: int) -> str:
        return f"{turn}번째: 프로젝트 {turn}의 예산은 {turn}00만원입니다."

    made_at: dict[int, int] = {}
    for turn in range(1, 21):
        state = _run(graph, "r", turn, "recursive", say, first=turn)
        asked = model.calls[-1]
        humans = [m.content for m in asked if isinstance(m, HumanMessage)]
        memory_then = 5 * max(0, (turn - 2) // 5)  # turns the memory held when asked
        raw = list(range(max(1, turn - 5), turn))  # the last 5 completed turns
        assert humans == [say(t) for t in [*raw, turn]], turn
        system = str(asked[0].content)
        assert ("[장기 기억]" in system) == (memory_then > 0), turn
        covered = max((e["turns"][-1] for e in history(graph, state)), default=0)
        for entry in history(graph, state):
            made_at.setdefault(entry["turns"][0], turn)
        # after turn t's answer: the memory holds turns 1..c with at most 5 waiting
        assert covered == 5 * ((turn - 1) // 5), turn
        assert 0 < turn - covered <= 5
        # the state keeps the last 5 turns; the ones before are archived
        assert state.get("archived_turns", 0) == max(0, turn - 5)
        assert len(state["messages"]) == 2 * min(turn, 5)
    assert [e["turns"] for e in history(graph, state)] == [
        [1, 2, 3, 4, 5],
        [6, 7, 8, 9, 10],
        [11, 12, 13, 14, 15],
    ]
    assert made_at == {1: 6, 6: 11, 11: 16}  # each right after the answer of that turn
    assert len(sentences(state["memory"])) <= MAX_SENTENCES
    assert estimate_tokens(state["memory"]) <= MEMORY_TOKENS
    # one entity per key: the latest value wins and sits at the end
    assert [e for e in state["entities"] if e["key"] == "예산"] == [
        {"key": "예산", "value": "1500만원", "turn": 15}
    ]
    assert state["summary_calls"] == 3  # one update each (the offline one calls no model)


def test_the_memory_is_updated_after_the_answer_with_what_that_turn_saw() -> None:
    """The answer of turn 6 is made from raw turns 1-5 (no update before it); the update
    runs after it, and turn 7 gets the memory of turns 1-5 and raw turns 2-6."""
    model = ScriptedModel(default="네.")
    graph = make_graph(model)
    state = _run(graph, "a", 6, "recursive", lambda t: f"질문 {t}")
    sixth = model.calls[-1]
    assert "[장기 기억]" not in str(sixth[0].content)
    assert [m.content for m in sixth if isinstance(m, HumanMessage)] == [
        f"질문 {t}" for t in range(1, 7)
    ]
    assert state["memory"]  # made after that answer, in the same turn
    state = _run(graph, "a", 7, "recursive", lambda t: f"질문 {t}", first=7)
    seventh = model.calls[-1]
    assert "[장기 기억]" in str(seventh[0].content)
    assert [m.content for m in seventh if isinstance(m, HumanMessage)] == [
        f"질문 {t}" for t in range(2, 8)
    ]


def test_switching_away_from_recursive_archives_the_turns_its_memory_held() -> None:
    """The turns the memory holds that were still raw in its window move to the archive at
    the next strategy's first turn, so `archived_turns` stays a prefix of the summarized."""
    model = ScriptedModel(default="네.")
    graph = make_graph(model)
    state = _run(graph, "s", 8, "recursive", lambda t: f"질문 {t}")
    assert state["archived_turns"] == 3 and len(state["messages"]) == 10  # turns 4-8 live
    state = _run(graph, "s", 9, "three_turn", lambda t: f"질문 {t}", first=9)
    assert [e["turns"] for e in history(graph, state)] == [[1, 2, 3, 4, 5], [6, 7, 8]]
    assert state["archived_turns"] == 8
    humans = [m.content for m in model.calls[-1] if isinstance(m, HumanMessage)]
    assert humans == ["질문 9"]  # turns 1-8 are in the summaries; none shown twice
    archive = ARCHIVES[id(graph)]
    assert sorted(load_archived_turns(archive, "s", range(1, 9))) == list(range(1, 9))


def test_the_recursive_context_stays_within_seed_003s_budgets() -> None:
    """Seed 003 §5.2: system 1,500 + memory 500 + entities 200 + 5 raw turns 1,500 +
    documents 1,500 + question 100 = 5,300 tokens, at the seed's 300 tokens a turn."""
    assert sum(RECURSIVE_BUDGETS.values()) == SEED_003_TOTAL == 5300
    answer = "답변입니다. " + "이 내용은 정리해 둘게요. " * 16  # about 190 tokens
    model = ScriptedModel(default=answer)
    graph = make_graph(model)

    def say(turn: int) -> str:  # under 100 tokens (the question's budget), with a fact
        key = "항목" + chr(0xAC00 + 28 * turn)  # 항목개, 항목갸, ...: a new key a turn
        return f"{turn}번째: {key}는 {turn}00만원입니다. " + "회의 내용을 메모합니다. " * 7

    seen: list[dict[str, Any]] = []
    for turn in range(1, 31):
        state = graph.invoke(
            {
                "messages": [HumanMessage(content=say(turn))],
                "session_id": "budget",
                "turn_count": turn,
                "compression_rate": 0.3,
                "strategy": "recursive",
                "recall": False,  # seed 003's memory has no retrieval (recall comes on top)
            },
            {"configurable": {"thread_id": "budget"}},
        )
        seen.append(state["last_context"]["sections"])
    turn_tokens = estimate_tokens(say(30)) + estimate_tokens(answer)
    assert 250 <= turn_tokens <= 300  # the seed's turn size
    assert len(state["entities"]) == 25  # the entity list is full, and the section held
    for turn, sections in enumerate(seen, start=1):
        for name, size in sections.items():
            assert size["budget"] == RECURSIVE_BUDGETS[name], (turn, name)
            assert size["tokens"] <= RECURSIVE_BUDGETS[name], (turn, name, size)
        assert sections["recent"]["dropped"] == 0  # 5 raw turns of 300 tokens fit whole
        assert sum(size["tokens"] for size in sections.values()) <= SEED_003_TOTAL


# --- bounded context for the 3-turn strategy -------------------------------------------


def _entry(first: int, last: int, chars: int) -> dict[str, Any]:
    return {"turns": list(range(first, last + 1)), "summary": "가" * chars}


def test_digest_replaces_the_oldest_items_and_records_its_range() -> None:
    history = [_entry(1, 3, 100), _entry(4, 6, 100), _entry(7, 9, 100), _entry(10, 12, 100)]
    assert over_budget(history, 350)
    parts = next_merge(history)
    assert [p["turns"][0] for p in parts] == [1, 4, 7]
    digest = make_digest(parts, "나" * 90, 0.3)
    assert digest["turns"] == [1, 9]
    assert digest["replaces"] == [[1, 3], [4, 6], [7, 9]]
    assert (digest["original_chars"], digest["summary_chars"], digest["level"]) == (300, 90, 1)
    active = active_items(history, [digest])
    assert [a["turns"][0] for a in active] == [1, 10]
    assert not over_budget(active, 350)
    # a digest of digests: level 2, and the level-1 digest leaves the context
    more = [*history, _entry(13, 15, 100), _entry(16, 18, 100)]
    second = make_digest([digest, more[3], more[4]], "다" * 50, 0.3)
    assert second["level"] == 2
    assert [a["turns"] for a in active_items(more, [digest, second])] == [[1, 15], more[5]["turns"]]


def test_three_turn_context_stays_bounded_and_history_keeps_every_summary() -> None:
    model = ScriptedModel(default="좋은 질문입니다. 그 내용을 정리해 보면 다음과 같습니다.")
    graph = make_graph(model, CONTEXT_BUDGET_CHARS="400")

    def say(turn: int) -> str:
        return f"{turn}번째 메시지: 회의실 {turn}호는 {turn}층에 있고 정원은 {turn + 4}명입니다."

    state = _run(graph, "b", 40, "three_turn", say)
    full = history(graph, state)
    assert [e["turns"][0] for e in full] == list(range(1, 40, 3))  # every original kept
    digests = all_digests(graph, state)
    assert digests, "no digest although the summaries passed the budget"
    active = active_items(full, digests)
    # the state holds exactly what the context shows, and the newest summary
    kept = active_items(state["summary_history"], state["summary_digests"])
    assert [i["turns"] for i in kept] == [i["turns"] for i in active]
    assert state["summary_history"][-1]["turns"] == full[-1]["turns"]
    assert len(state["summary_history"]) < len(full)
    assert sum(len(i["summary"]) for i in active) <= 400 or len(active) == 1
    system = str(model.calls[-1][0].content)
    for item in active:
        assert item["summary"] in system
    replaced = {tuple(r) for d in digests for r in d["replaces"]}
    assert all(tuple(e["turns"][:: len(e["turns"]) - 1]) in replaced for e in full[:3])
    sizes = [context_chars(call) for call in model.calls]
    assert max(sizes[20:]) < 2 * min(sizes[20:])


def test_default_strategy_matches_seed_002_when_under_budget() -> None:
    model = ScriptedModel(default="답")
    graph = make_graph(model)
    state = _run(graph, "d", 10, "three_turn", lambda t: f"질문 {t}")
    assert [e["turns"] for e in history(graph, state)] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert state.get("summary_digests", []) == []


def test_switching_to_the_window_starts_from_the_earlier_summaries() -> None:
    model = ScriptedModel(default="네")
    graph = make_graph(model)
    _run(graph, "s", 7, "three_turn", lambda t: f"{t}번째 질문, 코드는 A{t}입니다.")
    state = graph.invoke(
        {
            "messages": [HumanMessage(content="8번째 질문")],
            "session_id": "s",
            "turn_count": 8,
            "compression_rate": 0.3,
            "strategy": "sliding_window",
        },
        {"configurable": {"thread_id": "s"}},
    )
    seeded = window_summaries(state["window_summary"])
    assert seeded == [e["summary"] for e in history(graph, state)][-MAX_SUMMARIES:]
    assert "[대화 기록 1]" in str(model.calls[-1][0].content)


def test_offline_engine_answers_from_each_strategys_memory() -> None:
    from graph.offline import OfflineChatModel

    def say(turn: int) -> str:
        if turn == 1:
            return "제 이름은 김민준이고, 예산은 300만원이에요."
        return f"{turn}번째 이야기: 오늘은 회의 안건 {turn}번을 검토했습니다."

    for strategy in ("three_turn", "sliding_window", "recursive"):
        graph = make_graph(OfflineChatModel(), tools=())
        _run(graph, strategy, 16, strategy, say)
        state = graph.invoke(
            {
                "messages": [HumanMessage(content="제 예산이 얼마라고 했죠?")],
                "session_id": strategy,
                "turn_count": 17,
                "compression_rate": 0.3,
                "strategy": strategy,
            },
            {"configurable": {"thread_id": strategy}},
        )
        answer = str(state["messages"][-1].content)
        # the window holds the 3 newest summaries only (seed 000) and has dropped turn 1, but
        # recall brings the archived turn back, and the answer names it
        assert "300만원" in answer, (strategy, answer)
        if strategy == "sliding_window":
            assert "(1턴)" in answer, answer


def test_merges_go_level_by_level_so_old_content_is_not_recompressed_every_time() -> None:
    digest = {**_entry(1, 9, 90), "level": 1, "replaces": [[1, 3], [4, 6], [7, 9]]}
    items = [digest, _entry(10, 12, 100), _entry(13, 15, 100), _entry(16, 18, 100)]
    assert [p["turns"][0] for p in next_merge(items)] == [10, 13, 16]
    # no level has three neighbours: the oldest are merged
    mixed = [digest, _entry(10, 12, 100), {**_entry(13, 21, 90), "level": 1}]
    assert [p["turns"][0] for p in next_merge(mixed)] == [1, 10, 13]


def test_extractive_merge_keeps_speaker_labels_intact() -> None:
    from graph.summarizer import ExtractiveSummarizer

    merged = (
        ExtractiveSummarizer()
        .merge(
            ["AI: 대전 센터 출장 숙박비는 1박 20만원입니다.", "사용자: 제 사번은 HS-20417이에요."],
            200,
            turn_label="1-6턴",
        )
        .text
    )
    assert "AI: 대전" in merged and "AI대전" not in merged
    assert "사용자: 제 사번은 HS-20417이에요." in merged


def test_without_an_archive_summarized_turns_stay_out_of_the_context() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from graph.graph import build_graph
    from graph.settings import load_settings
    from graph.summarizer import ExtractiveSummarizer

    for strategy, turns in (("sliding_window", 9), ("recursive", 12)):
        model = ScriptedModel(default="네")
        graph = build_graph(
            InMemorySaver(),
            archive=None,
            settings=load_settings({}),
            model=model,
            summarizer=ExtractiveSummarizer(),
            tools=[],
            approval_required=frozenset(),
        )
        state = _run(graph, strategy, turns, strategy, lambda t: f"질문 {t}")
        covered = max(t for e in history(graph, state) for t in e["turns"])
        humans = [m.content for m in model.calls[-1] if isinstance(m, HumanMessage)]
        if strategy == "recursive":  # the last 5 turns raw, whatever the memory holds
            assert covered == 10 and humans == [f"질문 {t}" for t in range(7, 13)]
        else:
            assert humans == [f"질문 {t}" for t in range(covered + 1, turns + 1)], strategy
        assert len(state["messages"]) == 2 * turns  # nothing was archived


def test_the_no_memory_baseline_is_the_bare_system_prompt_plus_every_turn() -> None:
    from prompt import get_prompt
    from tests.unit.helpers import send

    answers = [f"answer number {i}" for i in range(1, 6)]
    graph = make_graph(ScriptedModel(list(answers)))
    topics = ["apples", "bicycles", "compilers", "dolphins", "elections"]
    said = [f"Tell me about {topic}. " + f"{topic}! " * (3 * i) for i, topic in enumerate(topics)]
    for turn, text in enumerate(said, start=1):
        state = send(graph, "base", turn, text)
    stats = state["last_context"]
    before = sum(len(u) + len(a) for u, a in zip(said[:4], answers[:4], strict=True))
    # turn 5: a summary of turns 1-3 is in the system prompt, but not in the baseline
    assert history(graph, state) and not state["recalled"]
    assert stats["full_chars"] == len(get_prompt("system.base")) + before + len(said[4])


class _DownFirst(ExtractiveSummarizer):
    """The extractive summarizer, failing its first `failures` summaries."""

    def __init__(self, failures: int) -> None:
        self.left = failures

    def summarize(self, messages: Any, target_chars: int, *, turn_label: str) -> Any:
        if self.left > 0:
            self.left -= 1
            raise RuntimeError("summary server down")
        return super().summarize(messages, target_chars, turn_label=turn_label)


def test_two_blocks_due_at_once_archive_each_its_own_turns() -> None:
    """Summaries of turns 1-3 fail at turns 4, 5 and 6; at turn 7 both blocks are due, and
    the second archives turns 4-6 (it archived turns 1-3's messages again as 4-6 before
    `SummaryRun.turns` counted from the run's first live turn)."""
    graph = make_graph(ScriptedModel(default="네."), summarizer=_DownFirst(3))
    state = _run(graph, "f", 7, "three_turn", lambda t: f"질문 {t}번")
    assert [e["turns"] for e in history(graph, state)] == [[1, 2, 3], [4, 5, 6]]
    archived = load_archived_turns(ARCHIVES[id(graph)], "f", range(1, 7))
    assert {t: m[0].content for t, m in archived.items()} == {t: f"질문 {t}번" for t in range(1, 7)}
    assert [m.content for m in state["messages"]] == ["질문 7번", "네."]


def test_the_context_is_laid_out_stable_first_for_a_servers_prefix_cache() -> None:
    """Issue 42, item 4: fixed instructions, then memory, raw turns, this turn's finds."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    from graph.context import Extras, build_context, stable_first

    messages = [
        HumanMessage("turn 4 question"),
        AIMessage("turn 4 answer"),
        HumanMessage("turn 5 question"),
        AIMessage("turn 5 answer"),
        HumanMessage("turn 6 question"),
    ]
    summary = [
        {
            "turns": [1, 2, 3],
            "summary": "사용자는 마포구에 산다.",
            "original_chars": 100,
            "summary_chars": 14,
            "compression_rate": 0.3,
            "created_at": "2026-11-29T00:00:00",
        }
    ]
    context = build_context(
        messages,
        summary,
        6,
        Extras(
            documents="[1] 재택근무 지원금은 월 3만 원", recalled="[2턴] 마포구", pinned="사번 HB-1"
        ),
    )
    laid = stable_first(context)
    assert [type(m).__name__ for m in laid] == [
        "SystemMessage",
        "SystemMessage",
        "HumanMessage",
        "AIMessage",
        "HumanMessage",
        "AIMessage",
        "SystemMessage",
        "HumanMessage",
    ]
    stable, memory, found = laid[0].content, laid[1].content, laid[6].content
    assert stable == "당신은 유용한 AI 어시스턴트입니다."  # the same on every call
    assert "마포구에 산다" in memory and "HB-1" in memory and "재택근무" not in memory
    assert "재택근무 지원금" in found and "[2턴] 마포구" in found
    assert laid[-1].content == "turn 6 question"
    # the same words as the one system message, nothing lost or added
    joined = "".join(str(m.content) for m in laid if isinstance(m, SystemMessage))
    assert sorted(joined.replace("\n", "")) == sorted(str(context[0].content).replace("\n", ""))
