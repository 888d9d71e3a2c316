"""Template context for every page: the count of online games waiting for the user."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connection
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .models import Game, Player, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# Every page pays for this count, so it is one hand-written query rather than a
# queryset rebuilt by the ORM on each request, shaped to plan cheaply: each user has
# one Player, and the seat join drops games whose seat a bot now plays. A page that
# reads its own data in one hand-written query can ask for the count in the same
# round trip (`YOUR_TURN_SQL` as a column, `your_turn_params`) and hand it over with
# `count_known`, so the header doesn't ask again.
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


def your_turn_count(user: User) -> int:
    """Active online games where it is `user`'s turn (not a seat a bot now plays)."""
    with connection.cursor() as cursor:
        cursor.execute(YOUR_TURN_SQL, your_turn_params(user))
        (count,) = cursor.fetchone()
    return int(count)


def count_known(request: HttpRequest, count: int) -> None:
    """The view has read the user's your-turn count already (with YOUR_TURN_SQL, or from
    a list of the same games): the header uses it instead of querying again."""
    setattr(request, _KNOWN, int(count))


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
