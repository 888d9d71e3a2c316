"""Template context for every page: the count of online games waiting for the user."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import F
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .models import Game, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def your_turn_count(user: User) -> int:
    """Active online games where it is `user`'s turn (not a seat a bot now plays): their
    seats whose game waits for their player, one per game."""
    return Seat.objects.filter(
        player__user=user,
        is_bot=False,
        game__current_player=F("player"),
        game__mode=Game.Mode.ONLINE,
        game__status=Game.Status.ACTIVE,
    ).count()


def online(request: HttpRequest) -> dict[str, Any]:
    # Lazy: pages that don't show the header (partials, 204s) never run the query.
    def count() -> int:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return your_turn_count(user)

    return {"your_turn_count": SimpleLazyObject(count)}
