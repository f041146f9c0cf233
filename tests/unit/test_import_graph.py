"""The import graph of graph/, service/, component/ and app.py: no circle, no upward import.

Every `import` and `from ... import` counts, at module level, inside a function or under
`if TYPE_CHECKING:` alike: an import hidden in a function is a circle all the same, only
one that fails later. Relative imports are resolved, and `from pkg import name` is an
import of `pkg.name` when `name` is a submodule. Importing `a.b` also runs `a/__init__`,
but that implicit step is not an edge here (every package's `__init__` would otherwise be
in a circle with the submodules it re-exports); an explicit import of the package is.

The layering checked is the one the package docstrings write down: `graph/storage/__init__`
and `graph/session/__init__`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graph", "service", "component")

STORAGE_LAYERS = {
    # the face: what the rest of the project imports; its modules may build on each other
    "graph.storage.persistence": 5,
    "graph.storage.archive": 5,
    "graph.storage.checkpointer": 5,
    "graph.storage.pg_checkpointer": 5,
    "graph.storage.apart": 5,
    "graph.storage.redis_checkpointer": 5,
    "graph.storage.memory_checkpointer": 5,
    "graph.storage.summaries": 5,
    "graph.storage.facts": 5,
    "graph.storage.tool_calls": 5,
    "graph.storage.leases": 5,
    "graph.storage.forks": 5,
    # below the face, never imported from outside graph/storage, each only from lower down
    "graph.storage.schema": 4,
    "graph.storage.blocks": 3,
    "graph.storage.recall_index": 3,
    "graph.storage.history_packs": 3,
    "graph.storage.messages": 2,
    "graph.storage.packing": 1,
    "graph.storage.db": 0,
    "graph.storage.zdict": 0,
    "graph.storage.rows": 0,
}
"""`graph/storage/__init__`'s layers; the package itself re-exports from below them."""
FACE = 5

SESSION_LAYERS = {
    "graph.session.context": 0,
    "graph.session.errors": 0,
    "graph.session.events": 0,
    "graph.session.app": 1,
    "graph.session.settle": 2,
    "graph.session.slots": 2,
    "graph.session.facts": 2,
    "graph.session.closing": 3,
    "graph.session.streaming": 4,
    "graph.session.threads": 4,
    "graph.session.history": 4,
    "graph.session.start": 5,
    "graph.session.resume": 6,
    "graph.session.runner": 7,
    "graph.session.versions": 7,
    "graph.session.transfer": 7,
    "graph.session.preview": 7,
    "graph.session": 8,
}
"""`graph/session/__init__`'s layers."""

UI_AND_SERVICE = ("app", "component", "service", "streamlit", "fastapi", "starlette")
"""What no module of graph/ imports."""

ABOVE_STORAGE = ("graph.session", "graph.nodes", "graph.graph", "graph.replay")
"""What no module of graph/storage imports."""


@dataclass(frozen=True)
class Edge:
    """One import statement of a module: what it imports and where."""

    source: str
    target: str
    """A project module (`graph.storage.archive`) or an outside top-level name (`streamlit`)."""
    line: int

    def __str__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target}"


def module_name(path: Path, root: Path) -> str:
    """`graph/storage/__init__.py` -> `graph.storage`, `app.py` -> `app`."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_sources(root: Path = ROOT) -> dict[str, tuple[str, bool]]:
    """Module name -> (source text, whether it is a package) of every checked module."""
    out: dict[str, tuple[str, bool]] = {}
    files = [p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))]
    for path in [*files, root / "app.py"]:
        out[module_name(path, root)] = (path.read_text(encoding="utf-8"), path.stem == "__init__")
    return out


def _resolve(name: str, modules: Iterable[str]) -> str:
    """The longest prefix of `name` that is a project module, or its top-level name."""
    known = set(modules)
    probe = name
    while probe:
        if probe in known:
            return probe
        probe = probe.rpartition(".")[0]
    return name.split(".")[0]


def import_edges(sources: Mapping[str, tuple[str, bool]]) -> list[Edge]:
    """Every import of every module, anywhere in its body (functions and TYPE_CHECKING too)."""
    edges: list[Edge] = []
    for module, (text, is_package) in sources.items():
        package = module.split(".") if is_package else module.split(".")[:-1]
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    edges.append(Edge(module, _resolve(alias.name, sources), node.lineno))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - (node.level - 1)]
                    origin = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    origin = node.module or ""
                for alias in node.names:
                    submodule = f"{origin}.{alias.name}"
                    target = submodule if submodule in sources else origin
                    edges.append(Edge(module, _resolve(target, sources), node.lineno))
    return [e for e in edges if e.target != e.source]


def find_cycles(edges: Iterable[Edge]) -> list[list[Edge]]:
    """One circle (as its edges) per strongly connected group of modules."""
    graph: dict[str, dict[str, Edge]] = {}
    for edge in edges:
        graph.setdefault(edge.source, {}).setdefault(edge.target, edge)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan; the graph is a few hundred modules deep at most
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, {}):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_circle(graph, group) for group in groups]


def _circle(graph: Mapping[str, Mapping[str, Edge]], group: set[str]) -> list[Edge]:
    """A shortest circle through the group's first module, by breadth-first search."""
    start = min(group)
    came: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ, edge in sorted(graph[node].items()):
                if succ not in group:
                    continue
                if succ == start:
                    path = [edge]
                    while path[0].source != start:
                        path.insert(0, came[path[0].source])
                    return path
                if succ not in came:
                    came[succ] = edge
                    following.append(succ)
        frontier = following
    raise AssertionError(f"no circle in {group}")  # a strongly connected group has one


def describe(circle: list[Edge]) -> str:
    """`a:12 -> b:40 -> a`: the modules of a circle with the line of each import."""
    return " -> ".join(f"{e.source}:{e.line}" for e in circle) + f" -> {circle[-1].target}"


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def layering_violations(edges: Iterable[Edge]) -> list[str]:
    """Each import against the layering the package docstrings write down."""
    bad: list[str] = []
    for e in edges:
        src, dst = e.source, e.target
        if _within(src, "graph") and any(_within(dst, p) for p in UI_AND_SERVICE):
            bad.append(f"{e}: graph/ never imports the UI, the service or their frameworks")
        if _within(src, "component") and (_within(dst, "service") or _within(dst, "langgraph")):
            bad.append(f"{e}: component/ renders; it never imports service or langgraph")
        src_storage, dst_storage = STORAGE_LAYERS.get(src), STORAGE_LAYERS.get(dst)
        if src_storage is not None and src_storage < FACE:
            if any(_within(dst, p) for p in ABOVE_STORAGE):
                bad.append(f"{e}: a lower storage module imports the layers above storage")
            if dst_storage is not None and dst_storage >= src_storage:
                bad.append(f"{e}: storage layer {src_storage} imports layer {dst_storage}")
        if src_storage == FACE and any(_within(dst, p) for p in ABOVE_STORAGE):
            bad.append(f"{e}: storage imports the layers above storage")
        if dst_storage is not None and dst_storage < FACE and not _within(src, "graph.storage"):
            bad.append(f"{e}: outside graph/storage only its face is imported")
        src_session, dst_session = SESSION_LAYERS.get(src), SESSION_LAYERS.get(dst)
        if src_session is not None and dst_session is not None and dst_session >= src_session:
            bad.append(f"{e}: session layer {src_session} imports layer {dst_session}")
    return bad


def test_every_module_of_the_layers_is_placed() -> None:
    """A new module of graph/storage or graph/session must be given its layer here."""
    names = project_sources()
    storage = {m for m in names if m.startswith("graph.storage.")}
    session = {m for m in names if _within(m, "graph.session")}
    assert storage == set(STORAGE_LAYERS)
    assert session == set(SESSION_LAYERS)


def test_there_is_no_import_circle() -> None:
    """No module reaches itself through imports, at module level or inside functions."""
    circles = find_cycles(import_edges(project_sources()))
    assert not circles, "import circles:\n" + "\n".join(describe(c) for c in circles)


def test_no_module_imports_against_the_layering() -> None:
    """graph/ below the UI and service, storage's lower modules below its face, and so on."""
    bad = layering_violations(import_edges(project_sources()))
    assert not bad, "\n".join(bad)


# The checker itself, on small made-up packages: it must see what it is there to see.


def _fake(**modules: str) -> dict[str, tuple[str, bool]]:
    """`pkg__init` stands for `pkg/__init__.py`, `pkg__a` for `pkg/a.py`."""
    out = {}
    for key, text in modules.items():
        package = key.endswith("__init")
        name = key.removesuffix("__init").rstrip("_").replace("__", ".")
        out[name] = (text, package)
    return out


@pytest.mark.parametrize(
    ("modules", "expected"),
    [
        (  # module level, both ways
            _fake(pkg__init="", pkg__a="from pkg.b import x\n", pkg__b="from pkg.a import y\n"),
            "pkg.a:1 -> pkg.b:1 -> pkg.a",
        ),
        (  # hidden in a function, and relative
            _fake(
                pkg__init="",
                pkg__a="from pkg.b import x\n",
                pkg__b="def f():\n    from .a import y\n",
            ),
            "pkg.a:1 -> pkg.b:2 -> pkg.a",
        ),
        (  # `import a.b` and `from pkg import submodule`, through three modules
            _fake(
                pkg__init="",
                pkg__a="import pkg.b\n",
                pkg__b="import json\n\nfrom pkg import c\n",
                pkg__c="from pkg.a import z\n",
            ),
            "pkg.a:1 -> pkg.b:3 -> pkg.c:1 -> pkg.a",
        ),
        (  # a submodule importing its own package's name, which imports it back
            _fake(pkg__init="from pkg.run import R\n", pkg__run="from pkg import NAME\n"),
            "pkg:1 -> pkg.run:1 -> pkg",
        ),
    ],
)
def test_the_checker_names_a_circle(modules: dict[str, tuple[str, bool]], expected: str) -> None:
    """A circle is found and named with each import's line, whatever form its imports take."""
    # a circle is named from its first module in sort order
    assert [describe(c) for c in find_cycles(import_edges(modules))] == [expected]


def test_the_checker_passes_a_tree_and_implicit_package_imports() -> None:
    """Imports that only go down, and a package re-exporting its submodules, are no circle."""
    modules = _fake(
        pkg__init="from pkg.a import x\nfrom pkg.b import y\n",
        pkg__a="import json\nfrom pkg.b import y\n",
        pkg__b="def f():\n    from pkg.c import z\n",
        pkg__c="from . import leaf\n",
        pkg__leaf="",
    )
    assert find_cycles(import_edges(modules)) == []


def test_the_layering_check_names_upward_imports() -> None:
    """Each rule of the layering is caught: storage up to the session, graph to the UI, ..."""
    modules = _fake(
        graph__init="",
        graph__storage__init="",
        graph__storage__blocks="def f():\n    from graph.session.threads import load_thread\n",
        graph__storage__db="from graph.storage import archive\n",
        graph__storage__archive="",
        graph__session__init="",
        graph__session__threads="from graph.storage.blocks import seal\n",
        graph__session__closing="from graph.session.threads import x\n",
        graph__text="import streamlit as st\n",
        component__init="",
        component__chat="from langgraph.types import Command\nimport service.api\n",
        service__init="",
        service__api="",
    )
    bad = "\n".join(layering_violations(import_edges(modules)))
    assert "graph.storage.blocks:2 -> graph.session.threads: a lower storage module" in bad
    assert "graph.storage.db:1 -> graph.storage.archive: storage layer 0 imports layer 5" in bad
    assert "graph.session.threads:1 -> graph.storage.blocks: outside graph/storage" in bad
    assert (
        "graph.session.closing:1 -> graph.session.threads: session layer 3 imports layer 4" in bad
    )
    assert "graph.text:1 -> streamlit: graph/ never imports" in bad
    assert "component.chat:1 -> langgraph: component/ renders" in bad
    assert "component.chat:2 -> service.api: component/ renders" in bad
