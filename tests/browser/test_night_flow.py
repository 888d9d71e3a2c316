"""A whole game night on phones: alice scores a 3-player game from the new-night form
to the winner, corrects an earlier round on the way, and a second phone on the share
link sees every change by itself. A correction after the end is shown before it is
saved, with and without JavaScript. Screenshots go to /tmp/night-screens for a human."""

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.engine import Rules
from games.models import Player
from games.nights import services as nights
from games.nights.scoreboard import RoundEntry
from tests.browser.conftest import SMALL_PHONE, no_horizontal_scroll
from tests.conftest import PASSWORD, chromium_path, require_or_skip

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/night-screens")
# The share page polls every 3 s; allow a few polls.
LIVE = 12_000


def log_in(page, username):
    page.goto("/accounts/login/?next=/nights/new/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/nights/new/")


def seat(page, name):
    return page.locator("fieldset.seat-entry", has=page.locator("legend", has_text=name))


def went_out(page, name):
    """The one "Who went out?" group: a radio per player."""
    return page.get_by_role("group", name="Who went out?").get_by_label(name, exact=True)


def total(page, name):
    return page.locator(f'.standing[data-player="{name}"] .total')


def enter_round(page, number, went_out_name, points, completed, counted=None):
    """Fill the inline round form; `counted` uses the +5/+10/+15/+25 buttons instead."""
    went_out(page, went_out_name).check()
    for name in completed:
        seat(page, name).get_by_role("checkbox", name=re.compile("done")).check()
    for name, value in points.items():
        seat(page, name).get_by_label("Points").fill(str(value))
    for name, buttons in (counted or {}).items():
        count(page, name, buttons)
    page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.get_by_text(f"Round {number} saved.")).to_be_visible()


def count(page, name, buttons):
    """Count a player's cards: the counter opens over the form, Done closes it."""
    seat(page, name).get_by_role("button", name=f"Count the cards of {name}").click()
    counter = page.get_by_role("group", name=f"Count the cards of {name}")
    for label in buttons:
        counter.get_by_role("button", name=label, exact=True).click()
    counter.get_by_role("button", name="Done").click()
    expect(counter).to_be_hidden()


def shot(page, name):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)
    assert no_horizontal_scroll(page), name


def test_a_whole_game_night_with_a_correction_and_a_live_share_link(alice, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    scorer = new_context().new_page()
    log_in(scorer, "alice")

    # New game night: alice, two guests, Bob deals first, phases 1–3.
    scorer.get_by_role("group", name="Seat 2").get_by_label("or a new guest's name").fill("Bob")
    scorer.get_by_role("group", name="Seat 3").get_by_label("or a new guest's name").fill("Carol")
    scorer.locator('input[name="first_dealer"][value="1"]').check()
    scorer.get_by_label("Phases", exact=True).select_option("custom")
    scorer.get_by_label("My own list of phases").fill("1, 2, 3")
    shot(scorer, "1-new-night")
    scorer.get_by_role("button", name="Start the game night").click()
    expect(scorer.get_by_text("Game night started.")).to_be_visible()
    expect(scorer.locator(".round-line")).to_contain_text("Bob deals")
    expect(scorer.locator(".round-line")).to_contain_text("Carol plays first")

    # A second phone follows the share link (no account needed).
    share_url = scorer.get_by_label("Link to the live scoreboard").input_value()
    viewer = new_context(viewport=SMALL_PHONE).new_page()
    viewer.goto(share_url)
    expect(total(viewer, "Carol")).to_have_text("0")

    # Round 1, with inline validation first: Carol's points are missing.
    went_out(scorer, "alice").check()
    seat(scorer, "Bob").get_by_label("Points").fill("20")
    scorer.get_by_role("button", name="Save round 1").click()
    expect(seat(scorer, "Carol").get_by_text("Enter the points of Carol.")).to_be_visible()
    expect(seat(scorer, "alice").get_by_role("checkbox", name=re.compile("done"))).to_be_checked()
    shot(scorer, "2-round-form-with-an-error")
    seat(scorer, "Bob").get_by_role("checkbox", name=re.compile("done")).check()
    count(scorer, "Carol", ("+25", "+10", "+15", "Reset", "+25", "+10", "+10"))
    expect(seat(scorer, "Carol").get_by_label("Points")).to_have_value("45")
    scorer.get_by_role("button", name="Save round 1").click()
    expect(scorer.get_by_text("Round 1 saved.")).to_be_visible()
    expect(total(viewer, "Carol")).to_have_text("45", timeout=LIVE)
    expect(total(viewer, "Bob")).to_have_text("20")

    # Round 2: Bob goes out; alice lays phase 2, Carol finally lays phase 1.
    enter_round(
        scorer,
        2,
        went_out_name="Bob",
        points={"alice": 10, "Carol": 30},
        completed=["alice", "Carol"],
    )
    expect(total(viewer, "Carol")).to_have_text("75", timeout=LIVE)
    shot(viewer, "3-share-link-small-phone")
    # The answer kept the rounds' table on the page and added round 2's row and the totals.
    expect(scorer.locator("#history-rows tr")).to_have_count(2)
    expect(scorer.locator("#history-totals td")).to_have_text(["10", "20", "75"])
    expect(scorer.locator("#history")).to_have_count(1)
    # The row added out of band opens its round like the others.
    scorer.get_by_title("Correct round 2").click()
    expect(scorer.get_by_role("heading", name="Correct round 2")).to_be_visible()

    # Correction: Bob really had 25 points in round 1.
    scorer.get_by_title("Correct round 1").click()
    expect(scorer.get_by_role("heading", name="Correct round 1")).to_be_visible()
    expect(seat(scorer, "Bob").get_by_label("Points")).to_have_value("20")
    seat(scorer, "Bob").get_by_label("Points").fill("25")
    shot(scorer, "4-correcting-round-1")
    scorer.get_by_role("button", name="Save the correction").click()
    expect(scorer.get_by_text("Round 1 corrected")).to_be_visible()
    expect(total(scorer, "Bob")).to_have_text("25")
    expect(total(viewer, "Bob")).to_have_text("25", timeout=LIVE)

    # Round 3: alice completes phase 3, the last one: she wins.
    enter_round(
        scorer, 3, went_out_name="Carol", points={"alice": 15, "Bob": 40}, completed=["alice"]
    )
    expect(scorer.locator(".banner.win")).to_contain_text("alice wins after 3 rounds!")
    expect(total(scorer, "alice")).to_have_text("25")
    expect(scorer.locator("#history-rows tr")).to_have_count(3)
    expect(scorer.locator("#history-totals td")).to_have_text(["25", "65", "75"])
    shot(scorer, "5-winner")
    expect(viewer.locator(".banner.win")).to_contain_text("alice wins", timeout=LIVE)
    expect(viewer.locator("#live")).not_to_have_attribute("hx-trigger", re.compile("."))
    expect(viewer.locator(".standing").first).to_have_attribute("data-player", "alice")
    shot(viewer, "6-share-link-final")


def test_a_round_can_be_entered_without_javascript(alice, chromium, live_server):
    require_or_skip("Chromium", chromium_path() is not None)
    context = chromium.new_context(
        viewport=SMALL_PHONE, base_url=live_server.url, java_script_enabled=False
    )
    try:
        page = context.new_page()
        log_in(page, "alice")
        page.get_by_role("group", name="Seat 2").get_by_label("or a new guest's name").fill("Bob")
        page.get_by_role("button", name="Start the game night").click()
        # No counter buttons without JavaScript: the points are typed.
        expect(
            seat(page, "Bob").get_by_role("button", name="Count the cards of Bob")
        ).to_be_hidden()
        went_out(page, "Bob").check()
        seat(page, "Bob").get_by_role("checkbox", name=re.compile("done")).check()
        seat(page, "alice").get_by_label("Points").fill("7")
        page.get_by_role("button", name="Save round 1").click()
        expect(seat(page, "alice").get_by_text("Points are multiples of 5")).to_be_visible()
        seat(page, "alice").get_by_label("Points").fill("35")
        page.get_by_role("button", name="Save round 1").click()
        expect(page.get_by_text("Round 1 saved.")).to_be_visible()
        expect(total(page, "alice")).to_have_text("35")
        expect(page.get_by_role("heading", name="Enter round 2")).to_be_visible()
        shot(page, "7-without-javascript")
    finally:
        context.close()


def finished_night(user):
    """alice beat Bob in a one-phase night: she went out in round 1, Bob had 35 points."""
    game = nights.create_game(
        user, players=[Player.for_user(user), "Bob"], first_dealer=0, rules=Rules(phases=(1,))
    )
    entry = RoundEntry(went_out=0, points=(0, 35), completed={0: 1})
    return nights.add_round(game, entry, version=game.version)


def bob_went_out(page):
    """Round 1 really: Bob went out, and alice had 20 points left."""
    went_out(page, "Bob").check()
    seat(page, "Bob").get_by_role("checkbox", name=re.compile("done")).check()
    seat(page, "Bob").get_by_label("Points").fill("0")
    seat(page, "alice").get_by_role("checkbox", name=re.compile("done")).uncheck()
    seat(page, "alice").get_by_label("Points").fill("20")
    page.get_by_role("button", name="Save the correction").click()


def test_a_correction_after_the_end_shows_the_new_winner_before_it_is_saved(alice, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    game = finished_night(alice)
    scorer = new_context().new_page()
    log_in(scorer, "alice")
    scorer.goto(game.get_absolute_url())
    scorer.get_by_title("Correct round 1").click()
    expect(scorer.get_by_role("heading", name="Correct round 1")).to_be_visible()
    bob_went_out(scorer)

    # Opened in place, focus on its heading; the scoreboard above is still the saved one.
    panel = scorer.locator("#entry.correction")
    expect(panel.get_by_role("heading", name="Check the correction of round 1")).to_be_focused()
    expect(panel).to_contain_text("This changes the result of the game.")
    expect(panel).to_contain_text("Now: alice wins after 1 round!")
    expect(panel).to_contain_text("Afterwards: Bob wins after 1 round!")
    expect(scorer.locator(".banner.win")).to_contain_text("alice wins")
    shot(scorer, "8-correction-to-confirm")

    panel.get_by_role("link", name="Cancel").click()
    expect(scorer.locator("#entry.correction")).to_have_count(0)
    expect(scorer.locator(".banner.win")).to_contain_text("alice wins")

    scorer.get_by_title("Correct round 1").click()
    bob_went_out(scorer)
    scorer.locator("#entry.correction").get_by_role("button", name="Save the correction").click()
    expect(scorer.get_by_text("Round 1 corrected")).to_be_visible()
    expect(scorer.locator(".banner.win")).to_contain_text("Bob wins after 1 round!")
    expect(total(scorer, "alice")).to_have_text("20")


def test_a_correction_after_the_end_is_confirmed_without_javascript(alice, chromium, live_server):
    require_or_skip("Chromium", chromium_path() is not None)
    game = finished_night(alice)
    context = chromium.new_context(
        viewport=SMALL_PHONE, base_url=live_server.url, java_script_enabled=False
    )
    try:
        page = context.new_page()
        log_in(page, "alice")
        page.goto(game.get_absolute_url())
        page.get_by_title("Correct round 1").click()
        bob_went_out(page)
        expect(page.get_by_role("heading", name="Check the correction of round 1")).to_be_visible()
        expect(page.locator(".correction-result")).to_contain_text(
            "Afterwards: Bob wins after 1 round!"
        )
        shot(page, "9-correction-to-confirm-without-javascript")
        page.get_by_role("button", name="Save the correction").click()
        expect(page.get_by_text("Round 1 corrected")).to_be_visible()
        expect(page.locator(".banner.win")).to_contain_text("Bob wins after 1 round!")
    finally:
        context.close()


def test_a_round_opened_on_its_own_page_is_corrected_with_javascript_on(alice, new_context):
    """The round's own page (a link opened in a new tab) has no game to swap into: its
    form, and the confirmation's, post as plain forms."""
    require_or_skip("Chromium", chromium_path() is not None)
    game = finished_night(alice)
    page = new_context().new_page()
    log_in(page, "alice")
    page.goto(reverse("games:night_edit_round", args=[game.public_id, 1]))
    bob_went_out(page)
    expect(page.get_by_role("heading", name="Check the correction of round 1")).to_be_visible()
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Round 1 corrected")).to_be_visible()
    expect(page.locator(".banner.win")).to_contain_text("Bob wins after 1 round!")


def test_a_page_without_the_rounds_table_to_keep_is_drawn_anew_after_a_round(alice, new_context):
    """A page drawn before the rounds' table had the ids a round's answer adds to (an
    older version, kept offline), or whose table an answer couldn't reach, gets the whole
    game from the server after the save: no round goes missing from the table."""
    require_or_skip("Chromium", chromium_path() is not None)
    game = nights.create_game(
        alice, players=[Player.for_user(alice), "Bob", "Carol"], first_dealer=0, rules=Rules()
    )
    entry = RoundEntry(went_out=0, points=(0, 20, 35), completed={0: None})
    game = nights.add_round(game, entry, version=game.version)
    scorer = new_context().new_page()
    log_in(scorer, "alice")
    scorer.goto(game.get_absolute_url())
    expect(scorer.locator("#history-rows tr")).to_have_count(1)
    # The table as an older page drew it: no ids to keep it by or add to.
    scorer.evaluate(
        """() => {
        for (const id of ["history", "history-rows", "history-totals"])
            document.getElementById(id).removeAttribute("id");
    }"""
    )
    enter_round(scorer, 2, went_out_name="Bob", points={"alice": 10, "Carol": 5}, completed=["Bob"])
    expect(scorer.locator("#history-rows tr")).to_have_count(2)
    expect(scorer.locator("#history-totals td")).to_have_text(["10", "20", "40"])
    # Drawn anew (the ids are back), the round's summary still on top.
    expect(scorer.get_by_text("Round 2 saved.")).to_be_visible()
    expect(scorer.locator("section.history:not(.offline-rounds)")).to_have_count(1)
    expect(scorer.locator("#history[hx-preserve]")).to_have_count(0)
