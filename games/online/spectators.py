"""Spectators of an online game: the revocable link (`Game.spectator_token`) any seated
player makes or revokes, and the board a spectator sees, built from the engine's
`spectator_view` (what every seat knows in common: never a hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import spectator_view
from ..errors import Refused
from ..models import Game, Seat, new_token
from ..players import seat_for_user
from ..scoring import bump
from . import services
from .board import clock_context
from .table_parts import last_round_context, log_lines, seat_context, standing_rows

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
    log = log_lines(game.recent_moves, names, game.public_id)
    players = [seat_context(view, seat, None) for seat in seats]
    return {
        "game": game,
        "view": view,
        "players": players,
        "current": players[view.current_seat] if not view.game_over else None,
        "discard_top": str(view.discard_top) if view.discard_top else None,
        "log": list(reversed(log)),
        "last_round": last_round_context(game, view, log),
        "standings": standing_rows(seats) if view.game_over else [],
        # Drawn per request, not taken from the board cache: the time left counted now.
        "clock": clock_context(game, view, seats, now=timezone.now()),
    }
