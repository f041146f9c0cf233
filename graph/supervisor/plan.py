"""Intent understanding and planning (seed 004): one structured decision, or the offline rule.

The intent is the message's goal, its parts and its category; the plan is at most
MAX_STEPS steps, each a question for one specialist agent (`graph.supervisor.specialists`).
With a model both come from one structured call (`PlanDecision`, through
`graph.structured`'s json_schema -> json_object -> text ladder); offline, for a plain
greeting, or when no plan can be read from the model, the transparent rule decides
(`rule_plan`):

- a question in two parts (`graph.retrieval.parts.question_parts`) is two steps;
- a part naming a contract or its clauses (`CONTRACT`) goes to the contract agent;
- a part asking for a tool (the offline engine's own reading, `graph.offline.asked_tool`)
  goes to that tool's agent (`TOOL_AGENTS`);
- a part the router's rule sends to the documents (`graph.routing.rule_route`) goes to the
  documents agent, anything else to the general agent: the single agent itself.

A step whose category is contract, payment or sensitive waits for the user's approval
before it runs; a contract step always does (`APPROVAL_CATEGORIES`).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from graph.approval import category_of
from graph.nodes import RETRIEVAL_TOOLS, Node
from graph.offline import asked_tool
from graph.retrieval.index import DocumentIndex
from graph.retrieval.loop import search_all
from graph.retrieval.parts import question_parts
from graph.routing import rule_route
from graph.safeguard import mask, unmask
from graph.state import ChatState
from graph.structured import ask_structured
from graph.text import is_greeting
from graph.turns import extract_current_turn, user_text
from prompt import get_prompt

MAX_STEPS = 3
"""Most steps a plan runs: a longer plan is cut, and the rest is named in the answer."""

Agent = Literal["documents", "contract", "web", "code", "data", "general"]
Category = Literal["general", "contract", "payment", "sensitive"]
APPROVAL_CATEGORIES = frozenset({"contract", "payment", "sensitive"})
"""Categories of a step that pause for the user's approval before it runs."""

AGENT_TOOLS: dict[Agent, frozenset[str] | None] = {
    "documents": RETRIEVAL_TOOLS,
    "contract": RETRIEVAL_TOOLS,
    "web": frozenset({"web_search", "search_wikipedia", "get_weather"}),
    "code": frozenset({"python_repl"}),
    "data": frozenset({"calculator", "read_file", "get_current_datetime"}),
    "general": None,  # every tool: the single agent
}
"""The tools each specialist's model is bound to (None: all of them)."""
ACTING_AGENTS = frozenset({"web", "code", "general"})
"""Agents whose tools send text out or run code: a step of theirs can carry out an act."""
READS_DOCUMENTS = frozenset({"documents", "contract"})
"""Agents whose step starts with the retrieval loop and is answered from its passages."""
TOOL_AGENTS: dict[str, Agent] = {
    tool: agent
    for agent, names in AGENT_TOOLS.items()
    if names is not None and agent not in READS_DOCUMENTS
    for tool in names
}
"""The agent a request for a tool goes to (the documents' searches are the loop's)."""

CONTRACT = re.compile(r"계약서|조항|약관|\bcontracts?\b|\bclauses?\b|terms and conditions", re.I)
"""A question about a contract or its clauses: the contract agent, always approved first."""


class PlannedStep(BaseModel):
    """One step of the plan."""

    agent: Agent = Field(description="the specialist agent that answers this step")
    question: str = Field(description="what this step answers, as a question of its own")
    category: Category = Field(
        default="general", description="contract, payment, sensitive or general"
    )


class PlanDecision(BaseModel):
    """The intent and the plan, as a model fills them in (one structured call)."""

    goal: str = Field(description="what the user wants, in one sentence")
    parts: list[str] = Field(description="the things the message asks, one for a plain question")
    category: Category = Field(description="contract, payment, sensitive or general")
    steps: list[PlannedStep] = Field(description="the steps, in order")


def rule_plan(question: str, index: DocumentIndex | None, loop: bool = True) -> PlanDecision:
    """The offline rule's intent and plan (see the module's docstring)."""
    parts = [question]
    if index is not None and not is_greeting(question):
        parts = question_parts(index, question, search_all(index, question))[0]
    steps = [PlannedStep(agent=_agent(part, index, loop), question=part) for part in parts]
    return PlanDecision(goal=question, parts=parts, category="general", steps=steps)


def _agent(part: str, index: DocumentIndex | None, loop: bool) -> Agent:
    if CONTRACT.search(part):
        return "contract"
    tool = asked_tool(part)
    if tool is not None:
        return TOOL_AGENTS[tool]
    if index is not None and not is_greeting(part) and rule_route(part, index, loop).route == "rag":
        return "documents"
    return "general"


def step_category(step: PlannedStep, message: str = "") -> str:
    """A step's approval category (contract, payment, sensitive or general).

    Contract for the contract agent or a question naming a contract; else what
    `graph.approval.category_of` finds in its question (a payment, a piece of personal
    data); else what it finds in the user's `message` (a model's plan may word a step
    without the act it stands for; given for a model's plan only, as a rule's steps are
    the message's own parts); else the plan's own.
    """
    if step.agent == "contract" or CONTRACT.search(step.question):
        return "contract"
    found = category_of(None, {"question": step.question}, step.question)
    if found is None and message:
        found = category_of(None, {"question": message}, message)
    return found.value if found is not None else step.category


def bounded(plan: PlanDecision, question: str, by_model: bool = False) -> dict[str, Any]:
    """The plan as the state keeps it: at most MAX_STEPS steps, each with its category.

    A plan with no step gets one general step; a step with no question asks the message.
    Each step's category is `step_category`'s (a model's steps are also checked against
    the message, `by_model`). A model's plan whose own category is contract, payment or
    sensitive gives it to each general step of an agent that acts (`ACTING_AGENTS`): the
    model can ask where the rules found nothing, and neither waives the other.
    """
    steps = [
        {
            "agent": step.agent,
            "question": step.question.strip() or question,
            "category": step_category(step, question if by_model else ""),
        }
        for step in plan.steps or [PlannedStep(agent="general", question=question)]
    ]
    if by_model and plan.category in APPROVAL_CATEGORIES:
        # the model found the message asking for an act: the steps that could carry it out
        # ask in its category, where neither the rules nor the model's steps said more
        for s in steps:
            if s["category"] == "general" and s["agent"] in ACTING_AGENTS:
                s["category"] = plan.category
    categories = [s["category"] for s in steps if s["category"] != "general"]
    return {
        "goal": plan.goal.strip() or question,
        "parts": [p for p in plan.parts if p.strip()] or [question],
        "category": categories[0] if categories else plan.category,
        "steps": steps[:MAX_STEPS],
        "left_out": max(0, len(steps) - MAX_STEPS),
    }


def _unmasked(plan: PlanDecision | None, hidden: dict[str, str]) -> PlanDecision | None:
    """A model's plan with the personal data it saw as placeholders put back.

    So each step's agent gets the real values, and `step_category` sees them.
    """
    if plan is None or not hidden:
        return plan
    steps = [s.model_copy(update={"question": unmask(s.question, hidden)}) for s in plan.steps]
    return plan.model_copy(
        update={
            "goal": unmask(plan.goal, hidden),
            "parts": [unmask(p, hidden) for p in plan.parts],
            "steps": steps,
        }
    )


def make_plan_node(
    index: DocumentIndex | None, model: BaseChatModel | None = None, loop: bool = True
) -> Node:
    """plan_node: the turn's intent and plan; resets the steps and passages of the turn.

    With a model, one structured decision ("plan" in `decisions`); a plain greeting is
    planned by the rule with no call (seed 002's fast path).
    """

    def plan_node(state: ChatState) -> dict[str, Any]:
        question = user_text(extract_current_turn(state["messages"]))
        update: dict[str, Any] = {}
        decided: PlanDecision | None = None
        how = "rule"
        if model is not None and not is_greeting(question):
            hidden: dict[str, str] = {}  # the model plans with personal data masked
            answer = ask_structured(
                model,
                PlanDecision,
                [
                    SystemMessage(get_prompt("supervisor.plan", limit=MAX_STEPS)),
                    HumanMessage(mask(question, hidden)),
                ],
                decision="plan",
            )
            update["decisions"] = [answer.record(int(state.get("turn_count", 0)))]
            decided, how = _unmasked(answer.value, hidden), answer.how
        if decided is not None:
            plan = {**bounded(decided, question, by_model=True), "how": how}
        else:
            plan = {**bounded(rule_plan(question, index, loop), question), "how": how}
        agents = ", ".join(step["agent"] for step in plan["steps"])
        return {
            **update,
            "plan": plan,
            "steps": [],
            "retrieved": [],
            "retrieval": {},
            "route": "supervisor",
            "route_reason": f"plan ({how}): {agents}",
        }

    return plan_node
