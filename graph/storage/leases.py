"""One writer per thread across processes: a lease row with an expiry, in the same database.

A process that runs a turn first takes the thread's lease (a compare-and-set in one
statement); another process that wants the same thread meanwhile is told it is busy. The
lease expires by itself (a crashed process holds it for at most `LEASE_S`), and a running
turn renews it. Because the row lives beside the conversation, it moves to another
database with it.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from graph.storage.archive import Archive

LEASE_S = 30.0
"""How long a lease lasts unless renewed; a dead process on another host blocks its thread
at most this long (one on this host is noticed at once, see `acquire`)."""
RENEW_S = 10.0
"""How often a running turn renews its lease."""


class ThreadBusyError(RuntimeError):
    """Another process (or turn) is writing to the thread right now."""


def new_owner() -> str:
    """A name for this writer that no other process or call shares."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def is_local(owner: str) -> bool:
    """Whether `owner` (see `new_owner`) names a process of this host."""
    host, _, rest = owner.partition(":")
    return host == socket.gethostname() and rest.partition(":")[0].isdigit()


def dead_here(owner: str) -> bool:
    """True when `owner` was a process of this host that no longer exists (killed, crashed)."""
    if not is_local(owner):
        return False
    try:
        os.kill(int(owner.split(":")[1]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


_HELD: set[str] = set()
"""The owners of this process whose turns are still running."""
_HELD_LOCK = threading.Lock()


def _stale_here(owner: str) -> bool:
    """True for a lease row of this process that no running turn holds.

    Its turn has ended but the row stayed (the release was refused, say on a full disk).
    """
    if not is_local(owner) or owner.split(":")[1] != str(os.getpid()):
        return False
    with _HELD_LOCK:
        return owner not in _HELD


def acquire(archive: Archive, thread_id: str, owner: str, lease_s: float = LEASE_S) -> bool:
    """Take or renew the thread's lease for `owner`; False if someone else holds it.

    An expired lease is free; so is one whose holder was a process of this host that has
    died (a kill -9 does not release its lease).
    """
    now = time.time()
    with archive.lock, archive.conn:
        holder = archive.conn.execute(
            "SELECT owner FROM thread_leases WHERE thread_id = ?", (thread_id,)
        ).fetchone()
        if (
            holder
            and holder[0] != owner
            and (dead_here(str(holder[0])) or _stale_here(str(holder[0])))
        ):
            archive.conn.execute(
                "DELETE FROM thread_leases WHERE thread_id = ? AND owner = ?",
                (thread_id, holder[0]),
            )
        archive.conn.execute(
            "INSERT INTO thread_leases (thread_id, owner, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (thread_id) DO UPDATE SET owner = excluded.owner, "
            "expires_at = excluded.expires_at "
            "WHERE thread_leases.expires_at < ? OR thread_leases.owner = excluded.owner",
            (thread_id, owner, now + lease_s, now),
        )
        row = archive.conn.execute(
            "SELECT owner FROM thread_leases WHERE thread_id = ?", (thread_id,)
        ).fetchone()
    return bool(row) and row[0] == owner


def release(archive: Archive, thread_id: str, owner: str) -> None:
    """Give the lease back (only if `owner` still holds it)."""
    with archive.lock, archive.conn:
        archive.conn.execute(
            "DELETE FROM thread_leases WHERE thread_id = ? AND owner = ?", (thread_id, owner)
        )


@contextmanager
def writer_lease(archive: Archive, thread_id: str) -> Iterator[str]:
    """Hold the thread's lease for the duration of a turn, renewing it in the background.

    Raises ThreadBusyError when another writer holds it.
    """
    owner = new_owner()
    with _HELD_LOCK:
        _HELD.add(owner)
    try:
        if not acquire(archive, thread_id, owner):
            raise ThreadBusyError(thread_id)
    except BaseException:
        with _HELD_LOCK:
            _HELD.discard(owner)
        raise
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(RENEW_S):
            try:
                acquire(archive, thread_id, owner)
            except Exception:  # noqa: BLE001 - the next renewal or the expiry settles it
                pass

    renewer = threading.Thread(target=renew, name=f"lease-{thread_id}", daemon=True)
    renewer.start()
    try:
        yield owner
    finally:
        stop.set()
        renewer.join()
        with _HELD_LOCK:
            _HELD.discard(owner)
        release(archive, thread_id, owner)
