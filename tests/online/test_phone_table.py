"""The phone-first board: the card just drawn is marked on the drawer's board alone, the
hint lays its arrangement down in one tap, "Next game" is one tap (and one game however
many taps), and the header shows the games waiting for you on every page at no cost."""

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Invitation, Move
from games.online import lobby
from tests.online.helpers import play_on, started_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def act(client, game, **data):
    data.setdefault("move", Game.objects.get(pk=game.pk).move_number)
    return client.post(reverse("games:online_act", args=[game.public_id]), data, **HTMX)


def board_of(client, game, query=""):
    url = reverse("games:online_detail", args=[game.public_id]) + query
    return html.unescape(client.get(url).content.decode())


def drawn_marks(page: str) -> list[str]:
    """The cards the page marks as just drawn, by code."""
    return re.findall(
        r'<label class="ot-pick drawn"><input type="checkbox" name="cards" value="(\w+)"', page
    )


@pytest.fixture
def bob_client(bob):
    other = Client()
    other.force_login(bob)
    return other


# --- the card just drawn ----------------------------------------------------------------


def test_the_card_just_drawn_is_marked_on_the_drawers_board_and_nowhere_else(
    duel, alice_client, bob_client
):
    board_of(alice_client, duel)  # alice's board of this version, cached before bob draws
    page = html.unescape(act(bob_client, duel, do="draw").content.decode())
    assert drawn_marks(page) == ["W"]  # the top of the draw pile
    assert "just drawn" in page
    assert drawn_marks(board_of(bob_client, duel)) == ["W"]  # the same board, from the cache
    for other in (board_of(alice_client, duel), board_of(alice_client, duel, "?hint=1")):
        assert drawn_marks(other) == [] and "just drawn" not in other


def test_the_card_taken_from_the_discard_pile_is_marked_in_either_sort_order(duel, bob_client):
    act(bob_client, duel, do="take")
    assert drawn_marks(board_of(bob_client, duel)) == ["G9"]
    bob_client.post(reverse("games:online_sort", args=[duel.public_id]), {"sort": "colour"})
    assert drawn_marks(board_of(bob_client, duel)) == ["G9"]


def test_the_mark_goes_once_the_turn_moves_on_from_the_draw(duel, bob_client):
    act(bob_client, duel, do="draw")
    page = html.unescape(act(bob_client, duel, do="discard", cards="R4").content.decode())
    assert drawn_marks(page) == [] and "just drawn" not in page


def test_a_hand_with_two_cards_alike_marks_only_one(duel, bob_client):
    duel.state["draw_pile"][0] = "B12"  # bob holds a B12 already
    duel.save()
    act(bob_client, duel, do="draw")
    assert drawn_marks(board_of(bob_client, duel)) == ["B12"]


# --- the hint's "Lay down this" ---------------------------------------------------------


def hint_forms(page: str) -> list[dict[str, str]]:
    forms = re.findall(r'<form[^>]*class="ot-option ot-hint-lay">(.*?)</form>', page, re.S)
    return [dict(re.findall(r'name="(\w+)" value="([^"]*)"', form)) for form in forms]


def test_the_hint_lays_its_arrangement_down_in_one_tap(duel, bob_client):
    act(bob_client, duel, do="draw")  # W: with B12 Y12, and G8 B8 Y8, phase 1
    [form] = hint_forms(board_of(bob_client, duel, "?hint=1"))
    assert form["phase"] == "1" and form["do"] == "lay"
    assert sorted(form["groups"].split("|")) == ["B12 Y12 W", "G8 B8 Y8"]
    # The same form by htmx (the hint alone), with its own CSRF token.
    partial = bob_client.get(reverse("games:online_hint", args=[duel.public_id]), **HTMX)
    [same] = hint_forms(partial.content.decode())
    assert same.pop("csrfmiddlewaretoken") and form.pop("csrfmiddlewaretoken")
    assert same == form

    page = html.unescape(act(bob_client, duel, **form).content.decode())
    assert "bob laid down phase 1" in page
    laid = Move.objects.get(game=duel, action__type="lay_down").action
    assert sorted(" ".join(group) for group in laid["groups"]) == ["B12 Y12 W", "G8 B8 Y8"]


def test_the_hint_offers_no_lay_down_before_the_draw_or_out_of_turn(duel, alice_client, bob_client):
    duel.state["hands"][1] = ["R1", "B1", "Y1", "G8", "B8", "Y8", "B12", "Y12", "S", "R4"]
    duel.save()
    page = board_of(bob_client, duel, "?hint=1")
    assert "You can lay down now:" in page and hint_forms(page) == []
    act(bob_client, duel, do="draw")
    assert len(hint_forms(board_of(bob_client, duel, "?hint=1"))) == 1
    assert hint_forms(board_of(alice_client, duel, "?hint=1")) == []


# --- "Next game" ----------------------------------------------------------------------------


@pytest.fixture
def finished(alice, bob, carol):
    game = started_game(alice, bob, carol, bots=1, rules=Rules(phases=(1,)), seed=4)
    game = play_on(game)
    assert game.status == Game.Status.FINISHED
    return game


def next_game(client, game, **headers):
    return client.post(reverse("games:online_rematch", args=[game.public_id]), **headers)


def test_next_game_is_one_tap_from_the_finished_board_and_a_double_tap_makes_one_game(
    finished, alice, bob, carol, alice_client
):
    page = board_of(alice_client, finished)
    assert "Next game" in page and 'id="board-rematch"' in page
    first = next_game(alice_client, finished)
    new = Game.objects.get(status=Game.Status.LOBBY)
    assert first.status_code == 302 and first.url == new.get_absolute_url()
    again = next_game(alice_client, finished, **HTMX)
    assert again["HX-Redirect"] == new.get_absolute_url()
    assert Game.objects.filter(status=Game.Status.LOBBY).count() == 1
    assert new.rules == finished.rules and new.creator == alice
    assert [s.player.user for s in new.seats.select_related("player") if not s.is_bot] == [alice]
    assert new.seats.filter(is_bot=True).count() == 1
    assert set(Invitation.objects.filter(game=new).values_list("user", flat=True)) == {
        bob.pk,
        carol.pk,
    }


def test_another_players_tap_on_next_game_takes_their_seat_in_the_same_lobby(
    finished, bob, alice_client, bob_client
):
    next_game(alice_client, finished)
    new = Game.objects.get(status=Game.Status.LOBBY)
    response = next_game(bob_client, finished)
    assert response.url == new.get_absolute_url()
    assert Game.objects.filter(status=Game.Status.LOBBY).count() == 1
    assert new.seats.filter(player__user=bob).exists()
    assert not Invitation.objects.filter(game=new, user=bob).exists()
    assert next_game(bob_client, finished).url == new.get_absolute_url()  # seated: no change


def test_a_next_game_that_started_without_you_is_refused_with_a_reason(
    finished, bob, alice, alice_client, bob_client
):
    next_game(alice_client, finished)
    new = Game.objects.get(status=Game.Status.LOBBY)
    lobby.start_game(new, alice, fill_with_bots=True)
    page = html.unescape(next_game(bob_client, finished, **HTMX).content.decode())
    assert "The next game was set up without you." in page
    assert Game.objects.count() == 2


def test_next_game_is_refused_before_the_end(duel, bob_client):
    page = html.unescape(next_game(bob_client, duel, **HTMX).content.decode())
    assert "The game isn't over yet." in page
    assert Game.objects.count() == 1


# --- the header's count -------------------------------------------------------------------


def test_the_header_shows_the_games_waiting_for_you_with_the_one_count_query(
    duel, bob_client, alice_client
):
    with CaptureQueriesContext(connection) as queries:
        page = bob_client.get(reverse("home")).content.decode()
    assert re.search(r'class="turn-count" href="/play/"[^>]*>.*?<span class="badge">1</span>', page)
    counts = [q for q in queries.captured_queries if q["sql"].startswith("SELECT COUNT(*)")]
    assert len(counts) == 1  # the header's badge and the menu's share it
    assert 'class="turn-count"' not in alice_client.get(reverse("home")).content.decode()
