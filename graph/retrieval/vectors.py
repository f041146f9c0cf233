"""Document vectors from an embeddings server: bounded batches, a shared cache, resumable.

Sections go to the server `EMBEDDING_BATCH` at a time from a background thread, so no page
waits for them (keyword search answers meanwhile). Each batch's vectors are kept as soon
as they arrive in `vectors.sqlite` (WAL) under the index folder, keyed by a hash of the
model, the server's URL and the exact text embedded: a restart goes on from the batches
already kept, and every process that opens the same folder (the app, `python -m service`,
its workers) reuses them. A lock file lets one process embed at a time; another one waits
for it in its own background thread, watching the cache fill, then embeds only what is
still missing (usually nothing).

A server that answers a list of vectors per input (one per token: llama.cpp without
pooling) is refused with a message that says how to start it, and a request the server
says it does not support (a 4xx, or a 500 naming an unsupported input) is not asked again.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from langchain_core.embeddings import Embeddings

from graph.server_queue import queue_for

if TYPE_CHECKING:
    from graph.settings import Settings

log = logging.getLogger(__name__)

CACHE_FILE = "vectors.sqlite"
"""The vectors kept under the index folder, by content (`cache_key`)."""
LOCK_FILE = "vectors.lock"
"""Held by the one process that embeds for the folder (`flock`)."""
PER_TOKEN = (
    "the server returns per-token embeddings; start it with pooling, e.g. llama.cpp "
    "--pooling mean / an embedding model"
)
"""Why an answer with a list of vectors per input (or vectors of different lengths) is refused."""
RETRY_PAUSE_S = 1.0
"""Pause before a failed batch is asked again; doubled for each further try (8 s at most)."""
LOCK_POLL_S = 0.25
"""How often a process waiting for another one's build looks at the cache."""
_UNSUPPORTED = re.compile(r"unsupported|not supported|not implemented|input should be", re.I)
"""A server error that says the request itself is wrong: asking again cannot help."""
_TRANSIENT_STATUS = frozenset({408, 409, 429})
"""4xx answers that say "not now" (timeout, conflict, rate limit), not "not this"."""


class EmbeddingError(Exception):
    """The server's embeddings cannot be used; the message says why."""


class Cancelled(Exception):
    """The documents changed while their vectors were built, so the build stopped."""


@dataclass(frozen=True)
class RemoteVectors:
    """How an index gets its document vectors from an embeddings server."""

    identity: str
    """The model and the server's URL: part of every cache key, so vectors of another model
    or server are never reused."""
    batch: int = 16
    """Sections per request (EMBEDDING_BATCH)."""
    retries: int = 2
    """Further tries of a batch that failed for a passing reason (LLM_MAX_RETRIES)."""
    wait_s: float = 1.0
    """Seconds a new build is waited for before keyword search answers (EMBEDDING_WAIT_S)."""
    retry_pause_s: float = RETRY_PAUSE_S
    """Pause before the first retry of a batch."""
    server: str = ""
    """The compatible server's URL, whose turns go first (`graph.server_queue`); '' for
    OpenAI's own API."""


def _setting(settings: Settings, name: str, env: str, minimum: float) -> float:
    raw = str(getattr(settings, name)).strip()
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (value >= minimum and math.isfinite(value)):  # NaN fails both
        raise ValueError(f"{env} must be a number of at least {minimum:g}, got {raw!r}")
    return value


def embedding_timeout_s(settings: Settings) -> float:
    """EMBEDDING_TIMEOUT_S: seconds one request to the embeddings server may take."""
    return _setting(settings, "embedding_timeout_s", "EMBEDDING_TIMEOUT_S", 0.001)


def remote_vectors(settings: Settings) -> RemoteVectors:
    """The batching, retry and wait settings of a server's embeddings, checked.

    ValueError names a bad EMBEDDING_BATCH or EMBEDDING_WAIT_S.
    """
    server = settings.openai_base_url.strip().rstrip("/")
    if settings.embedding_batch.strip().lower() == "auto":
        batch = 1.0 if server else 16.0  # a local server: one section ahead of a turn at most
    else:
        batch = _setting(settings, "embedding_batch", "EMBEDDING_BATCH", 1)
    if batch != int(batch):
        raise ValueError(
            f"EMBEDDING_BATCH must be a whole number or auto, got {settings.embedding_batch!r}"
        )
    base = server or "https://api.openai.com/v1"
    return RemoteVectors(
        identity=f"{settings.embedding_model_name} @ {base}",
        batch=int(batch),
        retries=max(0, settings.max_retries),
        wait_s=_setting(settings, "embedding_wait_s", "EMBEDDING_WAIT_S", 0),
        server=server,
    )


def cache_key(identity: str, text: str) -> str:
    """The cache key of `text` embedded by the model and server `identity`."""
    return hashlib.sha256(f"{identity}\x00{text}".encode()).hexdigest()


class VectorCache:
    """Vectors by content key in one SQLite file (WAL), shared by every process.

    A cache that cannot be read or written (a read-only disk) is only logged: the vectors
    are then embedded again, and search never stops for it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"
            )
            yield db
        finally:
            db.close()

    def get(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """The kept vectors of those `keys` that have one."""
        found: dict[str, np.ndarray] = {}
        if not keys:
            return found
        try:
            with self._db() as db:
                for start in range(0, len(keys), 500):
                    part = list(keys[start : start + 500])
                    marks = ",".join("?" * len(part))
                    query = f"SELECT key, vector FROM vectors WHERE key IN ({marks})"
                    for key, blob in db.execute(query, part):
                        found[key] = np.frombuffer(blob, dtype=np.float32)
        except (OSError, sqlite3.Error) as exc:
            log.warning("could not read the vector cache %s: %s", self.path, exc)
        return found

    def put(self, vectors: Mapping[str, np.ndarray]) -> None:
        """Keep `vectors` (key -> vector), all in one transaction."""
        rows = [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()]
        try:
            with self._db() as db, db:
                db.executemany("INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)", rows)
        except (OSError, sqlite3.Error) as exc:
            log.warning("could not write the vector cache %s: %s", self.path, exc)


@dataclass
class VectorJob:
    """The vectors of an index's sections, as they are built (`start`)."""

    total: int
    """Sections to embed."""
    done: int = 0
    """Sections with a vector so far (kept ones included)."""
    vectors: np.ndarray | None = None
    """One row per section, once all are there."""
    problem: str = ""
    """Why there are no vectors, when the build failed."""
    finished: threading.Event = field(default_factory=threading.Event)
    """Set when the build ended, with vectors or a problem (or was cancelled)."""


def start(
    embeddings: Embeddings,
    texts: Sequence[str],
    folder: Path,
    plan: RemoteVectors,
    cancelled: Callable[[], bool],
    on_finish: Callable[[VectorJob], None],
) -> VectorJob:
    """Vectors for `texts`: at once when all are kept in `folder`, else from a thread.

    The thread embeds the missing texts in batches of `plan.batch`, keeps each batch as it
    comes, and calls `on_finish` at the end (not when everything was kept already).
    `cancelled` is asked between batches: True stops the build.
    """
    cache = VectorCache(folder / CACHE_FILE)
    keys = [cache_key(plan.identity, t) for t in texts]
    found = cache.get(keys)
    job = VectorJob(total=len(keys), done=sum(1 for k in keys if k in found))
    if job.done == job.total:
        try:
            job.vectors = _stack(keys, found)
        except EmbeddingError as exc:
            job.problem = _failure(exc)
        job.finished.set()
        return job
    worker = _Build(job, embeddings, keys, dict(zip(keys, texts, strict=True)), cache, found)
    threading.Thread(
        target=worker.run,
        args=(folder, plan, cancelled, on_finish),
        name="embed-documents",
        daemon=True,  # a process that exits mid-build resumes from the cache next time
    ).start()
    return job


@dataclass
class _Build:
    job: VectorJob
    embeddings: Embeddings
    keys: list[str]
    text_of: dict[str, str]
    cache: VectorCache
    found: dict[str, np.ndarray]

    def run(
        self,
        folder: Path,
        plan: RemoteVectors,
        cancelled: Callable[[], bool],
        on_finish: Callable[[VectorJob], None],
    ) -> None:
        try:
            self.job.vectors = self._fill(folder, plan, cancelled)
        except Cancelled:
            log.info("document vectors dropped: the documents changed")
        except Exception as exc:  # noqa: BLE001 - keyword search still works
            self.job.problem = _failure(exc)
            log.warning("%s", self.job.problem)
        finally:
            self.job.finished.set()
            on_finish(self.job)

    def _count(self) -> None:
        self.job.done = sum(1 for k in self.keys if k in self.found)

    def _look_again(self, cancelled: Callable[[], bool]) -> None:
        """Take what another process has kept meanwhile."""
        if cancelled():
            raise Cancelled
        self.found.update(self.cache.get([k for k in self.keys if k not in self.found]))
        self._count()

    def _fill(self, folder: Path, plan: RemoteVectors, cancelled: Callable[[], bool]) -> np.ndarray:
        with _exclusive(folder, lambda: self._look_again(cancelled)):
            self._look_again(cancelled)
            missing = list(dict.fromkeys(k for k in self.keys if k not in self.found))
            dim = next(iter(self.found.values())).shape[0] if self.found else None
            kept = dim is not None
            for begin in range(0, len(missing), plan.batch):
                part = missing[begin : begin + plan.batch]
                texts = [self.text_of[k] for k in part]
                vectors = checked(
                    _embed_batch(self.embeddings, texts, plan, cancelled), len(part), dim, kept
                )
                dim, kept = vectors.shape[1], False
                fresh = dict(zip(part, vectors, strict=True))
                self.cache.put(fresh)
                self.found.update(fresh)
                self._count()
        return _stack(self.keys, self.found)


@contextlib.contextmanager
def _exclusive(folder: Path, waiting: Callable[[], None]) -> Iterator[None]:
    """Hold the folder's build lock, so one process embeds at a time.

    `waiting` runs every LOCK_POLL_S while another process holds it. Without `flock`
    (Windows) or a writable folder, processes may embed the same text twice: harmless.
    """
    if sys.platform == "win32":
        yield
        return
    import fcntl

    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = (folder / LOCK_FILE).open("a+b")
    except OSError:
        yield
        return
    with handle:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                waiting()
                time.sleep(LOCK_POLL_S)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _embed_batch(
    embeddings: Embeddings, texts: list[str], plan: RemoteVectors, cancelled: Callable[[], bool]
) -> list[list[float]]:
    """One batch's vectors, asked again only for a passing failure (`retryable`)."""
    attempt = 0
    queue = queue_for(plan.server)
    while True:
        if cancelled():
            raise Cancelled
        try:
            if queue is None:
                raw = embeddings.embed_documents(texts)
            else:  # after the server's running turns, one request in flight
                with queue.background():
                    if cancelled():
                        raise Cancelled
                    raw = embeddings.embed_documents(texts)
        except Exception as exc:
            if attempt >= plan.retries or not retryable(exc):
                raise
            pause = min(8.0, plan.retry_pause_s * 2**attempt)
            log.info("embeddings batch failed (%s); again in %.0f s", exc, pause)
            time.sleep(pause)
            attempt += 1
            continue
        return raw


def retryable(exc: BaseException) -> bool:
    """Whether asking again may help: a timeout, a lost connection, a 429 or most 5xx.

    Not a 4xx (the server does not take the request) nor a 500 whose message says the
    input is unsupported, not implemented or invalid ("Input should be ...").
    """
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        if status in _TRANSIENT_STATUS:
            return True
        if status < 500:
            return False
        return not _UNSUPPORTED.search(str(exc))
    name = type(exc).__name__
    return isinstance(exc, TimeoutError | ConnectionError) or any(
        word in name for word in ("Timeout", "Connection")
    )


def checked(
    raw: Sequence[Any], count: int, dim: int | None = None, kept: bool = False
) -> np.ndarray:
    """One answer's vectors as a float32 array of `count` rows.

    EmbeddingError unless it holds one flat vector per input, all of one length, and of
    `dim` when given (the length of the vectors before it; `kept`: of vectors kept by an
    earlier run). Vectors of different lengths are per-token embeddings flattened.
    """
    if len(raw) != count:
        raise EmbeddingError(f"the server returned {len(raw)} embeddings for {count} inputs")
    lengths = set()
    for vector in raw:
        if isinstance(vector, np.ndarray) and vector.ndim != 1:
            raise EmbeddingError(PER_TOKEN)
        if not len(vector):
            raise EmbeddingError("the server returned an empty embedding")
        if isinstance(vector[0], list | tuple | np.ndarray):
            raise EmbeddingError(PER_TOKEN)
        lengths.add(len(vector))
    if len(lengths) > 1:
        raise EmbeddingError(
            f"{PER_TOKEN} (vectors of {min(lengths)} to {max(lengths)} numbers in one answer)"
        )
    try:
        array = np.asarray(raw, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise EmbeddingError(f"the server's embeddings are not lists of numbers ({exc})") from exc
    if dim is not None and array.shape[1] != dim:
        if kept:
            raise EmbeddingError(
                f"{PER_TOKEN}, or another model answers under the same name (vectors of "
                f"{array.shape[1]} numbers where those kept for it have {dim}; remove "
                f"{CACHE_FILE} from the index folder to embed everything again)"
            )
        raise EmbeddingError(f"{PER_TOKEN} (vectors of {dim} and {array.shape[1]} numbers)")
    return array


def _stack(keys: Sequence[str], found: Mapping[str, np.ndarray]) -> np.ndarray:
    if not keys:
        return np.zeros((0, 0), dtype=np.float32)
    lengths = {found[k].shape[0] for k in keys}
    if len(lengths) > 1:
        raise EmbeddingError(
            f"the vectors kept for this model have different lengths ({sorted(lengths)}); "
            f"remove {CACHE_FILE} from the index folder to embed again"
        )
    return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)


def _failure(exc: BaseException) -> str:
    """What the sidebar says when vectors could not be built."""
    if isinstance(exc, EmbeddingError):
        return f"embeddings failed: {exc}; keyword search only"
    return f"embeddings failed ({type(exc).__name__}: {str(exc)[:300]}); keyword search only"
