"""The Content-Security-Policy in a real browser: it is on, a violation fails a test
(tests/browser/conftest.py), and what used to need inline handlers or htmx's eval
(the language list, a share link's one-tap select, polling only while the page is
seen) works from static/js/site.js."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import is_csp_violation
from tests.browser.test_online_play import log_in, logged_in
from tests.nights.helpers import start_night
from tests.online.helpers import started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Lets a test say the page is hidden (a phone locked, a tab in the background):
# headless Chromium's page is always "visible".
HIDEABLE = """
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return window.__hidden === true; } });
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__hidden === true ? "hidden" : "visible"; } });
"""


def test_pages_carry_the_policy_and_a_refused_inline_handler_fails_the_test(
    phone_page, no_csp_violations
):
    response = phone_page.goto("/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe" not in policy
    # What a template with onclick="" would do: the browser refuses to run it.
    with phone_page.expect_console_message(lambda message: is_csp_violation(message.text)):
        phone_page.evaluate(
            """() => {
                const button = document.createElement("button");
                button.setAttribute("onclick", "document.title = 'ran'");
                document.body.append(button);
                button.click();
            }"""
        )
    assert phone_page.title() != "ran"
    assert any("script-src" in violation for violation in no_csp_violations)
    no_csp_violations.clear()  # expected here; anywhere else it fails the test


def test_picking_a_language_in_the_footer_switches_the_page(phone_page):
    phone_page.goto("/")
    with phone_page.expect_navigation():
        phone_page.get_by_label("Language").select_option("fi")
    expect(phone_page.locator("html")).to_have_attribute("lang", "fi")


def test_one_tap_selects_the_whole_share_link(phone_page, live_server, alice):
    client = Client()
    client.force_login(alice)
    night = start_night(client)
    log_in(phone_page.context, live_server, alice)
    phone_page.goto(night.get_absolute_url())
    phone_page.get_by_text("Share the live scoreboard").click()
    link = phone_page.get_by_label("Link to the live scoreboard")
    link.click()
    selected = phone_page.evaluate(
        "() => { const input = document.activeElement;"
        " return input.value.substring(input.selectionStart, input.selectionEnd); }"
    )
    assert selected == link.input_value() and "/s/" in selected


def test_the_board_polls_only_while_the_page_is_seen(new_context, live_server, alice, bob):
    game = started_game(alice, bob, seed=5)  # bob's turn: alice's board polls
    context = new_context()
    context.add_init_script(HIDEABLE)
    page = logged_in(context, live_server, alice)
    polls: list[str] = []
    page.on(
        "request", lambda request: polls.append(request.url) if "/poll/" in request.url else None
    )
    page.goto(game.get_absolute_url())
    expect(page.get_by_text("Waiting for bob.")).to_be_visible()
    with page.expect_request(lambda request: "/poll/" in request.url):
        pass  # it polls while seen

    page.evaluate(
        """() => {
            window.__skipped = 0;
            document.addEventListener("htmx:beforeRequest", (event) => {
                if (event.defaultPrevented) window.__skipped += 1;
            });
            window.__hidden = true;
        }"""
    )
    page.wait_for_function("() => window.__skipped >= 1", polling=100)
    asked = len(polls)
    page.wait_for_function("() => window.__skipped >= 2", polling=100)
    assert len(polls) == asked  # two turns of the timer passed, nothing was asked

    with page.expect_request(lambda request: "/poll/" in request.url):
        page.evaluate("window.__hidden = false")
    page.close()  # no more polls while this thread reads the database
