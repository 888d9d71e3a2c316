import importlib
import random

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, Move
from tests.online.helpers import play_until_turn_of, started_game

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


def test_recent_moves_are_the_move_logs_last_ten(played):
    tail = Move.objects.filter(game=played).order_by("-number")[:10]
    expected = [[m.number, m.seat, m.action, m.automatic] for m in reversed(list(tail))]
    played.refresh_from_db()
    assert played.move_number >= 60
    assert played.recent_moves == expected


def test_tampered_recent_moves_are_reported(played, capsys):
    Game.objects.filter(pk=played.pk).update(recent_moves=played.recent_moves[:-1])
    with pytest.raises(CommandError):
        call_command("check_replays")
    assert "its recent moves aren't the move log's last moves" in capsys.readouterr().out


def test_the_migration_fills_recent_moves_from_the_log(played):
    from django.apps import apps

    fill = importlib.import_module("games.migrations.0003_recent_moves").fill_recent_moves
    expected = Game.objects.get(pk=played.pk).recent_moves
    Game.objects.filter(pk=played.pk).update(recent_moves=[])
    fill(apps, None)
    assert Game.objects.get(pk=played.pk).recent_moves == expected
    assert len(expected) == 10
