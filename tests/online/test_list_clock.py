"""My games and the turn clock: your turns sorted by the time left (a time limit), else by
how long the turn has waited; each game's clock for static/js/clock.js to count down, or
stopped while paused or away; the query count doesn't grow with the games."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import away
from games.models import Game
from games.online import pause
from tests.online.helpers import play_until_turn_of, started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _now(time_machine):
    time_machine.move_to(T0, tick=False)


def waiting(alice, bob, name, *, waited, limit=None, seed=1):
    """A game of alice's and bob's where it is alice's turn, waited on for `waited`."""
    game = started_game(alice, bob, seed=seed)
    game = play_until_turn_of(game, game.seats.get(player__user=alice).position)
    Game.objects.filter(pk=game.pk).update(name=name, turn_started_at=T0 - waited, time_limit=limit)
    game.refresh_from_db()
    return game


def test_your_turns_go_by_the_time_left_then_by_how_long_they_waited(alice, bob, alice_client):
    day = timedelta(days=1)
    waiting(alice, bob, "Slow newer", waited=timedelta(hours=1), seed=1)
    waiting(alice, bob, "Slow older", waited=timedelta(hours=30), seed=2)
    waiting(alice, bob, "Day limit", waited=timedelta(hours=20), limit=day, seed=3)  # 4h left
    waiting(alice, bob, "Week limit", waited=timedelta(hours=1), limit=7 * day, seed=4)
    waiting(alice, bob, "Half day", waited=timedelta(hours=6), limit=day / 2, seed=5)  # 6h left
    page = alice_client.get(reverse("games:online_list")).content.decode()
    names = ["Day limit", "Half day", "Week limit", "Slow older", "Slow newer"]
    assert sorted(names, key=page.index) == names


def test_each_timed_game_shows_a_clock_that_counts_down_from_the_servers_deadline(
    alice, bob, alice_client
):
    waiting(alice, bob, "Timed", waited=timedelta(hours=2), limit=timedelta(hours=12))
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "Time left:" in page and ">10 hours</strong>" in page
    assert 'data-deadline="2026-03-10T18:00:00+00:00"' in page
    assert "/static/js/clock.js" in page


def test_a_paused_game_shows_its_clock_stopped_and_goes_last(alice, bob, alice_client):
    paused = waiting(alice, bob, "Paused", waited=timedelta(hours=11), limit=timedelta(hours=12))
    waiting(alice, bob, "Untimed", waited=timedelta(hours=1), seed=2)
    pause.agree(paused, alice)
    pause.agree(paused, bob)
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "data-deadline" not in page
    assert ">1 hour</strong> (paused)" in page
    assert page.index("Untimed") < page.index("Paused")


def test_an_away_player_sees_their_clocks_stopped(alice, bob, alice_client):
    waiting(alice, bob, "Timed", waited=timedelta(hours=2), limit=timedelta(hours=12))
    away.go_away(alice, date(2026, 3, 12))
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert ">10 hours</strong> (stopped while the player is away)" in page
    assert "data-deadline" not in page


def test_my_games_with_clocks_costs_the_same_with_more_games(
    alice, bob, alice_client, django_assert_max_num_queries, time_machine
):
    def count():
        with CaptureQueriesContext(connection) as queries:
            alice_client.get(reverse("games:online_list"))
        return len(queries)

    away.go_away(bob, date(2026, 3, 12))
    for seed in (1, 2):
        waiting(alice, bob, f"Game {seed}", waited=timedelta(hours=1), limit=timedelta(hours=12))
    few = count()
    for seed in (3, 4, 5, 6):
        game = waiting(alice, bob, f"Game {seed}", waited=timedelta(hours=2), seed=seed)
        if seed % 2:
            pause.agree(game, alice)
            pause.agree(game, bob)
    with django_assert_max_num_queries(few):
        alice_client.get(reverse("games:online_list"))
    # The rows and the lists are kept now: neither the rows, the games nor their seats
    # are read.
    assert count() == few - 4
    # A minute on, the clocks' words moved on: the lists are drawn again from the kept
    # rows, but every game's seats line is cached (their seats aren't read).
    time_machine.move_to(T0 + timedelta(minutes=1), tick=False)
    assert count() == few - 3


def test_my_games_cached_lists_say_the_time_left_and_waited_as_time_passes(
    alice, bob, alice_client, time_machine
):
    waiting(alice, bob, "Timed", waited=timedelta(hours=2), limit=timedelta(hours=12))
    waiting(alice, bob, "Untimed", waited=timedelta(hours=1), seed=2)
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert ">10 hours</strong>" in page and "waiting 1\xa0hour<" in page  # timesince's spaces
    time_machine.move_to(T0 + timedelta(seconds=1), tick=False)
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert ">9 hours, 59 minutes</strong>" in page and "waiting 1\xa0hour<" in page
    time_machine.move_to(T0 + timedelta(minutes=61), tick=False)
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert ">8 hours, 59 minutes</strong>" in page and "waiting 2\xa0hours, 1\xa0minute<" in page
