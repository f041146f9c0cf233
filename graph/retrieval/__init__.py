"""Retrieval over the documents folder: keyword (BM25), FAISS and hybrid, plus agent tools."""

from __future__ import annotations

from pathlib import Path

from langchain_core.embeddings import Embeddings
from langchain_core.tools import BaseTool, StructuredTool

from graph.retrieval.embeddings import HashingEmbeddings
from graph.retrieval.index import DocumentIndex, Hit, Mode, format_hits
from graph.settings import Settings

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

MIN_CONFIDENCE = 0.5
"""Seed 003: below this the answer says no relevant document was found."""


def relevant(hits: list[Hit]) -> list[Hit]:
    """Hits at or above `MIN_CONFIDENCE`."""
    return [h for h in hits if h.confidence >= MIN_CONFIDENCE]


def _embeddings(settings: Settings) -> Embeddings:
    if settings.resolved_provider == "openai":
        from langchain_openai import OpenAIEmbeddings

        # check_embedding_ctx_length=False: send the text as it is. With the default, the
        # client first downloads a tiktoken vocabulary to count tokens, which fails on a
        # machine without internet and left every compatible server without embeddings.
        # Sections are far below any embedding model's input limit.
        return OpenAIEmbeddings(
            model=settings.embedding_model,
            check_embedding_ctx_length=False,
            api_key=settings.openai_api_key or "not-needed",  # type: ignore[arg-type]
            base_url=settings.openai_base_url or None,
            timeout=settings.timeout_s,
            max_retries=settings.max_retries,
        )
    return HashingEmbeddings()


def open_index(settings: Settings) -> DocumentIndex:
    """The index over `settings.docs_dir`, kept under `settings.index_path`.

    It searches as RETRIEVAL_MODE says; keyword search builds no vectors.
    """
    mode = settings.search_mode
    embeddings = None if mode == "keyword" else _embeddings(settings)
    return DocumentIndex(Path(settings.docs_dir), settings.index_path, embeddings, mode=mode)


def build_document_tools(index: DocumentIndex) -> list[BaseTool]:
    """`search_documents` and `get_section`, for the model's agentic search."""

    def search_documents(query: str) -> str:
        """Search the company documents; returns up to 3 passages with source, heading and score."""
        hits = relevant(index.search(query, k=3))
        if not hits:
            return f"No relevant document found for: {query}"
        return "\n\n".join(
            f"[{i}] {h.source} > {h.heading} (score {h.score:.3f}, confidence {h.confidence:.2f})\n{h.text}"
            for i, h in enumerate(hits, 1)
        )

    def get_section(source: str, heading: str) -> str:
        """The whole section of a document, to expand a search hit."""
        text = index.get_section(source, heading)
        return text or f"No section {heading!r} in {source}."

    return [
        StructuredTool.from_function(search_documents, name="search_documents"),
        StructuredTool.from_function(get_section, name="get_section"),
    ]
