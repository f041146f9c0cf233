"""Where a thread's versions are kept: hidden slots and the record's `versions` entries.

The bookkeeping half of `graph.session.versions` (which has the operations: a new
version, a switch). `threads` (listing, deleting, exporting) and `transfer` (importing)
read and write slots through here; this module imports only `app` of this package, so
none of them imports `versions`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graph.errors import InputError
from graph.session.app import ChatApp, new_thread, require_thread
from graph.storage.archive import delete_archive, update_thread, version_slots

VERSIONS = "versions"
"""The thread record's field: turn (a string) -> {"slots": [...], "shown": k}."""
COMPARISON = "comparison"
"""The thread record's strategy comparison (`save_comparison`), which follows its line."""
VERSION_OF = "version_of"
"""A slot's record: the thread whose version it holds (it is not listed)."""


@dataclass(frozen=True)
class TurnVersions:
    """The versions of one turn, for the `◀ 2/3 ▶` switcher."""

    turn: int
    shown: int
    """The version shown, from 1."""
    count: int
    """How many versions the turn has."""


def turn_versions(app: ChatApp, thread_id: str) -> dict[int, TurnVersions]:
    """The turns of the shown line that have more than one version, by turn number."""
    return versions_in(require_thread(app, thread_id))


def versions_in(record: dict[str, Any]) -> dict[int, TurnVersions]:
    """The `versions` of a thread record, by turn number."""
    return {
        int(n): TurnVersions(int(n), int(e["shown"]), len(e["slots"]))
        for n, e in entries_of(record).items()
    }


def entries_of(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A copy of the record's `versions` entries: turn (a string) -> slots and shown."""
    return {str(n): dict(e) for n, e in dict(record.get(VERSIONS) or {}).items()}


def is_slot(record: dict[str, Any]) -> bool:
    """Whether a thread record is a hidden version slot (not a conversation of its own)."""
    return bool(record.get(VERSION_OF))


def new_slot(app: ChatApp, thread_id: str, record: dict[str, Any]) -> str:
    """An empty hidden slot of the thread (the version shown now parks there later)."""
    # hidden as it is written: a process dying next leaves no empty conversation listed
    return new_thread(app, owner=str(record.get("owner") or ""), **{VERSION_OF: thread_id})


def hide(app: ChatApp, slot: str, thread_id: str) -> None:
    """Make a thread just written (an imported version) a hidden slot of `thread_id`."""
    update_thread(app.persistence.archive, slot, **{VERSION_OF: thread_id, "title": ""})


def export_versions(
    app: ChatApp, thread_id: str, export: Callable[[ChatApp, str], dict[str, Any]]
) -> list[dict[str, Any]]:
    """The thread's versions for its export: per turn, the version shown and the others.

    Each version not shown is `export` of its slot (a whole export, its own versions in
    it): `[{"turn": 4, "shown": 2, "others": {"1": {...}, "3": {...}}}]`.
    """
    record = require_thread(app, thread_id)
    out = []
    for n, entry in sorted(entries_of(record).items(), key=lambda item: int(item[0])):
        shown = int(entry["shown"])
        others = {
            str(k): export(app, slot) for k, slot in enumerate(entry["slots"], 1) if k != shown
        }
        out.append({"turn": int(n), "shown": shown, "others": others})
    return out


def import_versions(
    app: ChatApp,
    thread_id: str,
    root: str,
    exported: Any,
    turns: int,
    load: Callable[[ChatApp, dict[str, Any], str], str],
) -> None:
    """Write an export's `versions` back: each version not shown becomes a slot of `root`.

    `load(app, export, root)` imports one version's line as a slot and returns its id.
    InputError for a malformed entry (the caller removes what was written).
    """
    if exported is None:
        return
    if not isinstance(exported, list):
        raise InputError("The export's versions must be a list.")
    entries: dict[str, dict[str, Any]] = {}
    for item in exported:
        if not isinstance(item, dict):
            raise InputError("A version entry of the export is not an object.")
        turn, shown, others = item.get("turn"), item.get("shown"), item.get("others")
        # turns + 1: a new version made of the last turn whose run has not come yet
        if not isinstance(turn, int) or not 1 <= turn <= turns + 1 or str(turn) in entries:
            raise InputError(f"The export has versions of an unknown turn {turn!r}.")
        if not isinstance(others, dict) or not others:
            raise InputError(f"The versions of turn {turn} list no other version.")
        count = len(others) + 1
        wanted = {str(k) for k in range(1, count + 1)} - {str(shown)}
        if not isinstance(shown, int) or set(others) != wanted:
            raise InputError(f"The versions of turn {turn} are not numbered 1 to {count}.")
        if not all(isinstance(other, dict) for other in others.values()):
            raise InputError(f"A version of turn {turn} in the export is not an object.")
        slots = [
            new_slot(app, root, {}) if k == shown else load(app, others[str(k)], root)
            for k in range(1, count + 1)
        ]
        entries[str(turn)] = {"slots": slots, "shown": shown}
    update_thread(app.persistence.archive, thread_id, **{VERSIONS: entries})


def delete_slots(app: ChatApp, thread_id: str) -> None:
    """Delete every version slot of a thread (a thread being deleted)."""
    for slot in version_slots(app.persistence.archive, thread_id):
        delete_archive(app.persistence.archive, slot)
