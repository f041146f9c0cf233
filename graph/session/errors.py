"""Storage failures as one exception the adapters can show."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from graph.errors import StorageCorrupt
from graph.storage import DB_ERRORS
from graph.storage.persistence import StorageError


@contextmanager
def storage_errors() -> Iterator[None]:
    """Turn database errors (locked, read-only, full) into a StorageError the UI can show."""
    try:
        yield
    except StorageCorrupt as exc:  # not a refused write: a value saved earlier is damaged
        raise StorageError(
            f"Part of this conversation's saved state is damaged and cannot be read ({exc}; "
            "STORAGE_CORRUPT). The rest of the app works; the thread's readable turns can be "
            "downloaded from its panel."
        ) from exc
    except DB_ERRORS as exc:
        raise StorageError(
            f"The conversation could not be saved ({exc}). Nothing that was saved before is "
            "lost; please try again."
        ) from exc
