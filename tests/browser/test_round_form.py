"""A round of six players on one phone screen (issue 16): the round form fits 390×844,
a round nobody went out of is entered by keyboard alone, and after the save the round's
summary, the standings, the next deal and the next round's first question are in view. On a 320 px phone a long name
moves to a line of its own rather than push the controls out of the row."""

import os

import pytest
from playwright.sync_api import expect

from games.engine import Rules
from games.models import Player
from games.nights import services as night_services
from tests.browser.conftest import PHONE, no_horizontal_scroll
from tests.browser.test_keyboard import active, tab_to
from tests.browser.test_online_play import logged_in
from tests.conftest import chromium_path, require_or_skip

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GUESTS = ["Bob", "Carol", "Dave", "Erin", "Fay"]


def six_player_night(alice, *, pick_a_phase=False):
    return night_services.create_game(
        alice,
        players=[Player.for_user(alice), *GUESTS],
        first_dealer=0,
        rules=Rules(pick_a_phase=pick_a_phase),
    )


@pytest.mark.parametrize("pick_a_phase", [False, True])
def test_six_players_round_form_fits_one_phone_screen(
    new_context, live_server, alice, pick_a_phase
):
    require_or_skip("Chromium", chromium_path() is not None)
    game = six_player_night(alice, pick_a_phase=pick_a_phase)
    page = logged_in(new_context(PHONE), live_server, alice)
    page.goto(game.get_absolute_url())
    form = page.locator("form.round-form").bounding_box()
    assert form is not None and form["height"] <= PHONE["height"], form
    assert no_horizontal_scroll(page)
    if pick_a_phase:
        # The laid phase is still a select with its own label.
        page.get_by_role("group", name="Fay").get_by_label("Laid phase").select_option("4")
    page.close()


def test_a_round_nobody_went_out_of_is_entered_by_keyboard(new_context, live_server, alice):
    require_or_skip("Chromium", chromium_path() is not None)
    game = six_player_night(alice)
    page = logged_in(new_context(PHONE), live_server, alice)
    page.goto(game.get_absolute_url())

    # The group is reached once; the up arrow wraps round to its last choice, "Nobody".
    tab_to(page, lambda a: a["name"] == "went_out")
    page.keyboard.press("ArrowUp")
    now = active(page)
    assert now["value"] == "none" and now["checked"]
    # Nobody went out: nobody's points are filled in.
    expect(page.locator("#id_points_0")).to_have_value("")

    # Each player: phase done (Space, Bob only), the points typed or counted.
    typed = {0: "10", 1: "5", 2: "20", 3: "25", 4: "40"}
    for position in range(6):
        assert tab_to(page, lambda a: a["type"] == "checkbox", most=3)["id"] == (
            f"id_completed_{position}"
        )
        if position == 1:
            page.keyboard.press("Space")
        page.keyboard.press("Tab")
        assert active(page)["id"] == f"id_points_{position}"
        if position in typed:
            page.keyboard.type(typed[position])
        else:
            page.keyboard.press("Tab")  # the counter's button: Fay's cards, a Wild and a 7
            page.keyboard.press("Enter")
            tab_to(page, lambda a: a["text"] == "+25", most=4)
            page.keyboard.press("Enter")
            tab_to(page, lambda a: a["text"] == "+5", back=True, most=4)
            page.keyboard.press("Enter")
            tab_to(page, lambda a: a["text"] == "Done", most=6)
            page.keyboard.press("Enter")
            expect(page.locator("#id_points_5")).to_have_value("30")

    tab_to(page, lambda a: a["text"] == "Save round 1")
    page.keyboard.press("Enter")
    summary = page.locator("#round-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("Round 1 saved.")
    expect(summary).to_contain_text("Bob leads.")
    expect(summary).to_contain_text("Bob deals, Carol plays first.")
    expect(summary).to_be_in_viewport()
    expect(page.locator('.standing[data-player="Bob"]')).to_be_in_viewport()
    expect(page.locator('.standing[data-player="Fay"] .total')).to_have_text("30")
    page.close()


@pytest.mark.parametrize("width", [320, 390])
def test_every_players_controls_stay_inside_their_row(new_context, live_server, alice, width):
    require_or_skip("Chromium", chromium_path() is not None)
    game = night_services.create_game(
        alice,
        players=[Player.for_user(alice), "Wolfeschlegelsteinhausenbergerdorff", *GUESTS[1:]],
        first_dealer=0,
        rules=Rules(),
    )
    page = logged_in(new_context({"width": width, "height": 844}), live_server, alice)
    page.goto(game.get_absolute_url())
    sticking_out = page.evaluate(
        """() => [...document.querySelectorAll(".round-form .seat-entry")].flatMap(row => {
            const box = row.getBoundingClientRect();
            return [...row.querySelectorAll("label.done, input.points, button.count")]
                .filter(el => { const r = el.getBoundingClientRect();
                                return r.left < box.left || r.right > box.right; })
                .map(el => el.id || el.className);
        })"""
    )
    assert sticking_out == []
    assert no_horizontal_scroll(page)
    page.close()


def test_after_a_save_with_six_players_the_summary_and_the_next_rounds_first_line_are_in_view(
    new_context, live_server, alice
):
    require_or_skip("Chromium", chromium_path() is not None)
    game = six_player_night(alice)
    page = logged_in(new_context(PHONE), live_server, alice)
    page.goto(game.get_absolute_url())
    form = page.locator("form.round-form")
    form.locator('input[name="went_out"][value="2"]').check()
    for position, points in enumerate([10, 5, 0, 20, 25, 40]):
        form.locator(f'input[name="points_{position}"]').fill(str(points))
    form.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#round-summary")).to_contain_text("Round 1 saved.")
    expect(page.locator("#round-summary")).to_be_focused()  # and scrolled to the top

    def box(selector):
        return page.locator(selector).first.evaluate(
            "e => { const b = e.getBoundingClientRect(); return [Math.round(b.top), Math.round(b.bottom)]; }"
        )

    summary, heading = box("#round-summary"), box("form.round-form h2")
    went_out = box("form.round-form .went-out")
    print(f"after a save: summary {summary}, form heading {heading}, who went out {went_out}")  # noqa: T201
    page.screenshot(path="/tmp/night-six-after-save.png")
    assert summary[0] >= 0
    assert went_out[1] <= PHONE["height"], (summary, heading, went_out)
    page.close()
