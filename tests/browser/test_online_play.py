"""Online play in a real browser: two people take turns from two browsers, and one
person plays a whole round against bots on a phone."""

import random

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.engine import Discard, Draw, Hit, LayDown, player_view
from games.engine.bots import choose_action
from games.models import Game
from games.online import services
from tests.browser.conftest import SMALL_PHONE, no_horizontal_scroll
from tests.online.helpers import started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(context, live_server, user):
    """Give the browser a session for `user` (the log-in form has its own test)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )


def logged_in(context, live_server, user):
    log_in(context, live_server, user)
    return context.new_page()


def move_number(page) -> str:
    return page.locator("#board input[name=move]").first.input_value()


def wait_for_board_change(page, before: str) -> None:
    """The board was swapped: a new move number, or a choice to make."""
    page.wait_for_function(
        """before => {
            const move = document.querySelector('#board input[name=move]');
            return document.querySelector('.ot-choice') || !move || move.value !== before;
        }""",
        arg=before,
        polling=100,
    )


def select(page, cards) -> None:
    for card in cards:
        page.locator(f'label.ot-pick:has(input[value="{card}"]:not(:checked))').first.click()


def play(page, action) -> None:
    """Do `action` through the table's buttons, as a person would."""
    before = move_number(page)
    if isinstance(action, Draw):
        page.get_by_role("button", name="Take it" if action.from_discard else "Draw").click()
    elif isinstance(action, LayDown):
        select(page, [str(card) for group in action.groups for card in group])
        page.get_by_role("button", name="Lay down selected").click()
        wait_for_board_change(page, before)
        if page.locator(".ot-choice").count():
            page.locator(".ot-choice button[value=lay]").first.click()
    elif isinstance(action, Hit):
        select(page, [str(action.card)])
        page.get_by_role("button", name="Hit with selected").click()
        wait_for_board_change(page, before)
        if page.locator(".ot-choice").count():
            end = action.end or ""
            page.locator(
                f'.ot-choice form:has(input[name=seat][value="{action.seat}"])'
                f':has(input[name=group][value="{action.group}"])'
                f':has(input[name=end][value="{end}"]) button'
            ).click()
    elif isinstance(action, Discard):
        select(page, [str(action.card)])
        page.get_by_role("button", name="Discard selected").click()
        wait_for_board_change(page, before)
        if page.locator(".ot-choice").count():
            page.locator(".ot-choice button").first.click()
    page.wait_for_function(
        "before => document.querySelector('#board input[name=move]')?.value !== before",
        arg=before,
        polling=100,
    )


def test_two_people_take_turns_from_two_browsers(new_context, live_server, alice, bob):
    game = started_game(alice, bob, seed=5)
    assert services.load_state(game).current_seat == 1  # left of the dealer: bob
    alice_page = logged_in(new_context(), live_server, alice)
    bob_page = logged_in(new_context(), live_server, bob)
    alice_page.goto(game.get_absolute_url())
    bob_page.goto(game.get_absolute_url())
    expect(alice_page.locator("#board").get_by_text("Waiting for bob.")).to_be_visible()
    expect(bob_page.locator("#board").get_by_text("Your turn: draw a card.")).to_be_visible()

    # (Status words are looked for in the board: the page's live region may say them too.)
    for page, other, name in ((bob_page, alice_page, "bob"), (alice_page, bob_page, "alice")):
        page.get_by_role("button", name="Draw", exact=True).click()
        expect(
            page.locator("#board").get_by_text("Your turn: lay down, hit, or discard")
        ).to_be_visible()
        card = page.locator("label.ot-pick input").first.get_attribute("value")
        select(page, [card])
        page.get_by_role("button", name="Discard selected").click()
        expect(page.locator(".ot-log li").first).to_contain_text(f"{name} discarded")
        # The other browser follows by polling, and it is their turn now.
        expect(other.locator("#board").get_by_text("Your turn: draw a card.")).to_be_visible()
        expect(other.locator(".ot-log li").first).to_contain_text(f"{name} discarded")
        # …and its one live region says so (it is outside the board, never replaced).
        expect(other.locator("#board-news")).to_contain_text(f"{name} discarded")
        expect(other.locator("#board-news")).to_contain_text("Your turn: draw a card.")
    for page in (alice_page, bob_page):
        page.close()  # no more polls while this thread reads the database
    assert Game.objects.get(pk=game.pk).move_number == 4


def test_one_person_plays_a_whole_round_against_bots_on_a_phone(
    phone_page, new_context, live_server, alice
):
    # Seed 1 deals a quick round: alice lays phase 1 in her second turn and goes out.
    game = started_game(alice, bots=2, seed=1)
    page = phone_page
    log_in(page.context, live_server, alice)
    # Alone with bots, every change arrives with the answer to alice's own moves; no
    # polls, so this thread can read the game between moves (the live server shares
    # the test's SQLite connection, and two threads at once would trip over its lock).
    page.route("**/poll/**", lambda route: route.abort())
    page.goto(game.get_absolute_url())
    expect(page.locator("#board").get_by_text("Your turn: draw a card.")).to_be_visible()
    page.screenshot(path="/tmp/online-phone-turn.png", full_page=True)
    assert no_horizontal_scroll(page)
    rng = random.Random(0)
    for _step in range(60):
        game.refresh_from_db()
        state = services.load_state(game)
        if state.round_number > 1 or game.status == Game.Status.FINISHED:
            break
        assert state.current_seat == 0
        if move_number(page) != str(game.move_number):
            # The bots played after alice's move was answered (tasks run inline here;
            # in production they run a moment later): the page shows it on reload, as
            # the poll would.
            page.reload()
            expect(page.locator("#board input[name=move]").first).to_have_value(
                str(game.move_number)
            )
        action = choose_action(player_view(state, 0), rng)
        if isinstance(action, LayDown):
            page.screenshot(path="/tmp/online-phone-before-lay.png", full_page=True)
        play(page, action)
    expect(page.get_by_text("Round 1 results")).to_be_visible()
    expect(page.locator(".ot-round")).to_contain_text("went out")
    page.screenshot(path="/tmp/online-phone-round-over.png", full_page=True)
    assert no_horizontal_scroll(page)
    # The narrowest phones too.
    small = logged_in(new_context(SMALL_PHONE), live_server, alice)
    small.goto(game.get_absolute_url())
    expect(small.get_by_text("Round 1 results")).to_be_visible()
    small.screenshot(path="/tmp/online-360.png", full_page=True)
    assert no_horizontal_scroll(small)


def test_a_game_is_created_shared_by_link_joined_and_started(
    phone_page, new_context, live_server, alice, bob
):
    page = phone_page
    log_in(page.context, live_server, alice)
    page.goto("/play/")
    expect(page.get_by_role("heading", name="My games")).to_be_visible()
    page.get_by_role("link", name="New online game").click()
    page.get_by_label("Name:", exact=True).fill("Tuesday slow game")
    page.get_by_label("Seats").select_option("3")
    page.get_by_label("Time limit per turn").select_option("1d")
    page.get_by_text("Rules (the standard game unless you change them)").click()
    page.get_by_label("Phases:", exact=True).select_option("first5")
    page.get_by_label("Everyone moves on every round").check()
    page.screenshot(path="/tmp/online-phone-new.png", full_page=True)
    assert no_horizontal_scroll(page)
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_text("Seats: 1 of 3 taken")).to_be_visible()
    invite = page.get_by_label("Invite link").input_value()

    friend = logged_in(new_context(), live_server, bob)
    friend.goto(invite)
    friend.get_by_role("button", name="Take a seat").click()
    expect(friend.get_by_text("alice starts the game when everyone is in.")).to_be_visible()
    # The host's lobby follows by polling.
    expect(page.get_by_text("Seats: 2 of 3 taken")).to_be_visible()
    page.screenshot(path="/tmp/online-phone-lobby.png", full_page=True)
    assert no_horizontal_scroll(page)

    page.get_by_role("button", name="Start the game").click()  # the empty seat: a bot
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator(".ot-player")).to_have_count(3)
    # bob's lobby reloads into the table once the game starts.
    expect(friend.locator("#board")).to_be_visible()
    friend.close()
    page.goto("/play/")
    expect(page.get_by_text("Tuesday slow game")).to_be_visible()
    page.screenshot(path="/tmp/online-phone-list.png", full_page=True)
    assert no_horizontal_scroll(page)
    page.goto("about:blank")  # no more polls while this thread reads the database
    game = Game.objects.get(name="Tuesday slow game")
    assert game.rules["phases"] == [1, 2, 3, 4, 5] and game.rules["all_advance"]
    assert game.time_limit.days == 1


def test_an_invitation_by_username_is_accepted_from_my_games(
    phone_page, new_context, live_server, alice, bob
):
    page = phone_page
    log_in(page.context, live_server, alice)
    page.goto("/play/new/")
    page.get_by_label("Name:", exact=True).fill("Invited game")
    page.get_by_label("Seats").select_option("3")
    page.get_by_label("Invite by username").fill("bob")
    page.get_by_role("button", name="Create the game").click()
    # bob isn't seated: he is asked.
    expect(page.get_by_text("Seats: 1 of 3 taken")).to_be_visible()
    expect(page.get_by_text("Invited, waiting for an answer")).to_be_visible()

    friend = logged_in(new_context(), live_server, bob)
    friend.goto("/play/")
    expect(friend.get_by_text("alice invited you")).to_be_visible()
    friend.screenshot(path="/tmp/online-phone-invitation.png", full_page=True)
    assert no_horizontal_scroll(friend)
    friend.get_by_role("button", name="Accept: Invited game").click()
    expect(friend.get_by_text("alice starts the game when everyone is in.")).to_be_visible()
    # The host's lobby follows by polling: bob is in, nobody is waited for.
    expect(page.get_by_text("Seats: 2 of 3 taken")).to_be_visible()
    expect(page.get_by_text("Invited, waiting for an answer")).to_have_count(0)
    friend.close()
    page.goto("about:blank")
