"""Who may open an online game's pages: the people seated at it. For anyone else the game
answers 404, as one that doesn't exist would. Every view of a seated player's pages
(the board and its actions, the chat, the pause, the spectator link, the replay) starts
with `get_seating_for_user`."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model
from django.http import Http404

from accounts.models import Profile

from ..context_processors import YOUR_TURN_SQL, your_turn_params
from ..models import Game, Player, Seat
from ..players import seat_for_user
from ..raw_sql import RowPart
from .board import Seating

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def seats_with_profiles(game: Game) -> list[Seat]:
    """The game's seats in order, each with its player, user and profile: a seat shows
    "away until …" beside the name (online/pause.py)."""
    seats = Seat.objects.filter(game=game).select_related("player__user__profile")
    return list(seats.order_by("position"))


def get_seating_for_user(user: User, public_id: str, *, started: bool = False) -> Seating:
    """The online game `public_id` with `user`'s seat, or 404 for anyone not seated
    (and, with `started`, for a game still in its lobby)."""
    return read_seating(user, public_id, started=started)[0]


def read_seating(
    user: User,
    public_id: str,
    *,
    started: bool = False,
    your_turn: bool = False,
) -> tuple[Seating, int | None]:
    """`get_seating_for_user`, and with `your_turn` the user's your-turn count for the
    page's header (`games.context_processors`), read in the same query.

    Every page, poll and move of a game starts here, so it is one hand-written query
    (the game joined to its seats, their players, users and profiles) built into models
    by hand: the ORM's version was three round trips (the game, the seats, the header's
    count) and compiled its queries on every request. The first row is the game's, the
    others its seats' (a plain join would repeat the game's columns, its engine snapshot
    among them, on every seat's row: the database would decompress and print it four
    times)."""
    sql = _seating_sql(connection.vendor, started, your_turn)
    game_params: list[Any] = [public_id, Game.Mode.ONLINE.value]
    if started:
        game_params.append(Game.Status.LOBBY.value)
    params = (your_turn_params(user) if your_turn else []) + game_params + game_params
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows or rows[0][0] != 0:
        raise Http404
    game_part, seat_part, player_part, user_part, profile_part = _parts()
    game = cast(Game, game_part.build(rows[0]))
    profile_field = Profile._meta.get_field("user")
    seats: list[Seat] = []
    for row in rows[1:]:
        seat = cast(Seat, seat_part.build(row))
        player = player_part.build(row)
        Seat.game.field.set_cached_value(seat, game)
        Seat.player.field.set_cached_value(seat, player)
        seats.append(seat)
        seat_user = user_part.build(row) if row[user_part.start] is not None else None
        Player.user.field.set_cached_value(player, seat_user)
        if seat_user is not None:
            Player.user.field.remote_field.set_cached_value(seat_user, player)
            profile = profile_part.build(row) if row[profile_part.start] is not None else None
            profile_field.remote_field.set_cached_value(seat_user, profile)
            if profile is not None:
                profile_field.set_cached_value(profile, seat_user)
    me = seat_for_user(seats, user)
    if me is None:
        raise Http404
    count = int(rows[0][-1]) if your_turn else None
    return Seating(game, seats, me), count


def game_version_for(user_id: Any, public_id: str) -> tuple[int, str] | None:
    """The version and status of the online game `public_id`, if user `user_id` is
    seated at it (else None): the poll's one query, hand-written because the ORM took
    longer to build it than the database to answer."""
    user_pk = get_user_model()._meta.pk.to_python(user_id)
    with connection.cursor() as cursor:
        cursor.execute(
            _version_sql(connection.vendor), [public_id, Game.Mode.ONLINE.value, user_pk]
        )
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


@lru_cache(maxsize=4)
def _version_sql(vendor: str) -> str:
    return (
        f"SELECT g.version, g.status FROM {Game._meta.db_table} g"
        f" WHERE g.public_id = %s AND g.mode = %s AND EXISTS (SELECT 1"
        f" FROM {Seat._meta.db_table} s JOIN {Player._meta.db_table} p ON p.id = s.player_id"
        " WHERE s.game_id = g.id AND p.user_id = %s)"
    )


@lru_cache(maxsize=4)
def _parts_for(vendor: str) -> tuple[RowPart, ...]:
    models: list[tuple[type[Model], str]] = [
        (Game, "g"),
        (Seat, "s"),
        (Player, "p"),
        (get_user_model(), "u"),
        (Profile, "pr"),
    ]
    parts, start = [], 1  # after the row's kind (0: the game, 1: a seat)
    for model, alias in models:
        part = RowPart(model, alias, start)
        parts.append(part)
        start = part.end
    return tuple(parts)


def _parts() -> tuple[RowPart, ...]:
    return _parts_for(connection.vendor)


@lru_cache(maxsize=16)
def _seating_sql(vendor: str, started: bool, your_turn: bool) -> str:
    """The seating query for these options, built once per process: the game's row (0,
    its columns, NULLs) then its seats' rows (1, NULLs, their columns)."""
    game, seat, player, user, profile = _parts()
    people = ", ".join(part.columns() for part in (seat, player, user, profile))
    nulls = ", ".join(["NULL"] * (profile.end - game.end))
    game_nulls = ", ".join(["NULL"] * (game.end - game.start))
    count, no_count = (f", ({YOUR_TURN_SQL})", ", NULL") if your_turn else ("", "")
    where = " WHERE g.public_id = %s AND g.mode = %s" + (" AND g.status <> %s" if started else "")
    position = seat.start + seat.names.index("position") + 1  # 1-based, in the output
    # The seats' game by a subquery rather than a join: PostgreSQL plans it faster.
    return (
        f"SELECT 0, {game.columns()}, {nulls}{count} FROM {Game._meta.db_table} g{where}"
        f" UNION ALL SELECT 1, {game_nulls}, {people}{no_count}"
        f" FROM {Seat._meta.db_table} s JOIN {Player._meta.db_table} p ON p.id = s.player_id"
        f" LEFT JOIN {get_user_model()._meta.db_table} u ON u.id = p.user_id"
        f" LEFT JOIN {Profile._meta.db_table} pr ON pr.user_id = u.id"
        f" WHERE s.game_id = (SELECT g.id FROM {Game._meta.db_table} g{where})"
        f" ORDER BY 1, {position}"
    )
