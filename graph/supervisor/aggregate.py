"""The "more steps?" decision and the aggregator (seed 004).

After each step the supervisor goes on with the plan's next step while there is one and
fewer than MAX_STEPS have run; then the aggregator composes the turn's one answer: each
step's answer under its question (a single step's answer as it is), each with the sources
it does not name itself (passages as `file > heading`, tools by name). It makes no model
call: the steps' agents wrote the answers. A step that failed gives the answer its error
code (Retry answers the turn again). A rejected step never gets here: it ends the task
(`graph.supervisor.specialists`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import AIMessage

from graph.context import message_chars
from graph.state import ChatState
from graph.supervisor.plan import MAX_STEPS
from graph.text import is_korean
from graph.turns import extract_current_turn, user_text

Next = Literal["step_node", "aggregate_node"]


def more_steps(state: Mapping[str, Any]) -> bool:
    """Whether another step runs: the plan has one left, and fewer than MAX_STEPS ran."""
    ran = len(state.get("steps") or [])
    return ran < min(len(state["plan"]["steps"]), MAX_STEPS)


def next_step(state: ChatState) -> Next:
    """The next step's router, or the aggregator when the plan is done."""
    return "step_node" if more_steps(state) else "aggregate_node"


def route_after_step(
    state: ChatState,
) -> Literal["llm_node", "step_node", "aggregate_node", "__end__"]:
    """After the router: the step's agent answers it; a rejected step ended the task."""
    if state["steps"][-1]["status"] == "rejected":
        return "__end__"
    return "llm_node" if state["steps"][-1]["status"] == "running" else next_step(state)


def route_after_agent(
    state: ChatState,
) -> Literal["tool_node", "step_node", "aggregate_node", "__end__"]:
    """After the agent: its tools, or the next step once the step is answered.

    An answer in the turn itself ends it: one the session layer wrote (a closed turn, an
    imported one), as after the single agent's llm_node.
    """
    last = state["messages"][-1]
    if isinstance(last, AIMessage):
        return "tool_node" if last.tool_calls else "__end__"
    return next_step(state)


def compose(plan: Mapping[str, Any], steps: Sequence[Mapping[str, Any]], korean: bool) -> str:
    """The turn's answer from its steps (see the module's docstring)."""
    blocks = []
    for step in steps:
        body = _body(step, korean)
        if len(steps) > 1:
            body = f"**{step['n']}. {step['question']}**\n\n{body}"
        blocks.append(body)
    left = int(plan.get("left_out") or 0)
    if left:
        blocks.append(
            f"(질문의 나머지 {left}개 부분은 단계 한도({MAX_STEPS})를 넘어 다루지 않았습니다.)"
            if korean
            else f"({left} more part(s) of the question went past the step limit "
            f"({MAX_STEPS}) and were not answered.)"
        )
    return "\n\n".join(blocks)


def _body(step: Mapping[str, Any], korean: bool) -> str:
    answer = str(step.get("answer", ""))
    unnamed = [s for s in step.get("sources") or [] if s not in answer]
    if unnamed:
        answer += f"\n\n{'출처' if korean else 'Sources'}: {'; '.join(unnamed)}"
    return answer


def aggregate_node(state: ChatState) -> dict[str, Any]:
    """aggregate_node: the turn's one answer; its size joins the transcript's.

    The runner reports it as one `token` event (it is composed at once, not streamed).
    """
    steps = state["steps"]
    current = extract_current_turn(state["messages"])
    question = user_text(current)
    failed = next((s for s in steps if s.get("error_code")), None)
    if failed is not None and len(steps) == 1:
        text = str(failed["answer"])  # the agent's apology, as the single agent gives it
    else:
        text = compose(state["plan"], steps, is_korean(question) or not question)
    answer = AIMessage(
        content=text,
        response_metadata={"error_code": failed["error_code"]} if failed is not None else {},
    )
    prior = state.get("transcript_chars", 0)
    return {
        "messages": [answer],
        "transcript_chars": prior + sum(message_chars(m) for m in [*current, answer]),
    }
