"""A new club, walked through in a browser as its people would: alice creates it and
invites bob by username, bob accepts and puts the club's TV view on a second screen,
alice scores a night in the club from its page, and the season's table moves on both
the club page and the TV — the TV by itself."""

import os
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Club, Game
from tests.browser.conftest import PHONE
from tests.browser.test_night_flow import enter_round, log_in
from tests.conftest import chromium_path, require_or_skip

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TV_SCREEN = {"width": 1920, "height": 1080}
# The club's TV polls every few seconds; allow a few polls.
LIVE = 20_000


def test_a_new_club_from_its_creation_to_its_first_night_on_the_tv(alice, bob, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    phone = new_context(PHONE).new_page()
    log_in(phone, "alice")

    # alice creates the club and invites bob by username.
    phone.goto(reverse("games:club_list"))
    phone.get_by_label("Club name").fill("Friday Club")
    phone.get_by_role("button", name="Create the club").click()
    expect(phone.get_by_role("heading", name="Friday Club", level=1)).to_be_visible()
    club = Club.objects.get(name="Friday Club")
    phone.get_by_label("Or invite a player by username").fill("bob")
    phone.get_by_role("button", name="Invite", exact=True).click()
    expect(phone.get_by_text("Invited, waiting for an answer:")).to_contain_text("bob")

    # bob accepts on his own screen, then opens the club's TV view there.
    tv = new_context(TV_SCREEN).new_page()
    log_in(tv, "bob")
    tv.goto(reverse("games:club_list"))
    tv.get_by_role("button", name="Accept: Friday Club").click()
    expect(tv.get_by_role("heading", name="Friday Club", level=1)).to_be_visible()
    tv.goto(reverse("games:club_tv", args=[club.public_id]))
    expect(tv.get_by_text("Live: this page updates by itself")).to_be_visible()
    expect(tv.locator(".season-table tbody tr")).to_have_count(0)

    # alice starts a night from the club's page: one phase, so its first round ends it.
    phone.goto(reverse("games:club_detail", args=[club.public_id]))
    expect(phone.locator(".club-people")).to_contain_text("bob")
    phone.get_by_role("link", name="New game night").click()
    phone.get_by_role("group", name="Seat 2").get_by_label("or a new guest's name").fill("Dora")
    phone.get_by_label("Phases", exact=True).select_option("custom")
    phone.get_by_label("My own list of phases").fill("1")
    phone.get_by_role("button", name="Start the game night").click()
    expect(phone.get_by_text("Game night started.")).to_be_visible()
    night = Game.objects.get(mode=Game.Mode.NIGHT, creator=alice)
    assert night.club_id == club.pk

    enter_round(phone, 1, went_out_name="alice", points={"Dora": 35}, completed=["alice"])
    expect(phone.locator(".banner.win")).to_contain_text("alice wins")

    # The season's table: alice first with 3 points, Dora second with 2 (3-2-1-0).
    rows = tv.locator(".season-table tbody tr")
    expect(rows).to_have_count(2, timeout=LIVE)
    expect(rows.first).to_contain_text("alice")
    expect(rows.first).to_contain_text(re.compile(r"\b3\b"))
    expect(rows.nth(1)).to_contain_text("Dora")
    phone.goto(reverse("games:club_detail", args=[club.public_id]))
    table = phone.locator("#club-season").locator("..").locator(".season-table tbody tr")
    expect(table).to_have_count(2)
    expect(table.first).to_contain_text("alice")
    expect(phone.locator(".club-games").last).to_contain_text("alice won")
