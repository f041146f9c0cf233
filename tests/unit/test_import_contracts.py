"""The import contracts of pyproject.toml's `[tool.importlinter]`, checked by `lint-imports`.

The layering itself (the project's, `graph/session`'s and `graph/storage`'s, which modules
only their package may import, what `graph/`, `component/` and `prompt/` never import) is
written there as import-linter contracts; .ci/run's lint step runs the same command. The
second test breaks one import of each kind in a copy of the project and sees each
contract named, so the check cannot pass by checking nothing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graph", "service", "component", "prompt")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", "pyproject.toml"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_import_contracts_hold() -> None:
    """Every contract is kept on the project as it is."""
    out = _lint(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


BREAKS = {
    # module: (the line added, the contract it breaks, the import named)
    "graph/storage/packing.py": (
        "def _up() -> None:\n    from graph.session import app  # noqa: F401\n",
        "project-layers",
        "graph.storage.packing -> graph.session",
    ),
    "graph/session/settle.py": (
        "def _up() -> None:\n    from graph.session import start  # noqa: F401\n",
        "session-layers",
        "graph.session.settle -> graph.session.start",
    ),
    "graph/storage/db.py": (
        "def _up() -> None:\n    from graph.storage import archive  # noqa: F401\n",
        "storage-layers",
        "graph.storage.db -> graph.storage.archive",
    ),
    "service/api.py": (
        "from graph.storage.blocks import BLOCK_TURNS  # noqa: F401,E402\n",
        "storage-face",
        "service.api -> graph.storage.blocks",
    ),
    "graph/nodes/llm.py": (
        "def _up() -> None:\n    import graph.session.threads  # noqa: F401\n",
        "session-callers",
        "graph.nodes.llm -> graph.session.threads",
    ),
    "graph/text.py": (
        "import streamlit  # noqa: F401,E402\n",
        "graph-headless",
        "graph.text -> streamlit",
    ),
    "component/chat.py": (
        "from langgraph.types import Command  # noqa: F401,E402\n",
        "component-renders",
        "component.chat -> langgraph",
    ),
    "prompt/system.py": (
        "from graph import text  # noqa: F401,E402\n",
        "prompt-text",
        "prompt.system -> graph.text",
    ),
}


def test_a_broken_import_fails_its_contract(tmp_path: Path) -> None:
    """One import against each contract, in a copy: the check fails, naming each one."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for module, (line, _, _) in BREAKS.items():
        path = tmp_path / module
        path.write_text(path.read_text(encoding="utf-8") + "\n" + line, encoding="utf-8")
    out = _lint(tmp_path)
    report = out.stdout + out.stderr
    assert out.returncode == 1, report
    assert f"{len(BREAKS)} broken" in report, report
    for _, name, edge in BREAKS.values():
        assert edge in report, f"{name}: {edge} not named\n{report}"
