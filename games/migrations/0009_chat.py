"""Table talk on online games (issue 14): chat messages, each player's muted seats, and
the chat's tail on the game row (the board reads it from there, as the move log's)."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_game_tiebreak_seats"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="recent_chat",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="seat",
            name="chat_muted",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.CreateModel(
            name="ChatMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("move_number", models.PositiveIntegerField()),
                ("text", models.CharField(max_length=500)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("hidden_at", models.DateTimeField(blank=True, null=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_messages",
                        to="games.game",
                    ),
                ),
                (
                    "seat",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_messages",
                        to="games.seat",
                    ),
                ),
            ],
            options={
                "ordering": ["pk"],
                "indexes": [
                    models.Index(fields=["game", "move_number"], name="chat_game_move_idx"),
                    models.Index(fields=["seat", "created_at"], name="chat_seat_time_idx"),
                ],
            },
        ),
    ]
