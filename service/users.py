"""Users of the service: who calls (their token), and what of the conversation is theirs.

Tokens live in a JSON-lines file at USERS_FILE, one user a line:
`{"user_id": "alice", "token_sha256": "<hex>", "created": "<ISO time>"}`. Only the hash of
a token is kept; the token itself is printed once, when the user is added:

    uv run python -m service.users add alice     # prints alice's new token, once
    uv run python -m service.users list
    uv run python -m service.users revoke alice

The API reads the file again whenever it changes, so a user added or revoked counts
from the next request, with no restart.

Every thread and job the service makes records its owner (`owner` in the thread's record,
`user_id` in the job), and a user sees only their own: another user's thread or job is
404, as if it did not exist. A thread with no owner (made by the Streamlit app, or before
users) belongs to `default`, the one user of the single API_TOKEN. Without a users file
there is one user and nothing is checked: the service behaves as it did before users.
"""

from __future__ import annotations

import argparse
import contextvars
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.settings import ServiceSettings, load_service_settings

if TYPE_CHECKING:  # the command line (`add`, `list`, `revoke`) needs neither: 0.3 s, not 3
    from graph.session import ChatApp
    from service.jobs import Job

log = logging.getLogger(__name__)

DEFAULT_USER = "default"
"""The one user of the single API_TOKEN, and the owner of threads that record none."""

USER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")

_caller: contextvars.ContextVar[str | None] = contextvars.ContextVar("service_caller")
"""Who the current request comes from: a user id, or None when users are off.

Set once per request by the token check (HTTP and WebSocket alike) and read by the
ownership checks the endpoints already make (`_known`, `_job_or_404`), so no route can
forget to pass it on; a thread of the thread pool sees its request's value. Never set
(a code path with no token check) is an error, not a pass."""


class Unauthorized(Exception):
    """The request carries no token the service knows."""


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token: what the users file keeps."""
    return hashlib.sha256(token.encode()).hexdigest()


def read_users(path: Path) -> list[dict[str, Any]]:
    """The users file's records (none when it does not exist)."""
    if not path.exists():
        return []
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or not {"user_id", "token_sha256"} <= set(record):
                raise ValueError("a user needs user_id and token_sha256")
            if record["user_id"] == DEFAULT_USER:
                raise ValueError(f"{DEFAULT_USER!r} is API_TOKEN's user, not one of the file")
        except ValueError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from exc
        records.append(record)
    return records


def _write_users(path: Path, records: list[dict[str, Any]]) -> None:
    """Replace the file in one step, readable by its owner only (it holds token hashes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def add_user(path: Path, user_id: str) -> str:
    """Add `user_id` with a new token and return the token (it is stored only as a hash)."""
    if not USER_ID.match(user_id):
        raise ValueError(
            f"{user_id!r} is not a user id: 1-64 letters, digits, '_', '.', '@' or '-'."
        )
    if user_id == DEFAULT_USER:  # it would see every thread that records no owner
        raise ValueError(f"{DEFAULT_USER!r} is API_TOKEN's user; choose another id.")
    records = read_users(path)
    if any(r["user_id"] == user_id for r in records):
        raise ValueError(f"{user_id!r} exists; revoke it first to give it a new token.")
    token = secrets.token_urlsafe(32)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    records.append({"user_id": user_id, "token_sha256": hash_token(token), "created": created})
    _write_users(path, records)
    return token


def revoke_user(path: Path, user_id: str) -> bool:
    """Remove `user_id` and its token; False when there was no such user."""
    records = read_users(path)
    kept = [r for r in records if r["user_id"] != user_id]
    if len(kept) == len(records):
        return False
    _write_users(path, kept)
    return True


@dataclass
class Tokens:
    """Who a token belongs to: the users file's users, and `default` for API_TOKEN."""

    api_token: str = ""
    users_file: Path | None = None
    _stamp: tuple[int, int, int] | None = field(default=None, repr=False)
    _by_hash: dict[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def from_settings(cls, settings: ServiceSettings) -> Tokens:
        """The tokens of API_TOKEN and USERS_FILE."""
        return cls(settings.api_token, Path(settings.users_file) if settings.users_file else None)

    @property
    def users_on(self) -> bool:
        """Whether there are users (a users file), so that ownership is checked."""
        return self.users_file is not None

    def users(self) -> dict[str, str]:
        """Token hash -> user id, read again when the file has changed."""
        if self.users_file is None:
            return {}
        try:
            stat = self.users_file.stat()
            # every write is a new file (os.replace): a new inode even within one mtime tick
            stamp: tuple[int, int, int] | None = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        except FileNotFoundError:
            stamp = None
        if stamp != self._stamp:
            try:
                records = read_users(self.users_file) if stamp else []
            except (OSError, ValueError) as exc:  # a bad edit: keep the users known so far
                log.error("the users file cannot be read, keeping the last good one: %s", exc)
                self._stamp = stamp
                return self._by_hash
            self._by_hash = {r["token_sha256"]: r["user_id"] for r in records}
            self._stamp = stamp
        return self._by_hash

    def protected(self) -> bool:
        """Whether a request needs a token at all."""
        return bool(self.api_token) or self.users_on

    def identify(self, authorization: str) -> str | None:
        """The caller of `Authorization: Bearer <token>`: a user id, or None when users are off.

        Raises:
            Unauthorized: a token is needed and this one is missing or unknown.
        """
        if not self.protected():
            return None
        scheme, _, token = authorization.partition(" ")
        token = token.strip()
        if scheme.lower() == "bearer" and token:
            if self.api_token and hmac.compare_digest(token.encode(), self.api_token.encode()):
                return DEFAULT_USER if self.users_on else None
            user = self.users().get(hash_token(token))
            if user is not None:
                return user
        raise Unauthorized("Send `Authorization: Bearer <token>` (API_TOKEN or a user's token).")


def set_caller(user: str | None) -> None:
    """Say who the current request comes from (None: users are off)."""
    _caller.set(user)


def caller() -> str | None:
    """Who the current request comes from (None: users are off)."""
    return _caller.get()


def thread_owner() -> str:
    """The owner a thread made now records ("" when users are off: none is kept)."""
    return caller() or ""


def job_owner() -> str:
    """The `user_id` a job made now records."""
    return caller() or DEFAULT_USER


def visible(record: dict[str, Any]) -> bool:
    """Whether the caller may see the thread of this record (never a hidden version slot)."""
    if record.get("version_of"):
        return False
    user = caller()
    return user is None or (record.get("owner") or DEFAULT_USER) == user


def may_use(chat: ChatApp, thread_id: str) -> bool:
    """Whether the caller may use the thread (True for a thread that does not exist)."""
    if caller() is None:
        return True  # no users: no read at all
    from graph.storage.archive import get_thread

    record = get_thread(chat.persistence.archive, thread_id)
    return record is None or visible(record)


def owns(job: Job) -> bool:
    """Whether the caller may see and steer the job."""
    user = caller()
    return user is None or job.user_id == user


def main(argv: list[str] | None = None) -> int:
    """`python -m service.users add|list|revoke`: manage the users file at USERS_FILE."""
    parser = argparse.ArgumentParser(
        prog="python -m service.users", description="Users of the API and their tokens."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("add", help="add a user and print its new token once").add_argument(
        "user_id"
    )
    commands.add_parser("list", help="the users and when each was added")
    commands.add_parser("revoke", help="remove a user and its token").add_argument("user_id")
    args = parser.parse_args(argv)
    settings = load_service_settings()
    if not settings.users_file:
        print("Set USERS_FILE to the users file's path (the API reads the same).", file=sys.stderr)
        return 2
    path = Path(settings.users_file)
    try:
        if args.command == "add":
            print(add_user(path, args.user_id))
            print(
                f"added {args.user_id!r}; this token is shown only now "
                "(send it as `Authorization: Bearer <token>`)",
                file=sys.stderr,
            )
        elif args.command == "list":
            for record in read_users(path):
                print(f"{record['user_id']}\t{record.get('created', '')}")
        elif not revoke_user(path, args.user_id):
            print(f"no user {args.user_id!r} in {path}", file=sys.stderr)
            return 1
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
