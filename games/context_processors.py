"""Template context for every page: the count of online games waiting for the user."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import F
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .models import Game, Player, Seat

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
        known = getattr(request, _KNOWN, None)
        if known is not None:
            return int(known)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return your_turn_count(user)

    return {"your_turn_count": SimpleLazyObject(count)}


# Only for games/nights/ (views.py, listing.py), whose pages still read the count in their
# own query: remove these three once they leave it to the header's query above.
YOUR_TURN_SQL = (
    f"SELECT COUNT(*) FROM {Game._meta.db_table} yt_g"
    f" JOIN {Seat._meta.db_table} yt_s"
    " ON yt_s.game_id = yt_g.id AND yt_s.player_id = yt_g.current_player_id"
    f" WHERE yt_g.current_player_id = (SELECT id FROM {Player._meta.db_table} WHERE user_id = %s)"
    " AND yt_g.mode = %s AND yt_g.status = %s AND yt_s.is_bot = %s"
)
_KNOWN = "_your_turn_count"  # where count_known leaves it on the request


def your_turn_params(user: User) -> list[Any]:
    """The parameters of YOUR_TURN_SQL, in order."""
    return [user.pk, Game.Mode.ONLINE.value, Game.Status.ACTIVE.value, False]


def count_known(request: HttpRequest, count: int) -> None:
    """A games/nights/ page read the count with YOUR_TURN_SQL: the header uses it."""
    setattr(request, _KNOWN, int(count))
