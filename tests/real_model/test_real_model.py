"""Issue 33: six turns of the product on a real local model, as a user would notice them.

SmolLM2-135M-Instruct, served by llama-cpp-python's OpenAI-compatible server
(`bench/real_model_server.py`), answers the first six turns of
`bench/data/real_model_conversation.json` through the same code as `bench/real_model.py`:
the application API (`open_app`, `run_request`), a new SQLite database, the product's
default settings but for one: RETRIEVAL_MODE=keyword. Embedding the handbook's sections
with this model takes minutes on a 2-core machine (the bench measures it); it would be the
index's cost, not the conversation's.

Skipped where the server or the model is not in the cache (install them with
`python bench/real_model_server.py --install`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench import real_model as bench
from bench import real_model_server as rms

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(900)]

TURNS = 6


@pytest.fixture(scope="module")
def result() -> bench.BenchResult:
    if rms.ensure_installed("smollm2") is None:
        pytest.skip(
            f"llama-cpp-python's server or SmolLM2 is not installed under {rms.cache_dir()} "
            "(python bench/real_model_server.py --install)"
        )
    run = bench.run_bench(
        "real", model="smollm2", turns=TURNS, extra_settings={"RETRIEVAL_MODE": "keyword"}
    )
    print(bench.format_table(run))  # shown with -s, and with the report of a failure
    return run


def test_every_turn_is_answered_and_stored(result: bench.BenchResult) -> None:
    assert [t.turn for t in result.turns] == list(range(1, TURNS + 1))
    for turn in result.turns:
        assert turn.refused is None, (turn.turn, turn.refused)
        assert turn.error_code != "STORAGE_ERROR", turn.turn
        assert turn.answer.strip(), f"turn {turn.turn} has an empty answer"
    assert result.turn_count == TURNS


def test_the_first_summary_is_stored_and_is_not_prompt_text(result: bench.BenchResult) -> None:
    assert result.summaries, "no summary was stored at turn 4"
    first = result.summaries[0]
    assert first["turns"] == [1, 2, 3]
    text = str(first["summary"]).strip()
    assert text, "the summary of turns 1-3 is empty"
    users = [t.user for t in result.turns]
    assert not bench.copies_prompt(text, users), text
    assert next(t for t in result.turns if t.turn == 4).summarized


def test_the_server_is_gone_afterwards(result: bench.BenchResult) -> None:
    assert result.server_pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(result.server_pid, 0)
    assert not Path(f"/proc/{result.server_pid}").exists()


@pytest.fixture(scope="module")
def qwen(tmp_path_factory: pytest.TempPathFactory):
    gguf = rms.ensure_installed("qwen0.5b")
    if gguf is None:
        pytest.skip(
            f"llama-cpp-python's server or Qwen2.5-Coder-0.5B is not installed under "
            f"{rms.cache_dir()} (python bench/real_model_server.py --install --model qwen0.5b)"
        )
    with rms.start_server(gguf, n_ctx=8192) as server:
        yield server


def test_qwen_writes_its_tool_call_as_text_and_the_calculator_runs(
    qwen: rms.RunningServer, tmp_path: Path
) -> None:
    """Issue 42: the model writes `{"name": "calculator", ...}` as text; it is a call."""
    from graph.session import TurnEvents, new_thread, open_app
    from graph.session.runner import TurnRequest, run_request
    from graph.settings import load_settings

    env = bench.settings_env(
        {
            "CHAT_PROVIDER": "openai",
            "OPENAI_BASE_URL": qwen.base_url,
            "CHAT_MODEL": qwen.model_id,
            "SUMMARY_MODEL": qwen.model_id,
            "LLM_TEMPERATURE": "0",
            "LLM_SEED": "42",
        },
        tmp_path,
    )
    app = open_app(load_settings(env))
    events: list[dict] = []
    try:
        thread = new_thread(app)
        outcome = run_request(
            app, TurnRequest(thread, message="calc 3*5 please"), TurnEvents(thread, events.append)
        )
    finally:
        app.persistence.close()
    ran = [
        e["metadata"]
        for e in events
        if e["type"] == "metadata" and e["metadata"].get("kind") == "tool_result"
    ]
    assert [r["tool"] for r in ran] == ["calculator"], outcome.answer
    assert outcome.error_code is None
    assert "15" in outcome.answer
    assert not bench.bench_markup(outcome.answer), outcome.answer
