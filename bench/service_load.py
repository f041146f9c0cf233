"""Issue 13 benchmark: the service under load, against direct calls of the same turn runner.

    uv run python bench/service_load.py [--conversations 20 100] [--turns 5] [--repeats 2]

For each concurrency (20 and 100 conversations of 5 turns, offline engine) it runs, in
interleaved repeats within one run:
- `direct`: the turn runner (`run_request`) called in this process, one thread per
  conversation;
- `embedded`: `python -m service` (SQLite, in-process jobs) through POST /chat/jobs and the
  SSE stream;
- `redis`: the same API with REDIS_URL, a real redis-server and 2 `service.worker` processes.

A warm-up round of each mode comes first and is not counted. It prints turns/s, p50/p95
time to first token (the first non-empty token that the stored
answer starts with) and to `done`, errors, and lost turns (turns missing or unanswered in
the database afterwards), then the embedded/direct ratio of p95 time to first token.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graph.session import (  # noqa: E402
    TurnEvents,
    TurnRequest,
    load_thread,
    new_thread,
    open_app,
    run_request,
)
from graph.settings import load_settings  # noqa: E402
from tests.ports import free_port  # noqa: E402  (bind(0) twice can give one port twice)

NAMES = ["민지", "Alex", "서준", "Priya", "하은", "Tom", "지우", "Mina"]


def messages(i: int) -> list[str]:
    """Five turns of an ordinary conversation: intro, arithmetic, handbook, memory, notes."""
    name = NAMES[i % len(NAMES)]
    return [
        f"안녕하세요, 저는 {name}이고 커피를 좋아해요. 대화 {i}번이에요.",
        f"What is {10 + i % 30}% of {1200 + 10 * i}?",
        "재택근무는 일주일에 며칠까지 가능해?",
        "내 이름이 뭐였지?",
        f"회의 메모: 예산은 {300 + i}만원, 마감은 금요일, 발표는 {name}.",
    ]


@dataclass
class Turn:
    thread: str
    number: int
    start: float
    first: float | None = None
    first_text: str = ""
    done: float | None = None
    error: str = ""

    def see(self, event: dict[str, Any]) -> None:
        """Note the times of the first token and of `done`, and any error."""
        now = time.perf_counter()
        if event["type"] == "token" and event["content"] and self.first is None:
            self.first, self.first_text = now, event["content"]
        elif event["type"] == "error":
            self.error = event["error_code"]
        elif event["type"] == "done":
            self.done = now


@dataclass
class Result:
    mode: str
    conversations: int
    turns: list[Turn] = field(default_factory=list)
    wall_s: float = 0.0
    lost: int = 0
    not_prefix: int = 0


def _p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


# ---- direct calls of the runner


def run_direct(app: Any, n: int, turns: int, offset: int) -> Result:
    """`n` conversations in threads of this process, on `app` (opened once, like a server)."""
    result = Result("direct", n)
    start_all = time.perf_counter()

    def conversation(i: int) -> None:
        thread = new_thread(app)
        for k, text in enumerate(messages(offset + i)[:turns], 1):
            turn = Turn(thread, k, time.perf_counter())
            run_request(app, TurnRequest(thread, message=text), TurnEvents(thread, turn.see))
            result.turns.append(turn)

    threads = [threading.Thread(target=conversation, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    result.wall_s = time.perf_counter() - start_all
    _check_saved(app, result, turns)
    return result


# ---- through the API


async def _api_conversation(
    client: httpx.AsyncClient, i: int, turns: int, offset: int, result: Result
) -> None:
    thread: str | None = None
    for k, text in enumerate(messages(offset + i)[:turns], 1):
        turn = Turn("", k, time.perf_counter())
        try:
            body: dict[str, Any] = {"message": text}
            if thread:
                body["thread_id"] = thread
            created = await client.post("/chat/jobs", json=body)
            created.raise_for_status()
            job = created.json()
            thread = turn.thread = job["thread_id"]
            async with client.stream("GET", f"/chat/stream/{job['job_id']}") as response:
                async for line in response.aiter_lines():
                    if not line.startswith("data: "):
                        continue
                    event = json.loads(line[6:])
                    turn.see(event)
                    if event["type"] == "done":
                        break
        except Exception as exc:  # noqa: BLE001 - counted as an error
            turn.error = f"{type(exc).__name__}: {exc}"[:200]
        result.turns.append(turn)


async def _api_run(url: str, mode: str, n: int, turns: int, offset: int) -> Result:
    result = Result(mode, n)
    limits = httpx.Limits(max_connections=n * 2 + 10, max_keepalive_connections=n * 2 + 10)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as client:
        start = time.perf_counter()
        await asyncio.gather(
            *(_api_conversation(client, i, turns, offset, result) for i in range(n))
        )
        result.wall_s = time.perf_counter() - start
    return result


def run_api(url: str, db: Path, mode: str, n: int, turns: int, offset: int) -> Result:
    result = asyncio.run(_api_run(url, mode, n, turns, offset))
    app = open_app(_chat_settings(db), index=None)
    _check_saved(app, result, turns)
    return result


def _check_saved(app: Any, result: Result, turns: int) -> None:
    """Lost turns (missing or unanswered in the database), and first tokens not a prefix."""
    by_thread: dict[str, list[Turn]] = {}
    for turn in result.turns:
        by_thread.setdefault(turn.thread, []).append(turn)
    expected = result.conversations * turns
    kept = 0
    for thread, seen in by_thread.items():
        if not thread:
            continue
        view = load_thread(app, thread)
        answers = {
            n: str(msgs[-1].content)
            for n, msgs in view.turns
            if len(msgs) > 1 and not msgs[-1].response_metadata.get("error_code")
        }
        kept += len(answers)
        for turn in seen:
            stored = answers.get(turn.number, "")
            if turn.first is not None and not stored.startswith(turn.first_text):
                result.not_prefix += 1
    result.lost = expected - kept


# ---- processes


def _chat_settings(db: Path) -> Any:
    return load_settings(
        {"CHAT_DB_PATH": str(db), "CHAT_PROVIDER": "offline", "INDEX_DIR": str(db.parent / "ix")}
    )


def _env(db: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CHAT_"))}
    env.update(
        {
            "CHAT_DB_PATH": str(db),
            "CHAT_PROVIDER": "offline",
            "INDEX_DIR": str(db.parent / "ix"),
            "PYTHONPATH": str(ROOT),
            "MAX_OPEN_STREAMS": "1000",
        }
    )
    env.update(extra)
    return env


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT
    )


def _wait_http(url: str) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not start")


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--conversations", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--workers", default="auto", help="SERVICE_WORKERS of the API and of each worker"
    )
    parser.add_argument("--no-redis", action="store_true")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="service_load_"))
    procs: list[subprocess.Popen[bytes]] = []
    results: list[Result] = []
    try:
        db_direct, db_embedded, db_redis = (tmp / m / "chat.sqlite" for m in ("d", "e", "r"))
        for db in (db_direct, db_embedded, db_redis):
            db.parent.mkdir()
        port = free_port()
        embedded_url = f"http://127.0.0.1:{port}"
        procs.append(
            _start(
                [sys.executable, "-m", "service"],
                _env(db_embedded, PORT=str(port), SERVICE_WORKERS=args.workers),
                tmp / "embedded.log",
            )
        )
        modes = ["direct", "embedded"]
        redis_url = redis_api = ""
        if not args.no_redis and shutil.which("redis-server"):
            rport = free_port()
            procs.append(
                _start(
                    ["redis-server", "--port", str(rport), "--bind", "127.0.0.1", "--save", ""],
                    dict(os.environ),
                    tmp / "redis.log",
                )
            )
            redis_url = f"redis://127.0.0.1:{rport}/0"
            aport = free_port()
            renv = _env(
                db_redis,
                PORT=str(aport),
                REDIS_URL=redis_url,
                SERVICE_WORKERS=args.workers,
            )
            procs.append(_start([sys.executable, "-m", "service"], renv, tmp / "api-redis.log"))
            for w in range(2):
                procs.append(
                    _start([sys.executable, "-m", "service.worker"], renv, tmp / f"w{w}.log")
                )
            modes.append("redis")
            redis_api = f"http://127.0.0.1:{aport}"
            _wait_http(redis_api)
        _wait_http(embedded_url)
        time.sleep(3)  # workers finish loading
        direct_app = open_app(_chat_settings(db_direct))
        offset = 0
        # warm-up, not counted: each process loads Kiwi, the index and the code paths once
        for mode in modes:
            if mode == "direct":
                run_direct(direct_app, 4, 2, offset)
            else:
                url = embedded_url if mode == "embedded" else redis_api
                db = db_embedded if mode == "embedded" else db_redis
                run_api(url, db, mode, 4, 2, offset)
            offset += 4
        for repeat in range(args.repeats):
            for n in args.conversations:
                for mode in modes:
                    if mode == "direct":
                        result = run_direct(direct_app, n, args.turns, offset)
                    elif mode == "embedded":
                        result = run_api(embedded_url, db_embedded, mode, n, args.turns, offset)
                    else:
                        result = run_api(redis_api, db_redis, mode, n, args.turns, offset)
                    offset += n
                    results.append(result)
                    print(f"repeat {repeat + 1} {mode:8} n={n:3}: {_line(result)}", flush=True)
    finally:
        _stop(procs)
    print()
    print(
        "| mode | conversations | turns | turns/s | TTFT p50 ms | TTFT p95 ms | done p50 ms "
        "| done p95 ms | errors | lost turns | first token not a prefix |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    table: dict[tuple[str, int], dict[str, float]] = {}
    for n in args.conversations:
        for mode in ("direct", "embedded", "redis"):
            runs = [r for r in results if r.mode == mode and r.conversations == n]
            if not runs:
                continue
            turns = [t for r in runs for t in r.turns]
            ttft = [1000 * (t.first - t.start) for t in turns if t.first is not None]
            done = [1000 * (t.done - t.start) for t in turns if t.done is not None]
            errors = sum(1 for t in turns if t.error)
            lost = sum(r.lost for r in runs)
            rate = len(turns) / sum(r.wall_s for r in runs)
            table[(mode, n)] = {"p95": _p(ttft, 0.95)}
            print(
                f"| {mode} | {n} | {len(turns)} | {rate:.1f} | {_p(ttft, 0.5):.0f} | "
                f"{_p(ttft, 0.95):.0f} | {_p(done, 0.5):.0f} | {_p(done, 0.95):.0f} | {errors} "
                f"| {lost} | {sum(r.not_prefix for r in runs)} |"
            )
    print()
    for n in args.conversations:
        if ("embedded", n) in table and ("direct", n) in table:
            ratio = table[("embedded", n)]["p95"] / table[("direct", n)]["p95"]
            print(
                f"p95 time to first token, embedded API / direct at {n} conversations: {ratio:.2f}x"
            )
        if ("redis", n) in table and ("direct", n) in table:
            ratio = table[("redis", n)]["p95"] / table[("direct", n)]["p95"]
            print(
                f"p95 time to first token, Redis + 2 workers / direct at {n} conversations: {ratio:.2f}x"
            )
    shutil.rmtree(tmp, ignore_errors=True)


def _line(result: Result) -> str:
    ttft = [1000 * (t.first - t.start) for t in result.turns if t.first is not None]
    errors = [t.error for t in result.turns if t.error]
    return (
        f"{len(result.turns) / result.wall_s:.1f} turns/s, TTFT p95 {_p(ttft, 0.95):.0f} ms, "
        f"errors {len(errors)}{' ' + errors[0] if errors else ''}, lost {result.lost}"
    )


if __name__ == "__main__":
    main()
