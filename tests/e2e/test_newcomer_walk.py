"""A newcomer's walk in Chromium (issue 44, items 1, 2, 3, 6 and 7), with wordings of its
own (none of the issue's, none of tests/fixtures/issue44): a request with code runs after
approval, a request for code or for an act is told plainly, a joined question gets a
passage per topic, a stop keeps what was written and a rejection is no error, and the
Korean UI speaks Korean (results, notes, the uploader, the supervisor's approval box).

Each check is counted; the walk prints (and writes to the artifacts) how many passed, and
fails if any did not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.test_browser import ARTIFACTS, _browser, _send, streamlit_app
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]
STOP = "⏹ 답변 중지"
WORDS = " ".join(f"piece{i}" for i in range(200))


class Walk:
    """Named checks, each counted pass or fail, the walk going on after a failure."""

    def __init__(self) -> None:
        self.results: list[tuple[str, bool, str]] = []

    def check(self, item: str, name: str, step: Callable[[], None]) -> None:
        try:
            step()
            self.results.append((f"item {item}: {name}", True, ""))
        except Exception as exc:  # noqa: BLE001 - counted, reported at the end
            self.results.append((f"item {item}: {name}", False, str(exc).splitlines()[0][:300]))

    def report(self) -> str:
        passed = sum(ok for _, ok, _ in self.results)
        lines = [f"newcomer walk: {passed}/{len(self.results)} checks passed"]
        lines += [f"  {'ok  ' if ok else 'FAIL'} {name} {why}" for name, ok, why in self.results]
        return "\n".join(lines)


@pytest.fixture
def offline(tmp_path: Path) -> Iterator[str]:
    with streamlit_app(tmp_path / "a", "streamlit-walk.log", PYTHON_TIMEOUT_S="20") as url:
        yield url


@pytest.fixture
def supervisor(tmp_path: Path) -> Iterator[str]:
    with streamlit_app(tmp_path / "b", "streamlit-walk-sup.log", AGENT_MODE="supervisor") as url:
        yield url


@pytest.fixture
def slow(tmp_path: Path, http_server: FakeHTTPServer) -> Iterator[str]:
    oai.install(http_server, [oai.slow_text(WORDS, 0.05), oai.text("다시 쓴 답입니다")])
    with streamlit_app(
        tmp_path / "c",
        "streamlit-walk-slow.log",
        CHAT_PROVIDER="openai",
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
    ) as url:
        yield url


def _last_answer(page) -> str:
    return page.locator('.st-key-chat_scroll [data-testid="stChatMessage"]').last.inner_text()


def test_a_newcomers_walk(offline: str, supervisor: str, slow: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    walk = Walk()
    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(offline)
        page.wait_for_selector('[data-testid="stChatInputTextArea"]', timeout=60_000)
        chat = page.locator(".st-key-chat_scroll")

        # item 1: a request with code opens the approval box with that code, and runs it
        _send(page, "코드: print(6 * 7)", 1)
        walk.check(
            "1",
            "the code asks for approval",
            lambda: expect(page.get_by_role("button", name="승인하고 실행")).to_be_visible(
                timeout=30_000
            ),
        )
        walk.check(
            "1",
            "the box shows the code as sent",
            lambda: expect(chat.get_by_text("print(6 * 7)").first).to_be_visible(),
        )
        page.get_by_role("button", name="승인하고 실행").click()
        walk.check(
            "1",
            "it runs and its result is said in Korean",
            lambda: expect(chat.get_by_text("코드 실행 결과입니다").last).to_be_visible(
                timeout=60_000
            ),
        )
        page.wait_for_timeout(1_000)
        _send(page, "파이썬으로 별 찍기 해줘", 2)
        answer = _last_answer(page)
        walk.check(
            "1", "a request for code says it writes none", lambda: _has(answer, "짜지 못합니다")
        )
        walk.check("1", "... and is no note", lambda: _lacks(answer, "기억해 두겠습니다"))

        # item 2: a request to act is said plainly, never noted
        _send(page, "다음 달 동호회비 3만원 송금해 줘", 3)
        answer = _last_answer(page)
        walk.check("2", "a payment request: it cannot", lambda: _has(answer, "할 수 없습니다"))
        walk.check("2", "... and it is no note", lambda: _lacks(answer, "기억해 두겠습니다"))
        _send(page, "내일 아침 팀장님께 출장 보고서 메일로 보내 줘", 4)
        answer = _last_answer(page)
        walk.check("2", "a mail request: it cannot", lambda: _has(answer, "할 수 없습니다"))

        # item 3: two joined topics get a passage each
        _send(page, "건강검진이랑 복지 포인트 알려줘", 5)
        answer = _last_answer(page)
        walk.check("3", "the first topic's passage", lambda: _has(answer, "> 건강검진"))
        walk.check("3", "the second topic's passage", lambda: _has(answer, "> 복지 포인트"))

        # item 7: words of the Korean UI
        _send(page, "내일 서울 날씨 어때?", 6)
        answer = _last_answer(page)
        walk.check("7", "a missing key is explained in Korean", lambda: _has(answer, "날씨 조회"))
        walk.check("7", "... without English", lambda: _lacks(answer, "needs"))
        page.locator('[data-testid="stChatInputTextArea"]').fill("```python\nprint(8 + 8)\n```")
        page.locator('[data-testid="stChatInputTextArea"]').press("Enter")
        editor = page.locator('[data-testid="stTextArea"] textarea').first
        editor.wait_for(timeout=60_000)
        editor.fill("print('고친 코드')")
        page.get_by_role("button", name="수정해서 실행").click()
        walk.check(
            "7",
            "an edited run is reported in Korean",
            lambda: expect(chat.get_by_text("코드 실행 결과입니다").last).to_be_visible(
                timeout=60_000
            ),
        )
        page.wait_for_timeout(1_500)
        walk.check("7", "... with no 'says:'", lambda: _lacks(chat.inner_text(), "says:"))
        walk.check(
            "7",
            "the tool step's decision is in Korean",
            lambda: expect(chat.get_by_text("결정: 수정해서 실행").first).to_be_attached(),
        )
        uploader = page.locator(".st-key-import_upload")
        uploader.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        walk.check("7", "the uploader's button is Korean", lambda: _css_after(page, "파일 선택"))
        walk.check("7", "the uploader's limit is Korean", lambda: _css_after(page, "파일당 최대"))
        uploader.screenshot(path=str(ARTIFACTS / "e2e-walk-uploader.png"))

        # item 6: a rejection is the user's own act, not a red error
        _send(page, "코드: print('안 돌릴 코드')", 8)
        page.get_by_role("button", name="거절").click()
        walk.check(
            "6",
            "a rejection is said as a note",
            lambda: expect(
                chat.get_by_text("✋ 거절하셔서 실행하지 않았습니다").last
            ).to_be_visible(timeout=30_000),
        )
        page.wait_for_timeout(1_000)
        walk.check(
            "6",
            "... with no red error",
            lambda: _count(chat.locator('[data-testid="stAlertContentError"]'), 0),
        )
        page.screenshot(path=str(ARTIFACTS / "e2e-walk-offline.png"), full_page=True)

        # item 6: a stop keeps what was written, marked stopped, with one way to redo
        page.goto(slow)
        page.wait_for_selector('[data-testid="stChatInputTextArea"]', timeout=60_000)
        chat = page.locator(".st-key-chat_scroll")
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.fill("온보딩 첫날 일정을 길게 풀어서 말해 줘")
        box.press("Enter")
        chat.get_by_text("piece4", exact=False).first.wait_for(timeout=60_000)
        page.get_by_role("button", name=STOP).click()
        walk.check(
            "6",
            "the stop is marked as the user's",
            lambda: expect(chat.get_by_text("중지하신 답변").first).to_be_visible(timeout=30_000),
        )
        expect(page.get_by_role("button", name=STOP)).to_have_count(0, timeout=30_000)
        page.wait_for_timeout(1_000)
        walk.check(
            "6",
            "what was written stays",
            lambda: expect(chat.get_by_text("piece2", exact=False).first).to_be_visible(),
        )
        walk.check(
            "6",
            "no red error",
            lambda: _count(chat.locator('[data-testid="stAlertContentError"]'), 0),
        )
        walk.check(
            "6",
            "one way to redo",
            lambda: (
                _count(page.get_by_role("button", name="🔁 이 턴 다시 답하기"), 1),
                _count(page.get_by_role("button", name="🔄 다시 생성"), 0),
            ),
        )
        page.screenshot(path=str(ARTIFACTS / "e2e-walk-stopped.png"), full_page=True)
        page.get_by_role("button", name="🔁 이 턴 다시 답하기").click()
        walk.check(
            "6",
            "the redo answers it",
            lambda: expect(chat.get_by_text("다시 쓴 답입니다").first).to_be_visible(
                timeout=60_000
            ),
        )

        # item 7: the supervisor's approval box speaks to a plain user
        page.goto(supervisor)
        page.wait_for_selector('[data-testid="stChatInputTextArea"]', timeout=60_000)
        chat = page.locator(".st-key-chat_scroll")
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.fill("납품 계약서에서 검수 기간 조항 좀 알려 줄래?")
        box.press("Enter")  # the step waits for approval before it answers: no turn caption
        walk.check(
            "7",
            "the approval box is worded as a question about a contract",
            lambda: expect(chat.get_by_text("계약 문서에 관한 질문입니다").first).to_be_visible(
                timeout=30_000
            ),
        )
        walk.check("7", "no agent's name", lambda: _lacks(chat.inner_text(), "_agent"))
        walk.check(
            "7",
            "no JSON to edit",
            lambda: _lacks(
                page.locator('[data-testid="stTextArea"] textarea').first.input_value(), "{"
            ),
        )
        page.screenshot(path=str(ARTIFACTS / "e2e-walk-supervisor.png"), full_page=True)
        browser.close()
    report = walk.report()
    (ARTIFACTS / "e2e-walk.txt").write_text(report + "\n", encoding="utf-8")
    print(report)
    assert all(ok for _, ok, _ in walk.results), report


def _has(text: str, part: str) -> None:
    assert part in text, f"{part!r} not in {text[:300]!r}"


def _lacks(text: str, part: str) -> None:
    assert part not in text, f"{part!r} in {text[:300]!r}"


def _count(locator, n: int) -> None:
    assert locator.count() == n, f"{locator.count()} != {n}"


def _css_after(page, words: str) -> None:
    """Whether the import box draws `words` (its drop zone's words are CSS content)."""
    drawn = page.evaluate(
        """() => Array.from(document.querySelectorAll('.st-key-import_upload *'))
            .map(e => getComputedStyle(e, '::after').content).join(' ')"""
    )
    assert re.search(re.escape(words), drawn), drawn
