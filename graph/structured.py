"""Structured decisions from any OpenAI-compatible server: json_schema, json_object, text, rule.

The router, the retrieval loop's rerank-and-sufficiency judge, the safeguard's model check
and the entity extractor each ask a model for a small JSON object (`ask_structured`).
Servers differ in what they take:

    json_schema  response_format {"type": "json_schema", ...}  (OpenAI, vLLM, llama.cpp's server)
    json_object  response_format {"type": "json_object"}       (llama-cpp-python's server)
    text         no response_format: the JSON is read out of the answer's text

Each call starts at the first level the server has not refused and steps down when it
refuses one: an HTTP error whose body names the `response_format` (or the type) that was
sent. What a server refused, and what it took, is remembered per server URL and model for
the life of the process (`LevelMemory`), so a refusal costs one request once, not one every
turn; a level is probed with the client's retries off, so a refusal is never asked again.
A timeout, a connection error or any other failure is not a refusal: the decision falls
back to its offline rule (`how` "rule"), and so does an answer nothing can be read from.

Every level sends the same messages: the decision's prompt with the JSON shape the schema
asks for (`prompt/structured.py`), since json_object has no schema of its own and a server
that ignores `response_format` answers from the prompt alone. The reader (`read_json`) is
tolerant: it takes the JSON out of ``` fences and prose, repairs single quotes and trailing
commas, and coerces what the schema's types make unambiguous before pydantic validates.

What each decision did is collected while `collect_decisions()` is open (a node opens it
and puts the records in the state's `decisions`).
"""

from __future__ import annotations

import json
import logging
import re
import threading
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, Union, get_args, get_origin

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, SystemMessage
from langgraph.errors import GraphBubbleUp
from pydantic import BaseModel, ValidationError

from graph.turns import content_text
from prompt import get_prompt

log = logging.getLogger(__name__)

S = TypeVar("S", bound=BaseModel)
Level = Literal["json_schema", "json_object", "text"]
How = Literal["json_schema", "json_object", "text", "rule"]
LEVELS: tuple[Level, ...] = ("json_schema", "json_object", "text")
"""The ways to ask, most exact first."""

_NAMES_THE_FORMAT = re.compile(r"response_format|response format|json_schema|json_object", re.I)
"""An error body naming the parameter (or the type) the request sent in `response_format`."""
_FENCE = re.compile(r"```[\w-]*[ \t]*\n?(.*?)(?:```|\Z)", re.S)
_MAX_OBJECTS = 8
"""Balanced {...} spans of a prose answer tried before giving up."""


@dataclass(frozen=True)
class StructuredAnswer(Generic[S]):
    """What one structured decision got: the parsed object, or None and why not."""

    decision: str
    """Which decision asked: router, rerank, safeguard or entities."""
    value: S | None
    """The validated object; None when the offline rule has to decide."""
    how: How
    """json_schema or json_object: the server's JSON mode gave it; text: it was read out of
    free text (a fence, prose, repaired quotes); rule: nothing could be read."""
    reason: str = ""
    """Why the rule decides (or which levels the server refused on the way)."""
    requests: int = 0
    """HTTP requests (model calls) this decision made."""

    @property
    def fallback(self) -> bool:
        """True when the offline rule decides."""
        return self.value is None

    def record(self, turn: int) -> dict[str, Any]:
        """The state's `decisions` entry: turn, decision, how, fallback (and reason if so)."""
        entry: dict[str, Any] = {
            "turn": turn,
            "decision": self.decision,
            "how": self.how,
            "fallback": self.fallback,
        }
        if self.fallback:
            entry["reason"] = self.reason
        return entry


@dataclass
class _Server:
    refused: set[str] = field(default_factory=set)
    accepted: set[str] = field(default_factory=set)


class LevelMemory:
    """Which levels each server (base URL and model) refused or took; thread-safe.

    A server's abilities are the same for every conversation and user, so this is kept for
    the process: it holds no conversation data, only what the server answered.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._servers: dict[tuple[str, str], _Server] = {}

    def levels(self, key: tuple[str, str]) -> list[Level]:
        """The levels to try for `key`, in order: those not refused."""
        with self._lock:
            refused = set(self._servers.get(key, _Server()).refused)
        return [level for level in LEVELS if level not in refused]

    def accepted(self, key: tuple[str, str], level: Level) -> bool:
        """Whether the server has answered a request at `level`."""
        with self._lock:
            return level in self._servers.get(key, _Server()).accepted

    def accept(self, key: tuple[str, str], level: Level) -> None:
        """Note that the server answered at `level`."""
        with self._lock:
            self._servers.setdefault(key, _Server()).accepted.add(level)

    def refuse(self, key: tuple[str, str], level: Level) -> None:
        """Note that the server refused `level`; later calls start below it."""
        with self._lock:
            server = self._servers.setdefault(key, _Server())
            server.refused.add(level)
            server.accepted.discard(level)

    def known(self) -> dict[tuple[str, str], dict[str, list[str]]]:
        """What was learned so far, per (base URL, model)."""
        with self._lock:
            return {
                key: {"refused": sorted(s.refused), "accepted": sorted(s.accepted)}
                for key, s in self._servers.items()
            }

    def forget(self) -> None:
        """Forget every server (tests start each from nothing)."""
        with self._lock:
            self._servers.clear()


LEVEL_MEMORY = LevelMemory()
"""The process's memory of what each server takes."""

_COLLECTED: ContextVar[list[StructuredAnswer[Any]] | None] = ContextVar(
    "structured_decisions", default=None
)


@contextmanager
def collect_decisions() -> Iterator[list[StructuredAnswer[Any]]]:
    """Collect every `ask_structured` answer made in this context until the block ends.

    A node wraps its model calls in it and returns `[a.record(turn) for a in made]` as its
    `decisions` update; context-local, so concurrent turns never see each other's.
    """
    made: list[StructuredAnswer[Any]] = []
    token = _COLLECTED.set(made)
    try:
        yield made
    finally:
        _COLLECTED.reset(token)


def decision_records(answers: Sequence[StructuredAnswer[Any]], turn: int) -> list[dict[str, Any]]:
    """The `decisions` state entries of `answers`, made at `turn`."""
    return [answer.record(turn) for answer in answers]


# --- asking ----------------------------------------------------------------------------


def ask_structured(
    model: BaseChatModel,
    schema: type[S],
    messages: Sequence[BaseMessage],
    *,
    decision: str,
) -> StructuredAnswer[S]:
    """Ask `model` for a `schema` object: json_schema, then json_object, then plain text.

    Starts at the first level the server has not refused; a refusal (an HTTP error naming
    the response_format) steps down and is remembered. Any other failure, or an answer no
    JSON for `schema` can be read from, gives `value` None and `how` "rule": the caller's
    offline rule decides. Never raises for a model failure.

    Args:
        model: ChatOpenAI (any OpenAI-compatible server) or another chat model; one that
            is not ChatOpenAI is asked through its own `with_structured_output`, then as text.
        schema: The pydantic model of the answer.
        messages: The decision's prompt; the JSON shape of `schema` is added to it.
        decision: The decision's name for the record and the log (router, rerank, ...).
    """
    answer = _ask(model, schema, with_shape(messages, schema), decision)
    if answer.fallback:
        log.info("%s: %s; the offline rule decides", decision, answer.reason)
    made = _COLLECTED.get()
    if made is not None:
        made.append(answer)
    return answer


def _ask(
    model: BaseChatModel, schema: type[S], messages: list[BaseMessage], decision: str
) -> StructuredAnswer[S]:
    key = server_key(model)
    openai = _speaks_openai(model)
    levels = [lv for lv in LEVEL_MEMORY.levels(key) if openai or lv != "json_object"]
    refused: list[str] = []
    requests = 0
    for level in levels:
        probing = not LEVEL_MEMORY.accepted(key, level)
        try:
            requests += 1
            raw = _invoke(model, schema, messages, level, openai, probing)
        except GraphBubbleUp:  # an interrupt or a stop of the graph is not the model failing
            raise
        except Exception as exc:  # noqa: BLE001 - a model failure leaves the rule to decide
            why = refusal(exc) if level != "text" else None
            if why is None:
                reason = _joined(refused, f"{level} call failed: {_short(exc)}")
                return StructuredAnswer(decision, None, "rule", reason, requests)
            if isinstance(exc, _Unsupported):
                requests -= 1  # refused before any request was sent
            LEVEL_MEMORY.refuse(key, level)
            refused.append(f"{level} refused ({why})")
            log.info(
                "%s: %s/%s refused %s (%s); asking without it from now on",
                decision,
                key[0],
                key[1],
                level,
                why,
            )
            continue
        LEVEL_MEMORY.accept(key, level)
        value, exact, problem = _read(raw, schema)
        if value is not None:
            how: How = level if exact else "text"
            return StructuredAnswer(decision, value, how, _joined(refused, ""), requests)
        reason = _joined(refused, f"the {level} answer held no valid {schema.__name__}: {problem}")
        return StructuredAnswer(decision, None, "rule", reason, requests)
    reason = _joined(refused, "every way of asking was refused")
    return StructuredAnswer(decision, None, "rule", reason, requests)


def _invoke(
    model: BaseChatModel,
    schema: type[BaseModel],
    messages: list[BaseMessage],
    level: Level,
    openai: bool,
    probing: bool,
) -> Any:
    """One request at `level`: an AIMessage (OpenAI) or whatever the model's runnable gives."""
    if not openai:
        if level == "json_schema":
            try:
                runnable = model.with_structured_output(schema)
            except (NotImplementedError, TypeError, ValueError) as exc:
                raise _Unsupported(str(exc) or type(exc).__name__) from exc
            return runnable.invoke(messages)
        return model.invoke(messages)
    asker = without_retries(model) if probing else model
    if level == "json_schema":
        from openai.lib import type_to_response_format_param

        return asker.bind(response_format=type_to_response_format_param(schema)).invoke(messages)
    if level == "json_object":
        return asker.bind(response_format={"type": "json_object"}).invoke(messages)
    return asker.invoke(messages)


class _Unsupported(Exception):
    """The model cannot be asked this way at all (no request was made)."""


def refusal(exc: BaseException) -> str | None:
    """Why `exc` is the server refusing the response_format, or None if it is not.

    A refusal is an HTTP 4xx/5xx whose body names the `response_format` (or the json_schema
    / json_object type) the request sent. Timeouts, connection errors, rate limits and
    errors about anything else are not: asking another way would not help.
    """
    for err in _chain(exc):
        if isinstance(err, _Unsupported):
            return f"not supported by the model: {err}"
        status = getattr(err, "status_code", None)
        if not isinstance(status, int) or status < 400:
            continue
        said = f"{getattr(err, 'body', '') or ''} {err}"
        if _NAMES_THE_FORMAT.search(said):
            return f"HTTP {status}: {_short(err)}"
    return None


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def without_retries(model: BaseChatModel) -> BaseChatModel:
    """A copy of a ChatOpenAI model whose client does not retry (for probing a level).

    The OpenAI client retries 5xx answers `max_retries` times; a server refusing the
    response_format with a 500 would be asked the same thing again. The copy shares the
    HTTP connection pool (and any transport) with the original.
    """
    root = getattr(model, "root_client", None)
    if not getattr(model, "max_retries", 0) or root is None or not hasattr(root, "with_options"):
        return model
    quiet = root.with_options(max_retries=0)
    return model.model_copy(
        update={"max_retries": 0, "root_client": quiet, "client": quiet.chat.completions}
    )


def _speaks_openai(model: BaseChatModel) -> bool:
    try:
        from langchain_openai.chat_models.base import BaseChatOpenAI
    except ImportError:  # pragma: no cover - langchain-openai is a dependency
        return False
    return isinstance(model, BaseChatOpenAI)


def server_key(model: BaseChatModel) -> tuple[str, str]:
    """What a level is remembered by: the server's base URL (or the model's class) and model."""
    if _speaks_openai(model):
        base = str(getattr(model, "openai_api_base", None) or "https://api.openai.com/v1")
        return base.rstrip("/"), str(getattr(model, "model_name", ""))
    kind = type(model)
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or ""
    return f"{kind.__module__}.{kind.__qualname__}", str(name)


def _short(exc: BaseException, limit: int = 160) -> str:
    text = " ".join(str(getattr(exc, "message", None) or exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _joined(refused: list[str], reason: str) -> str:
    return "; ".join([*refused, reason] if reason else refused)


# --- the prompt's JSON shape -----------------------------------------------------------


def with_shape(messages: Sequence[BaseMessage], schema: type[BaseModel]) -> list[BaseMessage]:
    """`messages` with the JSON shape of `schema` added to the system text.

    Joined to a leading system message (chat templates that take one system message at the
    start take it); a new one at the start when there is none.
    """
    shape = get_prompt(
        "structured.answer",
        schema=schema.__name__,
        shape=json_shape(schema),
        fields="\n".join(field_notes(schema)),
    )
    out = list(messages)
    if out and isinstance(out[0], SystemMessage):
        out[0] = SystemMessage(f"{content_text(out[0])}\n\n{shape}")
    else:
        out.insert(0, SystemMessage(shape))
    return out


def json_shape(annotation: Any) -> str:
    """A one-line sketch of the JSON a type takes, e.g. {"route": "rag" | "agent", ...}."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        parts = [f'"{name}": {json_shape(f.annotation)}' for name, f in _fields(annotation)]
        return "{" + ", ".join(parts) + "}"
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return " | ".join(json.dumps(a, ensure_ascii=False) for a in args)
    if _is_union(origin):
        return " | ".join(json_shape(a) for a in args)
    if origin in (list, tuple, set):
        return f"[{json_shape(args[0]) if args else 'value'}, ...]"
    simple = {bool: "true | false", int: "integer", float: "number", str: "string"}
    if annotation is type(None):
        return "null"
    return simple.get(annotation, "value")


def field_notes(schema: type[BaseModel]) -> list[str]:
    """`- name: description` for each described field of `schema` and of its nested models."""
    notes: list[str] = []
    seen: set[type[BaseModel]] = set()

    def walk(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        for name, f in _fields(model):
            if f.description:
                notes.append(f"- {name}: {f.description}")
            for nested in _models_in(f.annotation):
                walk(nested)

    walk(schema)
    return notes


def _fields(model: type[BaseModel]) -> list[tuple[str, Any]]:
    return list(model.model_fields.items())


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for a in get_args(annotation) for m in _models_in(a)]


def _is_union(origin: Any) -> bool:
    return origin is Union or origin is types.UnionType


# --- reading ---------------------------------------------------------------------------


def _read(raw: Any, schema: type[S]) -> tuple[S | None, bool, str]:
    """The schema object in what a level returned, whether it came as exact JSON, and why not."""
    if isinstance(raw, schema):
        return raw, True, ""
    if isinstance(raw, BaseMessage):  # a message is a pydantic model too: read its text
        return read_json(content_text(raw), schema)
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if isinstance(raw, dict):
        value, problem = validate(raw, schema)
        return value, value is not None, problem
    return read_json(str(raw or ""), schema)


def read_json(text: str, schema: type[S]) -> tuple[S | None, bool, str]:
    """Read a `schema` object out of a model's text, as tolerantly as is safe.

    Tried in order: the whole text as JSON, each ``` fence, each balanced {...} of the
    prose (the first that validates wins). Each is parsed as JSON, then repaired (single
    quotes, trailing commas, Python's True/False/None) if it does not parse; the object is
    coerced to the schema's types (`coerce`) and validated.

    Returns:
        The object or None, whether it was the whole text as JSON, and why not.
    """
    stripped = text.strip()
    if not stripped:
        return None, False, "the answer was empty"
    problem = "no JSON object in the answer"
    for candidate, whole in _candidates(stripped):
        for data, repaired in _parsed(candidate):
            for shaped in _unwrapped(data, schema):
                value, why = validate(shaped, schema)
                if value is not None:
                    return value, whole and not repaired, ""
                problem = why
    return None, False, problem


def _candidates(text: str) -> Iterator[tuple[str, bool]]:
    yield text, True
    for match in _FENCE.finditer(text):
        if match.group(1).strip():
            yield match.group(1).strip(), False
    for span in _balanced(text, _MAX_OBJECTS):
        yield span, False


def _balanced(text: str, limit: int) -> Iterator[str]:
    """Balanced {...} spans, outermost, in order (braces inside strings do not count)."""
    found = 0
    i = 0
    while i < len(text) and found < limit:
        if text[i] != "{":
            i += 1
            continue
        end = _closing(text, i)
        if end is None:
            i += 1
            continue
        yield text[i : end + 1]
        found += 1
        i = end + 1


def _closing(text: str, start: int) -> int | None:
    depth = 0
    quote = ""
    i = start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i if c == "}" else None
        i += 1
    return None


def _parsed(candidate: str) -> Iterator[tuple[Any, bool]]:
    try:
        yield json.loads(candidate, strict=False), False
        return
    except ValueError:
        pass
    fixed = repair_json(candidate)
    if fixed != candidate:
        try:
            yield json.loads(fixed, strict=False), True
        except ValueError:
            pass


def repair_json(text: str) -> str:
    """JSON from near-JSON: single-quoted strings, trailing commas, bare keys, True/False/None.

    Only outside strings is anything changed, so text inside a value is kept as written.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            body: list[str] = []
            while j < n and text[j] != c:
                if text[j] == "\\" and j + 1 < n:
                    # \' is no JSON escape; an apostrophe needs none
                    body.append("'" if text[j + 1] == "'" else text[j : j + 2])
                    j += 2
                    continue
                body.append('\\"' if (c == "'" and text[j] == '"') else text[j])
                j += 1
            out.append('"' + "".join(body) + '"')
            i = j + 1
            continue
        if c == ",":
            k = i + 1
            while k < n and text[k].isspace():
                k += 1
            if k < n and text[k] in "}]":
                i += 1
                continue
        word = re.match(r"[A-Za-z_]\w*", text[i:]) if (c.isalpha() or c == "_") else None
        if word:
            name = word.group()
            after = text[i + len(name) :].lstrip()
            if after.startswith(":"):  # a bare key
                out.append(f'"{name}"')
            else:
                out.append({"True": "true", "False": "false", "None": "null"}.get(name, name))
            i += len(name)
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _unwrapped(data: Any, schema: type[BaseModel]) -> Iterator[Any]:
    """The data as given, then the ways a model wraps it: under one key, or a bare list."""
    yield data
    if isinstance(data, dict) and len(data) == 1:
        inner = next(iter(data.values()))
        if isinstance(inner, dict):
            yield inner
    lists = [name for name, f in _fields(schema) if get_origin(f.annotation) is list]
    if isinstance(data, list) and len(lists) == 1 and len(schema.model_fields) == 1:
        yield {lists[0]: data}


def validate(data: Any, schema: type[S]) -> tuple[S | None, str]:
    """`data` coerced (`coerce`) and validated as `schema`; None and why if it is not one."""
    if not isinstance(data, dict):
        return None, f"expected a JSON object, got {type(data).__name__}"
    names = {name.lower() for name in schema.model_fields}
    if names and not names & {str(k).strip().lower() for k in data}:
        return None, f"none of {schema.__name__}'s fields ({', '.join(schema.model_fields)})"
    try:
        return schema.model_validate(coerce(data, schema)), ""
    except ValidationError as exc:
        wrong = ", ".join(".".join(str(p) for p in e["loc"]) or "?" for e in exc.errors())
        return None, f"invalid or missing {wrong}"


_MISSING = object()


def coerce(data: dict[str, Any], schema: type[BaseModel]) -> dict[str, Any]:
    """`data` made to fit `schema` where its types leave no doubt.

    Field names match case-insensitively; "true"/"false" become booleans, numeric strings
    numbers, a number or boolean a string, a single value a one-item list, a value spelled
    in another case one of a Literal's values, null an empty list or string. A missing
    list, string or optional field gets its empty value; anything else is left for
    pydantic to refuse.
    """
    keys = {str(k).strip().lower(): k for k in data}
    out: dict[str, Any] = {}
    for name, f in _fields(schema):
        key: Any = name if name in data else keys.get(name.lower(), _MISSING)
        if key is _MISSING:
            if f.is_required():
                empty = _empty(f.annotation)
                if empty is not _MISSING:
                    out[name] = empty
            continue
        out[name] = _coerce(data[key], f.annotation)
    return out


def _empty(annotation: Any) -> Any:
    origin, args = get_origin(annotation), get_args(annotation)
    if _is_union(origin) and type(None) in args:
        return None
    if origin is list:
        return []
    if annotation is str:
        return ""
    return _MISSING


def _coerce(value: Any, annotation: Any) -> Any:
    origin, args = get_origin(annotation), get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return coerce(value, annotation) if isinstance(value, dict) else value
    if _is_union(origin):
        options = [a for a in args if a is not type(None)]
        if type(None) in args and (
            value is None or (isinstance(value, str) and value.strip().lower() in ("", "null"))
        ):
            return None
        return _coerce(value, options[0]) if len(options) == 1 else value
    if origin is list:
        if value is None:
            return []
        if isinstance(value, str) and value.strip().startswith("["):
            try:
                value = json.loads(value)
            except ValueError:
                pass
        items = value if isinstance(value, list | tuple) else [value]
        return [_coerce(v, args[0]) if args else v for v in items]
    if origin is Literal:
        if isinstance(value, str):
            wanted = value.strip().strip("\"'").lower()
            return next((a for a in args if isinstance(a, str) and a.lower() == wanted), value)
        return value
    if annotation is bool and isinstance(value, str):
        word = value.strip().lower()
        return {"true": True, "false": False}.get(word, value)
    if annotation in (int, float) and isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return value
        return int(number) if annotation is int and number.is_integer() else number
    if annotation is int and isinstance(value, float) and value.is_integer():
        return int(value)
    if annotation is str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return json.dumps(value)
        if isinstance(value, int | float):
            return str(value)
    return value
