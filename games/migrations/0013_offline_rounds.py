"""Rounds entered offline are applied once (issue 16)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_night_seats"),
    ]

    operations = [
        migrations.CreateModel(
            name="QueuedRound",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.UUIDField()),
                ("round_number", models.PositiveSmallIntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="queued_rounds",
                        to="games.game",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("game", "key"), name="queuedround_unique_key")
                ],
            },
        ),
    ]
