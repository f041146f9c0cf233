"""The document index: BM25 over Korean morphemes, FAISS over embeddings, hybrid ranking.

The index lives on disk (chunks, manifest, FAISS vectors) beside the checkpoint database.
Every search first compares the folder with the manifest (a `stat` per file) and rebuilds
when a document was added, changed or removed, so new files are found on the next turn.
Vectors from an embeddings server (`graph.retrieval.vectors`) are built in the background,
batch by batch into a cache shared by every process; keyword search answers meanwhile.
Embeddings given without a server (tests, benchmarks) are built at once. Offline the app
gives none, and search is BM25 alone (`graph.retrieval.open_index`).
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import threading
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, NamedTuple

import numpy as np
from langchain_core.embeddings import Embeddings

from graph.retrieval import vectors as served
from graph.retrieval.chunking import (
    Chunk,
    document_files,
    front_matter,
    load_chunks,
    read_document,
)
from graph.retrieval.glossary import Concept, concepts, expand_query
from graph.retrieval.tokenize import (
    EN_PHRASING,
    KO_FRAME_WORDS,
    KO_GENRE_WORDS,
    KO_TIME_WORDS,
    is_predicate,
    noun_phrases,
    stem_english,
    tokens,
)
from graph.server_queue import queue_for

log = logging.getLogger(__name__)

Mode = Literal["keyword", "faiss", "hybrid"]

SEARCH_MIX = (3, 7)
"""FAQ and guide passages in a `search_all` result (seed 003's mix)."""
INDEX_FORMAT = 2
"""The saved index's format: 2 has each chunk's keywords; another one is built again."""
RRF_K = 60
"""Reciprocal-rank-fusion constant (the usual 60)."""
CANDIDATES = 20
"""Hits taken from each ranking before fusion."""
PREDICATE_WEIGHT = 0.5
"""A verb or adjective weighs half a noun in `confidence`: nouns name what a question is
about, verbs mostly how it is asked ("들어오다", "쓰다")."""
COMPOUND_MATCHES = 3
"""Document compounds a query noun may stand for (`_compound_matches`), at most."""
UNKNOWN_WEIGHT = 1.0
"""A query word no document contains weighs as much as an average known topical word (one
at most `GENERIC_DF` of the chunks have) in `confidence`."""
HINT_WEIGHT = 0.5
"""A related word the glossary adds for a Korean word (`QueryTerms.hints`) weighs this much
of its IDF: the user did not say it."""
TERM_CACHE = 512
"""Queries whose terms an index remembers (the loop judges one question many times)."""
SMALL_NUMBER_DIGITS = 2
"""Numbers this short are quantities and weigh nothing (`_weight`)."""
_NUMBERED = re.compile(r"^\s*(\d+[.)]|[①-⑩]|\d+단계)\s", re.M)
"""A numbered list item: a document with one has steps."""
GENERIC_DF = 0.25
"""A word in more than this share of chunks is generic; matching only such words (and
phrasing: `DocumentIndex._says_little`) halves the confidence (in corpora of 20 chunks or
more)."""


@dataclass
class Hit:
    """One retrieved chunk."""

    chunk_id: str
    source: str
    heading: str
    text: str
    score: float
    """Score of the mode used (BM25, cosine, or fused reciprocal rank)."""
    confidence: float
    """0-1: share of the query's content words (after glossary expansion, counting only
    words the corpus knows) found in the chunk, heading and section keywords included,
    scaled down when the query is mostly words no document contains or the chunk shares
    only generic words with it, and 0 when it shares only numbers. Seed 003's rule applies
    it: below 0.5 the answer says nothing relevant was found."""
    answers: str = ""
    """For a question in two parts, the part this passage was chosen to answer (the loop's)."""


class QueryTerms(NamedTuple):
    """A query as the index matches it (`DocumentIndex._terms`)."""

    expanded: str
    """The query with its glossary terms added (for the embeddings)."""
    tokens: tuple[str, ...]
    known: frozenset[str]
    """Its terms some document uses."""
    unknown: frozenset[str]
    """Its written words no document has."""
    synonyms: tuple[frozenset[str], ...]
    """Each English word the glossary gives one Korean term for, as a pair of known terms
    ("month", "월"): one idea in two languages, held when either is. (A word or phrase
    with several terms, "drive my own car": 차량, 주행, 본인, ..., is not one idea each.)"""
    hints: frozenset[str] = frozenset()
    """Terms the glossary adds for a Korean word the documents use ("회사 주식" -> "공시"):
    related words the query does not say, which weigh HINT_WEIGHT. (For a word they do
    not use, "라운딩" -> "골프장", the terms stand in for it and weigh in full.)"""
    unnamed_topic: bool = False
    """Every topical word the query has that some document uses is part of a noun phrase
    with a word no document has ("pet insurance", "회사 주식 배당금"): it asks about a kind
    of thing the documents do not name, and what they say of the broader word ("단체 보험")
    is not its answer."""


def _manifest(root: Path) -> dict[str, list[int]]:
    out = {}
    for path in document_files(root):
        info = path.stat()
        out[path.relative_to(root).as_posix()] = [info.st_size, info.st_mtime_ns]
    return out


class DocumentIndex:
    """Searchable index over a folder of documents; shared by all sessions of a process."""

    def __init__(
        self,
        docs_dir: Path,
        index_dir: Path,
        embeddings: Embeddings | None = None,
        expand: bool = True,
        mode: Mode = "hybrid",
        mix: tuple[int, int] = SEARCH_MIX,
        remote: served.RemoteVectors | None = None,
        keyword_reason: str = "",
    ) -> None:
        self.docs_dir = Path(docs_dir)
        self.keyword_reason = keyword_reason
        """Why search is by keywords although RETRIEVAL_MODE asks for vectors: `shared_server`
        (EMBEDDING_MODEL unset, and the server answers the chat); '' otherwise."""
        self.mix = mix
        """FAQ and guide passages a `search_all` returns (SEARCH_ALL_MIX)."""
        self.mode: Mode = mode if embeddings is not None else "keyword"
        """The search mode asked for (keyword without embeddings)."""
        self.expand = expand
        """Expand queries with the office glossary (for the lexical retrievers)."""
        self._vocabulary: set[str] = set()
        self._surface = ""
        """The documents' searchable text as written (headings, keywords, text)."""
        self._heading_words: set[str] = set()
        """The search terms of every section's heading path."""
        self._section_terms: dict[str, set[tuple[str, str]]] = {}
        """A term -> the sections whose own heading (its last part) has it."""
        self._idf: dict[str, float] = {}
        self._compounds: dict[str, list[str]] = {}
        """Words no document has -> the document words they meet (`_compound_matches`)."""
        self._df: dict[str, int] = {}
        self.index_dir = Path(index_dir)
        self.embeddings = embeddings
        self._lock = threading.RLock()
        self._chunks: list[Chunk] = []
        self._chunk_tokens: list[set[str]] = []
        self._keywords: dict[str, str] = {}
        """Chunk id -> its section's search keywords."""
        self._term_cache: dict[str, QueryTerms] = {}
        self._rows: dict[str, int] = {}
        """Chunk id -> its row in `_chunks` (and in the BM25 and FAISS indexes)."""
        self._manifest: dict[str, list[int]] | None = None
        self._warnings: list[str] = []
        self._query_failure = ""
        """Why the last query could not be embedded ('' once one could)."""
        self._bm25: object | None = None
        self._faiss: object | None = None
        self._documents: dict[str, dict[str, Any]] | None = None
        self.remote = remote
        """With a server's embeddings: vectors built in the background, batched and kept in
        the index folder's cache (`graph.retrieval.vectors`). None: built at once."""
        self._generation = 0
        """Counts builds: a background build of an older one is dropped."""
        self._job: served.VectorJob | None = None
        """The vectors being built in the background, until they are installed."""
        self._vector_problem = ""
        """Why the background build gave no vectors ('' if it did, or is running)."""

    # --- building --------------------------------------------------------------------

    def refresh(self) -> bool:
        """Rebuild if documents were added, changed or removed; return True if rebuilt."""
        with self._lock:
            self._take_vectors()
            current = _manifest(self.docs_dir)
            if current == self._manifest:
                return False
            if self._manifest is None and self._load(current):
                return False
            self._build(current)
            return True

    def _searchable(self, chunk: Chunk) -> str:
        return _passage(chunk.heading, chunk.keywords, chunk.text)

    def _build(self, manifest: dict[str, list[int]]) -> None:
        chunks, warnings = load_chunks(self.docs_dir)
        if self.remote is not None:
            self._install(chunks, warnings, manifest, None)
            self._save(None)
            self._start_vectors()
            log.info("indexed %d chunks from %d documents", len(chunks), len(manifest))
            return
        vectors = None
        if self.embeddings is not None and chunks:
            try:
                vectors = np.asarray(
                    self.embeddings.embed_documents([self._searchable(c) for c in chunks]),
                    dtype=np.float32,
                )
            except Exception as exc:  # noqa: BLE001 - keyword search still works
                message = f"embeddings failed ({type(exc).__name__}: {exc}); keyword search only"
                log.warning(message)
                warnings = [*warnings, message]
        self._install(chunks, warnings, manifest, vectors)
        self._save(vectors)
        log.info("indexed %d chunks from %d documents", len(chunks), len(manifest))

    def _install(
        self,
        chunks: list[Chunk],
        warnings: list[str],
        manifest: dict[str, list[int]],
        vectors: np.ndarray | None,
    ) -> None:
        import bm25s

        token_lists = [list(section_tokens(self._searchable(c))) for c in chunks]
        self._chunks, self._warnings, self._manifest = chunks, warnings, manifest
        self._documents = None  # read again on next use
        self._chunk_tokens = [set(t) for t in token_lists]
        self._keywords = {c.chunk_id: c.keywords for c in chunks if c.keywords}
        self._rows = {c.chunk_id: i for i, c in enumerate(chunks)}
        self._term_cache = {}
        self._vocabulary = set().union(*self._chunk_tokens) if token_lists else set()
        self._surface = "\n".join(self._searchable(c) for c in chunks)
        self._heading_words = set().union(*(_text_terms(c.heading) for c in chunks))
        self._section_terms = {}
        for c in chunks:
            for term in _text_terms(c.heading.split(" > ")[-1]):
                self._section_terms.setdefault(term, set()).add((c.source, c.heading))
        count = len(self._chunk_tokens)
        self._df = {t: sum(1 for s in self._chunk_tokens if t in s) for t in self._vocabulary}
        self._compounds = {}
        self._idf = {t: math.log(1 + count / df) * _weight(t) for t, df in self._df.items()}
        self._bm25 = None
        if chunks:
            retriever = bm25s.BM25()
            retriever.index(token_lists, show_progress=False)
            self._bm25 = retriever
        self._install_vectors(vectors)

    def _install_vectors(self, vectors: np.ndarray | None) -> None:
        self._faiss = None
        if vectors is not None and len(vectors):
            import faiss

            index = faiss.IndexFlatIP(vectors.shape[1])
            index.add(vectors)
            self._faiss = index

    def _start_vectors(self) -> None:
        """Build the vectors of the installed chunks from the server, in the background.

        Kept vectors are installed at once; otherwise a thread embeds the rest and this
        waits `remote.wait_s` at most (a fast server or a small change needs no more).
        """
        assert self.remote is not None and self.embeddings is not None
        self._generation += 1
        generation = self._generation
        self._job, self._vector_problem = None, ""
        if not self._chunks:
            return

        def finished(_: served.VectorJob) -> None:
            with self._lock:
                self._take_vectors()

        self._job = served.start(
            self.embeddings,
            [self._searchable(c) for c in self._chunks],
            self.index_dir,
            self.remote,
            cancelled=lambda: generation != self._generation,
            on_finish=finished,
        )
        self._job.finished.wait(self.remote.wait_s)
        self._take_vectors()

    def _take_vectors(self) -> None:
        """Install the background build's vectors (or its problem) once it has ended."""
        job = self._job
        if job is None or not job.finished.is_set():
            return
        self._job = None
        if job.vectors is not None and len(job.vectors) == len(self._chunks):
            self._install_vectors(job.vectors)
            log.info("document vectors ready: %d sections", len(job.vectors))
        else:
            self._vector_problem = job.problem or "embeddings stopped; keyword search only"

    def wait_vectors(self, timeout: float | None = None) -> bool:
        """Wait for the vectors being built in the background; False if `timeout` passed first.

        True at once when none are being built (offline, keyword mode, or already built).
        """
        self.refresh()
        job = self._job
        if job is not None and not job.finished.wait(timeout):
            return False
        with self._lock:
            self._take_vectors()
        return True

    def _save(self, vectors: np.ndarray | None) -> None:
        try:
            self.index_dir.mkdir(parents=True, exist_ok=True)
            meta = {
                "format": INDEX_FORMAT,
                "manifest": self._manifest,
                "warnings": self._warnings,
                "chunks": [asdict(c) for c in self._chunks],
                "embeddings": type(self.embeddings).__name__ if self.embeddings else None,
            }
            # another process may read it at any time: write a whole file, then swap it in
            path = self.index_dir / "index.json"
            temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            temporary.write_text(json.dumps(meta, ensure_ascii=False), "utf-8")
            os.replace(temporary, path)
            if vectors is not None:
                np.save(self.index_dir / "vectors.npy", vectors)
        except OSError as exc:  # a read-only disk must not stop search
            log.warning("could not save the index: %s", exc)

    def _load(self, manifest: dict[str, list[int]]) -> bool:
        path = self.index_dir / "index.json"
        try:
            meta = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return False
        wanted = type(self.embeddings).__name__ if self.embeddings else None
        if (
            not isinstance(meta, dict)
            or meta.get("format") != INDEX_FORMAT
            or meta.get("manifest") != manifest
            or meta.get("embeddings") != wanted
        ):
            return False
        vectors = None
        if self.embeddings is not None and self.remote is None:
            try:
                vectors = np.load(self.index_dir / "vectors.npy")
            except (OSError, ValueError):
                return False
        try:
            chunks = [Chunk(**c) for c in meta["chunks"]]
        except (KeyError, TypeError):  # written by another version: build it again
            return False
        self._install(chunks, list(meta.get("warnings", [])), manifest, vectors)
        if self.remote is not None:  # the server's vectors are in the cache, by content
            self._start_vectors()
        return True

    # --- reading ---------------------------------------------------------------------

    @property
    def warnings(self) -> list[str]:
        """Files skipped at the last build, with the reason."""
        self.refresh()
        return list(self._warnings)

    @property
    def doc_count(self) -> int:
        """Documents indexed."""
        self.refresh()
        return len({c.source for c in self._chunks})

    @property
    def chunk_count(self) -> int:
        """Chunks indexed."""
        self.refresh()
        return len(self._chunks)

    @property
    def default_mode(self) -> Mode:
        """The mode asked for while the vectors are there, else keyword (see `status`)."""
        return self.mode if self._faiss is not None else "keyword"

    def status(self) -> dict[str, object]:
        """What the sidebar says of the index: size, search mode, what degraded it, kinds.

        `catalog` lists each document: source, title, doc_type, has_steps, sections.
        `building` is `{"done": n, "total": m}` sections while a server's vectors are built
        in the background (keyword search answers meanwhile), else None. One look at the
        documents folder (`refresh`) per call: the sidebar asks on every page render.
        """
        with self._lock:
            self.refresh()
            chunks = list(self._chunks)
            job = self._job
            vectors = self._faiss is not None
            problems = list(self._warnings)
            if self._vector_problem:
                problems.append(self._vector_problem)
            if self._query_failure:
                problems.append(self._query_failure)
        wanted = self.embeddings is not None
        building = {"done": job.done, "total": job.total} if job is not None else None
        catalog = [
            {
                "source": source,
                "title": info["title"],
                "doc_type": info["doc_type"],
                "has_steps": info["has_steps"],
                "sections": len(info["headings"]),
            }
            for source, info in sorted(self.documents().items())
        ]
        return {
            "documents": len({c.source for c in chunks}),
            "chunks": len(chunks),
            "catalog": catalog,
            "embeddings": type(self.embeddings).__name__ if wanted else None,
            "mode": self.mode if vectors else "keyword",
            "wanted_mode": self.mode,
            "degraded": wanted
            and bool(chunks)
            and ((not vectors and building is None) or bool(self._query_failure)),
            "building": building,
            "problems": problems,
            "keyword_reason": self.keyword_reason,
        }

    def _terms(self, query: str) -> QueryTerms:
        """The query as the index matches it (`QueryTerms`), remembered until a rebuild."""
        found = self._term_cache.get(query)
        if found is None:
            if len(self._term_cache) >= TERM_CACHE:
                self._term_cache.clear()
            found = self._term_cache[query] = self._analyze(query)
        return found

    def _analyze(self, query: str) -> QueryTerms:
        ideas = concepts(query) if self.expand else []
        expanded = expand_query(query, ideas) if self.expand else query
        query_tokens = tokens(expanded, joined=True)
        written = tokens(query, joined=True)
        unknown = {
            t
            for t in written
            if t not in self._vocabulary
            and not t.isascii()
            # a verb or adjective no document uses is phrasing ("건드리다"); a noun no
            # document uses is a topic they do not cover ("배당금")
            and not is_predicate(t)
            and t not in KO_TIME_WORDS  # when it is asked ("오늘"), not what about
            and t not in KO_GENRE_WORDS  # the kind of text asked for ("정책"), not what about
            # a piece cut from a longer query word ("일주" of "일주일") is not a word
            # of its own: it neither helps nor counts against the match
            and not any(o != t and o.startswith(t) for o in written)
        }
        unknown |= self._unknown_english(written, ideas)
        for word in sorted(unknown):
            joined = self._compound_matches(word)
            if joined:  # written as one word here, as two there (or the other way)
                unknown.discard(word)
                query_tokens = [*query_tokens, *joined]
        known = {t for t in query_tokens if t in self._vocabulary}
        said = set(written)
        # a Korean word the documents use, whose glossary terms are related words; a
        # word they do not use ("라운딩", "법카": 법 + 카) has its terms as its stand-in
        hints = frozenset(
            t
            for c in ideas
            if c.written
            and all(not w.isascii() and len(w) >= 2 and w in self._vocabulary for w in c.written)
            for t in c.alternatives & known
            if t not in said
        )
        synonyms = tuple(
            pair
            for c in ideas
            if len(c.written) == 1
            and c.written[0].isascii()
            and len(c.alternatives) == 2  # the glossary gives it one Korean term
            and len(pair := c.alternatives & known) == 2
        )
        return QueryTerms(
            expanded,
            tuple(query_tokens),
            frozenset(known),
            frozenset(unknown),
            synonyms,
            hints,
            self._names_no_topic(query, written, known, unknown),
        )

    def _names_no_topic(
        self, query: str, written: Sequence[str], known: AbstractSet[str], unknown: AbstractSet[str]
    ) -> bool:
        """Whether the query's topic is a noun phrase the documents do not name (`unnamed_topic`).

        Its topical words are the known written ones that are about something: no verb,
        number, everyday English word or word most chunks share ("회사"). A question for a
        way to do something no document speaks of ("감기 낫는 방법", "리스트 정렬하는 법": the
        verb, or the verbal noun with 하다, the way is for), or set in such a doing ("라면
        끓일 때"), asks about something they do not cover.
        """
        for framed in _FRAMED.finditer(query):  # "낫는 방법": a way to do what, exactly
            word = framed.group(1) or framed.group(2)
            # a verb, or a verbal noun with 하다 ("정렬하는 법": what is done is "정렬")
            doing = [t for t in tokens(word) if is_predicate(t) or _DOES_NOUN.search(word)]
            if doing and all(t not in self._vocabulary for t in doing):
                return True
        phrases = [p for p in noun_phrases(query) if not unknown.isdisjoint(p)]
        if not phrases:
            return False
        count = len(self._chunk_tokens)
        phrasing = english_phrasing()
        topics = {
            t
            for t in written
            if t in known
            and not t.isdigit()
            and not is_predicate(t)
            and t not in phrasing
            and (count < 20 or not self._generic(t))
        }
        in_phrase = [w for p in phrases for w in p]
        return bool(topics) and all(any(w.startswith(t) for w in in_phrase) for t in topics)

    def _unknown_english(self, written: list[str], ideas: list[Concept]) -> set[str]:
        """The query's English topic words that no document, keyword or glossary line has.

        Everyday verbs, adjectives and time words (`EN_PHRASING`) are how a question is
        asked and never count; nor does a word of a glossary phrase ("day off"), which
        stands for the Korean terms it adds.
        """
        glossed = {w for c in ideas if len(c.alternatives) > len(c.written) for w in c.written}
        return {
            t
            for t in written
            if t.isascii()
            and t.isalpha()
            and len(t) > 2
            and t not in self._vocabulary
            and t not in english_phrasing()
            and t not in glossed
        }

    def _compound_matches(self, word: str) -> list[str]:
        """The document words a Korean noun no document has meets as a compound.

        Korean writes compounds as one word or two, and Kiwi keeps some whole and splits
        others ("온누리여행사" in a document, "온누리" + "여행사" in a question): a noun no
        document has matches the document words it begins or ends after two or more
        syllables (the most frequent few), or else the two-syllable halves it is made of when the documents use every
        one of them ("전화번호": "전화" + "번호"; not "반려동물" where only "반려" is known).
        """
        if len(word) < 2 or not word.isalpha() or word.isascii():
            return []
        cached = self._compounds.get(word)
        if cached is not None:
            return cached
        longer = sorted(
            (
                v
                for v in self._vocabulary
                if (len(v) > len(word) and v.startswith(word))
                # a one-syllable head is a piece of another word ("카드론" is no "드론")
                or (len(v) > len(word) + 1 and v.endswith(word))
            ),
            key=lambda v: (-self._df[v], v),
        )
        halves = [word[i : i + 2] for i in range(0, len(word), 2)]
        if longer:
            found = longer[:COMPOUND_MATCHES]
        elif len(word) >= 4 and len(word) % 2 == 0 and all(h in self._vocabulary for h in halves):
            found = halves
        else:
            found = self._written_pieces(word)
        self._compounds[word] = found
        return found

    def _written_pieces(self, word: str) -> list[str]:
        """The document words a noun the documents write as it is was cut into.

        Kiwi cuts a word one way alone and another inside a sentence ("휴양소" alone,
        "휴양" + "소" in "휴양소를"): a noun the documents' text holds as written is
        theirs, and matches the longest document word it begins with (two syllables or
        more) and the rest, when that is a document word of two syllables or more too (a
        single syllable, "소" of "휴양소", is a piece of many words).
        """
        if word not in self._surface:
            return []
        for cut in range(len(word) - 1, 1, -1):
            head, rest = word[:cut], word[cut:]
            if head in self._vocabulary:
                return [head, rest] if len(rest) > 1 and rest in self._vocabulary else [head]
        return []

    def _coverage(self, terms: QueryTerms, text_tokens: AbstractSet[str]) -> float:
        """IDF-weighted share of the query's words found in a text.

        Words no document contains count as missing, each as much as an average topical
        known word (`_unknown_mass`), and words every document contains ("회사", "규정")
        count little, so "회사 양자역학 규정" stays low; numbers alone match nothing.
        """
        held = _credited(terms, text_tokens)
        unknown_mass = self._unknown_mass(terms.known, terms.unknown)
        confidence = held_share(self._weights(terms), unknown_mass, held)
        matched = held & terms.known
        count = len(self._chunk_tokens)
        if matched and count >= 20 and all(self._says_little(t) for t in matched):
            confidence *= 0.5  # only words most documents share ("회사") or phrasing ("bring")
        if terms.unnamed_topic:
            confidence *= 0.5  # "pet insurance": what they say of insurance is not it
        return confidence

    def _generic(self, term: str) -> bool:
        """Whether more than GENERIC_DF of the chunks have `term` ("회사", "규정")."""
        return self._df.get(term, 0) / max(1, len(self._chunk_tokens)) > GENERIC_DF

    def _says_little(self, term: str) -> bool:
        """Whether a matched term says little of what a passage is about.

        Words most chunks share (`_generic`), words that say how a question is asked,
        not what about (`_weight`'s verbs and everyday English: "bring", "keep"), and
        nouns that frame what is asked of a topic ("방법", "사람": `KO_FRAME_WORDS`).
        """
        return self._generic(term) or _weight(term) < 1.0 or term in KO_FRAME_WORDS

    def _weights(self, terms: QueryTerms) -> dict[str, float]:
        """Each known term's weight: its IDF, HINT_WEIGHT of it for a related word."""
        return {t: self._idf[t] * (HINT_WEIGHT if t in terms.hints else 1.0) for t in terms.known}

    def _unknown_mass(self, known: AbstractSet[str], unknown: AbstractSet[str]) -> float:
        """The weight of the query's words no document has.

        Each weighs as much as an average known word that is about something (not one most
        chunks share, "회사").
        """
        if not known or not unknown:
            return 0.0
        words = [t for t in known if self._idf[t] > 0] or list(known)  # no small number
        topical = [t for t in words if not self._generic(t)] or words
        return UNKNOWN_WEIGHT * sum(self._idf[t] for t in topical) / len(topical) * len(unknown)

    def _keyword(self, query_tokens: Sequence[str], n: int) -> list[tuple[int, float]]:
        if self._bm25 is None or not query_tokens:
            return []
        n = min(n, len(self._chunks))
        docs, scores = self._bm25.retrieve([list(query_tokens)], k=n, show_progress=False)  # type: ignore[attr-defined]
        return [(int(d), float(s)) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    def _vector(self, query: str, n: int) -> list[tuple[int, float]]:
        if self._faiss is None or self.embeddings is None:
            return []
        from graph.retrieval.embeddings import HashingEmbeddings
        from graph.safeguard import mask

        if not isinstance(self.embeddings, HashingEmbeddings):
            query = mask(query, {})  # a remote embedding model never sees the user's PII
        queue = queue_for(self.remote.server) if self.remote is not None else None
        try:
            if queue is None:
                vector = np.asarray([self.embeddings.embed_query(query)], dtype=np.float32)
            else:  # the server's one embedding slot: behind a batch already sent, at most
                with queue.foreground():
                    embedded = self.embeddings.embed_query(query)
                vector = np.asarray([embedded], dtype=np.float32)
        except Exception as exc:  # noqa: BLE001 - fall back to the keyword ranking
            log.warning("query embedding failed: %s", exc)
            self._query_failure = (
                f"query embedding failed ({type(exc).__name__}: {exc}); keyword search only"
            )[:300]
            return []
        dimensions = self._faiss.d  # type: ignore[attr-defined]
        if vector.ndim != 2 or vector.shape[1] != dimensions:
            why = served.PER_TOKEN if vector.ndim > 2 else f"{vector.shape[-1]} numbers"
            self._query_failure = (
                f"query embedding failed ({why}, the documents' vectors have {dimensions}); "
                "keyword search only"
            )
            return []
        self._query_failure = ""
        scores, ids = self._faiss.search(vector, min(n, len(self._chunks)))  # type: ignore[attr-defined]
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]

    def search(self, query: str, k: int = 3, mode: Mode | None = None) -> list[Hit]:
        """The `k` best chunks for `query`."""
        with self._lock:
            self.refresh()
            mode = mode or self.default_mode
            terms = self._terms(query)
            expanded, query_tokens = terms.expanded, terms.tokens
            if mode == "keyword":
                ranked = self._keyword(query_tokens, k)
            elif mode == "faiss":  # a query that cannot be embedded is still answered
                ranked = self._vector(expanded, k) or self._keyword(query_tokens, k)
            else:
                fused: dict[int, float] = {}
                for ranking in (
                    self._keyword(query_tokens, CANDIDATES),
                    self._vector(expanded, CANDIDATES),
                ):
                    for rank, (index, _) in enumerate(ranking):
                        fused[index] = fused.get(index, 0.0) + 1.0 / (RRF_K + rank + 1)
                ranked = sorted(fused.items(), key=lambda item: -item[1])[:k]
            return [
                Hit(
                    chunk_id=self._chunks[i].chunk_id,
                    source=self._chunks[i].source,
                    heading=self._chunks[i].heading,
                    text=self._chunks[i].text,
                    score=round(score, 4),
                    confidence=round(self._coverage(terms, self._chunk_tokens[i]), 3),
                )
                for i, score in ranked
            ]

    # --- for the retrieval loop (graph.retrieval.loop) -----------------------------------

    def confidence_of(self, question: str, hit: Hit) -> float:
        """The confidence `hit` (its heading, section keywords and text) gets for `question`."""
        with self._lock:
            self.refresh()
            return round(self._coverage(self._terms(question), self.passage_terms(hit)), 3)

    def weighted_terms(self, question: str) -> tuple[dict[str, float], float]:
        """The question's known terms (glossary-expanded) with their IDF, and unknown mass.

        The unknown mass weighs its words no document has, as `confidence` counts them.
        """
        with self._lock:
            self.refresh()
            terms = self._terms(question)
            return self._weights(terms), self._unknown_mass(terms.known, terms.unknown)

    def credited(self, question: str, held: AbstractSet[str]) -> frozenset[str]:
        """The terms `held` (a passage's) with the question's synonyms of any held term.

        "month" in a question also stands for its gloss "월": a passage that holds one of
        them holds the idea, and counts both. For passages this index found, so it does not
        look at the documents folder again (the loop asks this of every passage it judges).
        """
        with self._lock:
            return _credited(self._terms(question), held)

    def passage_terms(self, hit: Hit) -> frozenset[str]:
        """The search terms of a passage, heading and its section's keywords included."""
        with self._lock:
            keywords = self._keywords.get(hit.chunk_id, "")
        return _text_terms(_passage(hit.heading, keywords, hit.text))

    def keyword_scores(self, query: str, hits: Sequence[Hit]) -> list[float]:
        """BM25 of `query` against each passage's chunk (0 for a chunk the index lacks).

        A graded match where coverage (`confidence_of`) ties: of two passages that hold all
        of a short query, the one whose words are more about it scores higher.
        """
        with self._lock:
            self.refresh()
            query_tokens = self._terms(query).tokens
            if self._bm25 is None or not query_tokens:
                return [0.0 for _ in hits]
            scores = self._bm25.get_scores(list(query_tokens))  # type: ignore[attr-defined]
            return [
                float(scores[self._rows[h.chunk_id]]) if h.chunk_id in self._rows else 0.0
                for h in hits
            ]

    def heading_terms(self, hit: Hit) -> frozenset[str]:
        """The search terms of a passage's heading path alone."""
        return _text_terms(hit.heading)

    def uncovered(self, question: str, passages: Sequence[Hit], limit: int = 5) -> list[str]:
        """The question's own words that documents use but none of `passages` holds."""
        with self._lock:
            self.refresh()
            held: set[str] = set()
            for p in passages:
                held |= self.passage_terms(p)
            credited = _credited(self._terms(question), held)
            return [t for t in self.known_words(question) if t not in credited][:limit]

    def unknown_words(self, text: str, limit: int = 5) -> list[str]:
        """The topic words of `text` that no document, keyword or glossary line has, as written.

        Nouns, not phrasing ("헌혈", "dog"; not "bring" or "알려주다"), in the order of the
        text: what a passage found by the question's other words cannot be about.
        """
        with self._lock:
            self.refresh()
            unknown = self._terms(text).unknown
        if not unknown:
            return []
        found: dict[int, str] = {}
        for word in re.finditer(r"[A-Za-z][A-Za-z'-]*", text):
            if not unknown.isdisjoint(tokens(word.group(0))):
                found.setdefault(word.start(), word.group(0).lower())
        for term in unknown:  # one syllable is a piece of a longer word ("아" of "아는")
            if not term.isascii() and len(term) >= 2 and term in text:
                found.setdefault(text.index(term), term)
        return list(dict.fromkeys(found[at] for at in sorted(found)))[:limit]

    def names_a_section(self, text: str) -> bool:
        """Whether one of `text`'s own words is a word of some section's heading ("급여일").

        Its words as written, not the glossary's ("신입" is no heading's word, though the
        glossary relates it to "신규 입사자").
        """
        with self._lock:
            self.refresh()
            return not self._heading_words.isdisjoint(tokens(text, joined=True))

    def known_words(self, text: str) -> list[str]:
        """The words of `text` itself (no glossary) that some document uses, in order."""
        with self._lock:
            self.refresh()
            return [t for t in dict.fromkeys(tokens(text, joined=True)) if t in self._vocabulary]

    def refine(self, question: str) -> str:
        """A narrower query: the question without unknown words and words most chunks share.

        The question itself when that leaves it as it was (or empty).
        """
        with self._lock:
            self.refresh()
            written = list(dict.fromkeys(tokens(question, joined=True)))
            kept = [t for t in written if t in self._vocabulary and not self._generic(t)]
            if not kept or len(kept) == len(written):
                return question
            return " ".join(kept)

    def section_parts(self, source: str, heading: str) -> int:
        """How many chunks the section `heading` of `source` was split into."""
        with self._lock:
            self.refresh()
            return sum(1 for c in self._chunks if c.source == source and c.heading == heading)

    def names_section(self, hit: Hit, text: str, most: int = 3) -> bool:
        """Whether `text` names `hit`'s section: the section it is about.

        The section's own heading (the last part of its path) holds `text`'s most specific
        term (the one weighing most), or one of its words as written that the tokenizer
        cut ("휴양소": "휴양" + "소"), and at most `most` sections' headings do: "분실" names "분실과 도난"
        and "분실과 파손"; "기준" or "신청" names no section in particular.
        """
        own = hit.heading.split(" > ")[-1]
        with self._lock:
            self.refresh()
            terms = self._terms(text)
            weights = self._weights(terms)
            if weights:
                top = max(weights, key=lambda t: weights[t])
                if top in _text_terms(own) and len(self._section_terms.get(top, ())) <= most:
                    return True
            headings = {c.heading.split(" > ")[-1] for c in self._chunks}
        for word in re.findall(r"[가-힣]{2,}", text):
            # a word the tokenizer cut ("휴양소": "휴양" + "소"); a whole term had its say
            cut = word not in self._vocabulary
            if cut and word in own and sum(word in h for h in headings) <= most:
                return True
        return False

    def sections_named(self, word: str, query: str) -> list[Hit]:
        """The chunks of sections whose own heading holds `word` as written ("급여일").

        Kiwi may cut the word so that its search terms are those of many sections ("급여"):
        the section named by it as written is still the one about it. Confidence is for
        `query`.
        """
        with self._lock:
            self.refresh()
            terms = self._terms(query)
            return [
                Hit(
                    chunk_id=c.chunk_id,
                    source=c.source,
                    heading=c.heading,
                    text=c.text,
                    score=0.0,
                    confidence=round(self._coverage(terms, self._chunk_tokens[i]), 3),
                )
                for i, c in enumerate(self._chunks)
                if word in c.heading.split(" > ")[-1]
            ]

    def is_section(self, hit: Hit) -> bool:
        """Whether a passage already holds its whole section (expanded)."""
        return hit.text == self.get_section(hit.source, hit.heading)

    def documents(self) -> dict[str, dict[str, Any]]:
        """Per document: `doc_type` (faq | guide), `has_steps`, `title`, `headings`.

        Front matter (`doc_type: faq`, `has_steps: true`) wins; otherwise a document whose
        name says FAQ is one, and one with a numbered list has steps.
        """
        with self._lock:
            self.refresh()
            if self._documents is not None:
                return self._documents
            out: dict[str, dict[str, Any]] = {}
            for chunk in self._chunks:
                info = out.setdefault(
                    chunk.source,
                    {"title": chunk.heading.split(" > ")[0], "headings": [], "has_steps": False},
                )
                if chunk.heading not in info["headings"]:
                    info["headings"].append(chunk.heading)
                info["has_steps"] = info["has_steps"] or bool(_NUMBERED.search(chunk.text))
            for source, info in out.items():
                try:
                    meta = front_matter(read_document(self.docs_dir / source))[0]
                except (OSError, ValueError):
                    meta = {}
                kind = meta.get("doc_type") or ("faq" if "faq" in source.lower() else "guide")
                info["doc_type"] = kind if kind in ("faq", "guide") else "guide"
                if "has_steps" in meta:
                    info["has_steps"] = meta["has_steps"].lower() in ("true", "yes", "1")
                if meta.get("title"):
                    info["title"] = meta["title"]
            self._documents = out
            return out

    def get_section(self, source: str, heading: str) -> str:
        """The whole text of a section (all its chunks), or '' if there is none."""
        with self._lock:
            self.refresh()
            parts = [
                c.text
                for c in self._chunks
                if c.source == source
                and (c.heading == heading or c.heading.startswith(heading + " > "))
            ]
            return "\n\n".join(parts)


def _passage(heading: str, keywords: str, text: str) -> str:
    """What is searched of a passage: its heading path, its section's keywords, its text."""
    return f"{heading}\n{keywords}\n{text}" if keywords else f"{heading}\n{text}"


_FRAMED = re.compile(
    r"([가-힣]+)\s*(?:방법|법|요령|비결)(?:이|은|을|도|이나|좀)?(?![가-힣])"
    r"|([가-힣]+)\s+때(?:는|에|도)?(?![가-힣])"
)
"""A verb's form before a frame noun: "낫는 방법", "잡는 법" (the way to do what), "끓일 때"
(the situation the question is in)."""
_DOES_NOUN = re.compile(r"[가-힣]하(?:는|기|려는)$|[가-힣]할$")
"""A verbal noun with 하다 before the frame noun ("정렬하는", "제거할")."""


def _weight(term: str) -> float:
    """What a term's IDF is multiplied by.

    A small number ("1년에", "2주", "하루 3번") is a quantity: matched apart from its unit
    it says nothing of the topic, where a longer number names something ("내선 2305",
    "2024년"). A verb or adjective, or an everyday English verb or adverb, says how rather
    than what.
    """
    if term.isdigit() and len(term) <= SMALL_NUMBER_DIGITS:
        return 0.0
    return PREDICATE_WEIGHT if is_predicate(term) or term in english_phrasing() else 1.0


@lru_cache(maxsize=1)
def english_phrasing() -> frozenset[str]:
    """`EN_PHRASING` as search tokens (stemmed)."""
    return frozenset(stem_english(w) for w in EN_PHRASING)


def held_share(weights: Mapping[str, float], unknown_mass: float, held: AbstractSet[str]) -> float:
    """The share of a question's weight (`weights`: term -> weight) the terms `held` hold.

    `unknown_mass` weighs the question's words no document has. An everyday English verb
    or adverb not held is how the question is put and counts for nothing; numbers alone
    name no topic ("What is 15% of 2400?" and 내선 2400): 0.
    """
    matched = [t for t in weights if t in held]
    phrasing = english_phrasing()
    total = sum(w for t, w in weights.items() if t in held or t not in phrasing) + unknown_mass
    if not total or all(t.isdigit() for t in matched):
        return 0.0
    return sum(weights[t] for t in matched) / total


def _credited(terms: QueryTerms, held: AbstractSet[str]) -> frozenset[str]:
    """`held` with every synonym (`QueryTerms.synonyms`) of a term it holds."""
    extra = [group for group in terms.synonyms if not group.isdisjoint(held)]
    return frozenset(held).union(*extra) if extra else frozenset(held)


@lru_cache(maxsize=4096)
def _text_terms(text: str) -> frozenset[str]:
    """The search terms of a text (passages are judged again at every step of the loop)."""
    return frozenset(tokens(text, joined=True))


def format_hits(hits: Sequence[Hit]) -> str:
    """Passages for the system prompt: `[n] text (출처: source > heading)`."""
    return "\n".join(
        f"[{i}] {h.text} (출처: {h.source} > {h.heading})" for i, h in enumerate(hits, 1)
    )


@lru_cache(maxsize=4096)
def section_tokens(text: str) -> tuple[str, ...]:
    """A document section's search tokens, remembered for the process.

    Every app a process opens on the same documents (each of a worker's, a test's, a
    service's first search) would analyze all of them again: 158 sections are 1.2 s of
    Kiwi on two cores, against 0.3 ms for the rest of a warm turn. Keyed by the text, so a
    changed section is analyzed anew; 4,096 sections of a few kB at most.
    """
    return tuple(tokens(text, joined=True))
