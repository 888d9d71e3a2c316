import importlib
import random

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games.models import Game, Move
from games.online import services
from tests.online.helpers import play_until_turn_of, started_game
from tests.saved_rows import save_personas, save_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _saved(django_db_setup, django_db_blocker):
    """The 60 moves of `played`, played once for this module; each test that asks for it
    gets a copy of its own (tests/saved_rows.py)."""
    people = save_personas(django_db_blocker, ("alice", "bob"))

    def build():
        alice, bob = (User.objects.get(username=name) for name in ("alice", "bob"))
        game = started_game(alice, bob, bots=1, seed=21)
        return play_until_turn_of(game, 0, min_moves=60).pk

    return people, save_rows(django_db_blocker, build, on=people)


@pytest.fixture
def _people(db, _saved):
    _saved[0].write()


@pytest.fixture
def alice(_people):
    return User.objects.get(username="alice")


@pytest.fixture
def bob(_people):
    return User.objects.get(username="bob")


@pytest.fixture
def played(_people, _saved):
    return Game.objects.get(pk=_saved[1].write())


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
        call_command("check_replays", f"--game={played.public_id}")
    assert "MISMATCH" in capsys.readouterr().out


def test_a_public_id_that_starts_with_a_dash_is_an_id_not_an_option(played, alice, bob, capsys):
    # token_urlsafe ids start with "-" one time in 64; such a game must be checkable.
    dashed = "-" + played.public_id[1:]
    Game.objects.filter(pk=played.pk).update(public_id=dashed)
    other = started_game(alice, bob, seed=5)
    Game.objects.filter(pk=other.pk).update(state={})  # a mismatch, if it were checked
    call_command("check_replays", f"--game={dashed}")
    assert "1 game(s) checked, 0 mismatch(es)." in capsys.readouterr().out
    with pytest.raises(CommandError):
        call_command("check_replays", f"--game={dashed}", f"--game={other.public_id}")
    assert f"MISMATCH {other.public_id}" in capsys.readouterr().out


def test_the_command_says_how_to_name_an_id_that_starts_with_a_dash():
    from games.management.commands.check_replays import Command

    assert "--game=" in Command().create_parser("manage.py", "check_replays").format_help()


def test_pick_a_phase_lay_downs_are_logged_with_their_phase_and_replay(alice, bob, capsys):
    from games.engine import Rules

    game = started_game(alice, bob, bots=1, seed=3, rules=Rules(pick_a_phase=True))
    for _ in range(400):
        if Move.objects.filter(game=game, action__type="lay_down").count() >= 3:
            break
        game.refresh_from_db()
        services.play_turn(game, expected_move=game.move_number, for_person=True)
    lay_downs = list(Move.objects.filter(game=game, action__type="lay_down"))
    assert len(lay_downs) >= 3
    # A logged lay-down names its phase, so a replay never has to guess between the
    # several open phases the same groups may make.
    assert all(isinstance(move.action["phase"], int) for move in lay_downs)
    call_command("check_replays", f"--game={game.public_id}")
    assert "1 game(s) checked, 0 mismatch(es)." in capsys.readouterr().out


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


def test_a_finished_game_with_a_next_game_still_replays_to_its_snapshot(alice, bob, capsys):
    from games.engine import Rules
    from games.online import lobby
    from tests.online.helpers import play_on

    game = play_on(started_game(alice, bob, bots=1, seed=5, rules=Rules(phases=(1,))))
    following = lobby.rematch(game, alice)  # "Next game": the finished game remembers it
    game.refresh_from_db()
    assert game.next_game == following and "rematch" not in game.state  # not the engine's
    call_command("check_replays", f"--game={game.public_id}")
    assert "1 game(s) checked, 0 mismatch(es)." in capsys.readouterr().out


def test_the_migration_moves_a_next_game_kept_in_the_snapshot_to_its_column(alice, bob):
    from django.apps import apps

    from games.engine import Rules
    from games.online import lobby
    from tests.online.helpers import play_on

    game = play_on(started_game(alice, bob, bots=1, seed=5, rules=Rules(phases=(1,))))
    following = lobby.rematch(game, alice)
    snapshot = game.state
    Game.objects.filter(pk=game.pk).update(
        next_game=None, state={**game.state, "rematch": following.public_id}
    )
    importlib.import_module("games.migrations.0014_game_next_game").move_pointers(apps, None)
    game.refresh_from_db()
    assert (game.next_game, game.state) == (following, snapshot)
