"""A kept scoreboard brought to a later version of its night by reading only the rounds
added since (nights/scoreboard.py caught_up): the scoreboard the whole night gives, or
nothing when anything but new rounds changed in between."""

import random

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.engine import Rules
from games.errors import Refused
from games.models import Game, Player
from games.nights import services
from games.nights.scoreboard import RoundEntry, Scoreboard, caught_up, load_scoreboard
from tests.nights.helpers import post_round, round_data, start_night

pytestmark = pytest.mark.django_db

SEATS = 3


def _random_entry(chance: random.Random, board: Scoreboard) -> RoundEntry:
    """A round the engine may take or refuse: someone (or nobody) went out, some laid."""
    out = chance.choice([None, *range(SEATS)])
    laid = {seat for seat in range(SEATS) if seat == out or chance.random() < 0.3}
    if board.rules.pick_a_phase:
        done = board.standing.completed
        completed = {
            seat: chance.choice(sorted(set(board.rules.phases) - done[seat]) or [1])
            for seat in laid
        }
    else:
        completed = dict.fromkeys(laid)
    points = tuple(0 if seat == out else 5 * chance.randint(1, 20) for seat in range(SEATS))
    return RoundEntry(went_out=out, points=points, completed=completed)


def _step(chance: random.Random, game: Game, co_scorer) -> str:  # type: ignore[no-untyped-def]
    """One change a scorer can make, chosen at random; its name, or "" if refused."""
    board = load_scoreboard(game)
    kind = chance.choice(["append", "append", "append", "long", "edit", "undo", "tie", "co"])
    try:
        if kind == "append":
            services.enter_round(
                game, _random_entry(chance, board), version=game.version, board=board
            )
        elif kind == "long":  # the way a round queued offline is saved
            services.add_round(game, _random_entry(chance, board), version=game.version)
        elif kind == "edit" and board.rounds:
            number = chance.randint(1, len(board.rounds))
            services.edit_round(game, number, _random_entry(chance, board), version=game.version)
        elif kind == "undo":
            services.undo_last(game, version=game.version)
        elif kind == "tie" and board.tiebreak_needed:
            winner = chance.choice(board.standing.tiebreak_seats)
            services.record_tiebreak(game, winner, version=game.version)
        elif kind == "co":
            services.add_co_scorer(game, co_scorer, version=game.version)
        else:
            return ""
    except Refused:
        return ""
    return kind


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "rules",
    [Rules(phases=(1, 2, 3)), Rules(phases=(1, 2, 3), pick_a_phase=True)],
    ids=["in order", "pick a phase"],
)
def test_a_kept_scoreboard_caught_up_is_the_one_the_whole_night_gives(alice, bob, seed, rules):
    chance = random.Random(seed)
    players = [Player.for_user(alice), "Bob", "Carol"]
    game = services.create_game(alice, players=players, first_dealer=0, rules=rules)
    kept = [load_scoreboard(game)]
    caught = refused = 0
    for _change in range(40):
        if not _step(chance, game, bob):
            continue
        game.refresh_from_db()
        whole = load_scoreboard(game)
        for board in kept:
            board_now = caught_up(board, game)
            if board_now is None:
                refused += 1
            else:
                assert board_now == whole, (board.version, game.version)
                caught += 1
        kept.append(whole)
    # Both ways were taken: new rounds caught up, other changes read whole.
    assert caught > 0 and refused > 0


def test_rounds_added_since_are_caught_up_and_any_other_change_is_not(alice, bob):
    game = services.create_game(
        alice, players=[Player.for_user(alice), "Bob", "Carol"], first_dealer=0, rules=Rules()
    )
    start = load_scoreboard(game)
    for number in range(3):
        board = load_scoreboard(game)
        entry = RoundEntry(
            went_out=number,
            points=(5, 5, 5)[:number] + (0, 10, 10)[: 3 - number],
            completed={number: None},
        )
        game, _fresh = services.enter_round(game, entry, version=game.version, board=board)
    after_three = caught_up(start, game)
    assert after_three == load_scoreboard(game)
    assert len(after_three.rounds) == 3

    services.edit_round(
        game,
        2,
        RoundEntry(went_out=1, points=(25, 0, 10), completed={1: None}),
        version=game.version,
    )
    game.refresh_from_db()
    assert caught_up(start, game) is None  # round 2 changed: read whole
    assert caught_up(after_three, game) is None  # one version on, no round added

    game = services.add_co_scorer(game, bob, version=game.version)
    assert caught_up(load_scoreboard(game), game) is None  # the same version: nothing to do


def test_a_round_entered_where_another_worker_kept_an_older_scoreboard(
    alice_client, django_assert_max_num_queries
):
    """Another worker saved the last rounds: this one's kept scoreboard is older, and the
    round's answer reads only the rounds since (no more queries than a kept one)."""
    night = start_night(alice_client)
    post_round(alice_client, night, htmx=True, went_out=0, points=[0, 5, 5], completed=[0])
    night.refresh_from_db()
    older = cache.get(f"night-scoreboard:{night.public_id}")
    assert older is not None and older.version == night.version
    for out in (1, 2):
        points = [0 if seat == out else 10 for seat in range(3)]
        post_round(alice_client, night, htmx=True, went_out=out, points=points, completed=[out])
    cache.set(f"night-scoreboard:{night.public_id}", older)  # as the other worker left it

    data = round_data(night, went_out=0, points=[0, 15, 20], completed=[0])
    url = reverse("games:night_add_round", args=[night.public_id])
    # session, user, the game, the rounds since the kept one; the round written (in a
    # savepoint here: five statements).
    with django_assert_max_num_queries(9):
        answer = alice_client.post(url, data, headers={"HX-Request": "true"})
    assert "Round 4 saved." in answer.content.decode()
    night.refresh_from_db()
    assert cache.get(f"night-scoreboard:{night.public_id}") == load_scoreboard(night)
