"""Playwright driving Debian's Chromium (Playwright can't download its own
browsers here). Tests use pytest-django's live_server, which needs
transactional_db; sync Playwright runs an event loop, hence the async flag.

The site's Content-Security-Policy is on (settings.SECURE_CSP), and every browser
context a test opens reports what it refuses: a test fails on any CSP violation
(an inline handler or style, eval, a script from elsewhere), seen either as the
page's `securitypolicyviolation` event or as Chromium's console message."""

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


# Runs in every page before its own scripts (Playwright's init scripts are exempt from
# the page's policy); the event also catches what Chromium doesn't log, e.g. in a frame.
# (A test's own page.wait_for_function needs a function, "() => …": an expression string
# is evaluated with eval, which the policy refuses.)
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  const where = event.target instanceof Element ? event.target.outerHTML.slice(0, 160) : "";
  console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI}`
    + ` at ${event.sourceFile}:${event.lineNumber} (${event.sample}) ${where}`);
}, true);
// htmx with allowEval off skips what would need eval (a trigger filter, hx-on, js: values)
// instead of refusing it loudly: count that as a violation too.
document.addEventListener("htmx:evalDisallowedError", (event) => {
  console.error(`CSP violation: htmx needs eval for ${event.target.outerHTML.slice(0, 160)}`);
});
"""


def is_csp_violation(text: str) -> bool:
    return text.startswith("CSP violation:") or "Content Security Policy" in text


class WatchedBrowser:
    """The Chromium browser, whose new contexts report CSP violations into
    `violations` (the autouse fixture below fails the test on any)."""

    def __init__(self, browser) -> None:
        self.browser = browser
        self.violations: list[str] = []

    def new_context(self, **options):
        context = self.browser.new_context(**options)
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("console", self._console)
        return context

    def _console(self, message) -> None:
        if is_csp_violation(message.text):
            self.violations.append(f"{message.page.url if message.page else '?'}: {message.text}")


@pytest.fixture(scope="session")
def chromium():
    path = chromium_path()
    require_or_skip("Chromium", path is not None)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        yield WatchedBrowser(browser)
        browser.close()


@pytest.fixture(autouse=True)
def no_csp_violations(chromium):
    """Set up before (so torn down after) the fixtures that close the test's contexts,
    by which time every message the pages logged has arrived."""
    chromium.violations.clear()
    yield chromium.violations
    if chromium.violations:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(chromium.violations))


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
