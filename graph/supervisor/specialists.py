"""The router over the specialist agents (seed 004), and the agents themselves.

`step_node` is the router: it takes the plan's next step, asks the user's approval first
when the step's category needs it (a contract step always), and, for the documents and
contract agents, runs seed 003's retrieval loop on the step's question (the rag node's
own code). The agent that then answers the step is the single agent's `llm_node`, bound
to the specialist's tools (`AGENT_TOOLS`) and shown the turn with the step's question in
place of the message (`step_view`); its tool calls go through the same `tool_node` (so
python_repl still waits for approval, and every call runs once). A step's answer is not
the turn's answer: it is kept in `steps`, and the aggregator composes the turn's answer.

The approval request has the shape of a tool's (`graph.nodes.tools`): kind, category,
tool (the agent), args ({"question": ...}, which an edit may change) and an id, so the
app's and the service's approval flow answers it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.types import interrupt

from graph.approval import category_of, read_answer
from graph.errors import ErrorCode, error_record
from graph.nodes import Node
from graph.nodes.fallback import fallback_message, korean_user
from graph.retrieval.index import DocumentIndex
from graph.retrieval.tokenize import tokens
from graph.routing import make_rag_node
from graph.state import ChatState
from graph.summarizer import sentences
from graph.supervisor.plan import ACTING_AGENTS, APPROVAL_CATEGORIES, READS_DOCUMENTS
from graph.text import is_korean, speaks_korean
from graph.turns import content_text, extract_current_turn, user_text


def step_view(state: Mapping[str, Any], step: Mapping[str, Any]) -> dict[str, Any]:
    """The state as the step's agent sees it: the step's question in place of the message.

    Earlier turns and the memory stay; of the current turn, only this step's own tool
    calls and results follow the question. The passages are the step's own.
    """
    messages = list(state["messages"])
    current = extract_current_turn(messages)
    earlier = messages[: len(messages) - len(current)]
    asked = next(m for m in current if isinstance(m, HumanMessage))
    question = asked.model_copy(update={"content": step["question"]})
    return {
        **state,
        "messages": [*earlier, question, *current[int(step["since"]) :]],
        "retrieved": list(step.get("passages") or []),
        "retrieval": dict(step.get("retrieval") or {}),
        "route": "rag" if step["agent"] in READS_DOCUMENTS else "agent",
        "continuing": "",
    }


def make_step_node(
    index: DocumentIndex | None, judge: BaseChatModel | None = None, loop: bool = True
) -> Node:
    """step_node: route the plan's next step to its agent, after the approval it needs.

    A step asks in its planned category, or, for an agent that acts, in the act the
    safeguard's model found the message asking for (`safeguard.action`).

    The answer is read by `graph.approval.read_answer`: approve runs the step; edit runs
    it with the edited question; a free-text response is the step's answer and the step
    does not run (as for a tool call: "no, don't" in words never runs it); reject ends
    the task, the turn closed as APPROVAL_REJECTED (seed 004).
    """
    rag = make_rag_node(index, judge, loop) if index is not None else None

    def step_node(state: ChatState) -> dict[str, Any]:
        done = list(state.get("steps") or [])
        planned = dict(state["plan"]["steps"][len(done)])
        number = len(done) + 1
        step: dict[str, Any] = {
            **planned,
            "n": number,
            "status": "running",
            "since": len(extract_current_turn(state["messages"])),
        }
        action = (state.get("safeguard") or {}).get("action")
        if (
            planned["category"] not in APPROVAL_CATEGORIES
            and action in APPROVAL_CATEGORIES
            and planned["agent"] in ACTING_AGENTS
        ):  # the safeguard's model found the message asking for an act: it asks too
            planned["category"] = action
        if planned["category"] in APPROVAL_CATEGORIES:
            request = {
                "kind": "approval",
                "category": planned["category"],
                "tool": f"{planned['agent']}_agent",
                "args": {"question": planned["question"]},
                "tool_call_id": f"step_{state.get('turn_count', 0)}_{number}",
            }
            asked = planned["question"]
            if (
                planned["category"] == "contract"
                and category_of(None, {"question": asked}, asked) is None
            ):
                # a question about a contract, not an act on one: the box says so
                request["reason"] = "contract_question"
            answer = read_answer(interrupt(request))
            step["approval"] = answer.action
            if answer.action == "edit":
                edited = str((answer.args or {}).get("question") or "").strip()
                step["question"] = edited or step["question"]
            elif answer.action == "respond":  # the user's answer stands for the step, unrun
                answered = {**step, "status": "done", "answer": answer.response, "sources": []}
                return {"steps": [*done, answered]}
            elif answer.action != "approve":
                return _rejected(state, [*done, {**step, "status": "rejected", "sources": []}])
        update: dict[str, Any] = {"steps": [*done, step]}
        if step["agent"] in READS_DOCUMENTS and rag is not None:
            found = rag(step_view(state, step))
            if judge is None and _parts_of_the_message(state):
                found = _in_context(state, step, found, rag)
            step["passages"], step["retrieval"] = found["retrieved"], found["retrieval"]
            update["retrieved"] = [*(state.get("retrieved") or []), *found["retrieved"]]
            update["retrieval"] = found["retrieval"]
            if found.get("decisions"):
                update["decisions"] = found["decisions"]
            if found.get("untrusted"):
                update["untrusted"] = found["untrusted"]
        return update

    return step_node


def _parts_of_the_message(state: Mapping[str, Any]) -> bool:
    """Whether the rule planned the message's two parts (`question_parts`) as its steps."""
    plan = state.get("plan") or {}
    parts = plan.get("parts") or []
    return plan.get("how") == "rule" and len(parts) == 2 and len(plan.get("steps") or []) == 2


def _in_context(
    state: Mapping[str, Any], step: Mapping[str, Any], found: dict[str, Any], rag: Node
) -> dict[str, Any]:
    """A part's passages found within the whole message, as the single agent finds them.

    A part of a joined question may leave its topic to the other ("법인카드 사용 한도랑
    분실했을 때 절차"): searched alone it finds another document's loss rules. The loop
    over the whole message gives each part its passage (`Hit.answers`); that one leads.
    """
    whole = user_text(extract_current_turn(state["messages"]))
    within = rag(step_view(state, {**step, "question": whole}))
    mine = [p for p in within["retrieved"] if p.get("answers") == step["question"]]
    if not mine:
        return found
    ids = {p["chunk_id"] for p in mine}
    rest = [p for p in found["retrieved"] if p["chunk_id"] not in ids]
    return {**found, "retrieved": [*mine, *rest]}


def _rejected(state: ChatState, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A rejected step ends the task (seed 004): the turn closes as APPROVAL_REJECTED."""
    code = ErrorCode.APPROVAL_REJECTED
    message = user_text(extract_current_turn(state["messages"]))
    turn = int(state.get("turn_count", 0))
    return {
        "steps": steps,
        "messages": [fallback_message(code, speaks_korean(message))],
        "errors": [
            *state.get("errors", []),
            error_record(turn, "step_node", code, "the user rejected a step"),
        ],
    }


def make_agent_node(agents: Mapping[str, Node]) -> Node:
    """llm_node of the supervisor: the current step's specialist answers it.

    `agents` are the single agent's llm_node bound to each specialist's tools. A reply
    with tool calls joins the turn (tool_node runs them); the step's answer finishes the
    step in `steps`: its text, its sources, and the error code of an apology.
    """

    def llm_node(state: ChatState) -> dict[str, Any]:
        steps = list(state["steps"])
        step = steps[-1]
        update = agents[step["agent"]](step_view(state, step))
        if update.get("error_code"):  # the step's agent failed: the step's answer says so
            failure = ErrorCode(update["error_code"])
            reply = fallback_message(failure, korean_user(state["messages"]))
        else:
            reply = update["messages"][-1]
        kept: dict[str, Any] = {
            k: update[k] for k in ("last_context", "errors", "candidates") if k in update
        }
        if reply.tool_calls:
            return {**kept, "messages": [reply]}
        own = extract_current_turn(state["messages"])[int(step["since"]) :]
        tools = [m.name for m in own if isinstance(m, ToolMessage) and m.name]
        passages = [f"{p['source']} > {p['heading']}" for p in step.get("passages") or []]
        code = reply.response_metadata.get("error_code")
        answer = content_text(reply)
        if step["agent"] == "contract" and not code:
            answer += clause_answer(step["question"], step.get("passages") or [])
        steps[-1] = {
            **step,
            "status": "failed" if code else "done",
            "answer": answer,
            "sources": list(dict.fromkeys([*passages, *tools])),
            **({"error_code": code} if code else {}),
        }
        return {**kept, "steps": steps}

    return llm_node


def step_event(step: Mapping[str, Any]) -> dict[str, Any]:
    """A step as its `step` metadata event carries it (no passages' text)."""
    keys = ("n", "agent", "question", "category", "status", "approval", "sources", "error_code")
    return {k: step[k] for k in keys if k in step}


CLAUSES = 3
"""Clauses the contract agent's answer quotes at most."""


def clause_answer(question: str, passages: Sequence[Mapping[str, Any]]) -> str:
    """The contract agent's clause-level part of its answer ('' when no clause matches).

    Of each passage, the sentence (a list item, a line) sharing most words with the
    question, best first, quoted with the document and section it stands in.
    """
    wanted = set(tokens(question))
    found = []
    for rank, passage in enumerate(passages):
        scored = [(len(wanted & set(tokens(s))), s) for s in sentences(str(passage["text"]))]
        shared, clause = max(scored, key=lambda pair: pair[0], default=(0, ""))
        if shared:
            where = f"{passage['source']} > {passage['heading']}"
            found.append((-shared, rank, f"«{clause.lstrip('-* ')}» ({where})"))
    if not found:
        return ""
    head = "조항별 근거:" if is_korean(question) else "Clause by clause:"
    lines = [f"{i}. {line}" for i, (*_, line) in enumerate(sorted(found)[:CLAUSES], 1)]
    return "\n\n" + "\n".join([head, *lines])
