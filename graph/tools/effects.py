"""What each tool does to the world (issue 43): the first thing its approval is decided by.

Every tool declares one `Effect`; `build_tools` (and the document searches of
`graph.retrieval`) put it in the tool's `metadata["effect"]`, and `EFFECTS` holds it by
name for a tool made elsewhere with a built-in tool's name. A tool that declares none is
taken as `outbound` (it may send text out): when unsure, it can ask.

| effect | the tool | asks |
|---|---|---|
| `compute` | computes on this machine (calculator, clock) | never |
| `read` | reads on this machine (read_file, the document searches) | never; its result is untrusted text |
| `outbound` | sends text out (web_search, search_wikipedia, get_weather) | when its words or the model's decision put it in a category, or when untrusted text is in the context; its result is untrusted text |
| `code` | runs model-written code (python_repl) | always |
| `payment`, `contract`, `sensitive` | pays, signs or agrees, or hands personal data out (seed 004's kinds) | always, in that category |
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class Effect(StrEnum):
    """What a call of a tool does (see the module docstring)."""

    COMPUTE = "compute"
    READ = "read"
    OUTBOUND = "outbound"
    CODE = "code"
    PAYMENT = "payment"
    CONTRACT = "contract"
    SENSITIVE = "sensitive"


EFFECT_KEY = "effect"
"""The key of a tool's `metadata` that holds its effect."""

EFFECTS: dict[str, Effect] = {
    "calculator": Effect.COMPUTE,
    "get_current_datetime": Effect.COMPUTE,
    "read_file": Effect.READ,
    "search_all": Effect.READ,
    "search_by_metadata": Effect.READ,
    "get_section": Effect.READ,
    "web_search": Effect.OUTBOUND,
    "search_wikipedia": Effect.OUTBOUND,
    "get_weather": Effect.OUTBOUND,
    "python_repl": Effect.CODE,
}
"""The built-in tools' effects by name."""

ACTS = frozenset({Effect.PAYMENT, Effect.CONTRACT, Effect.SENSITIVE})
"""Effects that are one of seed 004's acts: such a tool always asks, in that category."""
LOCAL = frozenset({Effect.COMPUTE, Effect.READ})
"""Effects with nothing to approve: the call stays on this machine."""
UNTRUSTED_RESULTS = frozenset({Effect.READ, Effect.OUTBOUND})
"""Effects whose results are text from elsewhere (a file, a document, the web): data that
may hold instructions, never the user's word."""


def effect_of(
    name: str,
    metadata: Mapping[str, Any] | None = None,
    approval_required: frozenset[str] = frozenset(),
) -> Effect:
    """A tool's effect: what it declares, else its built-in name's, else `outbound`.

    A tool named in `approval_required` is at least `code` (it always asks).
    """
    declared = (metadata or {}).get(EFFECT_KEY)
    try:
        effect = Effect(declared) if declared else EFFECTS.get(name, Effect.OUTBOUND)
    except ValueError:
        effect = Effect.OUTBOUND  # an effect this version does not know: when unsure, ask
    if name in approval_required and (effect in LOCAL or effect is Effect.OUTBOUND):
        return Effect.CODE
    return effect


def untrusted_result(name: str, metadata: Mapping[str, Any] | None = None) -> bool:
    """Whether the tool's results are untrusted text (read, outbound, or undeclared)."""
    return effect_of(name, metadata) in UNTRUSTED_RESULTS
