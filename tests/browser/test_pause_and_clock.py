"""A pause agreed from two browsers: the other board follows by polling, the clock stops
and says so, and resuming starts it again; My games counts each timed turn down."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from tests.browser.test_online_play import log_in, logged_in
from tests.online.helpers import started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_people_pause_a_timed_game_and_one_resumes_it(new_context, live_server, alice, bob):
    game = started_game(alice, bob, seed=5)  # bob plays first
    Game.objects.filter(pk=game.pk).update(time_limit=timedelta(days=1))
    alice_page = logged_in(new_context(), live_server, alice)
    bob_page = logged_in(new_context(), live_server, bob)
    alice_page.goto(game.get_absolute_url())
    bob_page.goto(game.get_absolute_url())
    expect(alice_page.locator(".ot-clock [data-deadline]")).to_be_visible()

    alice_page.get_by_role("button", name="Ask to pause the game").click()
    expect(alice_page.locator("#board")).to_contain_text("A pause is asked for. Agreed: alice.")
    expect(bob_page.locator("#board")).to_contain_text("Waiting for: bob.")  # by polling
    bob_page.get_by_role("button", name="Agree to pause").click()
    for page in (alice_page, bob_page):
        expect(page.locator(".ot-pause .banner")).to_contain_text("The game is paused")
        expect(page.locator(".ot-clock")).to_contain_text("(paused)")
        expect(page.locator("[data-deadline]")).to_have_count(0)
    expect(bob_page.get_by_role("button", name="Draw", exact=True)).to_have_count(0)

    alice_page.get_by_role("button", name="Resume the game").click()
    expect(bob_page.get_by_role("button", name="Draw", exact=True)).to_be_visible()
    expect(bob_page.locator(".ot-clock [data-deadline]")).to_be_visible()
    for page in (alice_page, bob_page):
        page.close()


def test_my_games_counts_a_timed_turn_down_without_reloading(phone_page, live_server, alice, bob):
    game = started_game(bob, alice)  # alice plays first
    Game.objects.filter(pk=game.pk).update(
        time_limit=timedelta(days=1), turn_started_at=timezone.now() - timedelta(hours=2)
    )
    page = phone_page
    log_in(page.context, live_server, alice)
    page.goto("/play/")
    clock = page.locator(".ot-game.mine [data-time-left]")
    expect(clock).to_have_text("21 hours, 59 minutes")
    page.evaluate(
        """() => {
            const clock = document.querySelector('.ot-game.mine [data-time-left]');
            clock.dataset.deadline = new Date(Date.now() + 5 * 60000 + 5000).toISOString();
            document.dispatchEvent(new Event('htmx:afterSettle'));
        }"""
    )
    expect(clock).to_have_text("5 minutes")
