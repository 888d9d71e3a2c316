"""Playwright driving Debian's Chromium (Playwright can't download its own
browsers here). Tests use pytest-django's live_server, which needs
transactional_db; sync Playwright runs an event loop, hence the async flag."""

import os

import pytest

from tests.conftest import chromium_path, require_or_skip

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="session")
def chromium():
    path = chromium_path()
    require_or_skip("Chromium", path is not None)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def phone_page(chromium, live_server):
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def new_context(chromium, live_server):
    """Factory for extra contexts (a second player, a viewer on a share link)."""
    contexts = []

    def make(viewport=PHONE):
        context = chromium.new_context(viewport=viewport, base_url=live_server.url)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def no_horizontal_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
