"""Arabic in Chromium: an email reads right to left, and the round form's counting
buttons read "+5" (a plus sign before the number), not "5+"."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.engine import Rules
from games.models import Player
from games.nights import services as nights
from tests.browser.test_online_play import log_in
from tests.notify.helpers import AFTERNOON, game_between

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_arabic_game_email_is_laid_out_right_to_left(
    chromium, alice, bob, mailoutbox, time_machine
):
    time_machine.move_to(AFTERNOON)  # outside bob's quiet hours, whenever the suite runs
    bob.profile.language = "ar"
    bob.profile.save()
    game_between(alice, bob)  # bob plays first: his turn's email, in Arabic
    [message] = [m for m in mailoutbox if m.to == [bob.email]]
    html, _type = message.alternatives[0]
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.set_content(html)
        assert page.evaluate("() => document.documentElement.dir") == "rtl"
        assert page.evaluate("() => document.documentElement.lang") == "ar"
        # The text itself runs right to left, and starts at the right-hand edge.
        paragraph = page.locator("p").first
        assert paragraph.evaluate("p => getComputedStyle(p).direction") == "rtl"
        assert paragraph.evaluate("p => getComputedStyle(p).textAlign") in ("right", "start")
    finally:
        context.close()


def test_counting_buttons_read_plus_five_in_arabic(chromium, live_server, alice):
    game = nights.create_game(
        alice, players=[Player.for_user(alice), "Bob"], first_dealer=0, rules=Rules()
    )
    context = chromium.new_context(base_url=live_server.url)
    try:
        log_in(context, live_server, alice)
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ar", "url": live_server.url}]
        )
        page = context.new_page()
        page.goto(game.get_absolute_url())
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        # Where the sign and the number are drawn (in the counter, opened): the sign on the left.
        page.locator("button.count").first.click()
        expect(page.locator("button[data-add='5']").first).to_be_visible()
        sign, number = page.locator("button[data-add='5']").first.evaluate(
            """button => [0, 1].map(start => {
                const range = document.createRange();
                range.setStart(button.firstChild, start);
                range.setEnd(button.firstChild, start + 1);
                return range.getBoundingClientRect().left;
            })"""
        )
        assert sign < number
    finally:
        context.close()
