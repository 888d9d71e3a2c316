"""Statistics on the rule options the stats pages filter on (PostgreSQL only).

Stats leave pick-a-phase games out of the phase tables and filter by variant with JSON
lookups on `Game.rules`. Without statistics on those expressions PostgreSQL guesses that
1% of games match, and plans a scan of every game (bench/README.md has the plans).
"""

from django.db import migrations

EXPRESSIONS = {
    "games_game_rules_pick_a_phase": "pick_a_phase",
    "games_game_rules_all_advance": "all_advance",
}


def create(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor != "postgresql":
        return
    table = apps.get_model("games", "Game")._meta.db_table
    for name, key in EXPRESSIONS.items():
        schema_editor.execute(
            f"CREATE STATISTICS IF NOT EXISTS {name} ON (rules -> '{key}') FROM {table}"
        )
    # Filled in now if there are games, else by autovacuum's next ANALYZE: analyzing an
    # empty table would tell the planner it stays empty (one row) until then.
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table})")
        (any_games,) = cursor.fetchone()
    if any_games:
        schema_editor.execute(f"ANALYZE {table}")


def drop(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in EXPRESSIONS:
        schema_editor.execute(f"DROP STATISTICS IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_away"), ("games", "0014_game_next_game")]

    operations = [migrations.RunPython(create, drop)]
