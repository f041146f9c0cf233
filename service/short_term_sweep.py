"""Seed 003's batch cleanup of the short-term keys in Redis (its checklist item 13).

    uv run python -m service.short_term_sweep [--idle-s SECONDS] [--batch 500]

With REDIS_URL and the app's database settings (CHAT_DB_PATH or DATABASE_URL), removes in
batches the keys `chat:{tenant}:{session}:short|memory|entities` of threads idle longer
than SHORT_TERM_IDLE_S (or `--idle-s`), of threads the database no longer has or that
belong to another tenant, keys with no TTL and incomplete sets
(`graph.memory.short_term.sweep`); prints what it removed, by reason. The service runs
the same sweep every SHORT_TERM_SWEEP_S (`schedule`).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable

from graph.memory.short_term import RedisShortTermStore, SweepReport, sweep
from graph.settings import Settings, load_settings
from graph.storage.archive import Archive, get_thread

log = logging.getLogger(__name__)


def owner_lookup(archive: Archive) -> Callable[[str], str | None]:
    """The tenant of a thread as the database knows it ('' for none), None if unknown."""

    def owner_of(thread_id: str) -> str | None:
        record = get_thread(archive, thread_id)
        return None if record is None else str(record.get("owner") or "")

    return owner_of


def run_sweep(
    settings: Settings, archive: Archive | None, idle_s: float | None = None, batch: int = 500
) -> SweepReport:
    """One batch cleanup with these settings; `archive` None skips the database check."""
    store = RedisShortTermStore(settings.short_term_redis_url, settings.short_term_ttl)
    return sweep(
        store.client,
        settings.short_term_ttl,
        settings.short_term_idle if idle_s is None else idle_s,
        owner_lookup(archive) if archive is not None else None,
        batch,
    )


async def schedule(settings: Settings, archive: Archive, every_s: float) -> None:
    """Sweep every `every_s` seconds until cancelled (the service's lifespan runs it)."""
    while True:
        await asyncio.sleep(every_s)
        try:
            report = await asyncio.to_thread(run_sweep, settings, archive)
        except Exception as exc:  # noqa: BLE001 - the next sweep tries again
            log.warning("short-term sweep failed: %s", exc)
            continue
        if report.threads:
            log.info(
                "short-term sweep removed %s threads' keys: %s", report.threads, report.removed
            )


def main() -> None:
    """Run one sweep and print what it removed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-s", type=float, default=None)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    settings = load_settings()
    if not settings.short_term_redis_url.strip():
        print("REDIS_URL is not set: there are no short-term keys to sweep", file=sys.stderr)
        sys.exit(2)
    from graph.storage.persistence import open_persistence

    persistence = open_persistence(settings.database)
    try:
        report = run_sweep(settings, persistence.archive, args.idle_s, args.batch)
    finally:
        persistence.close()
    print(f"scanned {report.scanned} keys; removed the keys of {report.threads} threads")
    for why, pairs in sorted(report.removed.items()):
        print(
            f"  {why}: {len(pairs)} ({', '.join(pairs[:10])}{', ...' if len(pairs) > 10 else ''})"
        )


if __name__ == "__main__":
    main()
