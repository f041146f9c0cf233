"""What a model writes that is not an answer: tool calls as text, template tokens, prompt echoes.

Local models (and servers without a function-calling chat format) write a tool call as
text instead of the API's `tool_calls`:

    <tool_call>{"name": "calculator", "arguments": {"expression": "3*5"}}</tool_call>
    {"name": "calculator", "arguments": {"expression": "3*5"}}
    ```json
    {"name": "calculator", "parameters": {"expression": "3*5"}}
    ```
    functions.calculator:{"expression": "3*5"}

(Hermes and Qwen tags, bare JSON, a fenced block, the `chatml-function-calling` prefix;
several in a row, or a JSON list of them; `arguments` may also be a JSON string.)
`read_calls` finds them in the assistant's own text, never in a user's message or a tool
result. A call is only taken whole: a tag or a fence that never closes, or a JSON object
that never ends, is cut, and a cut call is never run.

`strip_markup` is what is left of a text for a reader and for memory: the calls (whole or
cut), a chat template's control tokens (`<|im_end|>`, `[INST]`, `<end_of_turn>`, ...) and
sentences that say the app's own prompts back are removed. `MarkupGate` does the same to a
reply while it streams: it lets text out as soon as no markup can start in it, and holds
back what might still become a call.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

ARGUMENT_KEYS = ("arguments", "parameters", "args")
"""Keys a written call puts its arguments under (OpenAI's, Llama 3's, and a common slip)."""
CALL_KEYS = frozenset({"name", "id", "type", *ARGUMENT_KEYS})
"""Every key a call object may have; an object with others is data, not a call."""

_TAG_OPEN = re.compile(r"<(tool_call|function_call|tools?)>", re.IGNORECASE)
_TAG_CLOSE = {
    name: re.compile(rf"</{name}>", re.IGNORECASE)
    for name in ("tool_call", "function_call", "tool", "tools")
}
_FENCE = re.compile(r"```[ \t]*([\w-]*)[ \t]*\n")
_FENCE_END = re.compile(r"\n?[ \t]*```")
_CALL_FENCES = frozenset({"", "json", "json5", "tool_call", "tool_code", "tool", "function"})
"""Fence labels a call is written in (a ```python block is code, never a call)."""
_FUNCTIONS = re.compile(r"(?m)^[ \t]*functions\.([A-Za-z_][\w-]*)[ \t]*:[ \t]*")
"""llama-cpp-python's chatml-function-calling format: `functions.<name>:` then the arguments."""
TEMPLATE_TOKEN = re.compile(
    r"<\|[A-Za-z0-9_.:-]{1,40}\|>"  # ChatML, Llama 3, Phi: <|im_start|>, <|eot_id|>, ...
    r"|\[/?(?:INST|SYS|TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS)\]"  # Llama 2, Mistral
    r"|<</?SYS>>"
    r"|</?(?:start|end)_of_turn>"  # Gemma
    r"|</?tool_response>|</?tools?>|</?function_call>|</tool_call>"
    r"|</?s>(?=\s|$)",
    re.IGNORECASE,
)
"""A chat template's control strings: never part of an answer."""
_START_OF_MARKUP = ("<", "```", "{", "[", "functions.")
"""What markup can start with; `MarkupGate` holds text back from one of these on."""


@dataclass(frozen=True)
class WrittenCall:
    """One tool call found in a model's text."""

    name: str
    args: dict[str, Any]
    """The arguments as written (before the tool's schema checked them)."""
    span: tuple[int, int]
    """Where it stands in the text."""
    form: str
    """tag, fence, json or functions: how it was written."""
    problem: str = ""
    """Why it cannot run ('' when it can): no such tool, arguments the schema refuses."""


@dataclass
class ReadCalls:
    """What `read_calls` found in a text."""

    calls: list[WrittenCall] = field(default_factory=list)
    """Whole calls, in order; each with its `problem` if it cannot run."""
    cut: bool = False
    """A call began and never ended (an open tag or fence, an unfinished object)."""
    text: str = ""
    """The text without any markup: what a reader may be shown."""

    @property
    def found(self) -> bool:
        """Whether the text held a call at all, whole or cut."""
        return bool(self.calls) or self.cut

    @property
    def runnable(self) -> bool:
        """Whole calls only, every one naming a bound tool with arguments it accepts."""
        return bool(self.calls) and not self.cut and not any(c.problem for c in self.calls)

    def problems(self) -> list[str]:
        """Why the calls cannot run, one line each."""
        found = [f"{c.name}: {c.problem}" for c in self.calls if c.problem]
        if self.cut:
            found.append("a call that was cut off (never closed)")
        return found


def read_calls(text: str, schemas: Mapping[str, type[BaseModel] | None] | None = None) -> ReadCalls:
    """The tool calls written in `text`, each checked against `schemas` (tool -> args model).

    With `schemas` None every call is taken as written (what was found, for a reader);
    with a mapping, a call naming a tool not in it, or whose arguments its model refuses,
    has a `problem`. Arguments the model accepts are kept as the model gives them
    (defaults filled in, types coerced), so the tool runs what was checked.
    """
    found = ReadCalls()
    spans: list[tuple[int, int]] = []
    for call in _calls(text, schemas):
        if call.name:
            found.calls.append(_checked(call, schemas))
        else:
            found.cut = True
        spans.append(call.span)
    found.text = _clean(_without(text, spans)).strip()
    return found


def strip_markup(text: str) -> str:
    """`text` as a reader and the memory may see it: no calls, template tokens or prompt echoes."""
    return read_calls(text).text


def has_markup(text: str) -> bool:
    """Whether `text` holds a call (whole or cut), a template token or a prompt echo."""
    if TEMPLATE_TOKEN.search(text):
        return True
    found = read_calls(text)
    return found.found or found.text != text.strip()


class MarkupGate:
    """Lets a streamed reply out as far as it surely holds no markup.

    `feed` takes the next piece of the reply and returns the text that may be shown now;
    `close` returns the rest of the visible text once the reply is whole. Text from the
    first place a call could begin (`<`, a fence, `{`, `[`, `functions.`) is held until it
    is clear: a whole call or a template token is never let out; anything else is, late.
    Whole lines outside any construct are settled once, so a reply costs time in
    proportion to its length.
    """

    def __init__(self, answer: bool = False) -> None:
        self.answer = answer
        """An answer of a provider's model: the memory's format said back is taken out too
        (`answer_text`), and a line that begins as that format is held until it ends."""
        self.raw = ""
        self.settled = 0
        """Where the undecided part of `raw` begins (a line's start, outside constructs)."""
        self.decided = ""
        """What a reader sees of `raw[:settled]`."""
        self.shown = ""

    def feed(self, piece: str) -> str:
        """The newly showable text after `piece` arrived ('' while it is held back)."""
        self.raw += piece
        held = self._settle()
        partial = self.raw[self.settled : held]
        if self.answer and _starts_transcript(partial):
            partial = ""
        visible = self.decided + self._shown(partial)
        return self._release(visible.lstrip())

    def close(self) -> str:
        """The rest of the visible text, the reply being whole."""
        return self._release(answer_text(self.raw) if self.answer else strip_markup(self.raw))

    def _shown(self, segment: str) -> str:
        shown = _shown_part(segment)
        if not self.answer:
            return shown
        lines = [without_transcript(line) for line in shown.split("\n")]
        return "\n".join(line for line in lines if line.strip() or not line)

    def _settle(self) -> int:
        """Settle the whole lines after `settled`; where the text must be held from."""
        raw, position = self.raw, self.settled
        while True:
            newline = raw.find("\n", position)
            at = _next_start(raw, position)
            if at is not None and (newline == -1 or at < newline):
                end = _construct_end(raw, at)
                if end is None:
                    return at  # still open: hold it back
                position = max(end, at + 1)
                continue
            if newline == -1:
                break
            self.decided += self._shown(raw[self.settled : newline + 1])
            self.settled = position = newline + 1
        held = len(raw)
        for size in range(1, min(len(raw) - self.settled, len(_LONGEST_MARKER)) + 1):
            if any(m.startswith(raw[-size:]) for m in _MARKERS):
                held = len(raw) - size  # a marker may be beginning ("<tool_", "``", "<|im")
        return held

    def _release(self, visible: str) -> str:
        if not visible.startswith(self.shown):
            return ""  # never take back what was shown; the final text replaces it
        fresh = visible[len(self.shown) :]
        self.shown = visible
        return fresh


# ---- finding calls


@dataclass(frozen=True)
class _Found:
    name: str
    """'' for a call that was cut off."""
    args: Any
    span: tuple[int, int]
    form: str


def _calls(text: str, schemas: Mapping[str, Any] | None) -> Iterator[_Found]:
    """Every written call in `text` (and every cut one, with no name), left to right."""
    names = set(schemas or ())
    position = 0
    while position < len(text):
        step = _next_call(text, position, names)
        if step is None:
            return
        found, position = step
        yield from found


def _next_call(text: str, start: int, names: set[str]) -> tuple[list[_Found], int] | None:
    """The calls at the first place from `start` where one is written, and where to go on."""
    starts: list[tuple[int, str, re.Match[str] | None]] = [
        (m.start(), kind, m)
        for kind, pattern in (("tag", _TAG_OPEN), ("fence", _FENCE), ("functions", _FUNCTIONS))
        for m in [pattern.search(text, start)]
        if m is not None
    ]
    brace = _first_json_start(text, start)
    if brace is not None:
        starts.append((brace, "json", None))
    if not starts:
        return None
    at, kind, match = min(starts, key=lambda s: s[0])
    if kind == "tag":
        assert match is not None
        closing = _TAG_CLOSE[match[1].lower()].search(text, match.end())
        if closing is None:  # an open tag: the call never ended
            return [_Found("", None, (at, len(text)), "tag")], len(text)
        body = text[match.end() : closing.start()]
        calls = _objects(body)
        if calls is None:
            return [_Found("", None, (at, closing.end()), "tag")], closing.end()
        return [_Found(*c, (at, closing.end()), "tag") for c in calls], closing.end()
    if kind == "fence":
        assert match is not None
        closing = _FENCE_END.search(text, match.end())
        body_end = closing.start() if closing else len(text)
        body = text[match.end() : body_end]
        if match[1].lower() not in _CALL_FENCES:
            return [], (closing.end() if closing else len(text))  # code, not a call
        if closing is None:
            if _looks_like_call(body.lstrip()):
                return [_Found("", None, (at, len(text)), "fence")], len(text)
            return [], len(text)
        calls = _objects(body)
        if not calls:
            return [], closing.end()  # a JSON block of data, shown as it is
        return [_Found(*c, (at, closing.end()), "fence") for c in calls], closing.end()
    if kind == "functions":
        assert match is not None
        end = _json_end(text, match.end())
        if end is None:
            return [_Found("", None, (at, len(text)), "functions")], len(text)
        try:
            args = json.loads(text[match.end() : end])
        except ValueError:
            return [_Found("", None, (at, end), "functions")], end
        return [_Found(match[1], args, (at, end), "functions")], end
    end = _json_end(text, at)
    if end is None:  # an object that never ends: cut if it was a call
        if _looks_like_call(text[at:]):
            return [_Found("", None, (at, len(text)), "json")], len(text)
        return [], at + 1
    try:
        data = json.loads(text[at:end])
    except ValueError:
        return [], at + 1
    calls = _as_calls(data, names)
    if calls is None:
        return [], end
    return [_Found(*c, (at, end), "json") for c in calls], end


def _first_json_start(text: str, start: int) -> int | None:
    """The first `{` (or a `[` opening a list of objects) at or after `start`."""
    for m in re.finditer(r"\{|\[\s*\{", text[start:]):
        return start + m.start()
    return None


def _looks_like_call(fragment: str) -> bool:
    """Whether an unfinished object or list begins as a call does (`{"name": ...`)."""
    return bool(re.match(r"\[?\s*\{\s*\"(?:name|function|tool)\"\s*:", fragment))


def _objects(body: str) -> list[tuple[str, Any]] | None:
    """The calls of a tag's or a fence's body: one object, a list, or several in a row."""
    body = body.strip()
    if not body:
        return None
    calls: list[tuple[str, Any]] = []
    position = 0
    while position < len(body):
        if body[position].isspace() or body[position] == ",":
            position += 1
            continue
        end = _json_end(body, position)
        if end is None:
            return None
        try:
            data = json.loads(body[position:end])
        except ValueError:
            return None
        found = _as_calls(data, None)
        if found is None:
            return None
        calls += found
        position = end
    return calls or None


def _as_calls(data: Any, names: set[str] | None) -> list[tuple[str, Any]] | None:
    """`data` as calls [(name, arguments)], or None when it is not shaped as calls.

    An object is a call when it has a string `name` and its arguments (`arguments`,
    `parameters`) and nothing else but an id and a type; or wraps one in `function`. An
    object with a name alone is a call only to a bound tool (`names`): `{"name": "Kim"}`
    is data.
    """
    if isinstance(data, list):
        calls = [_as_calls(item, names) for item in data]
        if not data or any(c is None for c in calls):
            return None
        return [call for group in calls if group for call in group]
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("function"), dict) and set(data) <= {"function", "id", "type"}:
        return _as_calls(data["function"], names)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or not set(data) <= CALL_KEYS:
        return None
    present = [k for k in ARGUMENT_KEYS if k in data]
    if not present:
        if names is not None and name in names:
            return [(name, {})]
        return None
    return [(name.strip(), data[present[0]])]


def _json_end(text: str, start: int) -> int | None:
    """The end of the JSON object or list that begins at `start`, or None if it never ends."""
    depth = 0
    in_string = False
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _checked(found: _Found, schemas: Mapping[str, type[BaseModel] | None] | None) -> WrittenCall:
    """A whole call, its arguments parsed and checked against the tool's schema."""
    args = found.args
    problem = ""
    if isinstance(args, str):  # OpenAI's form: the arguments as a JSON string
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError:
            args, problem = {}, "its arguments are not JSON"
    if args is None:
        args = {}
    if not isinstance(args, dict):
        args, problem = {}, "its arguments are not an object"
    if not problem and schemas is not None:
        if found.name not in schemas:
            problem = "no such tool is offered here"
        else:
            schema = schemas[found.name]
            if schema is not None:
                try:
                    args = _validated(schema, args)
                except ValidationError as exc:
                    problem = "arguments refused: " + "; ".join(
                        f"{'.'.join(str(p) for p in e['loc']) or '-'} {e['msg']}"
                        for e in exc.errors()[:3]
                    )
    return WrittenCall(found.name, args, found.span, found.form, problem)


def _validated(schema: type[BaseModel], args: dict[str, Any]) -> dict[str, Any]:
    """The arguments the tool's schema accepts, as it gives them (unknown keys refused)."""
    unknown = set(args) - set(schema.model_fields)
    if unknown:
        schema.model_validate({**args})  # a missing field is the clearer message first
        raise ValidationError.from_exception_data(
            schema.__name__,
            [
                {"type": "extra_forbidden", "loc": (key,), "input": args[key]}
                for key in sorted(unknown)
            ],
        )
    checked = schema.model_validate(args)
    return {k: v for k, v in checked.model_dump().items() if k in args or v is not None}


# ---- what is left for a reader


def _without(text: str, spans: Sequence[tuple[int, int]]) -> str:
    kept: list[str] = []
    position = 0
    for begin, end in sorted(spans):
        kept.append(text[position:begin])
        position = max(position, end)
    kept.append(text[position:])
    return "".join(kept)


def _clean(text: str) -> str:
    """Template tokens and lines that say a prompt back taken out."""
    text = TEMPLATE_TOKEN.sub("", text)
    return "\n".join(line for line in text.split("\n") if not is_prompt_echo(line))


def _shown_part(segment: str) -> str:
    """What a reader may see of a segment of a reply (it holds no construct's half)."""
    spans = [call.span for call in _calls(segment, None)]
    return _clean(_without(segment, spans))


def _next_start(raw: str, position: int) -> int | None:
    """Where the next place markup could begin is, at or after `position`."""
    starts = [at for mark in _START_OF_MARKUP if (at := raw.find(mark, position)) != -1]
    return min(starts) if starts else None


_MARKERS = ("<tool_call>", "<function_call>", "```", "<|", "functions.", "[INST]", "[/INST]")
_LONGEST_MARKER = max(_MARKERS, key=len)


def _construct_end(raw: str, at: int) -> int | None:
    """Where the construct at `at` (a tag, a fence, an object) ends; None while it is open."""
    rest = raw[at:]
    if rest.startswith("```"):
        opener = _FENCE.match(rest)
        closing = _FENCE_END.search(rest, opener.end()) if opener else None
        return at + closing.end() if closing else None
    if rest.startswith("functions."):
        brace = rest.find("{")
        end = _json_end(rest, brace) if brace != -1 else None
        return at + end if end is not None else None
    if rest.startswith("{") or re.match(r"\[\s*\{", rest):
        end = _json_end(rest, 0)
        return at + end if end is not None else None
    if re.match(r"<[A-Za-z/|]", rest):
        tag = _TAG_OPEN.match(rest)
        if tag is not None:
            closing = _TAG_CLOSE[tag[1].lower()].search(rest, tag.end())
            return at + closing.end() if closing else None
        close = rest.find(">", 0, 48)
        if close != -1:
            return at + close + 1
        return at + 1 if len(rest) >= 48 else None  # a tag closes soon, or it was no tag
    return at + 1  # "a < b", "[1]": no markup starts here


# ---- the memory's own format said back

MEMORY_LABEL = re.compile(r"^\s*\[\d+(?:\s*-\s*\d+)?\s*턴[^\]\n]{0,60}\]\s*")
"""A summary's or a recalled turn's label at the start of a line: `[1-3턴]`, `[12턴, ...]`."""
_SPEAKER = re.compile(
    r"(?:^|(?<=\s))(사용자|User|AI|도구\([^)\n]{0,40}\)|Tool\([^)\n]{0,40}\))\s*:\s*"
)
"""The speaker labels of the memory's transcripts (`graph.summarizer.speaker`)."""


def without_transcript(line: str) -> str:
    """A line of an answer without the memory's format said back.

    Small models given summaries like `[1-3턴] 사용자: ... AI: ...` answer in that format:
    a turn label, then a made-up exchange. The label goes; a line that is a transcript
    (it starts with a speaker) keeps only what it gives the AI to say, and nothing when
    it only speaks for the user.
    """
    label = MEMORY_LABEL.match(line)
    body = line[label.end() :] if label else line
    speakers = list(_SPEAKER.finditer(body))
    if not speakers or body[: speakers[0].start()].strip():
        return body  # no transcript (a speaker named inside a sentence is no label)
    said = [
        body[m.end() : speakers[i + 1].start() if i + 1 < len(speakers) else len(body)].strip()
        for i, m in enumerate(speakers)
        if m.group(1) == "AI"
    ]
    return said[-1] if said else ""


def answer_text(text: str) -> str:
    """What a reader is shown of a model's answer (`strip_markup`, `without_transcript`)."""
    lines = [without_transcript(line) for line in strip_markup(text).split("\n")]
    return "\n".join(line for line in lines if line.strip() or not line).strip()


def _starts_transcript(partial: str) -> bool:
    """Whether an unfinished line begins as the memory's format does (held until it ends)."""
    head = partial.lstrip()
    if not head:
        return False
    if head.startswith("[") and (MEMORY_LABEL.match(head) or "]" not in head[:64]):
        return True
    body = head[m.end() :] if (m := MEMORY_LABEL.match(head)) else head
    first = _SPEAKER.match(body)
    return first is not None or any(
        label.startswith(body) for label in ("사용자:", "User:", "AI:", "도구(", "Tool(")
    )


# ---- prompts said back


SAID_VERBATIM = frozenset(
    {"system.no_documents", "system.not_found_menus", "system.in_preparation"}
)
"""Templates the model is told to answer with word for word: saying them is no echo."""
GRAM = 6
"""Characters per piece (spaces left out) when comparing a text with the prompts."""


def pieces(text: str) -> set[str]:
    """The text's overlapping pieces of `GRAM` characters, spaces left out."""
    flat = "".join(text.split())
    return {flat[i : i + GRAM] for i in range(max(0, len(flat) - GRAM + 1))}


@lru_cache(maxsize=1)
def instruction_pieces() -> frozenset[str]:
    """The fixed words of every prompt a model may say back (placeholders left out)."""
    from prompt import TEMPLATES

    names = [
        n for n in TEMPLATES if n.startswith(("summary.", "system.")) and n not in SAID_VERBATIM
    ]
    literal = [
        part
        for name in names
        for part, _, _, _ in string.Formatter().parse(TEMPLATES[name])
        if part
    ]
    return frozenset(p for part in literal for p in pieces(part))


def is_prompt_echo(text: str) -> bool:
    """Whether `text` is mostly the app's own prompt words (a model saying them back)."""
    found = pieces(text)
    return bool(found) and len(found & instruction_pieces()) > len(found) / 2
