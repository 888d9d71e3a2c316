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
# one Player, and the seat join drops games whose seat a bot now plays.
_SQL = (
    f"SELECT COUNT(*) FROM {Game._meta.db_table} g"
    f" JOIN {Seat._meta.db_table} s ON s.game_id = g.id AND s.player_id = g.current_player_id"
    f" WHERE g.current_player_id = (SELECT id FROM {Player._meta.db_table} WHERE user_id = %s)"
    " AND g.mode = %s AND g.status = %s AND s.is_bot = %s"
)


def your_turn_count(user: User) -> int:
    """Active online games where it is `user`'s turn (not a seat a bot now plays)."""
    with connection.cursor() as cursor:
        cursor.execute(_SQL, [user.pk, Game.Mode.ONLINE.value, Game.Status.ACTIVE.value, False])
        (count,) = cursor.fetchone()
    return int(count)


def online(request: HttpRequest) -> dict[str, Any]:
    # Lazy: pages that don't show the header (partials, 204s) never run the query.
    def count() -> int:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return your_turn_count(user)

    return {"your_turn_count": SimpleLazyObject(count)}
