"""Safeguard (seed 001): a label for every user message, and PII masked on its way out.

Labels and policy (`SafeguardLabel`, `POLICY`):

| label | found by (offline rules) | policy (= route) | error code |
|---|---|---|---|
| PASS | nothing below | **answer**: answered as usual | - |
| PII | phone numbers, e-mail addresses, Korean resident registration numbers (with or without the dash), card numbers (Luhn) | **mask**: answered; before any text leaves the machine for a model provider each value is replaced by a placeholder, and the reply is unmasked locally, so the stored conversation, the panel and the answer keep the real values | SAFEGUARD_PII_MASKED |
| PROMPT_INJECTION | "ignore previous instructions", "reveal the system prompt", ... | **warn**: answered, the user sees the warning, and tools that send text out of the machine need approval this turn | SAFEGUARD_INJECTION_WARNED |
| HARMFUL | instructions for weapons, explosives, or self-harm methods | **block**: never sent to a provider; the turn is closed unanswered | SAFEGUARD_BLOCKED |

Every label but PASS is routed by its policy's name (`graph.nodes.safeguard.
route_after_safeguard`) and recorded with its error code in the state (`safeguard`,
`errors`), the checkpoint's metadata and the turn's metadata event (seed 001: "PASS 외
라우팅 및 error_code 설정"). Only a block ends the turn unanswered.

Masking is deterministic (`[PHONE_3f2a]` for the same number every time), so no mapping has
to be stored: the values in the context being sent are the mapping, and they stay local.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from graph.errors import ErrorCode


class SafeguardLabel(StrEnum):
    """How a user message is classified before anything else happens to it."""

    PASS = "PASS"
    PII = "PII"
    PROMPT_INJECTION = "PROMPT_INJECTION"
    HARMFUL = "HARMFUL"


POLICY = {
    SafeguardLabel.PASS: "answer",
    SafeguardLabel.PII: "mask",
    SafeguardLabel.PROMPT_INJECTION: "warn",
    SafeguardLabel.HARMFUL: "block",
}
"""What each label does to the turn (see the module docstring); also the route's name."""

ERROR_CODES = {
    SafeguardLabel.PII: ErrorCode.SAFEGUARD_PII_MASKED,
    SafeguardLabel.PROMPT_INJECTION: ErrorCode.SAFEGUARD_INJECTION_WARNED,
    SafeguardLabel.HARMFUL: ErrorCode.SAFEGUARD_BLOCKED,
}
"""The error code each label other than PASS is recorded with (seed 001)."""

_PII: tuple[tuple[str, re.Pattern[str]], ...] = (
    # with its dash, or written without it (or with a space) when the first six digits are
    # a date: a bare 13-digit number is otherwise read as a card number
    (
        "RRN",
        re.compile(
            r"(?<!\d)(?:\d{6}-|\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]) ?)[1-8]\d{6}(?!\d)"
        ),
    ),
    ("CARD", re.compile(r"(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)")),
    ("EMAIL", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("PHONE", re.compile(r"(?<![\d-])(?:\+82[- ]?|0)\d{1,2}[- ]?\d{3,4}[- ]?\d{4}(?![\d-])")),
)
_INJECTION = re.compile(
    r"ignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier) (?:instructions|prompts?|rules)"
    r"|disregard (?:all |the )?(?:previous|prior|above) (?:instructions|rules)"
    r"|(?:reveal|show|print|repeat) (?:me )?(?:your |the )?(?:system|hidden|initial) (?:prompt|instructions)"
    r"|you are now (?:in )?(?:developer|dan|jailbreak)|jailbreak|developer mode"
    r"|(?:이전|위의|앞의|모든) (?:지시|지침|명령|규칙)(?:을|를|은|는)? ?(?:무시|잊)"
    r"|시스템 ?프롬프트(?:를|을)? ?(?:보여|알려|출력|공개)",
    re.IGNORECASE,
)
_HARMFUL = re.compile(
    r"(?:how (?:do i|to|can i) (?:make|build|assemble) (?:a |an )?(?:bomb|explosive|pipe bomb|nerve agent|bioweapon))"
    r"|(?:폭탄|폭발물|사제 ?총|신경가스|생화학 ?무기)(?:을|를)? ?(?:만드는|제조|제작|조립)"
    r"|(?:how (?:do i|to|can i) (?:kill|hurt) myself)|(?:자살|자해)(?:하는)? ?방법",
    re.IGNORECASE,
)


def _luhn(number: str) -> bool:
    digits = [int(d) for d in number if d.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, digit in enumerate(reversed(digits)):
        if i % 2:
            digit *= 2
            digit -= 9 if digit > 9 else 0
        total += digit
    return total % 10 == 0


def find_pii(text: str) -> list[tuple[str, str]]:
    """(kind, value) of every phone number, e-mail, resident registration and card number."""
    found: list[tuple[str, str]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PII:
        for match in pattern.finditer(text):
            span = match.span()
            if any(a < span[1] and span[0] < b for a, b in taken):
                continue
            if kind == "CARD" and not _luhn(match.group(0)):
                continue
            taken.append(span)
            found.append((kind, match.group(0)))
    return found


def classify(text: str) -> tuple[SafeguardLabel, list[str]]:
    """The label of a user message and why (the kinds of what was found)."""
    if _HARMFUL.search(text):
        return SafeguardLabel.HARMFUL, ["harmful request"]
    if _INJECTION.search(text):
        return SafeguardLabel.PROMPT_INJECTION, ["instruction override"]
    pii = find_pii(text)
    if pii:
        return SafeguardLabel.PII, sorted({kind for kind, _ in pii})
    return SafeguardLabel.PASS, []


def placeholder(kind: str, value: str) -> str:
    """The stable stand-in for a value: `[PHONE_3f2a]`."""
    digest = hashlib.blake2b(value.encode("utf-8"), digest_size=2).hexdigest()
    return f"[{kind}_{digest}]"


def mask(text: str, mapping: dict[str, str]) -> str:
    """`text` with every PII value replaced by its placeholder; `mapping` learns them."""
    for kind, value in find_pii(text):
        token = placeholder(kind, value)
        mapping[token] = value
        text = text.replace(value, token)
    return text


def unmask(text: str, mapping: dict[str, str]) -> str:
    """Put the real values back for the placeholders of `mapping`."""
    for token, value in mapping.items():
        text = text.replace(token, value)
    return text


def mask_message(msg: BaseMessage, mapping: dict[str, str]) -> BaseMessage:
    """A copy of a message with PII masked in its text and its tool-call arguments."""
    content = msg.content
    masked: Any = (
        mask(content, mapping)
        if isinstance(content, str)
        else [
            {**b, "text": mask(str(b.get("text", "")), mapping)}
            if isinstance(b, dict) and b.get("type") == "text"
            else b
            for b in content
        ]
    )
    update: dict[str, Any] = {"content": masked}
    if isinstance(msg, AIMessage) and msg.tool_calls:
        update["tool_calls"] = [
            {**call, "args": _walk(call["args"], lambda s: mask(s, mapping))}
            for call in msg.tool_calls
        ]
    return msg.model_copy(update=update)


def unmask_message(msg: AIMessage, mapping: dict[str, str]) -> AIMessage:
    """The model's reply with the real values put back (text and tool-call arguments)."""
    if not mapping:
        return msg
    content = msg.content
    update: dict[str, Any] = {
        "content": unmask(content, mapping) if isinstance(content, str) else content
    }
    if msg.tool_calls:
        update["tool_calls"] = [
            {**call, "args": _walk(call["args"], lambda s: unmask(s, mapping))}
            for call in msg.tool_calls
        ]
    return msg.model_copy(update=update)


def _walk(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {k: _walk(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, change) for v in value]
    return value
