"""The import graph of graph/, service/, component/ and app.py: no circle.

Every `import` and `from ... import` counts, at module level, inside a function or under
`if TYPE_CHECKING:` alike: an import hidden in a function is a circle all the same, only
one that fails later. Relative imports are resolved, and `from pkg import name` is an
import of `pkg.name` when `name` is a submodule. Importing `a.b` also runs `a/__init__`,
but that implicit step is not an edge here (every package's `__init__` would otherwise be
in a circle with the submodules it re-exports); an explicit import of the package is.

Who may import whom (the layers of the project, of `graph/session` and of `graph/storage`,
and what `graph/`, `component/` and `prompt/` never import) is checked by import-linter's
contracts in pyproject.toml (tests/unit/test_import_contracts.py). What they cannot say is
checked here: that no module reaches itself through imports, across packages too (a
layers contract sees a circle only within the packages it names).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graph", "service", "component")


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


def test_there_is_no_import_circle() -> None:
    """No module reaches itself through imports, at module level or inside functions."""
    circles = find_cycles(import_edges(project_sources()))
    assert not circles, "import circles:\n" + "\n".join(describe(c) for c in circles)


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
