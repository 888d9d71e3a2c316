"""Rows that are slow to make (a game hundreds of moves in), made once per module and
written again for each test that wants them.

`save_rows` runs the build in a transaction it rolls back, keeping in memory the rows the
build wrote; `SavedRows.write()` inserts them again, with the same primary keys, inside
the calling test's own transaction. Each test gets rows of its own, which it may change
as it likes: nothing it does reaches the next test. The primary keys stay free for the
copies: PostgreSQL's sequences don't roll back, and SQLite's AUTOINCREMENT moves past an
id written explicitly.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.core import serializers
from django.db import transaction


@dataclass(frozen=True)
class SavedRows:
    rows: list[tuple[type, list[dict[str, Any]]]]
    result: Any

    def write(self) -> Any:
        """Insert the rows into the current test's database; the build's result again."""
        for model, rows in self.rows:
            objects = [item.object for item in serializers.deserialize("python", rows)]
            # bulk_create sends no signals: a user's profile is among the rows already.
            model._default_manager.bulk_create(objects)
        return self.result


class _RollBack(Exception):
    pass


def save_rows(django_db_blocker: Any, build: Callable[[], Any]) -> SavedRows:
    """Run `build` (it returns something plain, e.g. primary keys) and keep what it wrote.

    Foreign keys are checked at the end of a transaction (Django makes them deferrable), so
    the rows can be written back model by model in any order.
    """
    models = [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]
    saved: list[tuple[type, list[dict[str, Any]]]] = []
    with django_db_blocker.unblock():
        try:
            with transaction.atomic():
                before = {
                    model: set(model._default_manager.values_list("pk", flat=True))
                    for model in models
                }
                result = build()
                for model in models:
                    new = model._default_manager.exclude(pk__in=before[model]).order_by("pk")
                    rows = serializers.serialize("python", new)
                    if rows:
                        saved.append((model, rows))
                raise _RollBack
        except _RollBack:
            pass
    return SavedRows(saved, result)
