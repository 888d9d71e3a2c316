"""Who may open an online game's pages: the people seated at it. For anyone else the game
answers 404, as one that doesn't exist would. Every view of a seated player's pages
(the board and its actions, the chat, the pause, the spectator link, the replay) starts
with `get_seating_for_user`."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.http import Http404
from django.shortcuts import get_object_or_404

from .. import cache_keys
from ..models import Game, Seat
from ..players import seat_for_user
from .board import Seating

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def seats_with_profiles(game: Game) -> list[Seat]:
    """The game's seats in order, each with its player, user and profile: a seat shows
    "away until …" beside the name (online/pause.py), and a move's emails and turn clock
    read them (services.py, notify/outbox.py)."""
    return list(game.seats.select_related("player__user__profile").order_by("position"))


def get_seating_for_user(user: User, public_id: str, *, started: bool = False) -> Seating:
    """The online game `public_id` with `user`'s seat, or 404 for anyone not seated
    (and, with `started`, for a game still in its lobby).

    One query, from the seats: each with the game, its player, user and profile. What
    changes a game (a move, a chat line, a pause) reads them this way: it decides on
    them (whose turn, who gets an email). Each row carries the game's columns; the
    seats share the first row's game, so the game is one object, as the view reads it.
    The seats are put in order here, not by the query: for an ORDER BY, Django's
    compiler compares the ordering with each of the row's selected columns, which are
    many here (bench/README.md)."""
    seats = Seat.objects.filter(game__public_id=public_id, game__mode=Game.Mode.ONLINE)
    if started:
        seats = seats.exclude(game__status=Game.Status.LOBBY)
    with_people = seats.select_related("game", "player__user__profile").order_by()
    read = sorted(with_people, key=attrgetter("position"))
    if not read:
        raise Http404
    game = read[0].game
    for seat in read:
        seat.game = game
    return _seating(game, read, user)


def seating_to_show(user: User, public_id: str) -> Seating:
    """`get_seating_for_user` for a page that only shows the game (the table, a poll
    that found a change, the hint): the game is read, its seats with their people come
    from the cache under its version (`cache_keys.seats`), read once per version.
    Every change a table shows of its seats bumps the version (a seat's flags and mute,
    a player's name, away mode), so they are the seats of the version read."""
    game = _online_game(public_id)
    key = cache_keys.seats(game)
    seats: list[Seat] | None = cache.get(key)
    if seats is None:
        # Read after the game: seats at least as new as its version, never older. Not
        # `seats_with_profiles`: through `game.seats` each row would carry the game, its
        # engine snapshot included, into the cache.
        seats = list(
            Seat.objects.filter(game=game)
            .select_related("player__user__profile")
            .order_by("position")
        )
        cache.set(key, seats, cache_keys.VERSION_SECONDS)
    for seat in seats:
        seat.game = game  # kept without it: the game is the one just read
    return _seating(game, seats, user)


def _online_game(public_id: str, *, started: bool = False) -> Game:
    games = Game.objects.filter(mode=Game.Mode.ONLINE)
    if started:
        games = games.exclude(status=Game.Status.LOBBY)
    return get_object_or_404(games, public_id=public_id)


def _seating(game: Game, seats: list[Seat], user: User) -> Seating:
    me = seat_for_user(seats, user)
    if me is None:
        raise Http404
    return Seating(game, seats, me)


def game_version_for(user_id: Any, public_id: str) -> tuple[int, str] | None:
    """The version and status of the online game `public_id`, if user `user_id` is
    seated at it (else None): the poll's one query, from the user's seat (a player has
    one seat per game, so it asks for no order)."""
    seated = Seat.objects.filter(
        game__public_id=public_id, game__mode=Game.Mode.ONLINE, player__user_id=user_id
    )
    row = seated.order_by().values_list("game__version", "game__status")[:1]
    return next(iter(row), None)
