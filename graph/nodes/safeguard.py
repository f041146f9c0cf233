"""safeguard_node: label the user's message first (seed 001) and apply the label's policy."""

from __future__ import annotations

import logging
from typing import Any, Literal, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from graph.errors import ErrorCode, error_record
from graph.nodes.base import Node
from graph.safeguard import ERROR_CODES, POLICY, SafeguardLabel, classify, mask
from graph.state import ChatState
from graph.structured import ask_structured, collect_decisions, decision_records
from graph.turns import extract_current_turn, user_text
from prompt import get_prompt

log = logging.getLogger(__name__)


class SafeguardDecision(BaseModel):
    """The model's label of a user message."""

    label: Literal["PASS", "PII", "PROMPT_INJECTION", "HARMFUL"] = Field(
        description="PASS, PII, PROMPT_INJECTION or HARMFUL"
    )
    reason: str = Field(default="", description="a few words on why")
    action: Literal["none", "payment", "contract", "sensitive"] = Field(
        default="none",
        description=(
            "what the message asks the assistant to carry out: payment (pay, transfer, buy, "
            "refund), contract (sign, agree to, renew, terminate), sensitive (send personal "
            "data or a secret out), or none"
        ),
    )


SEVERITY = [
    SafeguardLabel.PASS,
    SafeguardLabel.PII,
    SafeguardLabel.PROMPT_INJECTION,
    SafeguardLabel.HARMFUL,
]
"""When the rules and the model disagree, the more severe label holds."""


def model_label(model: BaseChatModel, text: str) -> tuple[SafeguardLabel, str, str] | None:
    """The model's label of `text` (PII masked before it is sent), why, and the act it asks.

    One structured decision (`graph.structured`); None when no `SafeguardDecision` can be
    had from the model, and the rules decide alone. The act (payment, contract, sensitive
    or none) is what the message asks to be carried out: a tool call of this turn that
    could carry it out asks for approval in that category (`graph.approval.ask_for`).
    """
    answer = ask_structured(
        model,
        SafeguardDecision,
        [HumanMessage(get_prompt("safeguard.classify", message=mask(text, {})))],
        decision="safeguard",
    )
    if answer.value is None:
        return None
    return SafeguardLabel(answer.value.label), answer.value.reason, answer.value.action


def make_safeguard_node(model: BaseChatModel | None = None) -> Node:
    """safeguard_node: classify the message; every label but PASS gets its error code.

    PII (masked) and PROMPT_INJECTION (warned) go on to be answered, their code recorded
    in `safeguard` and `errors`; a HARMFUL message ends the turn unanswered.

    Offline the rules of `graph.safeguard` decide; with a model configured it is asked too
    (one structured-output call, the message's PII masked) and the more severe label holds.
    The label is kept in the state (`safeguard`) for the panel, the event stream and the
    tool node (a PROMPT_INJECTION turn asks before any tool sends text out); so is the act
    the model found the message asking for (`action`: payment, contract or sensitive), by
    which the turn's outbound and code calls ask even where the rules found no act.
    """

    def safeguard_node(state: ChatState) -> dict[str, Any]:
        text = user_text(extract_current_turn(state["messages"]))
        label, reasons = classify(text)
        with collect_decisions() as made:
            found = model_label(model, text) if model is not None and text else None
        if found is not None and SEVERITY.index(found[0]) > SEVERITY.index(label):
            label, reasons = found[0], [f"model: {found[1]}" if found[1] else "model"]
        kept: dict[str, Any] = {"label": label.value, "policy": POLICY[label], "reasons": reasons}
        if found is not None and found[2] != "none":
            kept["action"] = found[2]
        update: dict[str, Any] = {"safeguard": kept}
        if made:  # how the model's label was had, or that the rules decided alone
            update["decisions"] = decision_records(made, int(state.get("turn_count", 0)))
        code = ERROR_CODES.get(label)
        if code is None:
            return update
        update["safeguard"]["error_code"] = code.value
        turn = int(state.get("turn_count", 0))
        update["errors"] = [
            *state.get("errors", []),
            error_record(turn, "safeguard_node", code, ", ".join(reasons)),
        ]
        if code is ErrorCode.SAFEGUARD_BLOCKED:
            update["error_code"] = code.value  # fallback_node writes the apology
        return update

    return safeguard_node


SafeguardRoute = Literal["answer", "mask", "warn", "block"]


def route_after_safeguard(state: ChatState) -> SafeguardRoute:
    """The label's route, named by its policy (`graph.safeguard.POLICY`).

    answer (PASS), mask (PII) and warn (PROMPT_INJECTION) go on to the answer; block
    (HARMFUL) goes to fallback_node, which ends the turn with its coded apology.
    """
    label = (state.get("safeguard") or {}).get("label") or SafeguardLabel.PASS.value
    try:
        policy = POLICY[SafeguardLabel(label)]
    except ValueError:  # a label an older version saved: answered as PASS was
        policy = POLICY[SafeguardLabel.PASS]
    return cast(SafeguardRoute, policy)
