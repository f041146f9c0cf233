"""Fake chat models for graph tests, after langgraph's tests/fake_chat.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool


class ScriptedModel(GenericFakeChatModel):
    """Replies from a script (messages, or exceptions to raise) and records every context."""

    script: list[Any] = []
    calls: list[list[BaseMessage]] = []
    default: str = "ok"

    def __init__(self, script: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(messages=iter(()), disable_streaming=True, **kwargs)
        self.script = list(script)
        self.calls = []

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:  # type: ignore[override]
        return self

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        self.calls.append(list(messages))
        item = self.script.pop(0) if self.script else AIMessage(content=self.default)
        if isinstance(item, Callable) and not isinstance(item, AIMessage):  # type: ignore[arg-type]
            item = item(messages)
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, str):
            item = AIMessage(content=item)
        return item

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._next(messages))])


def tool_call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


def tool_calls(*calls: tuple[str, dict[str, Any]]) -> AIMessage:
    """One model step asking for several calls, named `call_0`, `call_1`, ... in order."""
    return AIMessage(
        content="",
        tool_calls=[{"name": n, "args": a, "id": f"call_{i}"} for i, (n, a) in enumerate(calls)],
    )


class SlowStreamingModel(GenericFakeChatModel):
    """Streams each reply word by word with a pause between words (a slow model server)."""

    pause_s: float = 0.05

    def __init__(self, replies: Sequence[str], pause_s: float = 0.05, **kwargs: Any) -> None:
        super().__init__(messages=iter([AIMessage(content=r) for r in replies]), **kwargs)
        self.pause_s = pause_s

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> SlowStreamingModel:  # type: ignore[override]
        return self

    def _stream(self, *args: Any, **kwargs: Any) -> Any:
        import time

        for chunk in super()._stream(*args, **kwargs):
            time.sleep(self.pause_s)
            yield chunk


@tool
def delete_everything(path: str) -> str:
    """Delete a path."""
    return f"deleted {path}"


def approving_app(settings: Any, call_id: str, answer: str) -> Any:
    """An app whose model asks to run `delete_everything` (which waits for approval), then
    answers `answer`; no document index."""
    from graph.session import open_app

    model = ScriptedModel([tool_call("delete_everything", {"path": "/tmp/a"}, call_id), answer])
    return open_app(
        settings,
        model=model,
        tools=[delete_everything],
        approval_required=frozenset({"delete_everything"}),
        index=None,
    )
