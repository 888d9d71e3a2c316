"""Your game nights (in progress first), the rematch, and the demo nights."""

import io

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Player
from games.nights import services as nights
from games.nights.demo import FINISHED, IN_PROGRESS, load_demo
from games.nights.scoreboard import load_scoreboard
from tests.nights.helpers import post_round, seats, start_night

pytestmark = pytest.mark.django_db


def finished_night(client, **kwargs):
    game = start_night(client, phases="custom", custom="1", **kwargs)
    post_round(client, game, went_out=1, points=[5, 0, 30], completed=[1])
    game.refresh_from_db()
    return game


def test_nights_in_progress_are_listed_before_finished_ones(alice_client, alice, bob, stranger):
    done = finished_night(alice_client, name="Done")
    playing = start_night(alice_client, name="Playing")
    # A night bob scores with alice at the table is hers too; a stranger's isn't.
    nights.create_game(
        bob,
        players=[Player.for_user(bob), Player.for_user(alice)],
        first_dealer=0,
        rules=Rules(),
        name="At Bob's",
    )
    nights.create_game(
        stranger, players=[Player.for_user(stranger), "Zed"], first_dealer=0, rules=Rules()
    )
    done.save()  # the finished night was touched last: still listed after those in progress
    page = alice_client.get(reverse("games:night_list"))
    names = [game.name for game in page.context["page"].object_list]
    assert names == ["At Bob's", "Playing", "Done"]
    assert playing.name in page.content.decode()


def test_a_rematch_seats_the_same_players_with_the_same_rules(alice_client, alice):
    game = finished_night(alice_client, name="Friday")
    response = alice_client.post(
        reverse("games:night_rematch", args=[game.public_id]), {"version": game.version}
    )
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.url == new.get_absolute_url()
    assert [s.player_id for s in seats(new)] == [s.player_id for s in seats(game)]
    assert (new.rules, new.name, new.creator) == (game.rules, "Friday", alice)
    assert new.first_dealer == (game.first_dealer + 1) % 3  # the deal moves on
    assert (new.status, new.rounds_played) == ("active", 0)


def test_a_double_tap_on_rematch_starts_one_game(alice_client):
    game = finished_night(alice_client)
    url = reverse("games:night_rematch", args=[game.public_id])
    alice_client.post(url, {"version": game.version})
    response = alice_client.post(url, {"version": game.version})
    assert "This game changed since you opened the form" in response.content.decode()
    assert Game.objects.count() == 2


def test_a_co_scorer_who_starts_the_rematch_keeps_the_scorer_on_board(alice_client, alice, carol):
    game = finished_night(alice_client)
    game.co_scorers.add(carol)
    carol_client = Client()
    carol_client.force_login(carol)
    carol_client.post(
        reverse("games:night_rematch", args=[game.public_id]), {"version": game.version}
    )
    new = Game.objects.exclude(pk=game.pk).get()
    assert new.creator == carol
    assert list(new.co_scorers.all()) == [alice]


def test_the_demo_adds_a_finished_and_an_in_progress_night_once(alice, bob, carol):
    out = io.StringIO()
    load_demo([alice, bob, carol], out)
    load_demo([alice, bob, carol], out)
    finished = Game.objects.get(name=FINISHED)
    playing = Game.objects.get(name=IN_PROGRESS)
    assert finished.status == "finished" and finished.winner is not None
    assert playing.status == "active" and playing.rounds_played > 0
    assert Game.objects.count() == 2
    assert any(seat.player.is_guest for seat in seats(playing))
    board = load_scoreboard(finished)
    assert board.is_over and len(board.rounds) == finished.rounds_played
