"""Issue 3 benchmark: server-side render time of the page, 300-turn thread vs 10-turn thread.

    uv run python bench/render_page.py

Both threads are replayed into one database, then the page is rendered by Streamlit's
AppTest (the same script run a browser triggers) for each thread; the median of several
runs is compared in one process. Target: the 300-turn page within 2x of the 10-turn page.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.transcripts import make_transcript  # noqa: E402


def main(runs: int = 7) -> None:
    tmp = Path(tempfile.mkdtemp())
    db = tmp / "render.sqlite"
    os.environ.update(CHAT_DB_PATH=str(db), CHAT_PROVIDER="offline", INDEX_DIR=str(tmp / "index"))
    from graph.replay import replay

    long_id = replay(make_transcript(300)["turns"], 0.3, db)["thread_id"]
    short_id = replay(make_transcript(10, seed=3)["turns"], 0.3, db)["thread_id"]

    import streamlit as st
    from streamlit.testing.v1 import AppTest

    def render(thread: str) -> float:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.query_params["thread"] = thread
        start = time.perf_counter()
        at.run()
        elapsed = (time.perf_counter() - start) * 1000
        assert not at.exception, at.exception
        return elapsed

    st.cache_resource.clear()
    render(short_id)  # warm-up: imports, graph compilation, caches
    timings: dict[str, list[float]] = {"10": [], "300": []}
    for _ in range(runs):
        timings["10"].append(render(short_id))
        timings["300"].append(render(long_id))
    short, long = statistics.median(timings["10"]), statistics.median(timings["300"])
    print(
        f"page render ms (median of {runs}): 10-turn thread = {short:.1f}, 300-turn thread = {long:.1f}"
    )
    print(f"300/10 = {long / short:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
