"""`uv run python -m service`: the API on HOST:PORT (127.0.0.1:8000).

Jobs run in this process unless REDIS_URL is set; then start workers with
`uv run python -m service.worker`.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from service.security import exposed_without_token
from service.settings import load_service_settings
from service.users import read_users


def main() -> None:
    """Serve until Ctrl+C or SIGTERM; refuse to start past loopback with no token (exit 2)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    settings = load_service_settings()
    users = len(read_users(Path(settings.users_file))) if settings.users_file else 0
    refusal = exposed_without_token(settings, users)
    if refusal is not None:
        print(f"not starting: {refusal}", file=sys.stderr)
        sys.exit(2)
    import uvicorn  # the refusal above comes at once, before the app's imports

    from service.api import create_app

    mode = f"jobs on Redis ({settings.redis_url})" if settings.redis_url else "jobs in-process"
    logging.getLogger("service").info("serving on %s:%s, %s", settings.host, settings.port, mode)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=int(settings.port),
        log_level="warning",
        timeout_graceful_shutdown=5,
    )


if __name__ == "__main__":
    main()
