"""Reading WebSocket frames: a frame the socket cannot use is answered, not fatal.

A binary frame, text that is not JSON, or JSON that `strict_json` refuses gets an error
frame `{"type": "error", "code", "message"}` and the socket stays open for the next one.
"""

from __future__ import annotations

from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from service.errors import Refusal, strict_json


async def send_error(websocket: WebSocket, code: str, message: str) -> None:
    """An error frame."""
    await websocket.send_json({"type": "error", "code": code, "message": message})


async def receive_object(websocket: WebSocket) -> Any:
    """The next frame that is JSON text, parsed; each other frame is answered with an error.

    Raises:
        WebSocketDisconnect: the client went away.
    """
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
        text = message.get("text")
        if text is None:
            await send_error(
                websocket, "INVALID_FRAME", "Binary frames are not read; send JSON as text."
            )
            continue
        try:
            return strict_json(text)
        except Refusal as exc:
            await send_error(websocket, exc.code, exc.message)


async def refuse(websocket: WebSocket, exc: Refusal) -> None:
    """An error frame, then close.

    The close code is 1008 (policy) for a request the client got wrong, 1011 for a failure
    of the server.
    """
    await send_error(websocket, exc.code, exc.message)
    await websocket.close(code=1008 if exc.status < 500 else 1011, reason=exc.code)
