"""The board is drawn once per game version and seat, then taken from the cache with
the request's own CSRF token put in; nothing of one seat's board reaches another."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.cached_html import CSRF_SLOT
from tests.online.test_table import HTMX, post, table_url

pytestmark = pytest.mark.django_db


def poll_url(game, version=""):
    return reverse("games:online_poll", args=[game.public_id]) + f"?v={version}"


def cached_boards(game):
    keys = [key for key in cache._cache if f"board:{game.public_id}:" in key]  # LocMemCache
    return {key: cache.get(key.split(":", 2)[-1]) for key in keys}


def test_a_board_is_drawn_once_and_served_from_the_cache(duel, client, bob):
    client.force_login(bob)
    client.get(table_url(duel))
    (key,) = cached_boards(duel)
    drawn = cache.get(key.split(":", 2)[-1])
    assert 'value="B12"' in drawn and CSRF_SLOT in drawn  # bob's hand, token left open
    cache.set(key.split(":", 2)[-1], drawn.replace("Your hand", "Hand from the cache"))
    page = client.get(table_url(duel)).content.decode()
    assert "Hand from the cache" in page
    assert CSRF_SLOT not in page
    assert 'name="csrfmiddlewaretoken" value="' in page


def test_each_request_gets_its_own_csrf_token_in_a_cached_board(duel, client, bob):
    client.force_login(bob)
    first = client.get(poll_url(duel), **HTMX).content.decode()
    second = client.get(poll_url(duel), **HTMX).content.decode()
    token = 'name="csrfmiddlewaretoken" value="'
    assert token in first and token in second
    assert first.split(token)[1][:64] != second.split(token)[1][:64]  # masked per request
    # ...and the token works: a move posted with it is accepted.
    response = post(client, duel, do="take")
    assert response.status_code == 200 and "bob took green 9" in response.content.decode()


def test_a_seat_never_gets_another_seats_cached_board(duel, client, alice, bob):
    client.force_login(bob)
    client.get(table_url(duel))
    client.force_login(alice)
    page = client.get(table_url(duel)).content.decode()
    assert 'value="B12"' not in page and 'value="Y12"' not in page  # bob's cards
    assert 'value="B11"' in page  # alice's own
    assert len(cached_boards(duel)) == 2


def test_a_move_draws_a_fresh_board(duel, client, bob):
    client.force_login(bob)
    before = client.get(table_url(duel)).content.decode()
    assert "Your turn: draw a card." in before
    post(client, duel, do="take")
    after = client.get(table_url(duel)).content.decode()
    assert "Your turn: lay down, hit, or discard" in after
    assert "bob took green 9 from the discard pile" in after


def test_muting_the_game_changes_the_cached_board(duel, client, bob):
    client.force_login(bob)
    assert "Mute this game's emails" in client.get(table_url(duel)).content.decode()
    client.post(reverse("games:online_mute", args=[duel.public_id]), {"muted": "on"})
    page = client.get(table_url(duel)).content.decode()
    assert "Email me about this game again" in page
