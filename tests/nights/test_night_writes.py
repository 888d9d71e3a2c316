"""Every change of a night goes through the one write (services._store): whatever the
run of changes, each moves the version on by one, and what is stored (seats' totals,
rounds' running totals, the game's end) is what folding its rounds gives."""

import random
import uuid

import pytest

from games.engine import Rules
from games.errors import Refused
from games.models import Game, Player, QueuedRound, RoundScore, Seat
from games.nights import services
from games.nights.scoreboard import RoundEntry, Scoreboard, load_scoreboard

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


def _change(chance: random.Random, game: Game, co_scorer) -> str:  # type: ignore[no-untyped-def]
    """One change a scorer can make, chosen at random; its name, or "" if refused."""
    board = load_scoreboard(game)
    kinds = ["round", "round", "round", "queued", "edit", "undo", "tie", "co"]
    kind = chance.choice(kinds)
    try:
        if kind == "round":  # on the round form's scoreboard, as the page enters it
            entry = _random_entry(chance, board)
            game, fresh = services.enter_round(game, entry, version=game.version, board=board)
            assert fresh == load_scoreboard(game)
        elif kind == "queued":  # a round a phone queued offline
            key = uuid.uuid4()
            services.add_round(game, _random_entry(chance, board), version=game.version, key=key)
            assert QueuedRound.objects.get(key=key).round_number == len(board.rounds) + 1
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


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "rules",
    [Rules(phases=(1, 2, 3)), Rules(phases=(1, 2, 3), pick_a_phase=True)],
    ids=["in order", "pick a phase"],
)
def test_any_run_of_changes_moves_the_version_one_each_and_stores_what_the_rounds_give(
    alice, bob, seed, rules
):
    chance = random.Random(seed)
    players = [Player.for_user(alice), "Bob", "Carol"]
    game = services.create_game(alice, players=players, first_dealer=0, rules=rules)
    made = set()
    for _number in range(30):
        game = Game.objects.get(pk=game.pk)
        before = game.version
        kind = _change(chance, game, bob)
        made.add(kind)
        game.refresh_from_db()
        assert game.version == before + (1 if kind else 0)
        board = load_scoreboard(game)
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        rounds = RoundScore.objects.filter(game=game).order_by("round_number", "seat__position")
        sums = [sum(row.points for row in rounds if row.seat_id == seat.pk) for seat in seats]
        assert [seat.score for seat in seats] == sums == [seat.total for seat in board.seats]
        assert game.rounds_played == len(board.rounds) == len(rounds) // SEATS
        assert [row.total for row in rounds][-SEATS:] == (sums if board.rounds else [])
        assert (game.status == Game.Status.FINISHED) == board.is_over
        winner = board.winner
        assert (game.winner.name if game.winner else None) == (winner.name if winner else None)
    assert {"round", "queued", "edit", "undo"} <= made
