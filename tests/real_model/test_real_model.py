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
