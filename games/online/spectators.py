"""Spectators of an online game: the revocable link (`Game.spectator_token`) any seated
player makes or revokes, and the board a spectator sees, built from the engine's
`spectator_view` (what every seat knows in common: never a hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import PlayerView, spectator_view
from ..errors import Refused
from ..models import Game, Seat, new_token
from ..players import seat_for_user
from ..scoring import bump
from ..words import move_line, time_left_words
from . import services
from .board import TIME_LEFT_SLOT, last_round_context, seat_context
from .board import _clock as board_clock

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def set_link(game: Game, user: User, *, make: bool) -> Game:
    """Make a new spectator link (the old one, if any, stops working) or, with `make`
    False, revoke it. Any seated player may; the version is bumped so every board shows
    the change."""
    locked = services.lock(game)
    if seat_for_user(services.seats_of(locked), user) is None:
        raise Refused(_("You aren't playing in this game."), code="not_seated")
    if locked.status == Game.Status.LOBBY:
        raise Refused(_("This game hasn't started yet."), code="not_active")
    locked.spectator_token = new_token() if make else ""
    bump(locked, "spectator_token")
    return locked


def board_context(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """What the spectator's board shows: the phases, the laid groups, the discard top,
    every seat's card count, the last round's results, the log and the clock."""
    view = spectator_view(services.load_state(game))
    names = view.players
    log = [
        {
            "number": number,
            "seat": seat,
            "text": move_line(data, seat, names),
            "automatic": automatic,
            "round_over": data.get("log", {}).get("round_over"),
        }
        for number, seat, data, automatic in game.recent_moves
    ]
    players = [seat_context(view, seat, None) for seat in seats]
    return {
        "game": game,
        "view": view,
        "players": players,
        "current": players[view.current_seat] if not view.game_over else None,
        "discard_top": str(view.discard_top) if view.discard_top else None,
        "log": list(reversed(log)),
        "last_round": last_round_context(game, view, log),
        "standings": sorted(seats, key=lambda s: (s.rank or 99, s.position))
        if view.game_over
        else [],
        "clock": _clock(game, view, seats),
    }


def _clock(game: Game, view: PlayerView, seats: list[Seat]) -> dict[str, Any] | None:
    """The board's clock (games/online/clock.html), its time left counted now: the
    spectator's board is drawn per request, not taken from the board cache."""
    clock = board_clock(game, view, seats)
    if clock is not None and clock.get("left") == TIME_LEFT_SLOT:
        clock = {**clock, "left": time_left_words(clock["deadline"] - timezone.now())}
    return clock
