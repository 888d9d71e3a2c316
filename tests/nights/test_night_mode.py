"""One word, night: the real-deck mode is stored as "night", and a database from before
keeps its nights (the migration renames the stored "table")."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0015_ratings_from_accounts")]
AFTER = [("games", "0016_night_mode")]


def test_the_migration_turns_stored_table_nights_into_night_and_back(alice):
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        old_game = executor.loader.project_state(BEFORE).apps.get_model("games", "Game")
        pk = old_game.objects.create(mode="table", status="active", creator_id=alice.pk).pk
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        # The model as that migration left it: later ones add columns today's has.
        new_game = executor.loader.project_state(AFTER).apps.get_model("games", "Game")
        assert new_game.objects.get(pk=pk).mode == Game.Mode.NIGHT == "night"
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        assert old_game.objects.get(pk=pk).mode == "table"
    finally:
        # Back to today's schema even when an assertion failed, so the tests after this
        # one in the same process find the tables they expect.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
