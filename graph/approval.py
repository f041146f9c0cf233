"""Approval by what a call does (issue 43), its category (seed 004), and the answer it gets.

**What decides.** A tool call, or a supervisor step, waits for the user's approval by
these, in order (`ask_for`):

1. **The tool's effect** (`graph.tools.effects`): a tool that only computes or reads on
   this machine never asks; one that pays, signs or hands personal data out always asks,
   in that category; python_repl (`code`) always asks.
2. **The words**, for an outbound tool (and code, to name its category): the offline rules
   of `graph.wording` on the user's message and the call's arguments, by the kind of
   wording (a paying or signing act, an amount with a verb that moves it, a card number,
   personal data in the arguments):

   | category | the call is |
   |---|---|
   | `contract` | signing, agreeing to, renewing or terminating a contract |
   | `payment` | paying, transferring money, buying, ordering, refunding; a card number or field |
   | `sensitive` | carrying personal data or a secret out of the conversation |

   The first that applies, in that order, is the call's category (a payment to a
   contract's counterparty is a contract).
3. **The model's decision**, where a model runs: the category the safeguard's or the
   supervisor's structured decision gave the message (`model`). Either the model or the
   rules can ask; neither can waive what the other found.
4. **Untrusted text** (`untrusted`): text from a file, a document, the web or a history
   payload's assistant message anywhere in what the model sees makes an outbound call
   ask (`outbound`, its `reason` and the `sources` named), as does a message the
   safeguard labelled PROMPT_INJECTION.

The rules err toward asking: a false alarm costs one click, a missed one a payment.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from graph import wording
from graph.errors import InputError
from graph.safeguard import find_pii
from graph.tools.effects import ACTS, EFFECTS, LOCAL, Effect, effect_of


class Category(StrEnum):
    """Why an approval is asked: seed 004's three categories, then the project's own two."""

    CONTRACT = "contract"
    PAYMENT = "payment"
    SENSITIVE = "sensitive"
    CODE = "code"
    """A tool that runs model-written code (`Effect.CODE`: python_repl): it always asks."""
    OUTBOUND = "outbound"
    """A tool that sends text out, with untrusted text in the context."""


SEED_CATEGORIES = (Category.CONTRACT, Category.PAYMENT, Category.SENSITIVE)
"""The categories `category_of` finds, in the order they are tried."""

LOCAL_TOOLS = frozenset(name for name, effect in EFFECTS.items() if effect in LOCAL)
"""The built-in tools that only read or compute on this machine: nothing to approve."""


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


def arg_values(args: Mapping[str, Any] | None) -> list[str]:
    """The text values of a call's arguments, nested ones too (each read as a text of its own)."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list | tuple):
            for inner in value:
                walk(inner)
        elif isinstance(value, str):
            found.append(value)

    walk(args or {})
    return found


def category_of(
    tool_name: str | None, args: Mapping[str, Any] | None, message: str = ""
) -> Category | None:
    """The seed category of a call of `tool_name` with `args`, asked for by `message`.

    None when no rule applies, or when the tool only reads or computes on this machine.
    `tool_name` None classifies `message` and `args` alone (a supervisor step that is no
    tool call).
    """
    found = classify_call(tool_name, args, message)
    return found[0] if found else None


def classify_call(
    tool_name: str | None,
    args: Mapping[str, Any] | None,
    message: str = "",
    *,
    effect: Effect | None = None,
) -> tuple[Category, str] | None:
    """`category_of` with what decided it: an act, a label or a PII kind (never a value).

    `effect` is the tool's (`graph.tools.effects.effect_of` of its name when not given).
    """
    effect = effect or (effect_of(tool_name) if tool_name else None)
    if effect in LOCAL:
        return None
    if effect in ACTS:
        return Category(effect.value), f"the tool's effect is {effect.value}"
    sent = args_text(args)
    texts = [t for t in (message, *arg_values(args)) if t]
    for category in (Category.CONTRACT, Category.PAYMENT):
        for text in texts:
            why = wording.act(category.value, text)
            if why:
                return category, why
    plain = wording.normalize(sent)
    if any(kind == "CARD" for kind, _ in find_pii(plain)):
        return Category.PAYMENT, "CARD"
    name = wording.labelled("payment", plain)
    if name:
        return Category.PAYMENT, f"labelled {name!r}"
    found = wording.sensitive(sent)
    return (Category.SENSITIVE, found.why) if found else None


@dataclass(frozen=True)
class Ask:
    """Why a call waits for approval: its category and what decided it."""

    category: Category
    why: str
    sources: tuple[str, ...] = ()
    """The untrusted texts in the context, when there are any (named in the request)."""


def ask_for(
    effect: Effect,
    args: Mapping[str, Any] | None,
    message: str,
    *,
    model: str | None = None,
    untrusted: Sequence[str] = (),
    injection: bool = False,
) -> Ask | None:
    """Whether a call with this effect waits for the user, and why (module docstring).

    `model` is the category a model's structured decision gave the message or the step
    (contract, payment or sensitive; anything else is ignored); `untrusted` names the
    untrusted texts in the context; `injection` says the safeguard labelled the message a
    prompt injection.
    """
    if effect in LOCAL:
        return None
    sources = tuple(untrusted) if effect in (Effect.OUTBOUND, Effect.CODE) else ()
    found = classify_call(None, args, message, effect=effect)
    if found is not None:
        return Ask(found[0], found[1], sources)
    if model in {c.value for c in SEED_CATEGORIES}:
        return Ask(Category(str(model)), "the model's decision", sources)
    if effect is Effect.CODE:
        return Ask(Category.CODE, "runs code", sources)
    if injection:
        return Ask(Category.OUTBOUND, "prompt_injection", sources)
    if sources:
        return Ask(Category.OUTBOUND, "data_in_context", sources)
    return None


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


def approval_in(interrupts: Sequence[Any]) -> dict[str, Any] | None:
    """The approval request among a graph state's interrupts, if any (a copy of it)."""
    for interrupt in interrupts:
        if isinstance(interrupt.value, dict) and interrupt.value.get("kind") == "approval":
            return dict(interrupt.value)
    return None
