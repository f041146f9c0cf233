"""Approval by category (seed 004) and the answer an approval gets back.

**Categories.** A tool call, or a supervisor step, is put in one of seed 004's categories
by transparent rules, and then never runs before the user approves it:

| category | the call is | found by |
|---|---|---|
| `contract` | signing, agreeing to, renewing or terminating a contract | an *act* phrase of `data/lexicon/approval.tsv` in the user's message or the call's arguments |
| `payment` | paying, transferring money, buying, ordering, refunding | an act phrase as above; or a card number (Luhn, the safeguard's pattern) or a labelled card field (`card number: ...`) in the arguments |
| `sensitive` | carrying personal data out of the conversation | in the arguments: a resident registration number, phone number or e-mail address (the safeguard's PII patterns), a labelled secret or record (`password: ...`, `계좌번호 110-...`, `진단명: ...`), or a statement of health (`diagnosed with`) |

The first that applies, in that order, is the call's category (a payment to a contract's
counterparty is a contract). Tools that only read or compute on this machine
(`LOCAL_TOOLS`: calculator, clock, read_file, the document searches) have no effect to
approve and are never put in a category. The rules err toward asking: a false alarm costs
one click, a missed one a payment.

Besides these, an approval request names the reason it was asked for when it is not a
category of the seed: `code` for the tools that always ask (`python_repl`), `outbound`
for a tool that sends text out after untrusted text came in (with the request's `reason`).

**Answers.** The graph pauses with `interrupt(request)`, where `request` is
`{"kind": "approval", "category": ..., ...}`; it goes on with `Command(resume=answer)`,
`answer` being `{"action": ..., "args": ..., "response": ...}` (`Answer`):

| action | what the waiting call or step does |
|---|---|
| `approve` | runs as asked |
| `edit` | runs with `args` instead |
| `respond` | does not run; `response`, the user's free text, is its result (the model answers from it) |
| `reject` | does not run, and the task ends: the turn is closed with an apology marked `APPROVAL_REJECTED` |

`decision` reads a client's decision in any of its shapes (seed 004's `{"approve": ...}`
and `{"response": ...}`, or the app's `{"action": ..., "args": ...}`) into an `Answer`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from graph.errors import InputError
from graph.lexicon import read_table
from graph.safeguard import find_pii


class Category(StrEnum):
    """Why an approval is asked: seed 004's three categories, then the project's own two."""

    CONTRACT = "contract"
    PAYMENT = "payment"
    SENSITIVE = "sensitive"
    CODE = "code"
    """A tool that never runs unapproved (`graph.tools.APPROVAL_REQUIRED`: python_repl)."""
    OUTBOUND = "outbound"
    """A tool that sends text out, after untrusted text came into the turn."""


SEED_CATEGORIES = (Category.CONTRACT, Category.PAYMENT, Category.SENSITIVE)
"""The categories `category_of` finds, in the order they are tried."""

LOCAL_TOOLS = frozenset(
    {
        "calculator",
        "get_current_datetime",
        "read_file",
        "search_all",
        "search_by_metadata",
        "get_section",
    }
)
"""Tools that only read or compute on this machine: nothing to approve in them."""

LEXICON_FILE = "approval.tsv"
"""`data/lexicon/approval.tsv`: category, kind (act, label, data), phrases."""

_PII_CATEGORY = {
    "CARD": Category.PAYMENT,
    "RRN": Category.SENSITIVE,
    "PHONE": Category.SENSITIVE,
    "EMAIL": Category.SENSITIVE,
}
"""The safeguard's PII kinds (`graph.safeguard.find_pii`) and the category each puts a call in."""


@dataclass(frozen=True)
class Rules:
    """The compiled phrases of one category."""

    act: re.Pattern[str] | None
    label: re.Pattern[str] | None
    """A label followed by a value (`_VALUE`)."""
    label_name: re.Pattern[str] | None
    """The label alone (to say which one matched, without its value)."""
    data: re.Pattern[str] | None


def _phrase(phrase: str) -> str:
    """A phrase as a regular expression.

    Spaces between Korean letters are optional, English words match whole, and a space
    of the phrase matches any run of spaces.
    """
    parts: list[str] = []
    words = phrase.split()
    for w, word in enumerate(words):
        if w:  # a space: optional between Korean letters, needed between English words
            korean = _hangul(words[w - 1][-1]) and _hangul(word[0])
            parts.append(r"\s*" if korean else r"\s+")
        for i, char in enumerate(word):
            if i and _hangul(char) and _hangul(word[i - 1]):
                parts.append(r"\s*")
            parts.append(re.escape(char))
    text = "".join(parts)
    head = r"(?<![a-z0-9])" if phrase[0].isascii() and phrase[0].isalnum() else ""
    tail = r"(?![a-z0-9])" if phrase[-1].isascii() and phrase[-1].isalnum() else ""
    return head + text + tail


def _hangul(char: str) -> bool:
    return "가" <= char <= "힣"


_VALUE = r"\s*(?:[:=]\s*[^\s,;]|(?:is\s+|은\s*|는\s*|이\s*|가\s*)?[^\s,;]*\d)"
"""What must follow a label for it to name a value: ':' or '=' and anything, or a token
with a digit (`password: x`, `계좌번호 110-123`, `my pin is 0420`; not `password reset`)."""


@cache
def rules() -> dict[Category, Rules]:
    """The categories' phrases from `data/lexicon/approval.tsv`, compiled once."""
    found: dict[tuple[str, str], list[str]] = {}
    for category, kind, phrases in read_table(LEXICON_FILE, 3):
        if category not in {c.value for c in SEED_CATEGORIES} or kind not in (
            "act",
            "label",
            "data",
        ):
            raise ValueError(f"{LEXICON_FILE}: unknown category or kind {category!r} {kind!r}")
        found.setdefault((category, kind), []).extend(
            p.strip().lower() for p in phrases.split("|") if p.strip()
        )

    def pattern(category: Category, kind: str, suffix: str = "") -> re.Pattern[str] | None:
        words = found.get((category.value, kind))
        if not words:
            return None
        alternatives = "|".join(_phrase(w) for w in sorted(words, key=len, reverse=True))
        return re.compile(f"(?:{alternatives}){suffix}", re.IGNORECASE)

    return {
        c: Rules(
            pattern(c, "act"),
            pattern(c, "label", _VALUE),
            pattern(c, "label"),
            pattern(c, "data"),
        )
        for c in SEED_CATEGORIES
    }


def args_text(args: Mapping[str, Any] | None) -> str:
    """A call's arguments as one text: `name: value` a line, nested objects and lists too."""
    lines: list[str] = []

    def walk(name: str, value: Any) -> None:
        if isinstance(value, Mapping):
            for key, inner in value.items():
                walk(str(key), inner)
        elif isinstance(value, list | tuple):
            for inner in value:
                walk(name, inner)
        else:
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            lines.append(f"{name}: {shown}")

    walk("", args or {})
    return "\n".join(lines)


def category_of(
    tool_name: str | None, args: Mapping[str, Any] | None, message: str = ""
) -> Category | None:
    """The seed category of a call of `tool_name` with `args`, asked for by `message`.

    None when no rule applies, or when the tool only reads or computes on this machine
    (`LOCAL_TOOLS`). `tool_name` None classifies `message` and `args` alone (a supervisor
    step that is no tool call).
    """
    found = classify_call(tool_name, args, message)
    return found[0] if found else None


def classify_call(
    tool_name: str | None, args: Mapping[str, Any] | None, message: str = ""
) -> tuple[Category, str] | None:
    """`category_of` with what decided it: a phrase, a label or a PII kind (never a value)."""
    if tool_name in LOCAL_TOOLS:
        return None
    sent = args_text(args)
    pii = [kind for kind, _ in find_pii(sent)]
    table = rules()
    for category in SEED_CATEGORIES:
        rule = table[category]
        for text in (message, sent):
            hit = rule.act.search(text) if rule.act and text else None
            if hit:
                return category, f"asks to {_words(hit.group(0))!r}"
        kinds = [k for k in pii if _PII_CATEGORY.get(k) == category]
        if kinds:
            return category, kinds[0]
        hit = rule.label.search(sent) if rule.label and sent else None
        if hit and rule.label_name:
            name = rule.label_name.match(hit.group(0))
            return category, f"labelled {_words(name.group(0) if name else '')!r}"
        hit = rule.data.search(sent) if rule.data and sent else None
        if hit:
            return category, f"states {_words(hit.group(0))!r}"
    return None


def _words(text: str) -> str:
    """A matched phrase without its value: letters and spaces, digits and the rest cut."""
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s']|\d", "", text)).strip().lower()


# ---- the answer an approval gets back

ACTIONS = ("approve", "reject", "edit", "respond")
"""What a user can answer an approval with (see the module docstring)."""

USER_ANSWERED = "Not run: the user answered instead of approving this call:"
"""The start of the result a call gets when the user answered it with text (`respond`)."""

REJECTED = "Error: the user rejected this call; it was not run."
"""The result of the call the user rejected."""

NOT_RUN_AFTER_REJECT = "Error: not run; the user rejected an earlier call of this step."
"""The result of a call after the rejected one in the same step (it is never asked)."""


@dataclass(frozen=True)
class Answer:
    """A user's decision on a waiting call or step: an action, edited args, free text."""

    action: str
    args: dict[str, Any] | None = None
    """`edit`: the arguments the call runs with."""
    response: str = ""
    """`respond`: the user's text, handed to the waiting call or step as its result."""

    def resume_value(self) -> dict[str, Any]:
        """The value `Command(resume=...)` carries to the paused graph."""
        return {"action": self.action, "args": self.args, "response": self.response}


def read_answer(value: Any) -> Answer:
    """The `Answer` an approval's `interrupt()` returned; anything unreadable is a reject.

    Older resume values (`{"action": ..., "args": ...}`, written before `respond`) read as
    they were meant.
    """
    if not isinstance(value, Mapping):
        return Answer("reject")
    action = str(value.get("action") or "reject")
    if action not in ACTIONS:
        return Answer("reject")
    args = value.get("args")
    response = str(value.get("response") or "")
    if action == "respond" and not response.strip():
        return Answer("reject")
    return Answer(action, dict(args) if isinstance(args, Mapping) else None, response)


def decision(
    *,
    approve: bool | None = None,
    response: str | Mapping[str, Any] | None = None,
    action: str | None = None,
    args: Mapping[str, Any] | None = None,
) -> Answer:
    """A client's decision, in any of its shapes, as an `Answer`; InputError if unclear.

    Seed 004: `approve` true or false, or `response` (free text; an object is edited
    arguments, as before the free text). The app and older clients: `action` (approve,
    reject, edit with `args`, respond with `response`). Exactly one shape at a time.
    """
    if action is not None:
        if approve is not None:
            raise InputError('give "approve" or "action", not both')
        if action not in ACTIONS:
            raise InputError(f"Unknown decision {action!r}; choose one of {', '.join(ACTIONS)}.")
        if action == "edit":
            edited = args if args is not None else response
            if not isinstance(edited, Mapping):
                raise InputError('"edit" needs the edited arguments as an object in "args"')
            return Answer("edit", dict(edited))
        if action == "respond":
            if not isinstance(response, str) or not response.strip():
                raise InputError('"respond" needs the answer as text in "response"')
            return Answer("respond", response=response)
        if response is not None:
            raise InputError(f'"{action}" takes no "response"')
        return Answer(action)  # any "args" are the call's own: an older client sent them
    if args is not None:
        raise InputError('"args" goes with "action": "edit"')
    if (approve is None) == (response is None):
        raise InputError('give exactly one of "approve" (true or false) or "response"')
    if approve is not None:
        return Answer("approve" if approve else "reject")
    if isinstance(response, Mapping):
        return Answer("edit", dict(response))
    if not str(response).strip():
        raise InputError('"response" is empty: give the answer as text')
    return Answer("respond", response=str(response))
