"""The stats demo ranks its game nights exactly as a game night does."""

import io
import random

import pytest
from django.utils import timezone

from games.engine import RoundResult
from games.models import Game, Player, Seat
from games.nights.scoreboard import load_scoreboard
from games.stats import demo
from tests.conftest import _make_user

from .factories import player

pytestmark = pytest.mark.django_db


def test_tied_players_share_a_rank_as_at_a_game_night(monkeypatch, alice, bob, carol):
    # One phase: alice lays it and goes out, bob and carol miss with 20 each.
    tie = RoundResult(went_out=0, completed={0: 1}, points=(0, 20, 20))
    monkeypatch.setattr(demo, "_round", lambda *args: tie)
    players = [player(alice), player(bob), player(carol)]
    demo._night(random.Random(1), "Club night 1", players, {"phases": [1]}, alice, timezone.now())
    seats = Seat.objects.filter(game__name="Club night 1").order_by("position")
    assert [seat.rank for seat in seats] == [1, 2, 2]


def test_every_demo_night_ranks_like_a_game_night(alice, bob, carol):
    demo.load_demo([alice, bob, carol, _make_user("deniz")], io.StringIO())
    games = Game.objects.filter(name__startswith=demo.PREFIX)
    assert games.count() == len(demo.NIGHTS)
    for game in games:
        board = load_scoreboard(game)
        stored = {s.position: s.rank for s in Seat.objects.filter(game=game)}
        assert stored == {s.position: s.rank for s in board.seats}, game.name
    assert Player.objects.filter(name=demo.GUEST_NAME).exists()
