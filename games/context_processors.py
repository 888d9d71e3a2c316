"""Template context for every page: the count of online games waiting for the user."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db.models import F
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from . import cache_keys
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


def header_count(user: User) -> int:
    """`your_turn_count` as the header shows it: kept for `cache_keys.YOUR_TURNS_SECONDS`,
    so a member going from page to page pays its query once."""
    key = cache_keys.your_turns(user.pk)
    count = cache.get(key)
    if count is None:
        count = your_turn_count(user)
        cache.set(key, count, cache_keys.YOUR_TURNS_SECONDS)
    return int(count)


def counted(user: User, count: int) -> dict[str, Any]:
    """The header's count from a page that counted the games itself (My games): kept for
    the next pages too, and the context that shows it on this one."""
    cache.set(cache_keys.your_turns(user.pk), count, cache_keys.YOUR_TURNS_SECONDS)
    return {"your_turn_count": count}


def online(request: HttpRequest) -> dict[str, Any]:
    # Lazy: pages that don't show the header (partials, 204s) never run the query.
    def count() -> int:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return header_count(user)

    return {"your_turn_count": SimpleLazyObject(count)}
