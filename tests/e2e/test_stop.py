"""Stop while the answer streams (issue 12): in Chromium, against a model server that
answers slowly, the stop button ends the turn mid-answer, the message stays as an
unanswered turn, and the retry button answers it after all. Since issue 44 the words
written before the stop stay on screen, marked stopped, with the retry as the one way to
answer again (no red error, no second redo button)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_browser import ARTIFACTS, _browser, streamlit_app
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]  # a walk on a loaded machine
REGENERATE = "🔄 다시 생성"
WORDS = " ".join(f"word{i}" for i in range(200))


@pytest.fixture
def slow_app(tmp_path: Path, http_server: FakeHTTPServer) -> Iterator[str]:
    oai.install(http_server, [oai.slow_text(WORDS, 0.05), oai.text("the answer after all")])
    with streamlit_app(
        tmp_path,
        "streamlit-stop.log",
        CHAT_PROVIDER="openai",
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
    ) as url:
        yield url


def test_stop_ends_the_answer_and_retry_answers_it(slow_app: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(slow_app)
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.wait_for(timeout=60_000)
        box.fill("아주 긴 답을 천천히 써 줘")
        box.press("Enter")
        chat = page.locator(".st-key-chat_scroll")
        chat.get_by_text("word3", exact=False).first.wait_for(timeout=60_000)
        page.get_by_role("button", name="⏹ 답변 중지").click()
        stopped = chat.get_by_text("중지하신 답변", exact=False)
        stopped.first.wait_for(timeout=30_000)
        # the page finishes redrawing from the saved state: no stop button, no stale stream
        page.get_by_role("button", name="⏹ 답변 중지").wait_for(state="detached", timeout=30_000)
        page.wait_for_timeout(500)
        page.screenshot(path=str(ARTIFACTS / "e2e-stopped.png"))
        assert chat.get_by_text("word199", exact=False).count() == 0
        assert chat.get_by_text("word0", exact=False).count() >= 1  # what was written stays
        assert chat.locator('[data-testid="stAlertContentError"]').count() == 0
        assert page.get_by_role("button", name=REGENERATE).count() == 0
        assert chat.get_by_text("아주 긴 답을 천천히 써 줘", exact=True).count() == 1
        page.get_by_role("button", name="🔁 이 턴 다시 답하기").click()
        chat.get_by_text("the answer after all", exact=False).first.wait_for(timeout=30_000)
        # once the page has redrawn, the turn is answered: no retry button, one turn caption
        page.get_by_role("button", name="🔁 이 턴 다시 답하기").wait_for(
            state="detached", timeout=30_000
        )
        # the retry runs in the click's own run (Stop on screen), then the page redraws:
        # until that redraw ends, elements of the run before linger
        expect(page.get_by_role("button", name="⏹ 답변 중지")).to_have_count(0, timeout=30_000)
        expect(chat.get_by_text("1턴", exact=True)).to_have_count(1, timeout=30_000)
        assert chat.get_by_text("중지하신 답변", exact=False).count() == 0
        page.screenshot(path=str(ARTIFACTS / "e2e-stopped-then-retried.png"))
        browser.close()
