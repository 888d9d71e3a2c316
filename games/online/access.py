"""Who may open an online game's pages: the people seated at it. For anyone else the game
answers 404, as one that doesn't exist would. Every view of a seated player's pages
(the board and its actions, the chat, the pause, the spectator link, the replay) starts
with `get_seating_for_user`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef
from django.http import Http404
from django.shortcuts import get_object_or_404

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

    Two queries: the game, then its seats with their people. One query joining the seats
    to the game would repeat the game's columns, its engine snapshot among them, on every
    seat's row."""
    games = Game.objects.filter(mode=Game.Mode.ONLINE)
    if started:
        games = games.exclude(status=Game.Status.LOBBY)
    game = get_object_or_404(games, public_id=public_id)
    seats = seats_with_profiles(game)
    me = seat_for_user(seats, user)
    if me is None:
        raise Http404
    return Seating(game, seats, me)


def game_version_for(user_id: Any, public_id: str) -> tuple[int, str] | None:
    """The version and status of the online game `public_id`, if user `user_id` is
    seated at it (else None): the poll's one query."""
    seated = Seat.objects.filter(game=OuterRef("pk"), player__user_id=user_id)
    return (
        Game.objects.filter(public_id=public_id, mode=Game.Mode.ONLINE)
        .filter(Exists(seated))
        .values_list("version", "status")
        .first()
    )
