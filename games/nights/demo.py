"""Demo game nights for `make run`: one finished, one in progress, among the demo users
and a guest. Rounds go through the game-night services, so they obey the same rules as
real ones. Safe to run again: a game night that exists already is left alone."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.engine import Rules

from ..models import Game, Player
from . import services
from .scoreboard import RoundEntry, load_scoreboard

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.core.management.base import OutputWrapper

FINISHED = "Demo: Sunday at Bob's"
IN_PROGRESS = "Demo: Friday at Alice's"
GUEST = "Grandma Rose"


def load_demo(users: list[User], stdout: OutputWrapper) -> None:
    by_name = {user.username: user for user in users}
    alice, bob = by_name.get("alice"), by_name.get("bob")
    if alice is None or bob is None:
        return
    others = [user for user in users if user not in (alice, bob)]
    if not _exists(bob, FINISHED):
        game = _night(
            bob, [bob, alice, *others[:1], GUEST], FINISHED, Rules(phases=(1, 2, 3, 4, 5))
        )
        game = _play(game, random.Random(5), rounds=None)
        stdout.write(f"  game night {FINISHED!r}: finished, {game.winner} won")
    if not _exists(alice, IN_PROGRESS):
        game = _night(alice, [alice, bob, *others[:2], GUEST], IN_PROGRESS, Rules())
        game = _play(game, random.Random(10), rounds=6)
        stdout.write(f"  game night {IN_PROGRESS!r}: in progress, round {game.rounds_played + 1}")


def _exists(creator: User, name: str) -> bool:
    return Game.objects.filter(creator=creator, mode=Game.Mode.NIGHT, name=name).exists()


def _night(creator: User, people: Sequence[User | str], name: str, rules: Rules) -> Game:
    players = [person if isinstance(person, str) else Player.for_user(person) for person in people]
    game = services.create_game(creator, players=players, first_dealer=1, rules=rules, name=name)
    # Everyone at the demo table with an account may keep score.
    game.co_scorers.add(*[p for p in people if not isinstance(p, str) and p != creator][:1])
    return game


def _play(game: Game, rng: random.Random, *, rounds: int | None) -> Game:
    """Plausible rounds: some lay their phase, one of them goes out, the rest count cards."""
    while rounds is None or game.rounds_played < rounds:
        board = load_scoreboard(game)
        if board.is_over:
            break
        if board.tiebreak_needed:
            winner = rng.choice(board.standing.tiebreak_seats)
            game = services.record_tiebreak(game, winner, version=game.version)
            continue
        seats = range(len(board.seats))
        completed = {seat: board.standing.phase[seat] for seat in seats if rng.random() < 0.55}
        went_out = rng.choice(sorted(completed) or list(seats))
        completed.setdefault(went_out, board.standing.phase[went_out])
        points = tuple(
            0 if seat == went_out else 5 * rng.randint(1, 8 if seat in completed else 20)
            for seat in seats
        )
        entry = RoundEntry(went_out=went_out, points=points, completed=completed)
        game = services.add_round(game, entry, version=game.version)
    return game
