"""The service's /docs renders in Chromium with every request outside the service refused:
the Swagger UI comes from the installed bundle, not a CDN."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_browser import ARTIFACTS, _browser
from tests.service.conftest import start_service

pytestmark = pytest.mark.e2e


def test_docs_render_offline(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    svc = start_service(tmp_path)
    outside: list[str] = []
    try:
        ARTIFACTS.mkdir(exist_ok=True)
        with sync_playwright() as pw:
            browser = _browser(pw)
            page = browser.new_page(viewport={"width": 1200, "height": 900})

            def only_local(route) -> None:
                if route.request.url.startswith(svc.url):
                    route.continue_()
                else:
                    outside.append(route.request.url)
                    route.abort()

            page.route("**/*", only_local)
            page.goto(f"{svc.url}/docs")
            page.locator(".swagger-ui .title").get_by_text("Context chat service").wait_for(
                timeout=30_000
            )
            page.get_by_text("/chat/jobs").first.wait_for(timeout=10_000)
            page.screenshot(path=str(ARTIFACTS / "e2e-service-docs.png"))
            browser.close()
    finally:
        svc.proc.stop()
    assert outside == []


def test_redoc_renders_without_reaching_outside(tmp_path: Path) -> None:
    """Issue 44, item 9: /redoc renders, and no request leaves the service (its sidebar's
    logo came from cdn.redoc.ly)."""
    from playwright.sync_api import sync_playwright

    svc = start_service(tmp_path)
    outside: list[str] = []
    try:
        with sync_playwright() as pw:
            browser = _browser(pw)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.on(
                "request",
                lambda request: (
                    None
                    if request.url.startswith((svc.url, "data:", "blob:"))
                    else outside.append(request.url)
                ),
            )
            page.goto(f"{svc.url}/redoc")
            page.get_by_text("Context chat service").first.wait_for(timeout=30_000)
            page.get_by_text("/chat/jobs").first.wait_for(timeout=10_000)
            page.wait_for_timeout(1_000)  # the sidebar's footer (and its logo) comes last
            page.screenshot(path=str(ARTIFACTS / "e2e-service-redoc.png"))
            browser.close()
    finally:
        svc.proc.stop()
    assert outside == []
