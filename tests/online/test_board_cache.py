"""The board is kept per game version, seat, CSRF cookie and all else it shows
(games/cache_keys.py), then taken from the cache with the token it was drawn with;
nothing of one seat's board reaches another, nor a token another cookie's."""

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse

from games import cache_keys
from games.models import Game, Seat
from tests.online.test_table import HTMX, post, table_url

pytestmark = pytest.mark.django_db

TOKEN = 'name="csrfmiddlewaretoken" value="'


def poll_url(game, version=""):
    return reverse("games:online_poll", args=[game.public_id]) + f"?v={version}"


def browser(user) -> Client:
    """A client logged in as `user` with the CSRF cookie a browser gets on its first page."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")
    return client


def board_key(client, game, position):
    """The key of the board `client` was shown of seat `position` (no clock, no focus)."""
    game = Game.objects.get(pk=game.pk)
    seat = Seat.objects.get(game=game, position=position)
    request = RequestFactory().get("/")
    request.COOKIES = {name: morsel.value for name, morsel in client.cookies.items()}
    csrf = cache_keys.csrf_cookie(request)
    return cache_keys.board(game, seat, sort="number", csrf=csrf, time_left="")


def tokens(page: str) -> set[str]:
    return {part[:64] for part in page.split(TOKEN)[1:]}


def test_a_board_is_drawn_once_and_served_from_the_cache(duel, bob):
    client = browser(bob)
    client.get(table_url(duel))
    key = board_key(client, duel, 1)
    drawn = cache.get(key)
    assert 'value="B12"' in drawn  # bob's hand
    cache.set(key, drawn.replace("Your hand", "Hand from the cache"))
    assert "Hand from the cache" in client.get(table_url(duel)).content.decode()


def test_a_kept_boards_token_is_accepted_and_another_browser_gets_its_own(duel, bob):
    phone, laptop = browser(bob), browser(bob)
    first = phone.get(poll_url(duel), **HTMX).content.decode()
    again = phone.get(poll_url(duel), **HTMX).content.decode()
    other = laptop.get(poll_url(duel), **HTMX).content.decode()
    assert tokens(first) == tokens(again)  # the kept board, as drawn
    assert tokens(first).isdisjoint(tokens(other))  # drawn again for the other cookie
    # ...and the token works: a move posted with it is accepted.
    (token,) = tokens(again)
    response = phone.post(
        reverse("games:online_act", args=[duel.public_id]),
        {"do": "take", "move": duel.move_number, "csrfmiddlewaretoken": token},
        **HTMX,
    )
    assert response.status_code == 200 and "bob took green 9" in response.content.decode()


def test_a_request_without_a_csrf_cookie_gets_a_board_drawn_for_it(duel, bob):
    client = Client()
    client.force_login(bob)
    page = client.get(table_url(duel)).content.decode()
    assert 'value="B12"' in page
    assert not cache.get(board_key(client, duel, 1))


def test_a_seat_never_gets_another_seats_cached_board(duel, alice, bob):
    bob_client = browser(bob)
    bob_client.get(table_url(duel))
    alice_client = browser(alice)
    page = alice_client.get(table_url(duel)).content.decode()
    assert 'value="B12"' not in page and 'value="Y12"' not in page  # bob's cards
    assert 'value="B11"' in page  # alice's own


def test_a_move_draws_a_fresh_board_with_focus_where_the_next_action_starts(duel, bob):
    client = browser(bob)
    before = client.get(table_url(duel)).content.decode()
    assert "Your turn: draw a card." in before and 'data-focus=""' in before
    answer = post(client, duel, do="take", csrfmiddlewaretoken=tokens(before).pop())
    assert 'data-focus="hand"' in answer.content.decode()
    after = client.get(table_url(duel)).content.decode()
    assert "Your turn: lay down, hit, or discard" in after
    assert "bob took green 9 from the discard pile" in after
    assert 'data-focus=""' in after  # the page (or a poll) never moves focus


def test_a_moves_answer_with_focus_is_drawn_and_not_kept(duel, bob):
    client = browser(bob)
    before = client.get(table_url(duel)).content.decode()
    post(client, duel, do="take", csrfmiddlewaretoken=tokens(before).pop())
    assert cache.get(board_key(client, duel, 1)) is None  # nobody asks for it again
    client.get(table_url(duel))
    assert "bob took green 9" in cache.get(board_key(client, duel, 1))


def test_muting_the_game_changes_the_cached_board(duel, bob):
    client = Client()
    client.force_login(bob)
    client.get("/")
    assert "Mute this game's emails" in client.get(table_url(duel)).content.decode()
    client.post(reverse("games:online_mute", args=[duel.public_id]), {"muted": "on"})
    page = client.get(table_url(duel)).content.decode()
    assert "Email me about this game again" in page
