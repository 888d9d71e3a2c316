"""Saving a move's game row (`games.online.services`): one hand-written UPDATE that is
also the check that nobody else changed the game since it was read.

The UPDATE is a move's first write: it takes the row lock, so a second request for the
same game waits there, then finds the version moved on (`Changed`). Hand-written: the
ORM took longer to build these statements than the database to run them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from django.db import connection

from ..engine import GameState
from ..models import Game, Move, Notification, Seat
from ..notify import outbox
from ..notify.outbox_sql import insert_columns, insert_placeholders, insert_values
from ..raw_sql import column, prepared


class Changed(Exception):
    """The game changed since it was read (its version moved on): nothing was saved."""


def write_game(
    game: Game,
    fields: tuple[str, ...],
    move: Move | None = None,
    notification: Notification | None = None,
) -> int | None:
    """Save `fields` of `game` with its version one up, if the version is still the one
    `game` was read with; else raise `Changed`. With `move` (PostgreSQL only), the Move
    row goes in with the same statement, and only if the UPDATE did; with
    `notification` too, unless a row with its unique key exists (as
    `outbox_sql.insert_new`). Returns the new notification's id, or None."""
    expected = game.version
    game.version += 1
    values = [prepared(field, game) for field in _game_fields(fields)] + [game.pk, expected]
    if notification is not None:
        values += insert_values(notification)
    if move is not None:
        values += [prepared(field, move, add=True) for field in _move_fields()]
    sql = _update_sql(connection.vendor, fields, move is not None, notification is not None)
    noted = None
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        written = cursor.rowcount == 1
        if written and move is not None:
            move.pk, noted = cursor.fetchone()
            move._state.adding = False
    if not written:
        game.version = expected
        raise Changed
    if notification is not None and noted is not None:
        notification.pk = noted
        notification._state.adding = False
    return noted


def plain_notes(
    game: Game, state: GameState, moves: Sequence[Move], seats: Sequence[Seat], turn_ended: bool
) -> list[tuple[Notification, bool]] | None:
    """For a move (applied to `game` in memory, not saved yet) that writes only the
    game, its one Move row and at most one email (the next player's turn): that email,
    or none. None for any other move. Such a move (a draw, a discard, a lay-down, a hit:
    no round ends, no bot or rating to queue) is saved with one `write_game` statement,
    on PostgreSQL."""
    if (
        connection.vendor != "postgresql"
        or len(moves) != 1
        or "round_over" in (moves[0].action.get("log") or {})  # RoundScore rows to write
        or state.game_over
        or game.turn_started_at is None
        or seats[state.current_seat].is_bot
    ):
        return None
    if not turn_ended:
        return []
    notes = outbox.notifications_after_move(game, state, moves, seats=seats)
    return notes if len(notes) <= 1 else None


@lru_cache(maxsize=1)
def _move_fields() -> list[Any]:
    return [field for field in Move._meta.concrete_fields if not field.primary_key]


@lru_cache(maxsize=8)
def _game_fields(fields: tuple[str, ...]) -> list[Any]:
    return [Game._meta.get_field(name) for name in ("version", "updated_at", *fields)]


@lru_cache(maxsize=16)
def _update_sql(
    vendor: str, fields: tuple[str, ...], with_move: bool, with_notification: bool = False
) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(f"{column(field)} = %s" for field in _game_fields(fields))
    version, pk = column(Game._meta.get_field("version")), column(Game._meta.pk)
    update = f"UPDATE {quote(Game._meta.db_table)} SET {columns} WHERE {pk} = %s AND {version} = %s"
    if not with_move:
        return update
    # PostgreSQL: the INSERTs select from the UPDATE's row, so no row goes in without it.
    noted, note = "", "NULL"
    if with_notification:
        table, columns = quote(Notification._meta.db_table), insert_columns()
        noted = (
            f", noted AS (INSERT INTO {table} ({columns}) SELECT {insert_placeholders()} FROM moved"
            f" ON CONFLICT DO NOTHING RETURNING {column(Notification._meta.pk)})"
        )
        note = f"(SELECT {column(Notification._meta.pk)} FROM noted)"
    move_columns = ", ".join(column(field) for field in _move_fields())
    placeholders = ", ".join(["%s"] * len(_move_fields()))
    return (
        f"WITH moved AS ({update} RETURNING {pk}){noted}"
        f" INSERT INTO {quote(Move._meta.db_table)} ({move_columns})"
        f" SELECT {placeholders} FROM moved RETURNING {column(Move._meta.pk)}, {note}"
    )
