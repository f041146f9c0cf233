"""Retrieval over the documents folder: keyword (BM25), FAISS and hybrid, plus agent tools."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Literal

from langchain_core.embeddings import Embeddings
from langchain_core.tools import BaseTool, StructuredTool

from graph.retrieval.confidence import MIN_CONFIDENCE
from graph.retrieval.embeddings import HashingEmbeddings
from graph.retrieval.index import DocumentIndex, Hit, Mode, format_hits
from graph.settings import Settings
from graph.tools.effects import EFFECT_KEY, Effect

__all__ = [
    "MIN_CONFIDENCE",
    "DocumentIndex",
    "HashingEmbeddings",
    "Hit",
    "Mode",
    "build_document_tools",
    "format_hits",
    "open_index",
    "relevant",
]


def relevant(hits: list[Hit]) -> list[Hit]:
    """Hits at or above `MIN_CONFIDENCE`."""
    return [h for h in hits if h.confidence >= MIN_CONFIDENCE]


def _embeddings(settings: Settings) -> Embeddings | None:
    """The embeddings server's model, or None offline.

    Offline there are no vectors: the weight-free hashing vectors the index once used
    offline are lexical, and BM25 with the glossary found the right section as often or
    more (issue 37, `bench/offline_search.py`), so offline search is keyword search.
    """
    if settings.resolved_provider == "openai":
        from langchain_openai import OpenAIEmbeddings

        from graph.retrieval.vectors import embedding_timeout_s

        # check_embedding_ctx_length=False: send the text as it is. With the default, the
        # client first downloads a tiktoken vocabulary to count tokens, which fails on a
        # machine without internet and left every compatible server without embeddings.
        # Sections are far below any embedding model's input limit.
        # max_retries=0: the index asks a failed batch again itself (graph.retrieval.vectors),
        # and not when the server says it does not take the request; a failed query
        # embedding falls back to keyword search for that search alone.
        if not settings.embedding_model_name:
            return None  # a compatible server with no EMBEDDING_MODEL: keyword search
        return OpenAIEmbeddings(
            model=settings.embedding_model_name,
            check_embedding_ctx_length=False,
            api_key=settings.openai_api_key or "not-needed",  # type: ignore[arg-type]
            base_url=settings.openai_base_url or None,
            timeout=embedding_timeout_s(settings),
            max_retries=0,
        )
    return None


def open_index(settings: Settings) -> DocumentIndex:
    """The index over `settings.docs_dir`, kept under `settings.index_path`.

    It searches as RETRIEVAL_MODE says when an embeddings server is configured; keyword
    search builds no vectors, nor does a compatible server with no EMBEDDING_MODEL (it
    answers the chat: `keyword_reason` says so), and offline (no server) every mode is keyword search (BM25
    with the office glossary). A server's embeddings are built in the background in
    batches of EMBEDDING_BATCH and kept by content under the index folder, shared by every
    process that opens it. ValueError names a bad embedding setting.
    """
    from graph.retrieval.vectors import remote_vectors

    mode = settings.search_mode
    embeddings = None if mode == "keyword" else _embeddings(settings)
    remote = None if embeddings is None else remote_vectors(settings)
    shared = (
        mode != "keyword"
        and settings.resolved_provider == "openai"
        and not settings.embedding_model_name
    )
    return DocumentIndex(
        Path(settings.docs_dir),
        settings.index_path,
        embeddings,
        mode=mode,
        mix=settings.search_all_mix,
        remote=remote,
        keyword_reason="shared_server" if shared else "",
    )


def build_document_tools(index: DocumentIndex) -> list[BaseTool]:
    """Seed 003's three retrieval tools: `search_all`, `search_by_metadata`, `get_section`.

    Each search result lists the passages ranked by the judgement and ends with the
    judgement itself (seed 003's JSON, by the offline rule), so the model sees whether
    they suffice and what to do next; together they count toward three calls a turn.
    """
    from graph.retrieval import loop

    def _report(query: str, hits: list[Hit]) -> str:
        judged = loop.judge_rule(index, query, hits)
        ranked = [hits[i - 1] for i in judged.ranked_indices][: loop.CONTEXT_K + 2]
        if not ranked:
            return (
                f"No relevant document found for: {query}\njudgement: {json.dumps(asdict(judged))}"
            )
        listing = "\n\n".join(
            f"[{i}] {h.source} > {h.heading} (score {h.score:.3f}, confidence {h.confidence:.2f})"
            f"\n{h.text}"
            for i, h in enumerate(ranked, 1)
        )
        return f"{listing}\n\njudgement: {json.dumps(asdict(judged), ensure_ascii=False)}"

    def search_all(query: str) -> str:
        """Search the company documents: up to 3 FAQ and 7 guide passages, best first.

        Ends with a judgement: is_sufficient, missing, next_action, refined_query, confidence.
        """
        return _report(query, loop.search_all(index, query))

    def search_by_metadata(
        query: str, doc_type: Literal["faq", "guide"] | None = None, has_steps: bool | None = None
    ) -> str:
        """Search only FAQ or guide documents (doc_type), or those with numbered steps."""
        return _report(query, loop.search_by_metadata(index, query, doc_type, has_steps))

    def get_section(source: str, heading: str) -> str:
        """The whole section of a document, to expand a passage of a longer section.

        Source and heading as a search result names them.
        """
        text = index.get_section(source, heading)
        return text or f"No section {heading!r} in {source}."

    return [
        StructuredTool.from_function(func, name=func.__name__, metadata={EFFECT_KEY: Effect.READ})
        for func in (search_all, search_by_metadata, get_section)
    ]
