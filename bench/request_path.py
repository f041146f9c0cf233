"""A turn request's path through `graph/session`, as module hops (issue 46).

    uv run python bench/request_path.py [--turns 5] [--kind message|stop|retry|resume|all]

Runs each kind of request through `run_request` (the function behind `start_turn`, the
app and the service) on a thread that already has `--turns` turns, offline: a new message,
one the user stops at once, a retry of an unanswered turn and the decision on a pending
approval. A profiler hook follows each. Printed:

- the path: the session modules the request passes through, in order. `-> m.f` is a call
  into module `m` that goes on to call further session modules; `^ m` is control back up
  in `m`, which goes on (a return upward; the last return, handing the outcome back, is
  not shown);
- in brackets, a round trip: a call into another session module that calls no further
  session module (`[app.config_for]`), with what it called down, or a call down itself:
  into `graph.storage` (`storage.x`) or the compiled graph's state (`get_state`,
  `update_state`, `stream`), made from session code.

`events` (the event sink), `errors` (the storage-error guard) and the methods of the
turn's context and outcome (`TurnContext`, `TurnOutcome`: the values carried down and
handed back, wherever they are defined) are left out: they decide nothing. Calls within
one module are not hops. A generator resumed (a `with` block's end) counts as a call
again: the control goes back into it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graph.session import (  # noqa: E402
    TurnEvents,
    TurnRequest,
    new_thread,
    open_app,
    run_request,
    run_turn,
)
from graph.settings import load_settings  # noqa: E402

SESSION = "graph.session."
STORAGE = "graph.storage"
QUIET = ("graph.session.events", "graph.session.errors")
"""Session modules left out of the path (see the module's docstring)."""
VALUES = ("TurnContext", "TurnOutcome")
"""The values carried down and handed back: making or reading one is not a hop."""


def _value(frame: FrameType) -> bool:
    """Whether `frame` is a method of a value carried down (its `__init__` too)."""
    if frame.f_code.co_qualname.split(".")[0] in VALUES:
        return True
    owner = frame.f_locals.get("self") if frame.f_code.co_argcount else None
    return type(owner).__name__ in VALUES


Traced = tuple[list[str], dict[str, int]]
"""A request's path (the hops, in order) and its counts."""


GENERATOR = 0x20
"""`inspect.CO_GENERATOR`."""
STATE_CALLS = frozenset({"get_state", "update_state", "stream"})


@dataclass
class Call:
    """One cross-module call into a session module: what it reached below it."""

    module: str
    function: str
    below: list[Call | str] = field(default_factory=list)
    """Session calls (Call) and calls down (`storage.x`, `get_state`), in order."""

    def is_helper(self) -> bool:
        """A call that reached no further session module."""
        return not any(isinstance(b, Call) for b in self.below)


def short(module: str) -> str:
    """`graph.session.start` -> `start`."""
    return module.removeprefix(SESSION)


class Tracer:
    """A profiler hook that builds the tree of cross-module calls among session modules."""

    def __init__(self) -> None:
        self.root = Call("graph.session.runner", "run_request")
        self.stack: list[tuple[FrameType, str, Call | None]] = []
        """Each tracked frame open: its module and the Call it belongs to (None: below)."""
        self.generators: set[FrameType] = set()
        """Generator frames of storage and the graph seen (each counts once, not per resume)."""

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        """sys.setprofile's hook."""
        if event == "return":
            if self.stack and self.stack[-1][0] is frame:
                self.stack.pop()
            return
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        name = frame.f_code.co_name
        state = name in STATE_CALLS and module.startswith("langgraph.pregel")
        session = module.startswith(SESSION)
        if not (session or module.startswith(STORAGE) or state):
            return
        if not self.stack:
            if session:  # the request's entry
                self.stack.append((frame, module, self.root))
            return
        _, above, call = self.stack[-1]
        if call is None:  # inside storage, the graph or a quiet module: not the session's
            return
        if not session:
            resumed = frame in self.generators
            if frame.f_code.co_flags & GENERATOR:
                self.generators.add(frame)
            if not resumed:  # the graph's stream resumed for its next step: one call
                call.below.append(name if state else f"storage.{name}")
            self.stack.append((frame, module, None))
        elif module in QUIET or _value(frame):
            self.stack.append((frame, module, None))
        elif module == above:
            self.stack.append((frame, module, call))
        else:
            child = Call(module, name)
            call.below.append(child)
            self.stack.append((frame, module, child))


def render(call: Call, out: list[str], counts: dict[str, int]) -> None:
    """The path below `call`, in order, with helpers in brackets and returns marked."""
    here = short(call.module)
    went_down = False
    for item in call.below:
        if went_down:  # back from a module that went on below: a return upward
            counts["returns"] += 1
            out.append(f"^ {here}")
            went_down = False
        if isinstance(item, str):
            counts["down"] += 1
            out.append(f"[{item}]")
            continue
        counts["calls"] += 1
        if item.is_helper():
            counts["helpers"] += 1
            downs = [b for b in item.below if isinstance(b, str)]
            counts["down"] += len(downs)
            inner = f" {' '.join(downs)}" if downs else ""
            out.append(f"[{short(item.module)}.{item.function}{inner}]")
            continue
        out.append(f"-> {short(item.module)}.{item.function}")
        render(item, out, counts)
        went_down = True


def trace(run: Callable[[], Any]) -> Traced:
    """The path of `run()` and its counts."""
    tracer = Tracer()
    sys.setprofile(tracer.hook)
    try:
        run()
    finally:
        sys.setprofile(None)
    out: list[str] = []
    counts = {"calls": 0, "helpers": 0, "returns": 0, "down": 0}
    render(tracer.root, out, counts)
    return out, counts


KINDS = ("message", "stop", "retry", "resume")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=5, help="turns the thread has before")
    parser.add_argument("--kind", default="all", choices=[*KINDS, "all"])
    args = parser.parse_args()
    kinds = KINDS if args.kind == "all" else (args.kind,)
    with tempfile.TemporaryDirectory() as tmp:
        for kind, turn, traced in request_paths(Path(tmp), args.turns, kinds):
            show(kind, turn, traced)


def request_paths(
    tmp: Path, turns: int, kinds: tuple[str, ...] = KINDS
) -> list[tuple[str, int, Traced]]:
    """Each kind of request traced on a thread of `turns` turns: (kind, its turn, path)."""
    settings = load_settings({"CHAT_DB_PATH": str(tmp / "p.sqlite"), "CHAT_PROVIDER": "offline"})
    app = open_app(settings, tools=[], approval_required=frozenset(), index=None)
    out: list[tuple[str, int, Traced]] = []
    try:
        thread = new_thread(app)
        for n in range(1, turns + 1):
            run_turn(app, thread, f"{n}번째 질문입니다", turn_count=n, compression_rate=0.3)
        for kind in kinds:
            if kind == "resume":
                continue
            if kind == "retry":  # an unanswered last turn to answer again
                _unanswered(app, thread)
            turn = _turn(app, thread) + (kind != "retry")  # the turn the request is
            # stop: the user stops the turn at once (it is kept, unanswered)
            events = TurnEvents(thread, lambda _e: None, cancelled=lambda k=kind: k == "stop")
            request = TurnRequest(
                thread, kind="retry" if kind == "retry" else "message", message="다음 질문"
            )
            out.append((kind, turn, trace(lambda r=request, e=events: run_request(app, r, e))))
    finally:
        app.persistence.close()
    if "resume" in kinds:
        out.append(("resume", 1, _resume(tmp)))
    return out


def show(kind: str, turn: int, traced: Traced) -> None:
    """Print one request's path and its counts."""
    path, counts = traced
    print(f"{kind} request, turn {turn}:")
    print("  runner.run_request " + " ".join(path))
    print(
        f"  {counts['calls']} calls between session modules, {counts['helpers']} of them round "
        f"trips to a helper, {counts['returns']} returns upward, {counts['down']} calls down "
        "(storage and the graph's state)"
    )


def _resume(tmp: Path) -> Traced:
    """The decision on a pending approval (the model asks to run a tool that waits for it)."""
    from tests.fakes.chat import approving_app

    settings = load_settings({"CHAT_DB_PATH": str(tmp / "r.sqlite"), "CHAT_PROVIDER": "offline"})
    app = approving_app(settings, "call_1", "지웠습니다")
    try:
        thread = new_thread(app)
        events = TurnEvents(thread, lambda _e: None)
        run_request(app, TurnRequest(thread, message="/tmp/a를 지워줘"), events)
        request = TurnRequest(thread, kind="resume", action="approve", tool_call_id="call_1")
        return trace(lambda: run_request(app, request, events))
    finally:
        app.persistence.close()


def _turn(app: Any, thread: str) -> int:
    """The thread's turn count now."""
    from graph.session.app import thread_values

    return int(thread_values(app, thread).get("turn_count", 0))


def _unanswered(app: Any, thread: str) -> None:
    """Close the thread's next turn as unanswered (as a failed model call leaves it)."""
    from langchain_core.messages import HumanMessage

    from graph.errors import ErrorCode
    from graph.nodes.fallback import fallback_message
    from graph.session.app import thread_values

    turn = int(thread_values(app, thread)["turn_count"]) + 1
    config = {"configurable": {"thread_id": thread}}
    app.graph.update_state(
        config,
        {"messages": [HumanMessage("끊긴 질문")], "turn_count": turn},
        as_node="summary_node",
    )
    app.graph.update_state(
        config, {"messages": [fallback_message(ErrorCode.LLM_SERVER_ERROR)]}, as_node="llm_node"
    )


if __name__ == "__main__":
    main()
