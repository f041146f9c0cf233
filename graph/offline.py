"""The built-in offline engine: a deterministic chat model with no weights.

It is honest about what it is. It calls a tool when the message plainly asks for one
(arithmetic -> calculator, date/time -> the clock, a file name -> read_file, ...), turns
tool results into a sentence, and otherwise answers from its own context: it quotes the
summary, document passage or earlier turn that best matches the question, so a user sees
the memory working. It supports `bind_tools` and token streaming like a real model.
"""

from __future__ import annotations

import functools
import re
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool

from graph.approval import USER_ANSWERED, Category, category_of
from graph.requests import code_in, request_kind, wants_code
from graph.safeguard import find_pii
from graph.statements import Statement, best_statements, said, user_segments
from graph.summarizer import sentences
from graph.text import (
    CLOCK_ZONES,
    asks_the_clock,
    is_greeting,
    is_korean,
    is_question,
    opens_with_greeting,
    speaks_korean,
    tells_nothing,
)
from graph.times import english_weekdays
from graph.turns import content_text
from prompt import get_prompt

_FUNCS = r"(?:sqrt|sin|cos|tan|log10|log|exp|abs|round|floor|ceil)"
_EXPR = re.compile(rf"(?:{_FUNCS}\s*\(|[\d(])(?:[\d\s+\-*/×÷^%().,]|{_FUNCS})*[\d)]")
_OPERATOR = re.compile(rf"\d\s*(?:\*\*|//|[-+*/×÷^%])|{_FUNCS}\s*\(")
_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}(/\d{2,4})?")
_FILE = re.compile(
    r"[\w가-힣./-]+\.(?:md|txt|csv|json|py|yaml|yml|log)\b|(?<![\w.])(?:~|\.{1,2})?/[\w./-]+"
)
_PERCENT_OF = re.compile(
    r"(\d+(?:\.\d+)?)\s*%\s*(?:of|의)\s*(\d[\d,]*(?:\.\d+)?)"
    r"|(\d[\d,]*(?:\.\d+)?)\s*의\s*(\d+(?:\.\d+)?)\s*%"
)
_ASKS_FOR: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "web_search",
        re.compile(
            r"웹\s?(검색|에서)|인터넷|search the web|search online|google|look (it )?up online",
            re.I,
        ),
    ),
    ("get_weather", re.compile(r"날씨|weather", re.I)),
    ("search_wikipedia", re.compile(r"위키|wikipedia", re.I)),
    (
        "read_file",
        re.compile(
            r"(읽어|열어|read|open)\S*\s.*(파일|file)|(파일|file)\S*\s.*(읽|열|read|open)", re.I
        ),
    ),
)
"""What a message asks a tool for, to say plainly when that tool is not available."""
_NEEDS = {
    "web_search": (
        "웹 검색 서비스의 API 키(TAVILY_API_KEY)",
        "a web search API key (TAVILY_API_KEY)",
    ),
    "get_weather": (
        "날씨 서비스의 API 키(OPENWEATHER_API_KEY)",
        "a weather API key (OPENWEATHER_API_KEY)",
    ),
    "search_wikipedia": ("인터넷 연결", "an internet connection"),
    "read_file": ("파일 도구", "the file tool"),
    "python_repl": (
        "격리 실행 환경(bubblewrap)",
        "an isolated sandbox (bubblewrap)",
    ),
}
"""What an unavailable tool needs, in Korean and English."""
TOOL_LABELS = {
    "python_repl": ("코드 실행", "Running the code"),
    "get_weather": ("날씨 조회", "The weather lookup"),
    "web_search": ("웹 검색", "Web search"),
    "search_wikipedia": ("위키백과 검색", "The Wikipedia search"),
    "read_file": ("파일 읽기", "Reading the file"),
    "calculator": ("계산", "The calculator"),
    "get_current_datetime": ("시계", "The clock"),
}
"""What a tool does, as a user calls it (the answer names no tool by its function name)."""


def tool_label(name: str, korean: bool) -> str:
    """A tool as a user calls it ("코드 실행"); its own name when it has no label."""
    ko, en = TOOL_LABELS.get(name, (name, name))
    return ko if korean else en


_ABOUT_USER = re.compile(
    r"\b(my|mine|me|i|our|ours|we|us)\b|제가|내가|저는|나는|저의|나의|우리|저희|(?:^|\s)(?:제|내)\s",
    re.I,
)
_RECALL = re.compile(r"(라고|다고|했|였|었)\S*\s*(지|죠|나요|어|니)|did i|i said|i told")
_QUESTION_WORDS = (
    "?",
    "뭐",
    "무엇",
    "언제",
    "어디",
    "누구",
    "몇",
    "얼마",
    "어떻",
    "왜",
    "알려",
    "기억",
    "what",
    "when",
    "where",
    "who",
    "how",
    "why",
    "which",
    "remember",
)
_STOP_BIGRAMS = {
    "뭐라",
    "라고",
    "했지",
    "했어",
    "했더",
    "알려",
    "려줘",
    "무엇",
    "언제",
    "어디",
    "누구",
    "얼마",
    "어떻",
    "떻게",
    "인가",
    "인지",
    "니까",
    "나요",
    "까요",
    "해줘",
    "주세",
    "세요",
    "었지",
    "였지",
    "이었",
    "였어",
    "말했",
    "했었",
    "기억",
    "억해",
    "나니",
    "what",
    "was",
    "did",
    "the",
    "you",
    "say",
    "my",
    "is",
    "me",
    "tell",
    "remember",
}
NO_MATCH = 0.2
"""Share of the question's words a memory must contain to be quoted."""
GREETING_KO = (
    "안녕하세요! 저는 API 키 없이 동작하는 오프라인 엔진입니다. 계산, 시간, 파일 읽기를 "
    "하고, 이전 대화와 요약에서 찾아 답합니다."
)
GREETING_EN = (
    "Hello! I am the offline engine, running with no API key. I can calculate, "
    "tell the time, read files, and quote our earlier conversation and its summaries."
)
NOT_FOUND_KO = (
    "오프라인 엔진이라 새로운 답을 지어내지 않습니다. 대화 기록과 요약에서도 관련 내용을 "
    "찾지 못했습니다."
)
NOT_FOUND_EN = (
    "I am the offline engine and do not invent answers; nothing in our "
    "conversation or its summaries matches that."
)
CODE_HINT_KO = (
    "오프라인 엔진은 코드를 직접 짜지 못합니다. 실행할 코드를 메시지에 함께 보내 주시면 "
    "승인을 받은 뒤 격리된 환경에서 실행합니다. 예: `코드: print(sum(range(1, 11)))` "
    "(여러 줄이면 코드 블록으로 보내 주세요)."
)
CODE_HINT_EN = (
    "The offline engine cannot write code. Send the code to run with your message and it "
    "runs in the sandbox once you approve it, e.g. `code: print(sum(range(1, 11)))` "
    "(several lines: send a code block)."
)
CANNOT_ACT_KO: dict[Category | None, str] = {
    Category.PAYMENT: "결제·송금·주문처럼 돈이 오가는 일은 제가 할 수 없습니다",
    Category.CONTRACT: "계약서 서명·체결·해지 같은 계약 행위는 제가 할 수 없습니다",
    Category.SENSITIVE: "개인정보를 밖으로 보내는 일은 제가 할 수 없습니다",
}
CANNOT_ACT_EN: dict[Category | None, str] = {
    Category.PAYMENT: "I cannot pay, transfer money or place orders",
    Category.CONTRACT: "I cannot sign, conclude or terminate contracts",
    Category.SENSITIVE: "I cannot send personal data anywhere",
}
NOTED_KO = "알겠습니다. 기억해 두겠습니다: "
NOTED_EN = "Noted. I will keep this in mind: "
_STOCK = (GREETING_KO, GREETING_EN, NOT_FOUND_KO, NOT_FOUND_EN, NOTED_KO, NOTED_EN)
"""The engine's own set replies: never a memory to answer from (they only repeat or say
nothing was found)."""


@functools.lru_cache(maxsize=8192)
def _bigrams(text: str) -> frozenset[str]:
    """Words and Hangul syllable pairs of `text`.

    Remembered: the same summaries and recalled turns are matched against every question
    of a long conversation.
    """
    grams: set[str] = set()
    for word in re.findall(r"[가-힣]+|[a-zA-Z]{2,}|\d+", text.lower()):
        if word.isascii():
            grams.add(word)
        else:
            grams.update(word[i : i + 2] for i in range(max(1, len(word) - 1)))
    return frozenset(g for g in grams if g not in _STOP_BIGRAMS and len(g) > 1)


_PARTICLE = re.compile(
    r"(?<=[가-힣])(이랑|랑|이나|에서|에게|한테|으로|로|은|는|이|가|을|를|에|의|도|와|과|만|까지|부터)$"
)
"""A Korean particle ending a word: "생일이" is "생일" + "이", and its "일이" no word."""


@functools.lru_cache(maxsize=2048)
def _words(text: str) -> frozenset[str]:
    """Syllable pairs of words without their particles, and dictionary forms.

    "생일이" gives "생일" (not "일이"), "차가" and "차는" give "=차", "renews" "=renew".
    """
    from graph.retrieval.tokenize import tokens

    stems = " ".join(_PARTICLE.sub("", word) for word in text.split())
    return _bigrams(stems) | {f"={t}" for t in tokens(text) if t not in _STOP_BIGRAMS}


@dataclass(frozen=True)
class Memory:
    """A piece of context the offline engine can quote."""

    label: str
    text: str
    weight: float
    kind: str = "memory"
    """memory (summaries, earlier turns, recalled turns, pins) or document (a passage)."""
    turn: int = 0
    """For a recalled turn: its number, so the answer can name it (and a later one wins)."""
    time: str = ""
    """For a recalled turn: when it was sent, as the context shows it."""
    part: str = ""
    """For a passage: the part of a two-part question the retrieval loop chose it for."""

    def cite(self, korean: bool) -> str:
        """How the answer names this memory."""
        if not self.turn:
            return self.label if korean else english_weekdays(_english_label(self.label))
        when = f", {self.time}" if self.time else ""
        return f"{self.turn}턴{when}" if korean else f"turn {self.turn}{english_weekdays(when)}"


_ENGLISH_LABELS = (
    (re.compile(r"^(\d+-\d+)턴 요약"), r"turns \1"),
    (re.compile(r"^주요 정보, (\d+)턴$"), r"key facts, turn \1"),
    (re.compile(r"^대화 기록 (\d+)$"), r"conversation record \1"),
    (re.compile(r"^장기 기억$"), "long-term memory"),
    (re.compile(r"^고정된 사실$"), "pinned fact"),
    (re.compile(r"^(\d+)턴$"), r"turn \1"),
)


def _english_label(label: str) -> str:
    """A memory's label (written from the Korean context) for an English answer."""
    for pattern, english in _ENGLISH_LABELS:
        label = pattern.sub(english, label)
    return label


_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
"""An English month's name, as a date writes it ("May 10", "1 September")."""
_CONCEPTS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    # question word -> what an answer to it looks like
    (
        re.compile(r"이름|누구|name|who"),
        re.compile(
            r"이름은|저는\s*[가-힣]{2,4}(입니다|이에요|예요|이야|야)|my name is|i am [a-z]|i'm [a-z]"
        ),
    ),
    (
        re.compile(r"언제|몇\s?시|날짜|생일|when|what time|date|birthday|born"),
        re.compile(
            r"\d+\s*(월|일|시|분)|[월화수목금토일]요일|\d{4}-\d{2}-\d{2}|\d+\s*(am|pm)|monday|tuesday|wednesday|thursday|friday"
            rf"|\b{_MONTHS}\.? \d{{1,2}}\b|\b\d{{1,2}} {_MONTHS}\b"
        ),
    ),
    (
        re.compile(r"얼마|금액|예산|비용|how much|cost|budget|price"),
        re.compile(r"\d[\d,.]*\s*(원|만원|억|달러|유로|\$|usd|eur)|[$€₩]\s*\d"),
    ),
    (
        re.compile(r"어디|장소|위치|동네|where|which city|what place"),
        re.compile(
            r"[가-힣]+(에서|으로|로)\s|[가-힣]+(시|도|구|동|역|호텔|식당|공항)"
            r"(?:에서|에|으로|로|의)?(?:\s|$|[.,!?])|\b(in|at|to) [a-z]+"
        ),
    ),
    (
        re.compile(r"몇|how many|what number|which number"),
        re.compile(r"\d"),
    ),
    (
        re.compile(r"좋아|선호|취향|favou?rite|prefer|like"),
        re.compile(r"좋아|선호|즐겨|항상|늘|favou?rite|prefer|always|love|like"),
    ),
)
CONCEPT_BONUS = 0.3
"""Added when a memory has the kind of fact the question asks for (a name, a time, an amount)."""


def find_memory(
    question: str,
    memories: Sequence[Memory],
    grams: Callable[[str], frozenset[str]] = _bigrams,
) -> tuple[Memory, float] | None:
    """The memory sharing most of the question's words, or None below `NO_MATCH`.

    Word overlap is counted on character bigrams (robust to Korean particles); a memory that
    holds the kind of fact the question asks for (a name, a time, an amount, a place, a
    preference) gets a bonus. Among recalled turns that score within `RECENT_MARGIN` of the
    best, the latest wins: a fact said again later is the current one.
    """
    wanted = grams(question)
    if not wanted:
        return None
    lower = question.lower()
    asked = [answer for ask, answer in _CONCEPTS if ask.search(lower)]
    scored: list[tuple[Memory, float]] = []
    for memory in memories:
        score = len(wanted & grams(memory.text)) / len(wanted)
        score += CONCEPT_BONUS * sum(bool(a.search(memory.text.lower())) for a in asked)
        scored.append((memory, score * memory.weight))
    if not scored:
        return None
    best = max(scored, key=lambda pair: pair[1])
    if best[0].turn:
        close = [p for p in scored if p[0].turn and p[1] >= best[1] - RECENT_MARGIN]
        best = max(close, key=lambda pair: (pair[0].turn, pair[1]))
    return best if best[1] >= NO_MATCH else None


OWN_OVER_DOCUMENTS = 0.5
"""With passages retrieved, a statement of the user's answers only when it matches this
much of the question (half its words, or fewer with the kind of fact asked for): "Can I
work remotely?" is the documents' even though the user once said "I work nights"."""
RECENT_MARGIN = 0.1
"""Recalled turns this close to the best score count as equally relevant."""


@functools.lru_cache(maxsize=16)
def _system_memories(system: str) -> tuple[Memory, ...]:
    """Quotable units of the memory sections of a system prompt, whatever the strategy.

    They are `[a-b턴]` summary lines, `[대화 기록 n]` window blocks, `[장기 기억]` sentences and
    `[주요 정보]` entity lines. Remembered: an answer reads them twice (the memories it may
    quote, and the user's statements among them).
    """
    head = system.split("[참고 문서]", 1)[0]
    memories: list[Memory] = []
    recalled = re.search(r"\[관련 이전 대화\]\n(.*?)(?=\n\n?\[(?!\d+턴)|\Z)", head, re.S)
    if recalled:
        body = recalled.group(1)
        for turn, when, text in re.findall(
            r"^\[(\d+)턴(?:, ([^\]]+))?\]\n(.*?)(?=\n\n\[\d+턴|\Z)", body, re.S | re.M
        ):
            memories.append(
                Memory(f"{turn}턴", text.strip(), 1.0, "recalled", int(turn), when or "")
            )
        head = head.replace(recalled.group(0), "")
    pinned = re.search(r"\[고정된 사실\]\n(.*?)(?=\n\n?\[|\Z)", head, re.S)
    if pinned:
        for fact, turn, source in re.findall(
            r"^- (.+?) \((\d+)턴(?:: (.*))?\)$", pinned.group(1), re.M
        ):
            text = f"{fact} — {source}" if source else fact
            memories.append(Memory("고정된 사실", text, 1.0, "pinned", int(turn)))
        head = head.replace(pinned.group(0), "")
    for line in head.splitlines():
        summary = re.match(r"\[(\d+-\d+턴)(?:, ([^\]]+))?\]\s*(.+)", line)
        if summary:
            when = f", {summary.group(2)}" if summary.group(2) else ""
            memories.append(Memory(f"{summary.group(1)} 요약{when}", summary.group(3), 1.0))
        entity = re.match(r"- (.+?): (.+) \((\d+)턴\)$", line)
        if entity:
            label = f"주요 정보, {entity.group(3)}턴"
            memories.append(Memory(label, f"{entity.group(1)}: {entity.group(2)}", 1.0))
    for number, block in re.findall(r"\[대화 기록 (\d+)\]\n(.*?)(?=\n\n\[|\Z)", head, re.S):
        memories.append(Memory(f"대화 기록 {number}", block.strip(), 1.0))
    memory = re.search(r"\[장기 기억\]\n(.*?)(?=\n\n?\[|\Z)", head, re.S)
    if memory:
        memories.extend(Memory("장기 기억", s, 1.0) for s in sentences(memory.group(1)))
    return tuple(memories)


def _context_memories(messages: Sequence[BaseMessage], korean: bool) -> list[Memory]:
    """Summaries and documents from the system prompt, and earlier turns, as quotable units."""
    memories: list[Memory] = []
    for msg in messages[:-1]:
        text = content_text(msg).strip()
        if isinstance(msg, SystemMessage):
            memories.extend(_system_memories(text))
            docs = text.split("[참고 문서]", 1)
            if len(docs) == 2:
                for block in re.split(r"\n(?=\[\d+\])", docs[1]):
                    # the last "(출처: ...)" to the last ")": a heading may hold parentheses
                    # ("자주 묻는 질문 (FAQ)"), and a passage may quote another's source
                    block = block.strip()
                    start = block.rfind("(출처: ")
                    source = re.match(r"\(출처: (.+)\)$", block[start:]) if start >= 0 else None
                    if source:
                        passage = re.sub(r"^\[\d+\]\s*", "", block[:start])
                        part = _PART.match(passage)
                        memories.append(
                            Memory(
                                source.group(1),
                                passage[part.end() :].strip() if part else passage.strip(),
                                1.0,
                                "document",
                                part=part.group(1) if part else "",
                            )
                        )
        elif isinstance(msg, HumanMessage) and text and not tells_nothing(text):
            memories.append(Memory("이전 대화의 사용자 말" if korean else "you said", text, 1.0))
        elif isinstance(msg, AIMessage) and text and not msg.tool_calls:
            if not text.startswith(_STOCK):
                memories.append(
                    Memory("이전 대화의 AI 답변" if korean else "I answered", text, 0.7)
                )
    return memories


def _user_statements(messages: Sequence[BaseMessage], korean: bool) -> list[Statement]:
    """What the user said, in the context the model receives (`graph.statements`).

    The user's side of the summaries, recalled turns, pinned facts, entities, window and
    long-term memory, and the raw turns. Raw turns are numbered after the summaries'
    last turn (the three-turn memory keeps every turn after it raw); under another
    memory, whose raw turns follow no numbered summary, they are "a recent turn".
    """
    system = (
        content_text(messages[0]) if messages and isinstance(messages[0], SystemMessage) else ""
    )
    found: list[Statement] = []
    last_summarized = 0
    other_memory = False
    for position, memory in enumerate(_system_memories(system)):
        span = re.match(r"(\d+)-(\d+)턴", memory.label)
        if memory.kind in ("recalled", "pinned"):
            label = (
                memory.cite(korean)
                if memory.kind == "recalled"
                else _turn_label(memory.turn, korean)
            )
            found += said(" ".join(user_segments(memory.text)), memory.turn, label, whole=True)
        elif span:
            end = int(span.group(2))
            last_summarized = max(last_summarized, end)
            label = memory.cite(korean)
            for part in user_segments(memory.text):
                found += said(part, end, label, whole=False)
        else:
            turn = re.search(r"(\d+)턴", memory.label)
            # a window or long-term memory names no turns: it is what the conversation
            # came to, in its order, so it comes after the numbered turns recalled from
            # the archive and before the raw turns after it
            at = int(turn.group(1)) if turn else UNNUMBERED + position
            other_memory = other_memory or not turn
            label = _turn_label(at, korean) if turn else memory.cite(korean)
            for part in user_segments(memory.text):
                found += said(part, at, label, whole=False)
    raw = [m for m in messages[1:-1] if isinstance(m, HumanMessage)]
    for i, msg in enumerate(raw, start=1):
        if last_summarized or not other_memory:
            number = last_summarized + i
            found += said(content_text(msg), number, _turn_label(number, korean), whole=True)
        else:
            recent = "최근 대화" if korean else "a recent turn"
            found += said(content_text(msg), 2 * UNNUMBERED + i, recent, whole=True)
    return found


UNNUMBERED = 100_000
"""Where the statements of memory sections that name no turn are put in time."""


def _turn_label(turn: int, korean: bool) -> str:
    return f"{turn}턴" if korean else f"turn {turn}"


class OfflineChatModel(BaseChatModel):
    """Deterministic, weight-free chat model for machines with no API key."""

    tool_names: list[str] = []
    """Names of the bound tools; a tool is called only if it is bound."""
    chunk_words: int = 1
    """Words per streamed chunk."""

    @property
    def _llm_type(self) -> str:
        return "offline-engine"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> OfflineChatModel:
        """Return a copy that may call `tools` (LangChain tools, functions or schemas)."""
        names = [convert_to_openai_tool(t)["function"]["name"] for t in tools]
        return self.model_copy(update={"tool_names": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.respond(messages))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        reply = self.respond(messages)
        if reply.tool_calls:
            chunk = ChatGenerationChunk(
                message=AIMessageChunk(
                    content="",
                    tool_call_chunks=[
                        {
                            "name": c["name"],
                            "args": _json(c["args"]),
                            "id": c["id"],
                            "index": i,
                            "type": "tool_call_chunk",
                        }
                        for i, c in enumerate(reply.tool_calls)
                    ],
                )
            )
            yield chunk
            return
        tokens = re.findall(r"\S+\s*|\s+", content_text(reply))
        for i in range(0, len(tokens), self.chunk_words):
            piece = "".join(tokens[i : i + self.chunk_words])
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
            if run_manager:
                run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk

    # --- behaviour -------------------------------------------------------------------------

    def respond(self, messages: Sequence[BaseMessage]) -> AIMessage:
        """The reply to `messages`: a tool call, a sentence about tool results, or an answer."""
        if not messages:
            return AIMessage(content="")
        last = messages[-1]
        if isinstance(last, ToolMessage):
            return AIMessage(content=self._explain_tools(messages))
        question = content_text(last).strip()
        system = content_text(messages[0]) if isinstance(messages[0], SystemMessage) else ""
        # A document question (the router put passages in the prompt) is answered from them.
        call = None if "[참고 문서]" in system else self._plan_tool(question)
        if call is not None:
            name, args = call
            return AIMessage(
                content="",
                tool_calls=[{"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:12]}"}],
            )
        return AIMessage(content=self._answer(question, messages))

    def _plan_tool(self, text: str) -> tuple[str, dict[str, Any]] | None:
        lower = text.lower()
        bound = set(self.tool_names)
        code = code_in(text)  # a request with code: run it (after approval)
        if "python_repl" in bound and code is not None:
            return "python_repl", {"code": code}
        file = _FILE.search(text)
        if (
            "read_file" in bound
            and file
            and any(
                w in lower for w in ("읽", "열어", "보여", "read", "open", "show", "file", "파일")
            )
        ):
            return "read_file", {"path": file.group(0)}
        if "calculator" in bound:
            percent = _PERCENT_OF.search(lower)
            if percent:
                rate, base = (
                    (percent.group(1), percent.group(2))
                    if percent.group(1)
                    else (
                        percent.group(4),
                        percent.group(3),
                    )
                )
                return "calculator", {"expression": f"{base.replace(',', '')}*{rate}/100"}
            # a phone, card or ID number is not arithmetic ("010-1234-5678")
            numbers = [value for _, value in find_pii(text)]
            spans = [m.group(0).strip() for m in _EXPR.finditer(lower)]
            spans = [
                s
                for s in spans
                if _OPERATOR.search(s)
                and not _DATE.fullmatch(s)
                and not any(s.strip(",. ") in n for n in numbers)
            ]
            if spans:
                return "calculator", {"expression": max(spans, key=len).rstrip(",. ")}
        if "get_weather" in bound and ("날씨" in lower or "weather" in lower):
            city = re.search(
                r"([가-힣A-Za-z]+?)(?:의)?\s*날씨|weather (?:in|for) ([A-Za-z ]+)", text
            )
            name = next((g for g in (city.groups() if city else ()) if g), "Seoul")
            return "get_weather", {"city": name.strip()}
        if "get_current_datetime" in bound and asks_the_clock(text) and not _RECALL.search(lower):
            zone = next((z for k, z in CLOCK_ZONES.items() if k in lower), None)
            return "get_current_datetime", {"timezone": zone} if zone else {}
        if "search_wikipedia" in bound and ("위키" in lower or "wikipedia" in lower):
            query = re.sub(
                r"위키(피디아|백과)?(에서)?|wikipedia|search|찾아\S*|검색\S*|알려\S*", "", text
            )
            query = query.strip(" ?.!에서를을")
            return "search_wikipedia", {"query": query, "lang": "ko" if is_korean(text) else "en"}
        if "web_search" in bound and any(
            w in lower for w in ("웹 검색", "웹에서", "search the web")
        ):
            query = re.sub(r"웹\s*(검색|에서)\S*|search the web( for)?|해줘|찾아줘", "", text)
            return "web_search", {"query": query.strip(" ?.!")}
        return None

    def _explain_tools(self, messages: Sequence[BaseMessage]) -> str:
        results: list[ToolMessage] = []
        for msg in reversed(messages):
            if not isinstance(msg, ToolMessage):
                break
            results.insert(0, msg)
        question = next(
            (content_text(m) for m in reversed(messages) if isinstance(m, HumanMessage)), ""
        )
        korean = speaks_korean(question)  # a message of code alone: the app's Korean
        lines = []
        for result in results:
            text = content_text(result).strip()
            label = tool_label(result.name or "", korean)
            if text.startswith(USER_ANSWERED):  # not run: the user answered it (respond)
                said = text[len(USER_ANSWERED) :].strip()
                lines.append(
                    f"{label}은(는) 하지 않았습니다. 대신 주신 답: {said}"
                    if korean
                    else f"{label} was not done. Your answer instead: {said}"
                )
            elif text.startswith("Error:"):
                lines.append(
                    f"{label}에 실패했습니다. {text}" if korean else f"{label} failed. {text}"
                )
            elif result.name == "calculator":
                lines.append(f"계산 결과는 {text}입니다." if korean else f"The result is {text}.")
            elif result.name == "get_current_datetime":
                lines.append(f"현재 시각은 {text}입니다." if korean else f"It is now {text}.")
            else:  # as text: a file's "# heading" must not become a giant heading
                fence = "````" if "```" in text else "```"
                block = f"{fence}text\n{text}\n{fence}"
                lines.append(
                    f"{label} 결과입니다:\n{block}" if korean else f"{label} gave:\n{block}"
                )
        return "\n\n".join(lines)

    def _answer_from_documents(
        self, question: str, passages: list[Memory], korean: bool, section: str = ""
    ) -> str:
        """Quote the passage ranked first, with its source; else seed 003's fallback.

        Retrieval ranked the passages (the loop's rerank, or the search): the first is the
        best, and a question in two parts comes with a passage for each part.
        """
        if not passages:
            return _fallback(section, korean)
        parted = [p for p in passages if p.part]
        if len(parted) >= 2:  # one passage for each part of the question, as the loop chose
            quoted = [(p, p.part) for p in parted]
        else:
            quoted = [(passages[0], question)]
        label = "출처" if korean else "Source"
        quote = "\n\n".join(
            "\n".join(f"> {line}" if line else ">" for line in _excerpt(p.text, focus))
            + f"\n\n{label}: {p.label}"
            for p, focus in quoted
        )
        others = [
            p.label
            for p in passages
            if all(p is not q for q, _ in quoted) and not quote.count(p.label)
        ]
        also = (
            ("\n\n함께 찾은 문서: " if korean else "\n\nAlso found: ") + "; ".join(others)
            if others
            else ""
        )
        head = "문서에서 찾은 내용입니다:" if korean else "From the documents:"
        return f"{head}\n\n{quote}{also}{_absent_note(section, korean)}"

    def _quote(self, memory: Memory, korean: bool) -> str:
        """Quote a memory, naming where it comes from."""
        quote = memory.text if len(memory.text) <= 400 else memory.text[:399] + "…"
        quote = quote.replace("\n", "  \n> ")  # a line break inside the quote
        if korean:
            return f"제 대화 기록에서 가장 관련 있는 내용은 이것입니다 ({memory.cite(True)}):\n\n> {quote}"
        return f"The closest thing in my context ({memory.cite(False)}):\n\n> {quote}"

    def _cannot(self, question: str, korean: bool) -> str | None:
        """Say plainly what a request needs when its tool cannot run here; None if it can."""
        bound = set(self.tool_names)
        lower = question.lower()
        code_wanted = wants_code(question)
        if code_wanted and "python_repl" in bound:
            return CODE_HINT_KO if korean else CODE_HINT_EN
        wanted = [name for name, pattern in _ASKS_FOR if pattern.search(lower)]
        if code_wanted:
            wanted.append("python_repl")
        missing = [name for name in wanted if name not in bound]
        if not missing:
            if "read_file" in wanted:
                return (
                    "읽을 파일 이름을 알려 주세요 (예: notes.md). 파일 폴더 안의 파일만 읽을 수 있습니다."
                    if korean
                    else "Tell me which file to read (e.g. notes.md); I can read files in the "
                    "files folder only."
                )
            return None
        name = missing[0]
        need_ko, need_en = _NEEDS.get(name, ("설정", "configuration"))
        return (
            f"{tool_label(name, True)}은(는) 지금 쓸 수 없습니다 ({need_ko}이(가) 필요합니다). "
            "오프라인 엔진은 없는 결과를 지어내지 않습니다."
            if korean
            else f"{tool_label(name, False)} is not available here (it takes {need_en}). "
            "The offline engine does not make results up."
        )

    def _answer(self, question: str, messages: Sequence[BaseMessage]) -> str:
        korean = speaks_korean(question)
        lower = question.lower()
        memories = _context_memories(messages, korean)
        system = (
            content_text(messages[0]) if messages and isinstance(messages[0], SystemMessage) else ""
        )
        kind = request_kind(question)  # a request is never a note (unless it asks for one)
        asks = kind != "note" and (
            any(w in lower for w in _QUESTION_WORDS) or is_question(question)
        )
        # a question is answered first from what the user said, whatever else is there
        own = self._from_statements(question, messages, korean) if asks else None
        if "[참고 문서]" in system:
            documents = [m for m in memories if m.kind == "document"]
            # what they said of themselves beats a policy document, unless a passage
            # matches better; a question not about them is the documents'
            if (
                kind != "act"
                and own is not None
                and _ABOUT_USER.search(question)
                and _best_score(question, own[1], _words)
                >= max(OWN_OVER_DOCUMENTS, _best_score(question, documents, _words))
            ):
                return own[0]
            found_in_documents = self._answer_from_documents(
                question, documents, korean, system.split("[참고 문서]", 1)[1]
            )
            if kind == "act":  # "apply for my leave": not done, but how it is done
                return f"{_cannot_act(question, korean)}\n\n{found_in_documents}"
            return found_in_documents
        requested = (
            asks
            or kind is not None
            or bool(
                re.search(r"줘|주세요|please|찾아|검색|\b(search|run|read|open|show)\b|실행", lower)
            )
        )
        cannot = self._cannot(question, korean) if requested else None
        if cannot:
            return cannot
        if kind == "act":
            return _cannot_act(question, korean)
        snippet = question if len(question) <= 200 else question[:199] + "…"
        if kind == "note":
            return f"{NOTED_KO if korean else NOTED_EN}“{snippet}”"
        if own is not None:
            return own[0]
        found = find_memory(question, memories) if asks else None
        if found:
            return self._quote(found[0], korean)
        if is_greeting(question):  # seed 002's fast path: a greeting and nothing else
            return GREETING_KO if korean else GREETING_EN
        if asks or kind in ("info", "compose"):  # a request not met is no note either
            return NOT_FOUND_KO if korean else NOT_FOUND_EN
        hello = ("안녕하세요! " if korean else "Hello! ") if opens_with_greeting(question) else ""
        return f"{hello}{NOTED_KO if korean else NOTED_EN}“{snippet}”"

    def _from_statements(
        self, question: str, messages: Sequence[BaseMessage], korean: bool
    ) -> tuple[str, list[Memory]] | None:
        """The answer from the user's own statements, and the statements it quotes.

        None when nothing they said matches the question.
        """
        kinds = [answer for ask, answer in _CONCEPTS if ask.search(question.lower())]
        found = best_statements(
            question,
            _user_statements(messages, korean),
            _words,
            kinds,
            [answer for _, answer in _CONCEPTS],
            bonus=CONCEPT_BONUS,
            # a question not about the user ("강아지 사료 추천해줘") is theirs only when
            # what they said matches it well
            floor=NO_MATCH if _ABOUT_USER.search(question) else OWN_OVER_DOCUMENTS,
        )
        if not found:
            return None
        quotes: list[str] = []
        last = ""
        for statement, _ in sorted(found, key=lambda pair: pair[0].turn):
            text = statement.text if len(statement.text) <= 400 else statement.text[:399] + "…"
            if statement.label != last:  # sentences of one summary come under one head
                quotes.append(
                    f"말씀하신 내용입니다 ({statement.label}):"
                    if korean
                    else f"You said this ({statement.label}):"
                )
                last = statement.label
            quotes.append(f"> {text}")
        quoted = [Memory(statement.label, statement.text, 1.0) for statement, _ in found]
        return "\n\n".join(quotes), quoted


def rule_call(text: str, bound: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """The call the engine's rule makes for a message that plainly asks for one of `bound`.

    (arithmetic, the clock, a file, code, weather, Wikipedia, the web), or None. A
    provider's model may be given it instead of deciding itself (TOOL_DECISION).
    """
    return OfflineChatModel(tool_names=list(bound))._plan_tool(text)


def asked_tool(text: str) -> str | None:
    """The tool a message plainly asks for by the engine's own rule, available here or not.

    The call the engine would make with every tool bound, else the tool its request names
    ("웹 검색", "run this code"): the supervisor's plan sends that part to the tool's agent.
    """
    from graph.tools import TOOL_NAMES

    call = OfflineChatModel(tool_names=list(TOOL_NAMES))._plan_tool(text)
    if call is not None:
        return call[0]
    if wants_code(text):
        return "python_repl"
    lower = text.lower()
    return next((name for name, pattern in _ASKS_FOR if pattern.search(lower)), None)


def _best_score(
    question: str, memories: Sequence[Memory], grams: Callable[[str], frozenset[str]]
) -> float:
    """How well the best of `memories` matches the question (as `find_memory` scores)."""
    found = find_memory(question, memories, grams)
    return found[1] if found else 0.0


def _cannot_act(question: str, korean: bool) -> str:
    """Say plainly that a request to act was not done: no tool here does it.

    Named by its approval category (`graph.approval.category_of`) when it has one: a
    payment, a contract, personal data sent out.
    """
    category = category_of(None, {"question": question}, question)
    if korean:
        head = CANNOT_ACT_KO.get(category, "요청하신 일은 제가 직접 할 수 없습니다")
        return (
            f"{head}. 이 앱에는 그 일을 하는 도구가 없어 아무것도 하지 않았습니다. 제가 하는 "
            "일은 계산, 현재 시각, 파일 읽기, 승인 후 코드 실행, 그리고 대화와 문서에서 찾아 "
            "답하기입니다."
        )
    head = CANNOT_ACT_EN.get(category, "I cannot do that myself")
    return (
        f"{head}: no tool here does it, so nothing was done. What I can do: calculate, "
        "tell the time, read files, run code after you approve it, and answer from our "
        "conversation and the documents."
    )


def _absent_note(section: str, korean: bool) -> str:
    """Say which of the question's words no document uses, as the rag node listed them.

    The passage was found by the question's other words: "dog" in "Can I bring my dog to
    the office?" finds the office rules, which may not be about dogs at all.
    """
    before, _, after = get_prompt("system.documents_absent", words="\x00").partition("\x00")
    listed = re.search(re.escape(before) + r"(.+?)" + re.escape(after), section)
    if not listed:
        return ""
    words = [w.strip() for w in listed.group(1).split(",") if w.strip()]
    if korean:
        quoted = ", ".join(f"‘{w}’" for w in words)
        return f"\n\n참고: 질문의 {quoted}은(는) 어떤 문서에도 나오지 않습니다. 위 내용은 질문의 다른 말로 찾은 것이라 답이 아닐 수 있습니다."
    quoted = ", ".join(f'"{w}"' for w in words)
    return (
        f"\n\nNote: no document mentions {quoted}; the passage above was found by the "
        "question's other words and may not answer it."
    )


def _fallback(section: str, korean: bool) -> str:
    """Seed 003's fallback as the retrieval loop wrote it into the documents section."""
    if "해당 내용은 준비 중입니다" in section:
        return (
            "해당 내용은 준비 중입니다. 아직 이 내용을 다루는 문서가 없습니다."
            if korean
            else "That topic is still being prepared: no document covers it yet."
        )
    marker = "다음 메뉴에서 확인해 보세요:"
    menus = re.findall(r"\S+ \[[^\]]+\]", section.split(marker, 1)[1]) if marker in section else []
    if korean:
        tail = f" 다음 메뉴에서 확인해 보세요: {', '.join(menus)}" if menus else ""
        return f"관련 문서를 찾지 못했습니다. 문서에 없는 내용은 지어내지 않습니다.{tail}"
    tail = f" You may find it in these portal menus: {', '.join(menus)}" if menus else ""
    return f"I found no relevant document, and I do not invent policy.{tail}"


_PART = re.compile(r"\{질문 중 “(.*?)”에 대한 발췌\}\s*")
"""The loop's mark on a passage chosen for one part of a question (prompt system.document_part)."""

QUOTE_CHARS = 500
"""A passage longer than this is quoted by its lines that match the question."""


def _excerpt(text: str, question: str, limit: int = QUOTE_CHARS) -> list[str]:
    """The lines of a passage to quote, within `limit` characters.

    All of it if short, else the lines sharing most words with the question, in their
    order, a table row with its table's header. Whole lines, so a list item or a table row
    is never cut in the middle.
    """
    lines = [line.rstrip() for line in text.strip().splitlines()]
    if len(text) <= limit:
        return lines
    wanted = _bigrams(question)
    order = sorted(range(len(lines)), key=lambda i: (-len(wanted & _bigrams(lines[i])), i))
    keep: set[int] = set()
    size = 0
    for i in order:
        extra = {i}
        if lines[i].startswith("|"):  # a table row comes with the table's header
            start = i
            while start > 0 and lines[start - 1].startswith("|"):
                start -= 1
            extra |= {start, start + 1} & set(range(len(lines)))
        cost = sum(len(lines[j]) + 1 for j in extra - keep)
        if keep and size + cost > limit:
            continue
        keep |= extra
        size += cost
    out: list[str] = []
    last = -1
    for i in sorted(keep):
        inside_table = lines[i].startswith("|") and out and out[-1].startswith("|")
        if last >= 0 and i != last + 1 and not inside_table:
            out.append("…")
        out.append(lines[i][:limit])
        last = i
    return out


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)
