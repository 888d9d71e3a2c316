"""Template context for every page: the count of online games waiting for the user."""

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .models import Game


def your_turn_count(user: Any) -> int:
    """Active online games where it is `user`'s turn (not a seat a bot now plays)."""
    return Game.objects.filter(
        mode=Game.Mode.ONLINE,
        status=Game.Status.ACTIVE,
        current_player__user=user,
        # One seat row: the user's own, still played by them.
        seats__player__user=user,
        seats__is_bot=False,
    ).count()


def online(request: HttpRequest) -> dict[str, Any]:
    # Lazy: pages that don't show the header (partials, 204s) never run the query.
    def count() -> int:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return your_turn_count(user)

    return {"your_turn_count": SimpleLazyObject(count)}
