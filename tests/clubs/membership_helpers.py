"""Set-up for the clubs' membership and club page tests: clubs made through the
services, games of a club through the nights' and online games' services."""

from __future__ import annotations

from datetime import timedelta
from itertools import count

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.clubs import membership
from games.engine import Rules
from games.models import Club, Game, Player, Seat
from games.nights import services as nights
from games.scoring import bump_club
from tests.conftest import PASSWORD


def make_club(owner, *others, name: str = "Friday club") -> Club:  # type: ignore[no-untyped-def]
    """A club `owner` created (its admin), the `others` joined by its link in order."""
    club = membership.create_club(owner, name)
    for user in others:
        membership.join(user, club.invite_token)
    club.refresh_from_db()
    return club


def make_users(prefix: str, count: int) -> list:  # type: ignore[type-arg]
    return [
        get_user_model().objects.create_user(f"{prefix}{n}", f"{prefix}{n}@example.com", PASSWORD)
        for n in range(count)
    ]


_numbers = count(1)


def club_night(club: Club, creator, players, *, finished: bool = False) -> Game:  # type: ignore[no-untyped-def]
    """A night of `club` kept by `creator` with `players` (Players, Users or guests'
    names); `finished`: marked finished now, seat 0 the winner."""
    # Each its own name: the same night set up twice in a row is a double tap's.
    name = f"Night {next(_numbers)}"
    game = nights.create_game(
        creator, players=players, first_dealer=0, rules=Rules(), name=name, club=club
    )
    if finished:
        finish(game)
    return game


def finish(game: Game, *, ago: timedelta = timedelta(0)) -> Game:
    winner = game.seats.get(position=0)
    Seat.objects.filter(pk=winner.pk).update(is_winner=True, rank=1)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        finished_at=timezone.now() - ago,
        winner=winner.player,
        version=game.version + 1,
    )
    if game.club_id is not None:
        bump_club(game.club_id)  # as every change to a club's game does (games/scoring.py)
    game.refresh_from_db()
    return game


def many_finished_nights(club: Club, players: list[Player], count: int) -> None:
    """`count` finished nights of `club` with `players`, straight into the tables."""
    now = timezone.now()
    games = Game.objects.bulk_create(
        Game(
            mode=Game.Mode.NIGHT,
            status=Game.Status.FINISHED,
            name=f"Night {n}",
            club=club,
            finished_at=now - timedelta(days=n),
            winner=players[n % len(players)],
            version=1,
        )
        for n in range(count)
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=position, player=player)
        for game in games
        for position, player in enumerate(players)
    )
