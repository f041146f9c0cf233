"""Summarizers: an extractive one for the offline engine, and one that asks an LLM.

Both land near `target_chars = int(original_chars * compression_rate)`. The extractive one
is exact by construction (within +-10%, never more than 10% above). The LLM one is asked
once more when it misses by more than 25%, then trimmed at a sentence boundary, so
`summary_chars` (the length actually stored) never runs away.

An LLM summary is checked before it is stored (`check_summary`): one that is empty, that
repeats the instructions (a prompt of this module or the system prompt), that is not in
the conversation's language, or that stays more than 25% off its target is replaced by
the extractive summary of the same text, and the result says why (`fallback`).
"""

from __future__ import annotations

import logging
import re
import string
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from pydantic import BaseModel, Field

from graph.budgets import estimate_tokens
from graph.markup import (
    GRAM,
    TEMPLATE_TOKEN,
    instruction_pieces,
    is_prompt_echo,
    pieces,
    read_calls,
)
from graph.safeguard import mask, unmask
from graph.structured import ask_structured
from graph.text import tells_nothing
from graph.turns import content_text, original_chars, said_text
from graph.untrusted import untrusted_message
from prompt import get_prompt

if TYPE_CHECKING:
    from graph.memory.facts import Fact

log = logging.getLogger(__name__)

Entity = dict[str, Any]
"""{key, value, turn}, as seed 003 stores it."""

RECENT_WEIGHT = 1.5
"""How much more the new summary's sentences weigh in an offline memory rewrite."""
RETRY_TOLERANCE = 0.25
"""An LLM summary further than this from the target is asked for once more."""
EXTRACTIVE_TOLERANCE = 0.10
"""The extractive summary lands within this share of the target."""

_SENTENCE = re.compile(
    r"(?:[^.!?。…\n]|\.(?=[A-Za-z0-9])|"
    + "|".join(
        rf"(?<=\b{a})\.(?= [A-Z])" for a in ("Dr", "Mr", "Ms", "Mrs", "St", "Jr", "Sr", "Prof")
    )
    + r")+(?:[.!?。…]+|$)",
    re.MULTILINE,
)
"""A sentence: up to its end mark; a dot inside a word or number ("3.5", "e.g") and after a
title's abbreviation before a name ("Dr. Okafor", "St. James") does not end it;
the "…" of a sentence cut short does."""
_NUMBER = re.compile(r"\d[\d,.:/-]*")
_NAME = re.compile(r"\b[A-Z][a-zA-Z]+\b|[\"'「『“][^\"'」』”]{1,30}[\"'」』”]")
_HANGUL = re.compile(r"[가-힣]")
_QUOTED = (">", "출처:", "Source:", "함께 찾은 문서", "Also found")
"""Lines that repeat or cite other text (quotes, sources): kept only if room is left."""
_USER_LABELS = ("사용자:", "User:")
ECHO_MIN_CHARS = 8
"""A user's sentence this long or longer, said back in an answer, makes that an echo."""
ECHO_COVER = 0.8
"""Share of a user's sentence an answer's sentence holds to be its echo."""
_NAME_KO = re.compile(r"[가-힣]{2,4}(?=(?:님|씨|이라고|라고|이에요|예요|입니다))")
_SELF_FACT = re.compile(
    r"(?:^|\s)(?:제|저의|내|나의|우리|저희)\s*[가-힣A-Za-z ]{1,15}?[은는이가]\s"
    r"|\b(?:my|our)\s+\w+(?:\s\w+)?\s+(?:is|are|was)\b",
    re.IGNORECASE,
)
"""A user stating something about themselves ("제 사번은 ...", "my budget is ..."): the
kind of fact a memory is for."""


USERS_FACTS = frozenset({"place", "plate", "date", "code", "phone", "email", "rrn", "이름", "name"})
"""Kinds of fact (`graph.memory.facts`) that a user's sentence holding one is about them:
where they live, their car, a date, an id, a contact, a name."""


def _holds_a_users_fact(sentence: str) -> bool:
    """Whether a user's sentence states a fact a summary's card counts as theirs."""
    from graph.memory.facts import extract_facts

    return any(fact.kind in USERS_FACTS for fact in extract_facts(sentence, 0))


def users_facts(messages: Sequence[BaseMessage]) -> list[Fact]:
    """The facts the user stated in `messages` (their sentences that tell something)."""
    from graph.memory.facts import extract_facts

    said = " ".join(
        sentence
        for m in messages
        if isinstance(m, HumanMessage)
        for sentence in sentences(content_text(m))
        if not tells_nothing(sentence)
    )
    return extract_facts(said, 0)


def keeps_none(summary: str, facts: Sequence[Fact]) -> bool:
    """Whether `summary` holds none of `facts` (as a summary card counts them)."""
    from graph.memory.facts import check_facts

    return bool(facts) and check_facts(facts, summary)["kept"] == 0


@dataclass
class SummaryResult:
    """A summary and what it cost."""

    text: str
    """The summary as stored; its length is `summary_chars`."""
    attempts: int = 1
    """Model calls spent (1, or 2 when the length was asked for again)."""
    elapsed_ms: float = 0.0
    """Wall time of the summary."""
    input_tokens: int | None = None
    """Prompt tokens reported by the server, when it reports them."""
    output_tokens: int | None = None
    """Completion tokens reported by the server, when it reports them."""
    tokens_estimated: bool = False
    """The server reported no usage: the token counts are estimated from the text."""
    fallback: str = ""
    """Why the model's summary was not used and the extractive one stands in ('' if it was)."""


@dataclass
class MemoryResult:
    """Seed 003's memory update: the rewritten memory, the new turns' entities, the cost."""

    memory: str
    """M_i as the model (or the offline rule) wrote it; the strategy bounds it."""
    entities: list[Entity]
    """{key, value, turn} of the new turns, in order of appearance."""
    how: str = "offline"
    """json_schema, json_object or text (the model's object), rule (nothing could be read:
    the offline rule wrote both), or offline (no model: the extractive summarizer)."""
    requests: int = 0
    """Model calls spent: one, or one more per way of asking the server refused."""
    elapsed_ms: float = 0.0
    input_tokens: int | None = None
    output_tokens: int | None = None
    tokens_estimated: bool = False
    fallback: str = ""
    """Why the model's memory was not used and the offline one stands in ('' if it was)."""


class Summarizer(Protocol):
    """Anything that turns messages or texts into a summary of about `target_chars`."""

    name: str

    def summarize(
        self, messages: Sequence[BaseMessage], target_chars: int, *, turn_label: str
    ) -> SummaryResult:
        """Summarize a block of turns."""
        ...

    def merge(
        self, summaries: Sequence[str], target_chars: int, *, turn_label: str
    ) -> SummaryResult:
        """Merge consecutive summaries into one higher-level digest."""
        ...

    def update_memory(
        self,
        memory: str,
        turns: Sequence[Sequence[BaseMessage]],
        first_turn: int,
        target_chars: int,
        *,
        rate: float,
    ) -> MemoryResult:
        """Seed 003's update: M_i = LLM(M_{i-1}, S_i) and S_i's entities, in one answer."""
        ...


def speaker(msg: BaseMessage, korean: bool = True) -> str:
    """Label of a message's author in summaries and prompts."""
    if isinstance(msg, HumanMessage):
        return "사용자" if korean else "User"
    if isinstance(msg, ToolMessage):
        return f"도구({msg.name})" if korean else f"Tool({msg.name})"
    return "AI"


CALL_MARK = "[도구 호출]"
"""How a summary prompt's transcript shows a tool call (`format_conversation`); a summary
saying it back is markup, as a call written as text is."""


def format_conversation(messages: Sequence[BaseMessage]) -> str:
    """Render messages as `label: text` lines, tool calls included, for a summary prompt."""
    lines = []
    for msg in messages:
        text = said_text(msg).strip()
        if isinstance(msg, AIMessage) and msg.tool_calls:
            calls = ", ".join(f"{c['name']}({c['args']})" for c in msg.tool_calls)
            lines.append(f"AI: {CALL_MARK} {calls}")
            if not text:
                continue
        if text:
            lines.append(f"{speaker(msg)}: {text}")
    return "\n".join(lines)


def sentences(text: str) -> list[str]:
    """Split text into sentences (., !, ?, 。 or line ends)."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def cut_words(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters at a word boundary, marking the cut with '…'."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return text[: max(0, limit)]
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space >= limit * 0.6:
        head = head[:space]
    return head.rstrip(" ,;:") + "…"


def trim_at_sentence(text: str, limit: int) -> str:
    """Keep whole sentences up to `limit` characters; cut words only if one sentence is too long."""
    if len(text) <= limit:
        return text
    kept = ""
    for sentence in sentences(text):
        candidate = f"{kept} {sentence}".strip()
        if len(candidate) > limit:
            break
        kept = candidate
    if len(kept) < limit * 0.5:
        return cut_words(text, limit)
    return kept


def _score(sentence: str, from_user: bool, first_of_answer: bool) -> float:
    if from_user and tells_nothing(sentence):
        from_user = False  # a question states nothing: the user's facts come first
    facts = len(_NUMBER.findall(sentence)) * 2.0 + len(_NAME.findall(sentence)) * 1.5
    facts += len(_NAME_KO.findall(sentence)) * 1.5
    if from_user and (_SELF_FACT.search(sentence) or _holds_a_users_fact(sentence)):
        facts += 3.0
    if not facts and len(sentence) < 15:
        return 0.3  # "가능할까요?", "OK.": no content of its own
    return 1.0 + facts + (1.0 if from_user else 0.0) + (0.5 if first_of_answer else 0.0)


@dataclass
class _Unit:
    order: int
    label: str
    text: str
    score: float


def _grams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1) if not text[i : i + 2].isspace()}


def _units(messages: Sequence[BaseMessage], korean: bool) -> list[_Unit]:
    """Sentences worth keeping: quotes and looked-up text are demoted, duplicates dropped.

    Looked up: an untrusted message's (`graph.untrusted`), a document's, a file's or the web's.

    An answer's sentence that says a user's sentence back ("기억해 두겠습니다: “…”") or
    quotes a transcript ("사용자: …") is left out: the user's own words are kept first.
    """
    units: list[_Unit] = []
    seen: list[set[str]] = []
    said = [
        _grams(sentence)
        for msg in messages
        if isinstance(msg, HumanMessage)
        for sentence in sentences(content_text(msg))
        # an answer repeating a question's words answers it: that is no echo
        if len(sentence) >= ECHO_MIN_CHARS and not tells_nothing(sentence)
    ]
    for msg in messages:
        text = said_text(msg).strip()
        if not text:
            continue
        if isinstance(msg, ToolMessage):
            text = cut_words(" ".join(text.split()), 120)
        label = speaker(msg, korean)
        # what a document, a file or the web said (a tool's result, or an answer passing it
        # on): it can be looked up again, and the user's words cannot
        looked_up = untrusted_message(msg)
        parts = [
            (line.startswith(_QUOTED), sentence.lstrip("> #").strip())
            for line in text.splitlines()
            if not line.startswith("```")  # a code fence's marker is not text
            for sentence in sentences(line)
        ]
        for i, (quoted, sentence) in enumerate(parts):
            grams = _grams(sentence)
            if not re.search(r"\w", sentence) or any(
                grams and len(grams & other) / len(grams) > 0.8 for other in seen
            ):
                continue  # an answer repeating what was already said adds nothing
            seen.append(grams)
            if isinstance(msg, AIMessage) and is_prompt_echo(sentence):
                continue  # a model saying its prompt back: the app's words, not the talk's
            if isinstance(msg, AIMessage) and (
                sentence.startswith(_USER_LABELS + ("AI:",))
                or sentence.rstrip(".").endswith(":")  # "Here is what I found:" leads in
                or any(len(u & grams) >= ECHO_COVER * len(u) for u in said)
            ):
                continue  # the user's words said back: theirs are in the summary already
            score = _score(sentence, isinstance(msg, HumanMessage), i == 0)
            if isinstance(msg, AIMessage) and (
                (score < 2 and len(sentence) < 20) or sentence.rstrip(".").endswith(":")
            ):
                score *= 0.3  # "알겠습니다.", "Hello!", "Here is ...:": courtesy, not content
            if quoted or looked_up:
                score *= 0.3  # kept if room is left: the user's own words go first
            units.append(
                _Unit(
                    order=len(units),
                    label=label,
                    text=sentence if sentence[-1] in ".!?。…" else sentence + ".",
                    score=score,
                )
            )
    return units


def _render(units: Sequence[_Unit]) -> str:
    parts: list[str] = []
    last_label = ""
    for unit in sorted(units, key=lambda u: u.order):
        parts.append(unit.text if unit.label == last_label else f"{unit.label}: {unit.text}")
        last_label = unit.label
    return " ".join(parts)


def _fill(chosen: list[_Unit], rest: list[_Unit], target: int, low: float) -> str:
    """Add the best sentence that did not fit, cut at a word, to land in [low, target]."""
    for filler in rest[:8]:
        for size in range(len(filler.text) - 1, 1, -1):
            cut = _Unit(filler.order, filler.label, cut_words(filler.text, size), filler.score)
            text = _render([*chosen, cut])
            if len(text) <= target:
                if len(text) >= low:
                    return text
                break
    return ""


def extract_to_length(units: list[_Unit], target_chars: int) -> str:
    """Pick the most informative sentences, in order, to land within 10% of the target."""
    if target_chars <= 0 or not units:
        return ""
    low = target_chars * (1 - EXTRACTIVE_TOLERANCE)
    chosen: list[_Unit] = []
    rest: list[_Unit] = []
    # Facts first (score), shorter first among equals, so numbers, names and dates survive.
    for unit in sorted(units, key=lambda u: (-u.score, len(u.text), u.order)):
        if len(_render([*chosen, unit])) <= target_chars:
            chosen.append(unit)
        else:
            rest.append(unit)
    text = _render(chosen)
    if len(text) < low:
        text = _fill(chosen, rest, target_chars, low) or text
    if len(text) > target_chars * (1 + EXTRACTIVE_TOLERANCE):
        text = cut_words(text, target_chars)
    return text


class ExtractiveSummarizer:
    """Offline summarizer: no model, picks sentences that carry numbers, names and dates."""

    name = "extractive (offline)"

    def summarize(
        self, messages: Sequence[BaseMessage], target_chars: int, *, turn_label: str
    ) -> SummaryResult:
        """Summarize a block of turns into about `target_chars` characters."""
        start = time.perf_counter()
        korean = bool(_HANGUL.search(" ".join(content_text(m) for m in messages)))
        text = extract_to_length(_units(messages, korean), target_chars)
        return SummaryResult(text=text, attempts=0, elapsed_ms=_ms(start))

    def merge(
        self, summaries: Sequence[str], target_chars: int, *, turn_label: str
    ) -> SummaryResult:
        """Merge summaries by extracting their most informative sentences."""
        start = time.perf_counter()
        units = [
            _Unit(order=i, label="", text=s, score=_score(s, s.startswith(_USER_LABELS), False))
            for i, s in enumerate(s for summary in summaries for s in sentences(summary))
        ]
        text = extract_to_length(units, target_chars) if units else ""
        return SummaryResult(text=text.strip(), attempts=0, elapsed_ms=_ms(start))

    def rewrite_memory(
        self, memory: str, summary: str, target_chars: int, *, turn_label: str
    ) -> SummaryResult:
        """Rewrite the memory from its sentences and the new summary's, recent ones first.

        The new summary's sentences weigh more (seed 003: recent conversation first), so
        when the memory is full the oldest, least informative sentences leave.
        """
        start = time.perf_counter()
        old = sentences(memory)
        new = sentences(summary)
        units = [
            _Unit(order=i, label="", text=s, score=_score(s, s.startswith(_USER_LABELS), False))
            for i, s in enumerate(old)
        ] + [
            _Unit(
                order=len(old) + i,
                label="",
                text=s,
                score=RECENT_WEIGHT * _score(s, s.startswith(_USER_LABELS), False),
            )
            for i, s in enumerate(new)
        ]
        text = extract_to_length(units, target_chars) if units else ""
        return SummaryResult(text=text.strip(), attempts=0, elapsed_ms=_ms(start))

    def update_memory(
        self,
        memory: str,
        turns: Sequence[Sequence[BaseMessage]],
        first_turn: int,
        target_chars: int,
        *,
        rate: float,
    ) -> MemoryResult:
        """The offline update: no model call.

        The new turns are summarized extractively (at `rate`), the memory is rewritten from
        its sentences and theirs, recent ones weighing more; entities are found by rule.
        """
        start = time.perf_counter()
        messages = [m for turn in turns for m in turn]
        label = f"{first_turn}-{first_turn + len(turns) - 1}턴"
        new = self.summarize(messages, int(original_chars(messages) * rate), turn_label=label)
        text = (
            self.rewrite_memory(memory, new.text, target_chars, turn_label=label).text
            if memory
            else trim_at_sentence(new.text, max(target_chars, 1))
        )
        return MemoryResult(
            memory=text,
            entities=rule_entities(turns, first_turn),
            how="offline",
            elapsed_ms=_ms(start),
        )


def rule_entities(turns: Sequence[Sequence[BaseMessage]], first_turn: int) -> list[Entity]:
    """Seed 003's entities of turns by the offline rules, in order of appearance."""
    from graph.memory.entities import extract_entities

    found: list[Entity] = []
    for offset, turn in enumerate(turns):
        for msg in turn:
            if isinstance(msg, HumanMessage | AIMessage) and not getattr(msg, "tool_calls", None):
                found.extend(extract_entities(said_text(msg), first_turn + offset))
    return found


class EntityItem(BaseModel):
    """One entity as the model reports it."""

    key: str = Field(description="short name of the information, e.g. provider, budget, 이름")
    value: str = Field(description="the value exactly as said in the conversation")
    turn: int = Field(description="the turn number where the value was said")


class EntityList(BaseModel):
    """The entities of a block of conversation."""

    entities: list[EntityItem] = Field(default_factory=list)


class MemoryUpdate(BaseModel):
    """Seed 003's memory update in one answer: the new memory and the new turns' entities."""

    memory: str = Field(
        description="the whole long-term memory rewritten from the old memory and the new "
        "conversation (not appended): at most 20 sentences, recent conversation first"
    )
    entities: list[EntityItem] = Field(
        default_factory=list,
        description="structured facts of the new conversation that a summary would lose",
    )


class LLMSummarizer:
    """Summarizer that asks a chat model, then holds it to the target length."""

    def __init__(self, model: BaseChatModel, name: str = "llm", mask_pii: bool = True) -> None:
        self.model = model
        self.name = name
        self.mask_pii = mask_pii
        """Mask phone numbers, e-mail, resident registration and card numbers in prompts."""

    def _ask(self, prompt: str, result: SummaryResult, instruction: str = "") -> str:
        mapping: dict[str, str] = {}
        if self.mask_pii:  # the summary model is outside the machine: PII stays here
            prompt = mask(prompt, mapping)
        sent: list[BaseMessage] = [SystemMessage(content=instruction)] if instruction else []
        response = self.model.invoke([*sent, HumanMessage(content=prompt)])
        result.attempts += 1
        answer = unmask(content_text(response), mapping).strip().strip('"').strip()
        usage = getattr(response, "usage_metadata", None) or {}
        if usage:
            result.input_tokens = (result.input_tokens or 0) + int(usage.get("input_tokens", 0))
            result.output_tokens = (result.output_tokens or 0) + int(usage.get("output_tokens", 0))
        else:  # the server reported none (llama.cpp ignores include_usage): count the text
            result.tokens_estimated = True
            result.input_tokens = (result.input_tokens or 0) + estimate_tokens(instruction + prompt)
            result.output_tokens = (result.output_tokens or 0) + estimate_tokens(answer)
        return answer

    def _fit(self, text: str, target_chars: int, result: SummaryResult) -> str:
        if target_chars > 0 and off_target(len(text), target_chars):
            # the text to rewrite is the user's message, the length an instruction: a
            # model that copies its input copies the summary, not the instruction
            retry = self._ask(
                text, result, instruction=get_prompt("summary.retry", target_chars=target_chars)
            )
            text = retry or text
        limit = max(int(target_chars * (1 + RETRY_TOLERANCE)), 1)
        fitted = trim_at_sentence(text, limit)
        if len(text) > limit and off_target(len(fitted), target_chars):
            fitted = cut_words(text, max(target_chars, 1))  # whole sentences fell too short
        return fitted

    def summarize(
        self, messages: Sequence[BaseMessage], target_chars: int, *, turn_label: str
    ) -> SummaryResult:
        """Summarize a block of turns; raises whatever the model raises."""
        conversation = format_conversation(messages)
        prompt = get_prompt(
            "summary.generate",
            turn_label=turn_label,
            target_chars=target_chars,
            conversation=conversation,
        )

        def extractive() -> SummaryResult:
            return ExtractiveSummarizer().summarize(messages, target_chars, turn_label=turn_label)

        result = self._complete(prompt, target_chars, conversation, extractive)
        facts = users_facts(messages)
        if not result.fallback and keeps_none(result.text, facts):
            # a small model's "summary" can be an earlier summary or a document passage said
            # back: of the turns it stands for, it keeps nothing the user told
            stand_in = extractive()
            if not keeps_none(stand_in.text, facts):
                problem = f"keeps none of the {len(facts)} facts the user stated"
                log.info("the model's summary was not used (%s); extractive instead", problem)
                result.text, result.fallback = stand_in.text, problem
        return result

    def merge(
        self, summaries: Sequence[str], target_chars: int, *, turn_label: str
    ) -> SummaryResult:
        """Merge consecutive summaries into one digest of about `target_chars`."""
        listing = "\n".join(f"- {s}" for s in summaries)
        prompt = get_prompt(
            "summary.digest", turn_label=turn_label, target_chars=target_chars, summaries=listing
        )
        return self._complete(
            prompt,
            target_chars,
            listing,
            lambda: ExtractiveSummarizer().merge(summaries, target_chars, turn_label=turn_label),
        )

    def update_memory(
        self,
        memory: str,
        turns: Sequence[Sequence[BaseMessage]],
        first_turn: int,
        target_chars: int,
        *,
        rate: float,
    ) -> MemoryResult:
        """Seed 003's update as one structured decision (`graph.structured`): one call.

        The model gets the memory and the new turns (numbered) and answers a `MemoryUpdate`
        through the ladder: json_schema, json_object, JSON read out of text. When nothing
        can be read (or the call fails) the offline update stands in, memory and entities
        (`how` "rule"); a memory that is empty, says the prompt back or is not in the
        conversation's language is replaced by the offline one, the model's entities kept.
        No second call is made for length: the strategy bounds the memory.
        """
        start = time.perf_counter()
        last = first_turn + len(turns) - 1
        numbered = "\n".join(
            f"[{first_turn + offset}턴] {format_conversation(turn)}"
            for offset, turn in enumerate(turns)
        )
        mapping: dict[str, str] = {}
        shown_memory = memory or "(없음)"
        if self.mask_pii:  # the summary model is outside the machine: PII stays here
            numbered = mask(numbered, mapping)
            shown_memory = mask(shown_memory, mapping)
        prompt = get_prompt(
            "summary.memory_update",
            turn_label=f"{first_turn}-{last}턴",
            target_chars=target_chars,
            memory=shown_memory,
            conversation=numbered,
        )
        asked = ask_structured(
            self.model, MemoryUpdate, [HumanMessage(content=prompt)], decision="memory"
        )
        offline = ExtractiveSummarizer().update_memory(
            memory, turns, first_turn, target_chars, rate=rate
        )
        result = MemoryResult(
            memory=offline.memory,
            entities=offline.entities,
            how=asked.how,
            requests=asked.requests,
            input_tokens=estimate_tokens(prompt),
            output_tokens=0,
            tokens_estimated=True,  # the structured ladder reports no usage
        )
        if asked.value is None:
            result.fallback = asked.reason or "no MemoryUpdate could be read"
        else:
            text = unmask(asked.value.memory, mapping).strip()
            source = f"{memory}\n{unmask(numbered, mapping)}"
            problem = check_summary(text, source, 0)
            if problem:
                log.info("the model's memory was not used (%s); extractive instead", problem)
                result.fallback = problem
            else:
                result.memory = text
            result.entities = [
                {
                    "key": unmask(e.key, mapping).strip(),
                    "value": unmask(e.value, mapping).strip(),
                    "turn": min(last, max(first_turn, e.turn)),
                }
                for e in asked.value.entities
                if e.key.strip() and e.value.strip()
            ]
            result.output_tokens = estimate_tokens(
                asked.value.memory + "".join(e.key + e.value for e in asked.value.entities)
            )
        result.elapsed_ms = _ms(start)
        return result

    def _complete(
        self,
        prompt: str,
        target_chars: int,
        source: str,
        extractive: Callable[[], SummaryResult],
    ) -> SummaryResult:
        """Ask, hold the answer to the target length, check it, and time it.

        A summary `check_summary` rejects is replaced by `extractive()`, the offline
        summary of the same text; the result keeps the model calls spent and says why.
        """
        start = time.perf_counter()
        result = SummaryResult(text="", attempts=0)
        first = self._ask(prompt, result)
        # markup is refused as it is: asked to rewrite it to length, a model keeps it
        problem = markup_problem(first)
        if not problem:
            result.text = self._fit(first, target_chars, result)
            problem = check_summary(result.text, source, target_chars)
        if problem:
            log.info("the model's summary was not used (%s); extractive instead", problem)
            stand_in = extractive()
            result.text, result.fallback = stand_in.text, problem
        result.elapsed_ms = _ms(start)
        return result


def off_target(chars: int, target_chars: int) -> bool:
    """Whether a summary of `chars` characters misses its target by more than 25%."""
    return abs(chars - target_chars) > target_chars * RETRY_TOLERANCE


ECHO_SHARE = 0.25
"""A summary more than this share of whose pieces come from the instructions (and not from
the conversation) repeats the prompt instead of summarizing."""


@lru_cache(maxsize=1)
def _prompt_pieces() -> tuple[frozenset[str], ...]:
    """Each summary prompt's fixed words, apart (placeholders left out)."""
    from prompt import TEMPLATES

    return tuple(
        frozenset(
            p
            for part, _, _, _ in string.Formatter().parse(TEMPLATES[name])
            if part
            for p in pieces(part)
        )
        for name in TEMPLATES
        if name.startswith("summary.")
    )


PROMPT_COVER = 0.5
"""A text holding more than this share of one prompt's fixed words says that prompt back,
however much of the conversation it quotes with it."""


def says_a_prompt_back(summary: str) -> bool:
    """Whether `summary` holds most of one summary prompt's fixed words.

    That is the prompt itself given back as the summary, conversation and all.
    """
    found = pieces(summary)
    return any(
        fixed and len(found & fixed) > PROMPT_COVER * len(fixed) for fixed in _prompt_pieces()
    )


def echo_share(summary: str, source: str) -> float:
    """The share of the summary's pieces that come from the instructions, not the source."""
    found = pieces(summary)
    if not found:
        return 0.0
    echoed = (found & instruction_pieces()) - pieces(source)
    return len(echoed) / len(found)


def hangul_share(text: str) -> float:
    """Hangul syllables among the letters of `text` (0 for none, 1 for all)."""
    hangul = len(_HANGUL.findall(text))
    latin = len(re.findall(r"[A-Za-z]", text))
    return hangul / (hangul + latin) if hangul + latin else 0.0


REPEAT_SHARE = 0.4
"""A summary fewer than this share of whose pieces are distinct says one thing over and over."""


def markup_problem(summary: str) -> str:
    """Why a summary holding markup must not be stored ('' when it holds none).

    A chat template's control strings say the prompt's format back; a tool call written
    as text (whole or cut), or in the transcript's own notation (`CALL_MARK`), is the
    model acting or quoting, not summarizing. Either is refused whatever the
    conversation held.
    """
    if TEMPLATE_TOKEN.search(summary):
        return "repeats the instructions"
    if read_calls(summary).found or CALL_MARK in summary:
        return "holds a tool call written as text"
    return ""


def check_summary(summary: str, source: str, target_chars: int) -> str:
    """Why a model's summary of `source` must not be stored, or '' when it may.

    Empty; repeating the instructions (the summary, retry or system prompt); holding a
    tool call written as text or a chat template's control strings (`graph.markup`),
    whatever the source holds; saying one thing over and over; not in the language of
    the source (mostly Korean in, hardly any Korean out, or the reverse; a mixed
    conversation may be summarized in either); or off its target by more than 25% after
    the retry and the trim.
    """
    if not summary.strip():
        return "empty"
    if echo_share(summary, source) > ECHO_SHARE or says_a_prompt_back(summary):
        return "repeats the instructions"
    if problem := markup_problem(summary):
        return problem
    flat = "".join(summary.split())
    if len(flat) >= 4 * GRAM and len(pieces(summary)) < REPEAT_SHARE * (len(flat) - GRAM + 1):
        return "repeats itself"
    written, spoken = hangul_share(summary), hangul_share(source)
    if (spoken >= 0.6 and written < 0.2) or (spoken <= 0.1 and written >= 0.5):
        return "not in the conversation's language"
    if target_chars > 0 and off_target(len(summary), target_chars):
        return f"{len(summary)} characters for a target of {target_chars}"
    return ""


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)
