"""A turn's messages as the archive stores them: compact dicts, packed JSON (a leaf).

The archive writes turns with `pack_turn`; the recall index and the schema upgrades read
them with `unpack_turn`, from here, so neither imports the archive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from graph.storage.packing import pack_json, unpack_json
from graph.times import TIME_KEY


def pack_message(msg: BaseMessage) -> dict[str, Any]:
    """A compact plain-dict form of a message: type, content and only the fields in use.

    LangChain's `messages_to_dict` spends ~400 bytes of empty fields on every message; this
    keeps the archive about as large as the text it holds.
    """
    packed: dict[str, Any] = {"t": msg.type, "c": msg.content}
    if isinstance(msg, HumanMessage) and msg.additional_kwargs.get(TIME_KEY):
        packed["ts"] = msg.additional_kwargs[TIME_KEY]
    if isinstance(msg, AIMessage):
        if msg.tool_calls:
            packed["tc"] = [
                {"name": c["name"], "args": c["args"], "id": c["id"]} for c in msg.tool_calls
            ]
        if msg.response_metadata.get("error_code"):
            packed["ec"] = msg.response_metadata["error_code"]
    if isinstance(msg, ToolMessage):
        packed.update(n=msg.name, tid=msg.tool_call_id, s=msg.status)
        if msg.artifact:
            packed["a"] = msg.artifact
    return packed


def unpack_message(packed: dict[str, Any]) -> BaseMessage:
    """Rebuild a message packed by `pack_message`."""
    kind, content, msg_id = packed["t"], packed["c"], None
    if kind == "human":
        sent = {TIME_KEY: packed["ts"]} if "ts" in packed else {}
        return HumanMessage(content=content, id=msg_id, additional_kwargs=sent)
    if kind == "tool":
        return ToolMessage(
            content=content,
            id=msg_id,
            name=packed.get("n"),
            tool_call_id=packed.get("tid", ""),
            status=packed.get("s", "success"),
            artifact=packed.get("a"),
        )
    if kind == "system":
        return SystemMessage(content=content, id=msg_id)
    meta = {"error_code": packed["ec"]} if "ec" in packed else {}
    return AIMessage(
        content=content, id=msg_id, tool_calls=packed.get("tc", []), response_metadata=meta
    )


def pack_turn(messages: Sequence[BaseMessage]) -> bytes:
    """A turn as stored: its packed messages through `pack_json`."""
    return pack_json([pack_message(m) for m in messages])


def unpack_turn(stored: str | bytes | memoryview) -> list[BaseMessage]:
    """Rebuild a turn stored by `pack_turn` (or as plain JSON by earlier versions)."""
    return [unpack_message(m) for m in unpack_json(stored)]
