"""Building a graph on in-memory persistence, and a document index, for unit tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, tool
from langgraph.checkpoint.memory import InMemorySaver

from graph.graph import build_graph
from graph.retrieval import DocumentIndex, HashingEmbeddings
from graph.settings import load_settings
from graph.storage import summaries
from graph.storage.archive import Archive
from graph.summarizer import ExtractiveSummarizer, Summarizer


@tool
def calculator(expression: str) -> str:
    """Add two integers written as 'a+b' (a stand-in for the real calculator)."""
    left, right = expression.split("+")
    return str(int(left) + int(right))


def make_graph(
    model: Any,
    *,
    summarizer: Summarizer | None = None,
    tools: Sequence[BaseTool] = (calculator,),
    approval: frozenset[str] = frozenset(),
    index: Any = None,
    **env: str,
) -> Any:
    settings = load_settings(env)
    archive = Archive.in_memory()
    graph = build_graph(
        InMemorySaver(),
        archive=archive,
        settings=settings,
        model=model,
        summarizer=summarizer or ExtractiveSummarizer(),
        tools=list(tools),
        approval_required=approval,
        index=index,
    )
    ARCHIVES[id(graph)] = archive
    return graph


ARCHIVES: dict[int, Archive] = {}
"""The archive of each graph `make_graph` built (the state keeps the summaries' working set)."""


def history(graph: Any, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The thread's whole summary_history: the archive's entries joined with the state's
    (the state's alone for a graph without an archive)."""
    if id(graph) not in ARCHIVES:
        return list(state.get("summary_history", []))
    return summaries.load(ARCHIVES[id(graph)], str(state["session_id"]), state)[0]


def all_digests(graph: Any, state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every digest of the thread (the state keeps the top-level ones)."""
    return summaries.load(ARCHIVES[id(graph)], str(state["session_id"]), state)[1]


def send(graph: Any, thread: str, turn: int, text: str, rate: float = 0.3) -> dict[str, Any]:
    from langchain_core.messages import HumanMessage

    return graph.invoke(
        {
            "messages": [HumanMessage(content=text)],
            "session_id": thread,
            "turn_count": turn,
            "compression_rate": rate,
        },
        {"configurable": {"thread_id": thread}},
    )


def doc_index(tmp_path: Path, files: Mapping[str, str]) -> DocumentIndex:
    """An index of the documents `files` (name -> text), written under `tmp_path`."""
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    return DocumentIndex(folder, tmp_path / "index", HashingEmbeddings())
