"""A club's season in a browser: the league table on a 390 px phone without sideways
scrolling, and the club's TV view following a round saved at one of its nights by
itself. Screenshots go to /tmp/club-screens."""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import Rules
from games.models import Game, Player
from games.nights import services as nights
from games.nights.scoreboard import RoundEntry
from tests.browser.conftest import PHONE, no_horizontal_scroll
from tests.browser.test_night_flow import log_in
from tests.clubs.season_helpers import At, club_of, game
from tests.conftest import chromium_path, require_or_skip

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/club-screens")
TV_SCREEN = {"width": 1920, "height": 1080}
# The TV polls every 5 s; allow a few polls.
LIVE = 20_000


def a_club_with_a_night_in_play(alice, bob, carol):  # type: ignore[no-untyped-def]
    club = club_of(alice, bob, carol)
    ann, bo, cy = (Player.for_user(user) for user in (alice, bob, carol))
    guest = Player.objects.create(name="Dora the Long-Named Guest")
    for number in range(6):
        people = [ann, bo, cy, guest][number % 4 :] + [ann, bo, cy, guest][: number % 4]
        game(club, [At(who, rank) for rank, who in enumerate(people, 1)], finished=timezone.now())
    night = nights.create_game(alice, players=[ann, bo, "Eve"], first_dealer=0, rules=Rules())
    Game.objects.filter(pk=night.pk).update(club=club)
    return club, night


def test_the_season_table_reads_on_a_phone(alice, bob, carol, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    club, _night = a_club_with_a_night_in_play(alice, bob, carol)
    page = new_context(PHONE).new_page()
    log_in(page, "alice")
    page.goto(reverse("games:club_season", args=[club.public_id]))
    expect(page.locator(".season-table tbody tr")).to_have_count(4)
    assert no_horizontal_scroll(page)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / "season-phone.png", full_page=True)


def test_the_clubs_tv_shows_a_round_saved_at_one_of_its_nights_by_itself(
    alice, bob, carol, new_context
):
    require_or_skip("Chromium", chromium_path() is not None)
    club, night = a_club_with_a_night_in_play(alice, bob, carol)
    page = new_context(TV_SCREEN).new_page()
    log_in(page, "bob")
    page.goto(reverse("games:club_tv", args=[club.public_id]))
    expect(page.locator(".season-table tbody tr")).to_have_count(4)
    expect(page.get_by_text("Live: this page updates by itself")).to_be_visible()
    fits = page.evaluate(
        """() => {
            const root = document.documentElement;
            return root.scrollHeight <= root.clientHeight && root.scrollWidth <= root.clientWidth;
        }"""
    )
    assert fits, "the club's TV view scrolls at 1920 × 1080"
    expect(page.locator(".club-tv-night small")).to_have_text("0 rounds")

    entry = RoundEntry(went_out=0, points=(0, 35, 15), completed={0: None})
    nights.add_round(night, entry, version=Game.objects.get(pk=night.pk).version)
    expect(page.locator(".club-tv-night small")).to_have_text("1 round", timeout=LIVE)
    expect(page.locator(".club-tv-score")).to_have_text(["0", "15", "35"])
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / "club-tv.png")
