"""Keyboard only: alice plays an online turn and enters a game-night round with Tab,
Space, Enter and the arrow keys, and after each action focus is where the next one
starts (document.activeElement). Another player's move, arriving by the board's poll,
never takes focus away, and the page's live region says what they did."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.engine import Rules
from games.models import Player
from games.nights import services as night_services
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_online_play import logged_in
from tests.online.helpers import arranged_state, set_state, started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/keyboard-screens")  # for a human to look at

# Phase 1 (two sets of 3) is in alice's hand; she deals second, so she plays first.
ALICE = "R3 B3 G3 R7 B7 Y7 G1 B9 Y11 R12"
BOB = "R1 R2 R4 R5 R6 B1 B2 B4 B5 B6"
PHASE = ["R3", "B3", "G3", "R7", "B7", "Y7"]


def active(page) -> dict:
    """What has focus: enough to say which control it is."""
    return page.evaluate(
        """() => {
            const e = document.activeElement;
            return {
                tag: e.tagName.toLowerCase(), id: e.id, name: e.getAttribute("name"),
                value: e.getAttribute("value"), type: e.getAttribute("type"),
                checked: !!e.checked,
                inBoard: !!e.closest("#board"), text: e.textContent.trim(),
            };
        }"""
    )


def tab_to(page, found, *, most=60, back=False) -> dict:
    """Press Tab (Shift+Tab) until `found(active)` holds."""
    for _press in range(most):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        now = active(page)
        if found(now):
            return now
    raise AssertionError(f"Tab never reached it; focus is on {active(page)}")


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def hand(page):
    return page.locator(".ot-hand input[type=checkbox]")


def move_number(page) -> str:
    return page.locator("#board input[name=move]").first.input_value()


def wait_for_new_board(page, before: str) -> None:
    page.wait_for_function(
        "before => document.querySelector('#board input[name=move]')?.value !== before",
        arg=before,
        polling=100,
    )


def count_submits(page) -> None:
    """Count the form submissions from here on (the hand's form posts through htmx, which
    handles the submit event)."""
    page.evaluate(
        """() => {
            window.submits = 0;
            document.addEventListener("submit", () => { window.submits += 1; }, true);
        }"""
    )


def test_a_turn_is_played_by_keyboard_and_focus_follows_the_next_action(
    new_context, live_server, alice, bob
):
    game = started_game(alice, bob, seed=5)
    set_state(game, arranged_state([ALICE, BOB], up_card="G9", draw_pile=["Y2"], dealer=1))
    page = logged_in(new_context(PHONE), live_server, alice)
    page.goto(game.get_absolute_url())
    expect(page.locator(".ot-status")).to_contain_text("Your turn: draw a card.")

    # Draw: Tab to the button, Enter. Focus goes to the hand, the first card.
    tab_to(page, lambda a: a["id"] == "board-draw")
    before = move_number(page)
    page.keyboard.press("Enter")
    wait_for_new_board(page, before)
    expect(page.locator(".ot-status")).to_contain_text("Your turn: lay down")
    expect(hand(page).first).to_be_focused()

    # Select the phase with Space, moving from card to card with Tab.
    cards = hand(page).evaluate_all("boxes => boxes.map(b => b.value)")
    wanted = list(PHASE)
    for index, card in enumerate(cards):
        if card in wanted:
            wanted.remove(card)
            page.keyboard.press("Space")
            assert active(page)["checked"] and active(page)["value"] == card
        if wanted and index + 1 < len(cards):
            page.keyboard.press("Tab")
    assert not wanted

    shot(page, "1-phase-selected")

    # Enter on a selected card sends nothing (it used to press "Lay down selected").
    selected = active(page)
    assert selected["checked"] and selected["name"] == "cards"
    count_submits(page)
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.submits") == 0
    assert active(page) == selected

    # Lay down: focus goes back to the hand, to choose the card to discard.
    tab_to(page, lambda a: a["id"] == "board-lay")
    before = move_number(page)
    page.keyboard.press("Enter")
    wait_for_new_board(page, before)
    expect(page.locator(".ot-log li").first).to_contain_text("alice laid down phase 1")
    expect(hand(page).first).to_be_focused()

    # Discard the first card: the turn is over, focus is on the status line.
    page.keyboard.press("Space")
    tab_to(page, lambda a: a["id"] == "board-discard")
    before = move_number(page)
    page.keyboard.press("Enter")
    wait_for_new_board(page, before)
    expect(page.locator(".ot-status")).to_contain_text("Waiting for bob.")
    expect(page.locator(".ot-status")).to_be_focused()
    expect(page.locator(".ot-log li").first).to_contain_text("alice discarded")

    # bob plays from his own browser; alice's board follows by polling.
    other = logged_in(new_context(PHONE), live_server, bob)
    other.goto(game.get_absolute_url())
    # Focus outside the board (the "How to play" link above it) stays there.
    tab_to(page, lambda a: a["text"] == "How to play" and not a["inBoard"], back=True)
    other.get_by_role("button", name="Draw", exact=True).click()
    # (The live region speaks once the swap has settled, after any focus change.)
    expect(page.locator("#board-news")).to_contain_text("bob drew")
    now = active(page)
    assert now["text"] == "How to play" and not now["inBoard"], now

    # Focus inside the board is kept on the same control in the fresh board.
    tab_to(page, lambda a: a["id"] == "board-hint")
    other.locator("label.ot-pick").first.click()
    other.get_by_role("button", name="Discard selected").click()
    expect(page.locator(".ot-status")).to_contain_text("Your turn: draw a card.")
    expect(page.locator("#board-hint")).to_be_focused()
    expect(page.locator("#board-news")).to_contain_text("bob discarded")
    expect(page.locator("#board-news")).to_contain_text("Your turn: draw a card.")
    other.close()
    page.close()


def test_each_of_the_players_own_moves_is_announced_in_words(new_context, live_server, alice, bob):
    game = started_game(alice, bob, seed=5)
    set_state(game, arranged_state([ALICE, BOB], up_card="G9", draw_pile=["Y3"], dealer=1))
    page = logged_in(new_context(DESKTOP), live_server, alice)
    page.route("**/poll/**", lambda route: route.abort())
    page.goto(game.get_absolute_url())
    news = page.locator("#board-news")

    def act(button: str, *cards: str) -> None:
        for card in cards:
            page.locator(f'label.ot-pick:has(input[value="{card}"])').click()
        before = move_number(page)
        page.locator(f"#{button}").focus()
        page.keyboard.press("Enter")
        wait_for_new_board(page, before)

    # Said in words, never the card's face ("3Y★yellow 3 ★just drawn").
    act("board-draw")
    expect(news).to_have_text("You drew yellow 3.")
    act("board-lay", *PHASE)
    expect(news).to_have_text("You laid down phase 1.")
    act("board-hit", "Y3")
    expect(news).to_have_text("You hit yellow 3 on your own group.")
    act("board-discard", "B9")
    expect(news).to_have_text("You discarded blue 9.")
    page.close()


def test_a_round_is_entered_by_keyboard_and_a_failed_save_focuses_the_error(
    new_context, live_server, alice
):
    game = night_services.create_game(
        alice, players=[Player.for_user(alice), "Bob", "Carol"], first_dealer=0, rules=Rules()
    )
    page = logged_in(new_context(), live_server, alice)
    page.goto(game.get_absolute_url())

    def field(id_):
        return page.locator(f"#{id_}")

    # "Who went out?" is one group: Tab reaches it once, the arrows choose. Passing Bob
    # on the way to Carol leaves Bob's points and phase as they were.
    first = tab_to(page, lambda a: a["name"] == "went_out")
    assert first["value"] == "0"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    now = active(page)
    assert now["value"] == "2" and now["checked"]
    expect(field("id_points_2")).to_have_value("0")
    expect(field("id_completed_2")).to_be_checked()
    expect(field("id_points_1")).to_have_value("")
    expect(field("id_completed_1")).not_to_be_checked()
    expect(field("id_points_0")).to_have_value("")
    expect(field("id_completed_0")).not_to_be_checked()

    # The next Tab leaves the group for alice's own fields: her phase (Space), her points
    # counted with the counter: Enter opens it, the next Tab leads into it, +10 twice
    # (Enter keeps focus on it), Escape closes it with focus back on its button.
    assert tab_to(page, lambda a: a["type"] == "checkbox", most=1)["id"] == "id_completed_0"
    page.keyboard.press("Space")
    expect(field("id_completed_0")).to_be_checked()
    tab_to(page, lambda a: "Count the cards of alice" in a["text"], most=2)
    page.keyboard.press("Enter")
    counter = page.get_by_role("group", name="Count the cards of alice")
    expect(counter).to_be_visible()
    tab_to(page, lambda a: a["text"] == "+10", most=2)
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(field("id_points_0")).to_have_value("20")
    expect(counter.locator("output")).to_have_text("20")
    assert active(page)["text"] == "+10"
    page.keyboard.press("Escape")
    expect(counter).to_be_hidden()
    assert "Count the cards of alice" in active(page)["text"]

    # Bob's points are left out: the save fails and focus goes to his points, which say
    # what is wrong (aria-describedby).
    tab_to(page, lambda a: a["text"] == "Save round 1")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Enter the points of Bob.")).to_be_visible()
    expect(field("id_points_1")).to_be_focused()
    described = page.evaluate(
        """() => document.activeElement.getAttribute("aria-describedby").split(" ")
            .map(id => document.getElementById(id).textContent.trim()).join(" ")"""
    )
    assert "Enter the points of Bob." in described
    expect(field("id_points_1")).to_have_attribute("aria-invalid", "true")
    shot(page, "2-round-form-error")

    # Count Bob's cards (+5 three times), save: focus is on what happened, in view.
    tab_to(page, lambda a: "Count the cards of Bob" in a["text"], most=1)
    page.keyboard.press("Enter")
    tab_to(page, lambda a: a["text"] == "+5", most=1)
    for _press in range(3):
        page.keyboard.press("Enter")
    expect(field("id_points_1")).to_have_value("15")
    page.keyboard.press("Escape")
    tab_to(page, lambda a: a["text"] == "Save round 1")
    page.keyboard.press("Enter")
    summary = page.locator("#round-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("Round 1 saved.")
    expect(summary).to_be_in_viewport()
    # The next Tab is the next round's first question.
    expect(page.get_by_role("heading", name="Enter round 2")).to_be_visible()
    assert tab_to(page, lambda a: True, most=1)["name"] == "went_out"
    page.close()


def test_a_failed_new_game_form_puts_focus_on_its_first_error(new_context, live_server, alice):
    page = logged_in(new_context(), live_server, alice)

    # A game night of one: the error is about the whole form, and is focused and read.
    page.goto("/nights/new/")
    tab_to(page, lambda a: a["text"] == "Start the game night")
    page.keyboard.press("Enter")
    error = page.locator("form .errorlist").first
    expect(error).to_contain_text("Choose 2 to 6 players.")
    expect(error).to_be_focused()

    # An online game inviting nobody known: focus on that field, which names its error.
    page.goto("/play/new/")
    tab_to(page, lambda a: a["name"] == "invite")
    page.keyboard.type("nobody-here")
    page.keyboard.press("Enter")
    field = page.locator("input[name=invite]")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    described = field.evaluate(
        """f => f.getAttribute("aria-describedby").split(" ")
            .map(id => document.getElementById(id)?.textContent.trim()).join(" ")"""
    )
    assert "There is no player called “nobody-here”." in described
    page.close()
