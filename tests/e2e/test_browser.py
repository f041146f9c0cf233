"""A real browser (Debian's Chromium via Playwright) drives `streamlit run app.py`."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = pytest.mark.e2e
if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium for the browser tests (.ci/run installs it)")
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / "streamlit.log"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(
        CHAT_DB_PATH=str(tmp_path / "chat.sqlite"),
        CHAT_PROVIDER="offline",
        INDEX_DIR=str(tmp_path / "index"),
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.3)
        else:
            raise RuntimeError("streamlit did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _send(page, text: str) -> None:
    before = page.locator('[data-testid="stChatMessage"]').count()
    box = page.locator('[data-testid="stChatInputTextArea"]')
    box.fill(text)
    box.press("Enter")
    try:
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=\"stChatMessage\"]').length >= n + 2",
            arg=before,
            timeout=60_000,
        )
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "e2e-failed-send.png"), full_page=True)
        raise
    page.wait_for_timeout(300)


def test_chat_slider_summary_card_and_reload(server: str) -> None:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server)
        page.wait_for_selector('[data-testid="stChatInputTextArea"]', timeout=60_000)
        for text in [
            "안녕하세요, 저는 김하늘입니다.",
            "다음 주 월요일 오후 3시에 회의가 있어요.",
            "예산은 1,200만원으로 정했습니다.",
            "회의 시간이 언제라고 했죠?",
        ]:
            _send(page, text)
        page.get_by_text(re.compile(r"\[1-3턴 요약\] 압축률 0\.3")).wait_for(timeout=20_000)
        page.screenshot(path=str(ARTIFACTS / "e2e-1-card.png"), full_page=True)

        slider = page.locator('[data-testid="stSlider"] input[type="range"]').first
        slider.focus()
        for _ in range(4):
            page.keyboard.press("ArrowRight")
        page.wait_for_timeout(1000)
        assert float(slider.input_value()) == pytest.approx(0.5)
        page.get_by_text("현재 압축률: 0.5").wait_for(timeout=10_000)
        page.screenshot(path=str(ARTIFACTS / "e2e-2-slider.png"), full_page=True)

        url = page.url
        assert "thread=" in url
        page.reload()
        page.wait_for_selector('[data-testid="stChatInputTextArea"]', timeout=60_000)
        page.get_by_text(re.compile(r"\[1-3턴 요약\] 압축률 0\.3")).wait_for(timeout=20_000)
        assert page.url == url
        assert page.get_by_text("회의 시간이 언제라고 했죠?").count() >= 1
        page.screenshot(path=str(ARTIFACTS / "e2e-3-reloaded.png"), full_page=True)
        browser.close()
