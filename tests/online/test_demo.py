import io

import pytest

from games.management.commands.check_replays import replay_problem
from games.models import Game
from games.online import demo as online_demo
from games.online import services

pytestmark = pytest.mark.django_db


def test_the_demo_adds_one_online_game_waiting_for_alice(alice, bob, carol):
    online_demo.load_demo([alice, bob, carol], io.StringIO())
    online_demo.load_demo([alice, bob, carol], io.StringIO())  # safe to run again
    game = Game.objects.get(mode=Game.Mode.ONLINE, name=online_demo.NAME)
    assert game.status == Game.Status.ACTIVE
    assert game.move_number >= online_demo.MOVES
    state = services.load_state(game)
    assert game.seats.get(position=state.current_seat).player.user == alice
    assert replay_problem(game) == ""


def test_the_demo_has_table_talk_and_a_finished_game_to_replay(alice, bob, carol):
    online_demo.load_demo([alice, bob, carol], io.StringIO())
    online_demo.load_demo([alice, bob, carol], io.StringIO())  # safe to run again
    game = Game.objects.get(mode=Game.Mode.ONLINE, name=online_demo.NAME)
    assert [m.seat.player.name for m in game.chat_messages.order_by("pk")] == ["bob", "alice"]
    finished = Game.objects.get(mode=Game.Mode.ONLINE, name=online_demo.FINISHED)
    assert finished.status == Game.Status.FINISHED
    assert finished.seats.get(is_winner=True)
    assert replay_problem(finished) == ""
