"""The statements' yardsticks of bench/web.py (bench/web_urls.py) do what their figures
stand for: a move's and a round's writes through the ORM, and no statement or column
that the action and round entry don't send themselves."""

import re
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Move, Notification, Player, RoundScore
from games.nights import services as nights
from games.online import services
from games.online.access import get_seating_for_user
from tests.nights.helpers import post_round
from tests.online.helpers import started_game

pytestmark = pytest.mark.urls("bench.web_urls")


TABLE = re.compile(r'(?:FROM|UPDATE|INTO) "(\w+)"')  # the statement's (first) table
SET_COLUMN = re.compile(r'"(\w+)" = ')


def _statements(queries) -> list[str]:
    """Each statement's verb and table; savepoints left out (in a test's transaction the
    view's atomic block is one)."""
    said = [query["sql"] for query in queries]
    return [
        f"{sql.split()[0]} {TABLE.search(sql)[1]}"
        for sql in said
        if not sql.startswith(("SAVEPOINT", "RELEASE"))
    ]


def _writes(statements: list[str]) -> Counter[str]:
    return Counter(said for said in statements if said.split()[0] in {"UPDATE", "INSERT"})


def _game_columns(queries) -> set[str]:
    """The columns the game's compare-and-swap sets."""
    update = next(q["sql"] for q in queries if q["sql"].startswith('UPDATE "games_game"'))
    return set(SET_COLUMN.findall(update.split(" WHERE ")[0]))


def _posted(client, path, data):  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return queries


def test_a_moves_statements_are_part_of_what_the_action_sends(alice, bob):
    """The yardstick sends of a draw and of a discard no more than the action does (so
    its figure bounds the action's), and writes what it stands for."""
    game = started_game(alice, bob)
    seat = services.load_state(game).current_seat
    player = (alice, bob)[seat]
    client = Client()
    client.force_login(player)
    act = reverse("games:online_act", args=[game.public_id])
    client.get(reverse("games:online_detail", args=[game.public_id]))  # the session's first
    real_draw = _posted(client, act, {"move": game.move_number, "do": "draw"})
    game.refresh_from_db()
    hand = [str(card) for card in services.load_state(game).hands[seat]]
    card = next(code for code in hand if code != "S")
    real_discard = _posted(client, act, {"move": game.move_number, "do": "discard", "cards": card})
    assert Game.objects.get(pk=game.pk).move_number == game.move_number + 1  # both played

    path = f"/bench/statements/move/{game.public_id}/"
    before = Game.objects.get(pk=game.pk)
    draw = _posted(client, path, {"do": "draw"})
    discard = _posted(client, path, {"do": "discard"})
    reads = ["SELECT django_session", "SELECT auth_user", "SELECT games_seat"]
    assert _statements(draw) == [*reads, "UPDATE games_game", "INSERT games_move"]
    assert _statements(discard) == [
        *reads,
        "UPDATE games_game",
        "INSERT games_move",
        "INSERT games_notification",
    ]
    for yardstick, real in ((draw, real_draw), (discard, real_discard)):
        assert not _writes(_statements(yardstick)) - _writes(_statements(real))
        assert _game_columns(yardstick) <= _game_columns(real)
        assert "SELECT games_seat" in _statements(real)

    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.move_number) == (before.version + 2, before.move_number + 2)
    assert Move.objects.filter(game=game).count() == after.move_number
    following = (alice, bob)[(seat + 1) % 2]
    assert Notification.objects.filter(
        game=game, move_number=after.move_number, recipient=following, kind="your_turn"
    ).exists()
    assert get_seating_for_user(alice, game.public_id).game.version == after.version


def test_a_rounds_statements(alice):
    players = [Player.for_user(alice), "Bob", "Carol"]
    game = nights.create_game(alice, players=players, first_dealer=0, rules=Rules(), name="")
    client = Client()
    client.force_login(alice)
    client.get(game.get_absolute_url())  # the session's first request; keeps the scoreboard
    with CaptureQueriesContext(connection) as real:
        post_round(client, game, htmx=True, went_out=0, points=[0, 5, 5], completed=[0])
    path = f"/bench/statements/round/{game.public_id}/"
    assert client.post(path).status_code == 200  # reads the seats once in this process
    with CaptureQueriesContext(connection) as queries:
        assert client.post(path).status_code == 200
    # The compare-and-swap, the round's rows, the seats' totals (an upsert): no more than
    # a round entered on the night's page sends.
    assert _statements(queries) == [
        "SELECT django_session",
        "SELECT auth_user",
        "SELECT games_game",
        "UPDATE games_game",
        "INSERT games_roundscore",
        "INSERT games_seat",
    ]
    assert not _writes(_statements(queries)) - _writes(_statements(real))
    assert _game_columns(queries) <= _game_columns(real)
    game.refresh_from_db()
    assert (game.version, game.rounds_played) == (4, 3)
    assert RoundScore.objects.filter(game=game).count() == 3 * 3


def test_only_a_seated_player_and_the_nights_scorer_get_through(alice, bob, carol):
    game = started_game(alice, carol)
    night = nights.create_game(alice, players=["Bob", "Carol"], first_dealer=0, rules=Rules())
    client = Client()
    client.force_login(bob)
    assert client.post(f"/bench/statements/move/{game.public_id}/").status_code == 404
    assert client.post(f"/bench/statements/round/{night.public_id}/").status_code == 404
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Game.objects.get(pk=night.pk).version == night.version
