"""The online board on a 390 × 844 phone: when it's your turn, your hand and the buttons
that play it are on the first screen, with two players and with four (the last round's
results open); the card you just drew is marked."""

from datetime import timedelta

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.engine import Draw, Rules
from games.models import Game
from games.online import chat, services
from tests.browser.conftest import DESKTOP, PHONE, no_horizontal_scroll
from tests.browser.test_keyboard import ALICE, BOB, PHASE
from tests.browser.test_online_play import log_in
from tests.online.helpers import (
    arranged_state,
    play_on,
    play_until_turn_of,
    seat_of,
    set_state,
    started_game,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = PHONE["height"]


@pytest.fixture
def dave(db):
    from tests.conftest import _make_user

    return _make_user("dave")


def drawn_for(game: Game, seat: int) -> Game:
    """`seat` draws from the pile (it is their turn, not yet drawn)."""
    return services.perform(game, seat, Draw(), expected_move=game.move_number)


def where(page, selector: str) -> dict[str, float]:
    """Top and bottom of the element, in the first screen's coordinates."""
    return page.locator(selector).first.evaluate(
        """element => {
            window.scrollTo(0, 0);
            const box = element.getBoundingClientRect();
            return {top: Math.round(box.top), bottom: Math.round(box.bottom)};
        }"""
    )


def open_board(page, live_server, user, game: Game, *, ready="#board .ot-actions"):
    log_in(page.context, live_server, user)
    # No polls: the page shows the game as it is now (this thread shares the live
    # server's SQLite connection).
    page.route("**/poll/**", lambda route: route.abort())
    page.goto(game.get_absolute_url())
    expect(page.locator(ready)).to_be_visible()


def measure(page, label: str) -> dict[str, dict[str, float]]:
    figures = {"hand": where(page, ".ot-hand"), "buttons": where(page, ".ot-actions")}
    print(  # noqa: T201 - the figures for the report (pytest -s)
        f"{label}: hand {figures['hand']['top']}–{figures['hand']['bottom']} px, "
        f"buttons {figures['buttons']['top']}–{figures['buttons']['bottom']} px"
    )
    return figures


def test_with_two_players_the_hand_and_its_buttons_are_on_the_first_screen(
    phone_page, live_server, alice, bob
):
    game = play_until_turn_of(started_game(alice, bob, seed=5), 0, min_moves=4)
    game = drawn_for(game, 0)
    open_board(phone_page, live_server, alice, game)
    figures = measure(phone_page, "2 players")
    phone_page.screenshot(path="/tmp/phone-table-2.png")
    assert figures["hand"]["top"] >= 0
    assert figures["buttons"]["bottom"] <= SCREEN
    assert no_horizontal_scroll(phone_page)


def test_with_four_players_and_the_round_results_open_the_hand_is_on_the_first_screen(
    phone_page, live_server, alice, bob, carol, dave
):
    game = play_on(started_game(alice, bob, carol, dave, seed=3), rounds=1)
    game = play_until_turn_of(game, seat_of(game, alice))
    game = drawn_for(game, seat_of(game, alice))
    open_board(phone_page, live_server, alice, game)
    results = phone_page.locator("details.ot-round")
    if results.get_attribute("open") is None:
        results.locator("summary").click()
    expect(results.locator("table")).to_be_visible()
    figures = measure(phone_page, "4 players, round results open")
    phone_page.screenshot(path="/tmp/phone-table-4.png")
    phone_page.screenshot(path="/tmp/phone-table-4-full.png", full_page=True)
    phone_page.locator(".ot-players").screenshot(path="/tmp/phone-table-4-players.png")
    assert figures["hand"]["top"] >= 0
    assert figures["buttons"]["bottom"] <= SCREEN
    assert no_horizontal_scroll(phone_page)


def test_the_card_just_drawn_is_marked_in_the_hand(phone_page, live_server, alice, bob):
    game = play_until_turn_of(started_game(alice, bob, seed=5), 0, min_moves=4)
    drawn = services.load_state(game).draw_pile[0]
    game = drawn_for(game, 0)
    open_board(phone_page, live_server, alice, game)
    marked = phone_page.locator(".ot-hand .ot-pick.drawn")
    expect(marked).to_have_count(1)
    expect(marked.locator("input")).to_have_value(str(drawn))
    expect(marked).to_contain_text("just drawn")


@pytest.fixture
def four_at_the_table(alice, bob, carol, dave):
    """Round 2 of a game of four, alice to play, drawn."""
    game = play_on(started_game(alice, bob, carol, dave, seed=3), rounds=1)
    game = play_until_turn_of(game, seat_of(game, alice))
    return drawn_for(game, seat_of(game, alice))


def test_a_seat_opens_to_its_laid_groups_on_a_phone_and_shows_them_on_a_desktop(
    new_context, live_server, alice, four_at_the_table
):
    game = four_at_the_table
    mine = seat_of(game, alice)  # her own seat opens by itself once laid (the test below)
    laid = next(
        seat
        for seat in game.seats.all()
        if services.load_state(game).laid[seat.position] and seat.position != mine
    )
    phone = new_context()
    page = phone.new_page()
    open_board(page, live_server, alice, game)
    seat = page.locator(f"#board-seat-{laid.position}")
    expect(seat.locator(".ot-groups")).to_be_hidden()
    seat.locator("summary").click()
    expect(seat.locator(".ot-groups")).to_be_visible()
    page.close()

    wide = new_context(viewport=DESKTOP).new_page()
    open_board(wide, live_server, alice, game)
    expect(wide.locator(f"#board-seat-{laid.position} .ot-groups")).to_be_visible()
    wide.screenshot(path="/tmp/phone-table-desktop.png", full_page=True)
    assert no_horizontal_scroll(wide)


def test_in_arabic_the_board_reads_right_to_left_with_the_hand_on_the_first_screen(
    new_context, live_server, alice, four_at_the_table
):
    context = new_context()
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ar", "url": live_server.url}]
    )
    page = context.new_page()
    open_board(page, live_server, alice, four_at_the_table)
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    figures = measure(page, "4 players, Arabic")
    page.screenshot(path="/tmp/phone-table-ar.png")
    page.screenshot(path="/tmp/phone-table-ar-full.png", full_page=True)
    assert figures["buttons"]["bottom"] <= SCREEN
    assert no_horizontal_scroll(page)
    # The seats' lines start at the right-hand edge: the name, then the facts to its left.
    line = page.locator(".ot-player-line").first
    name, facts = (line.locator(sel).bounding_box() for sel in (".ot-name", ".ot-line-facts"))
    assert name["x"] > facts["x"]


def test_next_game_is_one_tap_from_the_finished_board(phone_page, live_server, alice, bob):
    game = play_on(started_game(alice, bob, bots=1, rules=Rules(phases=(1,)), seed=4))
    assert game.status == Game.Status.FINISHED
    open_board(phone_page, live_server, alice, game, ready="#board-rematch")
    button = phone_page.get_by_role("button", name="Next game")
    assert where(phone_page, "#board-rematch")["bottom"] <= SCREEN
    phone_page.screenshot(path="/tmp/phone-table-finished.png")
    button.click()
    expect(phone_page.get_by_text("Seats: 2 of 3 taken")).to_be_visible()  # alice and the bot
    expect(phone_page.get_by_text("Invited, waiting for an answer")).to_be_visible()
    phone_page.goto("about:blank")
    assert Game.objects.filter(status=Game.Status.LOBBY).count() == 1


def test_the_games_waiting_for_you_show_in_a_phones_header_without_the_menu(
    phone_page, live_server, alice, bob
):
    play_until_turn_of(started_game(alice, bob, seed=5), 0)
    log_in(phone_page.context, live_server, alice)
    phone_page.goto("/")
    count = phone_page.locator(".site-header .turn-count")
    expect(count).to_be_visible()
    expect(count).to_have_text("Games waiting for you 1")
    expect(phone_page.locator(".menu nav")).to_be_hidden()
    phone_page.locator(".site-header").screenshot(path="/tmp/phone-header.png")
    count.click()
    expect(phone_page.get_by_role("heading", name="My games")).to_be_visible()


def test_the_hint_lays_its_arrangement_down_in_one_tap(phone_page, live_server, alice, bob):
    game = started_game(alice, bob)
    hands = ["R7 B7 G7 Y3 R3 W B11 G2 S Y9", "R1 R2 R3 R4 G8 B8 Y8 B12 Y12 S"]
    game = set_state(game, arranged_state(hands, up_card="G9", draw_pile=["W"]))
    game = drawn_for(game, 1)  # bob: W, with B12 Y12 and G8 B8 Y8, holds phase 1
    open_board(phone_page, live_server, bob, game)
    phone_page.get_by_role("button", name="Hint: can I lay down my phase?").click()
    lay = phone_page.get_by_role("button", name="Lay down this (phase 1)")
    expect(lay).to_be_visible()
    phone_page.screenshot(path="/tmp/phone-table-hint.png", full_page=True)
    lay.click()
    expect(phone_page.locator(".ot-log li").first).to_contain_text("bob laid down phase 1")
    expect(phone_page.locator("#board-seat-1 .tag.down")).to_have_text("phase laid")


def test_on_a_phone_the_chat_is_one_tap_from_the_first_screen(phone_page, live_server, alice, bob):
    game = started_game(alice, bob, seed=5)  # alice made it; bob plays first
    Game.objects.filter(pk=game.pk).update(time_limit=timedelta(days=1))
    game.refresh_from_db()
    chat.post(game, alice, "good luck")
    chat.post(game, bob, "thanks")
    chat.post(game, bob, "you too")
    game.refresh_from_db()
    page = phone_page
    open_board(page, live_server, alice, game, ready="#board .ot-status")
    page.screenshot(path="/tmp/phone-chat-first-screen.png")

    # By the status: how many messages came since alice last said or did something.
    jump = page.locator('#board a[href="#chat"]')
    expect(jump).to_have_text("Chat · 2 new")
    assert where(page, '#board a[href="#chat"]')["bottom"] < SCREEN
    # "Ask to pause the game" shares that line instead of taking one of its own.
    pause, link = where(page, "#board-pause"), where(page, '#board a[href="#chat"]')
    assert abs(pause["top"] - link["top"]) < 12, (pause, link)
    jump.click()
    expect(page.locator("#chat-text")).to_be_in_viewport()

    # The creator hides a message from its own menu, not from a link on every line.
    line = page.locator(".ot-chat-line", has_text="you too")
    hide = line.get_by_role("button", name="Hide")
    expect(hide).to_be_hidden()
    line.locator("summary").click()
    expect(hide).to_be_visible()
    page.screenshot(path="/tmp/phone-chat-menu.png", full_page=True)
    hide.click()
    expect(page.locator(".ot-chat-line", has_text="message hidden by the creator")).to_be_visible()


def test_after_laying_down_on_a_phone_your_own_seat_line_opens_to_your_groups(
    phone_page, live_server, alice, bob
):
    game = started_game(alice, bob, seed=5)
    set_state(game, arranged_state([ALICE, BOB], up_card="G9", draw_pile=["Y2"], dealer=1))
    game = drawn_for(game, 0)
    open_board(phone_page, live_server, alice, game)
    mine = phone_page.locator("#board-seat-0")
    expect(mine.locator(".ot-groups")).to_have_count(0)
    for card in PHASE:
        phone_page.locator(f'label.ot-pick:has(input[value="{card}"])').click()
    phone_page.locator("#board-lay").click()
    expect(mine.locator(".ot-groups")).to_be_visible()
    phone_page.screenshot(path="/tmp/phone-own-seat-open.png", full_page=True)
