"""Issue 35's findings that only a real browser shows (Debian's Chromium via Playwright):
Stop can be pressed while a turn runs, also while approved code runs; a phone opens on the
chat; no Deploy button; the strategy select shows its choice whole."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_browser import ARTIFACTS, _browser, streamlit_app
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]  # a walk on a loaded machine
WORDS = " ".join(f"word{i}" for i in range(200))
STOP = "⏹ 답변 중지"
SLOW_CODE = (
    "이 코드 실행해줘\n```python\nimport time\nprint('PARTIAL', flush=True)\n"
    "time.sleep(30)\nprint('FINISHED')\n```"
)


@pytest.fixture
def slow_app(tmp_path: Path, http_server: FakeHTTPServer) -> Iterator[str]:
    oai.install(http_server, [oai.slow_text(WORDS, 0.05)])
    with streamlit_app(
        tmp_path,
        "streamlit-ui-stop.log",
        CHAT_PROVIDER="openai",
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
    ) as url:
        yield url


@pytest.fixture
def offline_app(tmp_path: Path) -> Iterator[str]:
    with streamlit_app(tmp_path, "streamlit-ui-offline.log", PYTHON_TIMEOUT_S="20") as url:
        yield url


def _shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"e2e-ui-{name}.png"))


def test_stop_is_on_screen_while_the_answer_streams(slow_app: str) -> None:
    """Stop shows in the window (not below the fold of the chat box) from the first tokens."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(slow_app)
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.wait_for(timeout=60_000)
        box.fill("아주 긴 답을 천천히 써 줘")
        box.press("Enter")
        chat = page.locator(".st-key-chat_scroll")
        chat.get_by_text("word3", exact=False).first.wait_for(timeout=60_000)
        stop = page.get_by_role("button", name=STOP)
        expect(stop).to_be_visible(timeout=5_000)
        expect(stop).to_be_in_viewport(timeout=5_000)
        # the only stop on the page is the chat's (not Streamlit's toolbar "Stop" of the script)
        expect(page.get_by_role("button", name="Stop", exact=True)).to_have_count(0)
        _shot(page, "stop-streaming")
        # still streaming: the button came before the answer finished
        assert chat.get_by_text("word199", exact=False).count() == 0
        stop.click()
        expect(chat.get_by_text("중지하신 답변", exact=False).first).to_be_visible(timeout=30_000)
        expect(stop).to_have_count(0, timeout=30_000)
        browser.close()


def test_stop_shows_and_works_while_approved_code_runs(offline_app: str) -> None:
    """Approve a slow python_repl run: Stop is on screen while it runs, and pressing it ends
    the turn as unanswered (retry offered) with the tool's output kept."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(offline_app)
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.wait_for(timeout=60_000)
        box.fill(SLOW_CODE)
        box.press("Enter")
        approve = page.get_by_role("button", name="승인하고 실행")
        expect(approve).to_be_visible(timeout=60_000)
        approve.click()
        stop = page.get_by_role("button", name=STOP)
        expect(stop).to_be_visible(timeout=5_000)
        expect(stop).to_be_in_viewport(timeout=5_000)
        chat = page.locator(".st-key-chat_scroll")
        expect(chat.get_by_text("도구를 실행하는 중", exact=False)).to_be_visible(timeout=10_000)
        expect(approve).to_have_count(0)  # decided: its buttons are gone while it runs
        _shot(page, "stop-code-running")
        # the sandbox starts and prints PARTIAL first (well under a second quiet; more under
        # load): stopped before that, it rightly keeps "(no output)"
        page.wait_for_timeout(5_000)
        stop.click()
        # the code sleeps 30 s: the turn ends before that, with what it printed so far
        expect(chat.get_by_text("중지하신 답변", exact=False).first).to_be_visible(timeout=10_000)
        expect(stop).to_have_count(0, timeout=30_000)
        expect(page.get_by_role("button", name="🔁 이 턴 다시 답하기")).to_be_visible(
            timeout=30_000
        )
        chat.get_by_text("python_repl 호출").last.click()  # the tool step kept its output
        output = chat.locator('[data-testid="stText"]').filter(has_text="[stopped]")
        expect(output).to_contain_text("PARTIAL", timeout=10_000)
        expect(output).not_to_contain_text("FINISHED")
        _shot(page, "stop-code-stopped")
        browser.close()


def test_a_phone_opens_on_the_chat_and_the_page_has_no_deploy_button(offline_app: str) -> None:
    """On a 390 px screen the page opened scrolled to the memory panel (a page with a chat
    input opens at its bottom, and the panel stacked under the chat); Streamlit's Deploy
    button showed (the repo's .streamlit/config.toml, read by `streamlit run app.py`)."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(offline_app)
        welcome = page.get_by_text("안녕하세요! 이 채팅은", exact=False)
        expect(welcome).to_be_in_viewport(timeout=60_000)
        # the input is drawn at the end of the page's first run: on a loaded machine, seconds after
        expect(page.locator('[data-testid="stChatInputTextArea"]')).to_be_in_viewport(
            timeout=60_000
        )
        expect(page.locator(".st-key-memory_panel")).not_to_be_in_viewport()
        expect(page.get_by_role("button", name="Deploy")).to_have_count(0)
        _shot(page, "phone-opens-on-chat")
        # after an answer the chat is still what is on screen
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.fill("안녕하세요")
        box.press("Enter")
        chat = page.locator(".st-key-chat_scroll")
        expect(chat.get_by_text("1턴", exact=True)).to_be_in_viewport(timeout=60_000)
        expect(page.locator(".st-key-memory_panel")).not_to_be_in_viewport()
        _shot(page, "phone-after-answer")
        browser.close()


def test_the_strategy_select_shows_its_choice_whole(offline_app: str) -> None:
    """The sidebar's strategy select cut its (long) option names in both languages."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        for lang, choices in (
            ("ko", ["3턴 요약", "슬라이딩 윈도우", "재귀 요약"]),
            ("en", ["3-turn", "Sliding window", "Recursive"]),
        ):
            page.goto(f"{offline_app}/?lang={lang}")
            sidebar = page.locator('[data-testid="stSidebar"]')
            select = sidebar.locator('[data-testid="stSelectbox"]').filter(
                has_text="기억 방식" if lang == "ko" else "Memory strategy"
            )
            expect(select).to_be_visible(timeout=60_000)
            for i, name in enumerate(choices):
                select.get_by_role("combobox").click()
                page.get_by_role("option", name=name).click()
                field = select.get_by_role("combobox")
                expect(field).to_have_value(re.compile(re.escape(name)), timeout=30_000)
                expect(page.get_by_role("option")).to_have_count(0)
                cut = field.evaluate("e => e.scrollWidth > e.clientWidth")
                _shot(page, f"strategy-{lang}-{i}")
                assert not cut, (lang, field.input_value())
        browser.close()
