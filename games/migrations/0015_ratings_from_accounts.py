"""The rating models, from the accounts app (accounts/0007 forgot them): the same
tables, indexes and constraint, so no data moves. Their content types are renamed
too, so permissions and admin history given on them carry over."""

import django.db.models.deletion
from django.db import migrations, models

MODELS = ["rating", "ratingchange", "ratedgame", "ratingmark"]


def rename_content_types(apps, schema_editor):  # type: ignore[no-untyped-def]
    ContentType = apps.get_model("contenttypes", "ContentType")
    taken = set(
        ContentType.objects.filter(app_label="games", model__in=MODELS).values_list(
            "model", flat=True
        )
    )
    ContentType.objects.filter(app_label="accounts", model__in=MODELS).exclude(
        model__in=taken
    ).update(app_label="games")


def restore_content_types(apps, schema_editor):  # type: ignore[no-untyped-def]
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="games", model__in=MODELS).update(app_label="accounts")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_ratings_to_games"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0014_game_next_game"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Rating",
                    fields=[
                        ("player", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name="rating", serialize=False, to="games.player", verbose_name="player")),
                        ("mu", models.FloatField(verbose_name="mu")),
                        ("sigma", models.FloatField(verbose_name="sigma")),
                        ("games", models.PositiveIntegerField(default=0, verbose_name="rated games")),
                        ("updated_at", models.DateTimeField(auto_now=True, verbose_name="updated")),
                    ],
                    options={
                        "verbose_name": "rating",
                        "verbose_name_plural": "ratings",
                        "db_table": "accounts_rating",
                    },
                ),
                migrations.CreateModel(
                    name="RatingMark",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("rated_to_at", models.DateTimeField(blank=True, null=True)),
                        ("rated_to_game", models.IntegerField(blank=True, null=True)),
                        ("redo_from_at", models.DateTimeField(blank=True, null=True)),
                        ("redo_from_game", models.IntegerField(blank=True, null=True)),
                        ("revision", models.PositiveBigIntegerField(default=0)),
                        ("swept_at", models.DateTimeField(blank=True, null=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        "verbose_name": "rating mark",
                        "verbose_name_plural": "rating marks",
                        "db_table": "accounts_ratingmark",
                    },
                ),
                migrations.CreateModel(
                    name="RatedGame",
                    fields=[
                        ("game", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name="rated_game", serialize=False, to="games.game", verbose_name="game")),
                        ("finished_at", models.DateTimeField(verbose_name="finished")),
                        ("rated_at", models.DateTimeField(auto_now=True, verbose_name="rated")),
                    ],
                    options={
                        "verbose_name": "rated game",
                        "verbose_name_plural": "rated games",
                        "db_table": "accounts_ratedgame",
                        "indexes": [models.Index(fields=["finished_at", "game"], name="rated_game_order_idx")],
                    },
                ),
                migrations.CreateModel(
                    name="RatingChange",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("finished_at", models.DateTimeField(verbose_name="finished")),
                        ("rank", models.PositiveSmallIntegerField(verbose_name="rank")),
                        ("mu_before", models.FloatField()),
                        ("sigma_before", models.FloatField()),
                        ("mu_after", models.FloatField()),
                        ("sigma_after", models.FloatField()),
                        ("ordinal_before", models.FloatField()),
                        ("ordinal_after", models.FloatField()),
                        ("created", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                        ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_changes", to="games.game", verbose_name="game")),
                        ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_changes", to="games.player", verbose_name="player")),
                    ],
                    options={
                        "verbose_name": "rating change",
                        "verbose_name_plural": "rating changes",
                        "db_table": "accounts_ratingchange",
                        "ordering": ["finished_at", "game_id"],
                        "indexes": [models.Index(fields=["player", "finished_at", "game"], name="rating_change_player_idx"), models.Index(fields=["finished_at", "game"], name="rating_change_order_idx")],
                        "constraints": [models.UniqueConstraint(fields=("player", "game"), name="rating_change_unique")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(rename_content_types, restore_content_types),
    ]
