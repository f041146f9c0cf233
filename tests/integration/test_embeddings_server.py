"""Documents embedded by an OpenAI-compatible server (issue 33), against a local fake.

Bounded batches with progress, a cache shared by processes and restarts, keyword search
while the vectors are built in the background, per-token embeddings refused with the
cause, and no retries of a request the server does not take.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from component.sidebar import index_mode_label
from graph.retrieval import DocumentIndex, open_index
from graph.settings import load_settings
from tests.fakes.embeddings_server import FakeEmbeddings

ROOT = Path(__file__).resolve().parents[2]
TOPICS = [
    ("parking", "Parking permits are issued by the facilities desk on the first floor."),
    ("lunch", "Lunch vouchers are handed out every Monday by the office manager."),
    ("laptop", "A broken laptop is replaced by the IT helpdesk within two days."),
    ("travel", "Travel bookings go through the travel agency portal two weeks ahead."),
    ("badge", "A lost badge is reported to security, who print a new one."),
]


def _docs(tmp_path: Path, per_file: int = 4) -> Path:
    """Five documents of `per_file` sections each (20 sections by default)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for topic, sentence in TOPICS:
        sections = "\n\n".join(
            f"## {topic.title()} rule {i}\n\n{sentence} Rule {i} of {topic} applies."
            for i in range(1, per_file + 1)
        )
        (folder / f"{topic}.md").write_text(f"# {topic.title()}\n\n{sections}\n", "utf-8")
    return folder


def _env(server: Any, tmp_path: Path, docs: Path, **extra: str) -> dict[str, str]:
    env = {
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": f"{server.url}/v1",
        "CHAT_MODEL": "fake-model",
        "EMBEDDING_MODEL": "fake-embed",
        "LLM_MAX_RETRIES": "0",
        "EMBEDDING_TIMEOUT_S": "10",
        "EMBEDDING_BATCH": "4",
        "EMBEDDING_WAIT_S": "0",
        "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
        "DOCS_DIR": str(docs),
        "INDEX_DIR": str(tmp_path / "index"),
    }
    env.update(extra)
    return env


def _open(server: Any, tmp_path: Path, docs: Path, **extra: str) -> DocumentIndex:
    return open_index(load_settings(_env(server, tmp_path, docs, **extra)))


def _built(index: DocumentIndex) -> dict[str, Any]:
    assert index.wait_vectors(60), "the vectors were not built in time"
    return index.status()


def _until(check: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_sections_go_in_bounded_batches_and_the_status_shows_progress(
    http_server, tmp_path: Path
) -> None:
    fake = FakeEmbeddings(http_server)
    fake.hold()  # each batch is answered when the test says so
    index = _open(http_server, tmp_path, ROOT / "data/docs", EMBEDDING_BATCH="16")
    status = index.status()
    total = status["chunks"]
    assert total == 154  # the shipped handbook
    assert status["building"] == {"done": 0, "total": total}
    assert status["mode"] == "keyword" and not status["degraded"]
    assert index_mode_label(status, "en") == (
        f"building vectors 0/{total}; keyword search meanwhile"
    )
    assert index_mode_label(status, "ko") == f"벡터 만드는 중 0/{total} · 그동안 키워드 검색"
    for batch in (1, 2, 3):
        fake.step()
        _until(lambda b=batch: index.status()["building"] == {"done": 16 * b, "total": total})
    fake.release()
    status = _built(index)
    assert status["mode"] == "hybrid" and status["building"] is None and not status["degraded"]
    assert index_mode_label(status, "en") == "hybrid (keyword + vectors)"
    assert fake.sizes == [16] * 9 + [10]  # 154 sections in 10 requests, none above 16
    assert len(set(fake.texts())) == total


def test_a_restart_embeds_only_the_batches_not_kept(http_server, tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server, fail_after=2)  # the server dies after two batches
    first = _open(http_server, tmp_path, docs)
    status = _built(first)
    assert status["mode"] == "keyword" and status["degraded"]
    assert any("embeddings failed" in p and "embeddings down" in p for p in status["problems"])
    assert fake.sizes == [4, 4, 4]  # two kept, the third failed (no retries asked)
    kept = set(fake.texts()[:8])

    fake.reset()
    fake.fail_after = None  # the server is back; the app starts again
    second = _open(http_server, tmp_path, docs)
    status = _built(second)
    assert status["mode"] == "hybrid" and status["problems"] == []
    assert fake.sizes == [4, 4, 4]  # 20 sections: the 12 not kept, nothing sent twice
    assert kept.isdisjoint(fake.texts())


def test_another_process_on_the_same_folder_embeds_nothing(http_server, tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server)
    first = _open(http_server, tmp_path, docs)
    assert _built(first)["mode"] == "hybrid"
    assert fake.requests == 5
    fake.reset()

    # another index object on the folder, as the service's or a worker's would be
    second = _open(http_server, tmp_path, docs, EMBEDDING_WAIT_S="1")
    status = second.status()
    assert status["mode"] == "hybrid" and status["building"] is None  # at once, from the cache
    assert fake.requests == 0

    # and a real second process (`python -m service` opens the index the same way)
    script = (
        "import json\n"
        "from graph.retrieval import open_index\n"
        "from graph.settings import load_settings\n"
        "index = open_index(load_settings())\n"
        "assert index.wait_vectors(60)\n"
        "status = index.status()\n"
        "print(json.dumps({'mode': status['mode'], 'problems': status['problems']}))\n"
    )
    env = {**os.environ, **_env(http_server, tmp_path, docs)}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(done.stdout.splitlines()[-1]) == {"mode": "hybrid", "problems": []}
    assert fake.requests == 0


def test_two_processes_building_at_once_embed_each_section_once(
    http_server, tmp_path: Path
) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server)
    fake.hold()
    first = _open(http_server, tmp_path, docs)
    first.status()  # starts the build; its first batch waits at the server
    _until(lambda: fake.requests == 1)
    second = _open(http_server, tmp_path, docs)
    assert second.status()["building"] == {"done": 0, "total": 20}  # waits for the first
    fake.step(2)
    _until(lambda: second.status()["building"] == {"done": 8, "total": 20})  # it sees them
    fake.release()
    assert _built(first)["mode"] == "hybrid"
    assert _built(second)["mode"] == "hybrid"
    assert fake.sizes == [4] * 5 and len(set(fake.texts())) == 20


def test_search_is_keyword_only_while_vectors_build_then_hybrid(
    http_server, tmp_path: Path
) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server)
    fake.hold()
    index = _open(http_server, tmp_path, docs)
    hits = index.search("lost badge security", k=3)
    assert hits and hits[0].source == "badge.md"
    assert [h.score for h in hits] == [
        h.score for h in index.search("lost badge security", k=3, mode="keyword")
    ]
    status = index.status()
    assert status["mode"] == "keyword" and status["building"] == {"done": 0, "total": 20}
    _until(lambda: fake.requests == 1)  # the first batch, held at the server
    index.search("parking permits", k=1)
    assert fake.requests == 1 and fake.sizes == [4]  # no query was embedded meanwhile

    fake.release()
    assert _built(index)["mode"] == "hybrid"
    asked = fake.requests
    hybrid = index.search("lost badge security", k=3)
    assert hybrid[0].source == "badge.md"
    assert fake.requests == asked + 1 and "badge" in fake.batches[-1][0]  # the query's vector
    assert hybrid[0].score < 0.05  # fused reciprocal ranks, not BM25 scores


def test_a_slow_server_does_not_hold_up_the_first_page(http_server, tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    FakeEmbeddings(http_server, delay_s=1.5)
    started = time.monotonic()
    index = _open(http_server, tmp_path, docs, EMBEDDING_BATCH="16", EMBEDDING_WAIT_S="0.5")
    status = index.status()  # what the sidebar asks on the first page
    assert time.monotonic() - started < 0.5 + 2.0  # the wait, and chunking the documents
    assert status["building"] == {"done": 0, "total": 20} and status["mode"] == "keyword"
    assert _built(index)["mode"] == "hybrid"


@pytest.mark.parametrize("shape", ["per_token", "ragged"])
def test_per_token_embeddings_are_refused_with_the_cause(
    http_server, tmp_path: Path, shape: str
) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server, shape=shape)  # type: ignore[arg-type]
    index = _open(http_server, tmp_path, docs, LLM_MAX_RETRIES="2")
    status = _built(index)
    assert status["mode"] == "keyword" and status["degraded"]
    (problem,) = status["problems"]
    assert "the server returns per-token embeddings" in problem
    assert "llama.cpp --pooling mean" in problem
    assert fake.requests == 1  # not asked again, and no further batch
    assert index.search("lost badge security", k=1)[0].source == "badge.md"  # keywords work


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (500, "Input should be a valid string"),
        (500, "embeddings are not supported by this model"),
        (501, "Not Implemented"),
        (400, "bad request"),
        (404, "no such route"),
    ],
)
def test_a_request_the_server_does_not_take_is_sent_once(
    http_server, tmp_path: Path, status: int, message: str
) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server, fail_after=0, fail_status=status, fail_message=message)
    index = _open(http_server, tmp_path, docs, LLM_MAX_RETRIES="2")
    found = _built(index)
    assert fake.requests == 1
    assert found["degraded"] and any(message in p for p in found["problems"])
    assert index.search("parking permits", k=1)[0].source == "parking.md"


def test_a_passing_server_error_is_asked_again(http_server, tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(
        http_server, fail_after=0, fail_count=1, fail_status=503, fail_message="loading model"
    )
    index = _open(http_server, tmp_path, docs, LLM_MAX_RETRIES="1", EMBEDDING_BATCH="16")
    assert _built(index)["mode"] == "hybrid"
    assert fake.sizes == [16, 16, 4]  # the first batch twice (after one second), then the rest


def test_a_batch_waits_no_longer_than_the_timeout(http_server, tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server, delay_s=5)
    index = _open(http_server, tmp_path, docs, EMBEDDING_TIMEOUT_S="0.5")
    started = time.monotonic()
    status = _built(index)
    assert time.monotonic() - started < 3
    assert fake.requests == 1
    assert status["degraded"] and any("Timeout" in p for p in status["problems"])


def test_bad_embedding_settings_are_refused_with_their_name(tmp_path: Path) -> None:
    env = {
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "EMBEDDING_MODEL": "m",
        "CHAT_DB_PATH": str(tmp_path / "c.db"),
    }
    for name, bad in [
        ("EMBEDDING_BATCH", "0"),
        ("EMBEDDING_BATCH", "2.5"),
        ("EMBEDDING_WAIT_S", "-1"),
        ("EMBEDDING_TIMEOUT_S", "soon"),
    ]:
        with pytest.raises(ValueError, match=name):
            open_index(load_settings({**env, name: bad}))


def test_a_document_changed_mid_build_is_embedded_as_it_is_now(http_server, tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server)
    fake.hold()
    index = _open(http_server, tmp_path, docs)
    index.status()
    _until(lambda: fake.requests == 1)
    (docs / "parking.md").write_text("# Parking\n\n## Bikes\n\nBikes go in the basement.\n")
    assert index.status()["building"] == {"done": 0, "total": 17}  # the new sections
    fake.release()
    status = _built(index)
    assert status["mode"] == "hybrid" and status["chunks"] == 17
    assert index.search("bikes basement", k=1)[0].source == "parking.md"
    sent = fake.texts()
    assert len(sent) == len(set(sent))  # the first build's batch was kept, not sent again
    assert any("Bikes go in the basement" in text for text in sent)


def test_an_unusable_cache_file_does_not_stop_the_vectors(http_server, tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    fake = FakeEmbeddings(http_server)
    (tmp_path / "index").mkdir()
    (tmp_path / "index" / "vectors.sqlite").write_bytes(b"not a database" * 100)
    index = _open(http_server, tmp_path, docs)
    status = _built(index)
    assert status["mode"] == "hybrid" and status["problems"] == []
    assert fake.requests == 5
