"""The rules page on a phone, in Arabic as in English, and a time-limited turn's clock
counting down in the browser between polls."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import no_horizontal_scroll
from tests.browser.test_online_play import log_in
from tests.online.helpers import started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_rules_page_fits_a_phone_and_runs_read_in_the_pages_direction(
    phone_page, live_server, language
):
    page = phone_page
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto("/rules/")
    expect(page.locator("#phase-10")).to_be_visible()
    assert page.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
    assert no_horizontal_scroll(page)
    page.screenshot(path=f"/tmp/rules-phone-{language}.png", full_page=True)
    # Phase 4's run starts at 1: on the left in English, on the right in Arabic.
    cards = page.locator("#phase-4 .pcard")
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert first and second
    assert (first["x"] > second["x"]) is (language == "ar")
    # The table of contents takes you to each section.
    page.locator(".rules-toc a[href='#scoring']").click()
    expect(page.locator("#scoring")).to_be_in_viewport()


def test_the_clock_counts_down_between_polls(phone_page, live_server, alice, bob):
    game = started_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(
        time_limit=timedelta(days=1),
        turn_started_at=timezone.now() - timedelta(hours=2, seconds=-30),
    )
    page = phone_page
    log_in(page.context, live_server, alice)
    page.route("**/poll/**", lambda route: route.abort())  # the page as loaded, no swaps
    page.goto(game.get_absolute_url())
    clock = page.locator("[data-time-left]")
    expect(clock).to_have_text("22 hours")
    # Five minutes (and a few seconds) before the deadline, the next tick says so.
    page.evaluate(
        """() => {
            const clock = document.querySelector('[data-time-left]');
            clock.dataset.deadline = new Date(Date.now() + 5 * 60000 + 5000).toISOString();
            document.dispatchEvent(new Event('htmx:afterSettle'));
        }"""
    )
    expect(clock).to_have_text("5 minutes")
    page.evaluate(
        """() => {
            const clock = document.querySelector('[data-time-left]');
            clock.dataset.deadline = new Date(Date.now() - 1000).toISOString();
            document.dispatchEvent(new Event('htmx:afterSettle'));
        }"""
    )
    expect(clock).to_have_text("time is up")
