"""Storage failures as one exception the adapters can show."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from graph.storage.db import DB_ERRORS
from graph.storage.persistence import StorageError


@contextmanager
def storage_errors() -> Iterator[None]:
    """Turn database errors (locked, read-only, full) into a StorageError the UI can show."""
    try:
        yield
    except DB_ERRORS as exc:
        raise StorageError(
            f"The conversation could not be saved ({exc}). Nothing that was saved before is "
            "lost; please try again."
        ) from exc
