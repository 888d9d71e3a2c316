"""The outbox's hand-written statements (games/notify/outbox.py): the ones every move
that starts someone's turn runs, where the ORM took longer to build them than the
database to run them."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.db import connection
from django.utils import timezone

from ..models import Notification
from ..raw_sql import column, prepared

Status = Notification.Status


def insert_new(notification: Notification) -> int | None:
    """Insert `notification` unless a row with its unique key exists; its id, or None.

    One statement (`ON CONFLICT DO NOTHING`): `bulk_create` would raise on the second
    write and need a savepoint around it to go on inside the move's transaction, two
    more round trips on every move that starts a turn."""
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(connection.vendor), insert_values(notification))
        found = cursor.fetchone()
    return None if found is None else int(found[0])


def insert_values(notification: Notification) -> list[Any]:
    """The values of `notification`'s columns in `insert_columns()` order, as the ORM's
    own save would send them."""
    return [prepared(field, notification, add=True) for field in _INSERT_FIELDS]


def insert_columns() -> str:
    """The columns an INSERT of a Notification names, quoted, in order."""
    return ", ".join(column(field) for field in _INSERT_FIELDS)


def insert_placeholders() -> str:
    """One "%s" per column of `insert_columns()`."""
    return ", ".join(["%s"] * len(_INSERT_FIELDS))


_INSERT_FIELDS = [field for field in Notification._meta.concrete_fields if not field.primary_key]


@lru_cache(maxsize=4)
def _insert_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    columns, placeholders = insert_columns(), insert_placeholders()
    return (
        f"INSERT INTO {quote(Notification._meta.db_table)} ({columns}) VALUES ({placeholders})"
        f" ON CONFLICT DO NOTHING RETURNING {column(Notification._meta.pk)}"
    )


def claim(pk: int) -> bool:
    """Move row `pk` pending → queued, if it is still pending (a conditional UPDATE):
    the sweeper's claim on each row it publishes again (a move's own rows are written
    queued)."""
    queued_at = _QUEUED_AT.get_db_prep_save(timezone.now(), connection)
    with connection.cursor() as cursor:
        cursor.execute(
            _claim_sql(connection.vendor),
            [Status.QUEUED.value, queued_at, pk, Status.PENDING.value],
        )
        return bool(cursor.rowcount == 1)


_QUEUED_AT = Notification._meta.get_field("queued_at")


@lru_cache(maxsize=4)
def _claim_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    status = column(Notification._meta.get_field("status"))
    return (
        f"UPDATE {quote(Notification._meta.db_table)}"
        f" SET {status} = %s, {column(_QUEUED_AT)} = %s"
        f" WHERE {column(Notification._meta.pk)} = %s AND {status} = %s"
    )
