import random

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, Move
from tests.games.online_helpers import play_until_turn_of, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice, bob):
    game = started_game(alice, bob, bots=1, seed=21)
    return play_until_turn_of(game, 0, min_moves=60)


def test_every_game_replays_to_its_snapshot(played, capsys):
    call_command("check_replays")
    assert "1 game(s) checked, 0 mismatch(es)." in capsys.readouterr().out


def test_a_tampered_snapshot_is_reported(played, capsys):
    state = played.state
    state["hands"][1], state["hands"][2] = state["hands"][2], state["hands"][1]
    Game.objects.filter(pk=played.pk).update(state=state)
    with pytest.raises(CommandError):
        call_command("check_replays")
    out = capsys.readouterr().out
    assert f"MISMATCH {played.public_id}" in out and "hands" in out


def test_a_tampered_move_log_is_reported(played, capsys):
    move = Move.objects.filter(game=played, action__type="discard").first()
    hand = played.state["hands"][move.seat]
    move.action = {**move.action, "card": random.Random(1).choice(hand)}
    move.save()
    with pytest.raises(CommandError):
        call_command("check_replays", "--game", played.public_id)
    assert "MISMATCH" in capsys.readouterr().out
