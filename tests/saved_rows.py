"""Rows that are slow to make (a game hundreds of moves in), made once per module and
written again for each test that wants them.

`save_rows` runs a build in a transaction it rolls back, keeping in memory the rows the
build wrote; `SavedRows.write()` inserts them again, with the same primary keys, inside
the calling test's own transaction. Each test gets rows of its own, which it may change
as it likes: nothing it does reaches the next test. The primary keys stay free for the
copies: PostgreSQL's sequences don't roll back, and SQLite's AUTOINCREMENT moves past an
id written explicitly (so on SQLite a test writes saved rows before it makes any of its
own, or a key may be taken twice: an IntegrityError, never a silent mix).

    @pytest.fixture(scope="module")
    def _saved(django_db_setup, django_db_blocker):
        people = save_personas(django_db_blocker)
        return people, save_rows(django_db_blocker, build_a_long_game, on=people)
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.core import serializers
from django.db import transaction
from django.test import override_settings

from games.models import Player
from tests.conftest import FAST_HASHERS, _make_user, celery_tasks_inline

PERSONAS = ("alice", "bob", "carol", "stranger")


@dataclass(frozen=True)
class SavedRows:
    rows: list[tuple[type, list[dict[str, Any]]]]
    result: Any

    def write(self) -> Any:
        """Insert the rows into the current test's database (not those it was built
        `on`: write them first); the build's result again."""
        for model, rows in self.rows:
            objects = [item.object for item in serializers.deserialize("python", rows)]
            # bulk_create sends no signals: a user's profile is among the rows already.
            model._default_manager.bulk_create(objects)
        return self.result


class _RollBack(Exception):
    pass


def save_rows(
    django_db_blocker: Any, build: Callable[[], Any], *, on: SavedRows | None = None
) -> SavedRows:
    """Run `build` as a test would (tasks inline), on top of the rows `on` if given, and
    keep what it wrote. It returns something plain, e.g. a primary key."""
    return save_each(django_db_blocker, {"rows": build}, on=on)["rows"]


def save_each(
    django_db_blocker: Any,
    builds: Mapping[str, Callable[[], Any]],
    *,
    on: SavedRows | None = None,
) -> dict[str, SavedRows]:
    """`save_rows` for several builds, one after the other in one transaction, each
    keeping only what it wrote: a test may write any of them, or several together, as
    their primary keys differ (SQLite's would repeat across transactions rolled back).
    Each build must stand on `on` alone, not on rows an earlier one wrote (a guest it
    seated again, say): the end of each test checks every foreign key, so a build that
    leans on another fails there. Rows of `on` that a build changes keep their saved
    values: a build adds rows.

    Foreign keys are checked at the end of a transaction (Django makes them deferrable), so
    the rows can be written back model by model in any order.
    """
    models = [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]
    saved: dict[str, SavedRows] = {}
    with django_db_blocker.unblock():
        try:
            with transaction.atomic(), celery_tasks_inline():
                if on is not None:
                    on.write()
                for name, build in builds.items():
                    before = {
                        model: set(model._default_manager.values_list("pk", flat=True))
                        for model in models
                    }
                    result = build()
                    rows = []
                    for model in models:
                        new = model._default_manager.exclude(pk__in=before[model]).order_by("pk")
                        if written := serializers.serialize("python", new):
                            rows.append((model, written))
                    saved[name] = SavedRows(rows, result)
                raise _RollBack
        except _RollBack:
            pass
    return saved


def save_personas(django_db_blocker: Any, names: tuple[str, ...] = PERSONAS) -> SavedRows:
    """The personas (alice, bob, carol and the stranger, or those named) as
    tests/conftest.py makes them, each with the `Player` a game seats them as: rows saved
    on these share them. A module that writes them overrides their fixtures."""

    def build() -> None:
        with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
            for name in names:
                Player.for_user(_make_user(name))

    return save_rows(django_db_blocker, build)
