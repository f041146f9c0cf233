"""Take the README's screenshot: the offline app in Debian's Chromium after four turns.

`uv run python docs/screenshot.py` starts `streamlit run app.py` on a free port with a
fresh database in a temporary folder (no key: the offline engine answers), sends four
messages so that turn 4 makes the first summary, and writes `docs/screenshot.png`
(reduced to 256 colours, so the file stays small).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshot.png"
CHROMIUM = "/usr/bin/chromium"
MESSAGES = [
    "My name is Minji, and I move to Busan on March 3.",
    "What is 15% of 2400?",
    "My moving budget is 2,000,000 won.",
    "When do I move, and what is my budget?",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    """Start the app, send the messages, save the page as a small PNG."""
    from PIL import Image
    from playwright.sync_api import expect, sync_playwright

    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        env.update(
            CHAT_DB_PATH=f"{tmp}/chat.sqlite", CHAT_PROVIDER="offline", INDEX_DIR=f"{tmp}/index"
        )
        app = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port)]
            + ["--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).read() == b"ok":
                        break
                except OSError:
                    time.sleep(0.3)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(f"{url}/?lang=en")
                box = page.locator('[data-testid="stChatInputTextArea"]')
                box.wait_for(timeout=60_000)
                chat = page.locator(".st-key-chat_scroll")
                stop = page.get_by_role("button", name="⏹ Stop answering")
                for turn, text in enumerate(MESSAGES, start=1):
                    box.fill(text)
                    box.press("Enter")
                    chat.get_by_text(f"Turn {turn}", exact=True).first.wait_for(timeout=60_000)
                    expect(stop).to_have_count(0, timeout=60_000)
                page.wait_for_timeout(1500)
                # the page scrolled down to the input box; show the title and the panel's top
                page.evaluate(
                    "document.querySelectorAll('[data-testid=stMain], [data-testid=stSidebarContent]')"
                    ".forEach(e => e.scrollTo(0, 0))"
                )
                page.wait_for_timeout(500)
                page.screenshot(path=str(OUT))
                browser.close()
        finally:
            app.terminate()
            app.wait(timeout=10)
    Image.open(OUT).convert("RGB").quantize(colors=256).save(OUT, optimize=True)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
