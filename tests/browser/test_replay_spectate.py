"""Watching in a real browser: a spectator follows a game by its link (the board polls
and shows the move made meanwhile), and a finished game's replay is stepped through
with the keyboard."""

import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.engine import Draw, Rules
from games.models import Game
from games.online import services, spectators
from tests.browser.test_online_play import logged_in
from tests.online.helpers import play_on, started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_spectator_sees_a_move_appear_after_polling(new_context, alice, bob):
    game = started_game(alice, bob, seed=4)
    token = spectators.set_link(game, alice, make=True).spectator_token
    page = new_context().new_page()  # no account: the link is all a spectator has
    page.goto(f"/watch/{token}/")
    expect(page.locator("#board")).to_contain_text("No moves yet.")
    expect(page.locator("input[name=cards]")).to_have_count(0)
    game = Game.objects.get(pk=game.pk)
    seat = services.load_state(game).current_seat
    name = game.seats.get(position=seat).player.name
    services.perform(game, seat, Draw(), expected_move=0)
    # The board polls every 3 seconds and swaps itself when the version changed.
    expect(page.locator(".ot-log li").first).to_contain_text(
        f"{name} drew from the draw pile", timeout=8_000
    )
    expect(page.locator("input[name=cards]")).to_have_count(0)


def at_step(page, text):
    """The replay page that says `text` is loaded, its keys ready. The text is there as
    soon as the page is parsed, but static/js/replay.js (deferred) may still be on its
    way, and a key pressed before it runs is lost (seen under load): deferred scripts
    have run once the document's DOMContentLoaded has fired."""
    expect(page.locator("#replay-where")).to_contain_text(text)
    page.wait_for_load_state("domcontentloaded")


def test_a_replay_is_stepped_through_with_the_keyboard(new_context, live_server, alice, bob):
    game = play_on(started_game(alice, bob, seed=5, rules=Rules(phases=(1,))))
    assert game.status == Game.Status.FINISHED
    last = game.move_number
    page = logged_in(new_context(), live_server, alice)
    page.goto(f"/play/{game.public_id}/")
    page.get_by_role("link", name="Watch the replay, every hand shown").click()
    at_step(page, f"Move {last} of {last}")
    page.keyboard.press("Home")
    at_step(page, f"The deal, before move 1 of {last}")
    expect(page).to_have_url(re.compile(r"\?move=0$"))
    # Every hand is shown: two players with ten cards each at the deal.
    expect(page.locator(".ot-replay-hand .pcard")).to_have_count(20)
    page.keyboard.press("ArrowRight")
    at_step(page, f"Move 1 of {last}")
    page.keyboard.press("ArrowRight")
    at_step(page, f"Move 2 of {last}")
    page.keyboard.press("ArrowLeft")
    at_step(page, f"Move 1 of {last}")
    page.keyboard.press("End")
    at_step(page, f"Move {last} of {last}")
    expect(page.locator(".ot-final")).to_contain_text("Final standings")
    # The links work as links too: Tab to "First" and press Enter.
    page.locator("#replay-first").focus()
    page.keyboard.press("Enter")
    at_step(page, f"The deal, before move 1 of {last}")


def test_the_replay_slider_goes_to_the_move_it_shows_and_keeps_focus(
    new_context, live_server, alice, bob
):
    game = play_on(started_game(alice, bob, seed=5, rules=Rules(phases=(1,))))
    page = logged_in(new_context(), live_server, alice)
    page.goto(f"/play/{game.public_id}/replay/?move=0")
    page.locator("#replay-move").focus()
    page.keyboard.press("ArrowRight")  # the slider moves one step: the page goes there
    expect(page.locator("#replay-where")).to_contain_text(f"Move 1 of {game.move_number}")
    expect(page.locator("#replay-move")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-where")).to_contain_text(f"Move 2 of {game.move_number}")


def test_in_arabic_the_arrow_keys_step_as_the_page_reads(new_context, live_server, alice, bob):
    """Right to left, "Back" is drawn on the right: → goes back, ← goes forward."""
    game = play_on(started_game(alice, bob, seed=5, rules=Rules(phases=(1,))))
    context = new_context()
    page = logged_in(context, live_server, alice)
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ar", "url": live_server.url}]
    )
    page.goto(f"/play/{game.public_id}/replay/?move=2")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.wait_for_load_state("domcontentloaded")
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(r"\?move=1$"))
    page.wait_for_load_state("domcontentloaded")
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(r"\?move=2$"))
