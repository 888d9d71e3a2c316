"""Setting up a night in a browser (a member by username, the order of play changed by
keyboard, with and without JavaScript), and the TV view on a 1920 × 1080 screen: six
players without a scrollbar, updating by itself. Screenshots go to /tmp/night-screens."""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.engine import Rules
from games.models import Game, Player
from games.nights import services as nights
from games.nights.scoreboard import RoundEntry
from tests.browser.conftest import PHONE, no_horizontal_scroll
from tests.browser.test_night_flow import log_in
from tests.conftest import chromium_path, require_or_skip

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/night-screens")
TV_SCREEN = {"width": 1920, "height": 1080}
# The TV view polls every 3 s; allow a few polls.
LIVE = 12_000


def row(page, number):
    return page.get_by_role("group", name=f"Seat {number}", exact=True)


def latest_night() -> Game:
    return Game.objects.filter(mode=Game.Mode.NIGHT).latest("created_at")


def seated(game: Game) -> list[str]:
    return list(game.seats.order_by("position").values_list("player__name", flat=True))


def test_a_night_with_a_member_by_username_reordered_by_keyboard(alice, bob, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    page = new_context(PHONE).new_page()
    log_in(page, "alice")
    row(page, 2).get_by_label("or a member's username").fill("bob")
    row(page, 3).get_by_label("or a new guest's name").fill("Carol")
    # With JavaScript the place numbers give way to up/down buttons.
    expect(row(page, 1).get_by_label("Place in the order of play")).to_be_hidden()
    up = row(page, 3).get_by_role("button", name="Move up in the order of play")
    up.focus()
    page.keyboard.press("Enter")  # Carol moves to seat 2, and focus stays on her button
    expect(row(page, 2).get_by_label("or a new guest's name")).to_have_value("Carol")
    expect(row(page, 3).get_by_label("or a member's username")).to_have_value("bob")
    expect(row(page, 2).get_by_role("button", name="Move up in the order of play")).to_be_focused()
    expect(page.locator("[data-seat-status]")).to_have_text("Seat 2")
    assert no_horizontal_scroll(page)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / "new-night-member.png", full_page=True)
    page.get_by_role("button", name="Start the game night").click()
    expect(page.get_by_text("were asked first")).to_be_visible()
    game = latest_night()
    assert seated(game) == ["alice", "Carol", "bob"]
    assert [seat.accepted for seat in game.seats.order_by("position")] == [True, True, False]

    # bob finds the night waiting for his answer, and accepts.
    other = new_context(PHONE).new_page()
    log_in(other, "bob")
    other.goto(reverse("games:night_list"))
    expect(other.get_by_text("alice gave you a seat at this game night")).to_be_visible()
    other.get_by_role("button", name="Accept").click()
    expect(other.get_by_text("You're in")).to_be_visible()
    assert all(seat.accepted for seat in game.seats.all())


def test_the_order_of_play_is_set_without_javascript(alice, chromium, live_server):
    require_or_skip("Chromium", chromium_path() is not None)
    context = chromium.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    try:
        page = context.new_page()
        log_in(page, "alice")
        row(page, 2).get_by_label("or a new guest's name").fill("Bob")
        expect(
            row(page, 1).get_by_role("button", name="Move up in the order of play")
        ).to_be_hidden()
        row(page, 1).get_by_label("Place in the order of play").select_option("2")
        row(page, 2).get_by_label("Place in the order of play").select_option("1")
        assert no_horizontal_scroll(page)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SHOTS / "new-night-without-javascript.png")
        page.get_by_role("button", name="Start the game night").click()
        expect(page.get_by_role("heading", name="Enter round 1")).to_be_visible()
        assert seated(latest_night()) == ["Bob", "alice"]
    finally:
        context.close()


def six_player_night(user) -> Game:
    players = [Player.for_user(user), "Bartholomew", "Carol", "Dan", "Evangelina", "Fay"]
    game = nights.create_game(
        user, players=players, first_dealer=0, rules=Rules(), name="Friday at Bob's"
    )
    for number in range(3):
        entry = RoundEntry(
            went_out=number,
            points=tuple(0 if seat == number else 5 * (seat + 2) for seat in range(6)),
            completed={number: None, 5: None},
        )
        game = nights.add_round(game, entry, version=game.version)
    return game


def test_the_tv_view_fits_six_players_on_a_1920_by_1080_screen_and_updates_itself(
    alice, new_context
):
    require_or_skip("Chromium", chromium_path() is not None)
    game = six_player_night(alice)
    page = new_context(TV_SCREEN).new_page()
    page.goto(reverse("games:night_tv", args=[game.share_token]))
    expect(page.locator(".standing")).to_have_count(6)
    expect(page.get_by_text("Live: this page updates by itself after each round.")).to_be_visible()
    fits = page.evaluate(
        """() => {
            const root = document.documentElement;
            return root.scrollHeight <= root.clientHeight && root.scrollWidth <= root.clientWidth;
        }"""
    )
    assert fits, "the TV view scrolls at 1920 × 1080"
    # Every row is on screen, in large type.
    for index in range(6):
        box = page.locator(".standing").nth(index).bounding_box()
        assert box is not None and box["y"] + box["height"] <= TV_SCREEN["height"]
    size = page.locator(".standing .who").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 48
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / "tv-view.png")

    # A round entered on the scorer's phone shows up by itself.
    entry = RoundEntry(went_out=1, points=(25, 0, 10, 10, 10, 10), completed={1: None})
    nights.add_round(game, entry, version=Game.objects.get(pk=game.pk).version)
    expect(page.get_by_text("Round 5")).to_be_visible(timeout=LIVE)
    page.screenshot(path=SHOTS / "tv-view-round-5.png")
