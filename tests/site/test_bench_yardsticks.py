"""The statements' yardsticks of bench/web.py (bench/web_urls.py) do what their figures
stand for: a move's and a round's writes through the ORM, each the statements the
services send, and nothing more."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.engine import Rules
from games.models import Game, Move, Notification, Player, RoundScore
from games.nights import services as nights
from games.online.access import get_seating_for_user
from tests.online.helpers import started_game

pytestmark = pytest.mark.urls("bench.web_urls")


TABLE = re.compile(r'(?:FROM|UPDATE|INTO) "(\w+)"')  # the statement's (first) table


def _statements(queries) -> list[str]:
    """Each statement's verb and table; savepoints left out (in a test's transaction the
    view's atomic block is one)."""
    said = [query["sql"] for query in queries]
    return [
        f"{sql.split()[0]} {TABLE.search(sql)[1]}"
        for sql in said
        if not sql.startswith(("SAVEPOINT", "RELEASE"))
    ]


def test_a_moves_statements(alice, bob):
    game = started_game(alice, bob)
    client = Client()
    client.force_login(alice)
    path = f"/bench/statements/move/{game.public_id}/"
    client.post(path)  # the session's first request: its queries aren't the move's
    game.refresh_from_db()
    before = (game.version, game.move_number, Move.objects.count())
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path)
    assert response.status_code == 200
    # Session and user, the read, then one transaction: the compare-and-swap, the move,
    # the outbox row.
    assert _statements(queries) == [
        "SELECT django_session",
        "SELECT auth_user",
        "SELECT games_seat",
        "UPDATE games_game",
        "INSERT games_move",
        "INSERT games_notification",
    ]
    game.refresh_from_db()
    assert (game.version, game.move_number, Move.objects.count()) == (
        before[0] + 1,
        before[1] + 1,
        before[2] + 1,
    )
    assert Notification.objects.filter(
        game=game, move_number=game.move_number, recipient=bob, kind="your_turn"
    ).exists()
    assert game.current_player.user == bob
    assert get_seating_for_user(alice, game.public_id).game.version == game.version


def test_a_rounds_statements(alice):
    players = [Player.for_user(alice), "Bob", "Carol"]
    game = nights.create_game(alice, players=players, first_dealer=0, rules=Rules(), name="")
    client = Client()
    client.force_login(alice)
    path = f"/bench/statements/round/{game.public_id}/"
    assert client.post(path).status_code == 200  # reads the seats once in this process
    with CaptureQueriesContext(connection) as queries:
        assert client.post(path).status_code == 200
    # The compare-and-swap, the round's rows, the seats' totals (an upsert).
    assert _statements(queries) == [
        "SELECT django_session",
        "SELECT auth_user",
        "SELECT games_game",
        "UPDATE games_game",
        "INSERT games_roundscore",
        "INSERT games_seat",
    ]
    game.refresh_from_db()
    assert (game.version, game.rounds_played) == (3, 2)
    assert RoundScore.objects.filter(game=game).count() == 2 * 3
    assert list(game.seats.order_by("position").values_list("score", flat=True)) == [10, 10, 10]


def test_only_a_seated_player_and_the_nights_scorer_get_through(alice, bob, carol):
    game = started_game(alice, carol)
    night = nights.create_game(alice, players=["Bob", "Carol"], first_dealer=0, rules=Rules())
    client = Client()
    client.force_login(bob)
    assert client.post(f"/bench/statements/move/{game.public_id}/").status_code == 404
    assert client.post(f"/bench/statements/round/{night.public_id}/").status_code == 404
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Game.objects.get(pk=night.pk).version == night.version
