"""The chat as a headless service: seed 001's jobs and SSE stream, seed 004's REST and WebSocket.

- `api`: the FastAPI application (`create_app`), a thin adapter over `graph.session`.
- `jobs`: jobs and the in-process broker (the embedded default).
- `redis_broker`: the same broker in Redis, for worker processes (`REDIS_URL`).
- `worker`: running jobs with the one turn runner; `python -m service.worker`.
- `models`: request and response bodies; `settings`: HOST, PORT, API_TOKEN, REDIS_URL, ...

`uv run python -m service` serves it on 127.0.0.1:8000.
"""
