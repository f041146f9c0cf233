"""A real PostgreSQL server for the tests, from Debian's package, in a temporary folder.

`initdb` refuses to run as root, so as root the cluster belongs to an unprivileged user
(`postgres` when the package made it, else `nobody`). The server listens on a free
loopback port with its socket in the same folder, trusts local connections, and is
stopped by its own `pg_ctl` (never by name).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg

from tests.ports import free_port


def find_bin(name: str) -> str | None:
    """A PostgreSQL program: on PATH, else in Debian's versioned folder."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _owner() -> str | None:
    """The unprivileged user to run the cluster as when we are root, else None."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("no unprivileged user to run PostgreSQL as")


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder; `database()` makes a fresh database."""

    def __init__(self, **settings: str) -> None:
        """`settings`: further server settings (`-c name=value`)."""
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        if not initdb or not pg_ctl:
            raise FileNotFoundError("PostgreSQL is not installed (apt install postgresql)")
        self.pg_ctl = pg_ctl
        self.owner = _owner()
        self.root = Path(tempfile.mkdtemp(prefix="pgtest-"))
        self.data = self.root / "data"
        self.port = free_port()
        if self.owner:
            info = pwd.getpwnam(self.owner)
            os.chown(self.root, info.pw_uid, info.pw_gid)
        self.user = self.owner or pwd.getpwuid(os.geteuid()).pw_name
        self._run(
            [
                initdb,
                "-D",
                str(self.data),
                "-U",
                self.user,
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        )
        self._run(
            [
                pg_ctl,
                "-D",
                str(self.data),
                "-l",
                str(self.root / "server.log"),
                "-w",
                "-o",
                f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c max_connections=200"
                + "".join(f" -c {name}={value}" for name, value in settings.items()),
                "start",
            ]
        )
        self.url = f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def _run(self, args: list[str]) -> None:
        if self.owner:
            args = ["runuser", "-u", self.owner, "--", *args]
        result = subprocess.run(  # noqa: S603 - PostgreSQL's own programs
            args, cwd=self.root, capture_output=True, text=True, timeout=120, check=False
        )
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")

    def database(self) -> str:
        """The URL of a new, empty database."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def restart(self) -> None:
        """Stop the server (fast: every connection is dropped) and start it again."""
        log = str(self.root / "server.log")  # not remembered: without it the server keeps our pipe
        self._run([self.pg_ctl, "-D", str(self.data), "-l", log, "-m", "fast", "-w", "restart"])

    def log(self) -> str:
        """The end of the server's log."""
        path = self.root / "server.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        try:
            self._run([self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop"])
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start_or_skip(
    skip: Callable[[str], None], fail: Callable[[str], None], **settings: str
) -> PostgresServer:
    """A started server; missing PostgreSQL fails in CI (which installs it), else skips.

    `settings`: further server settings, as for PostgresServer.
    """
    try:
        return PostgresServer(**settings)
    except FileNotFoundError as exc:
        (fail if os.environ.get("CI") else skip)(f"{exc}; .ci/run installs Debian's postgresql")
        raise
