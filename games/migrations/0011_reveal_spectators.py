"""Hands shown at round end and spectator links (issue 14)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_pause"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="spectator_token",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddField(
            model_name="game",
            name="round_reveal",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="roundscore",
            name="cards_left",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=~models.Q(spectator_token=""),
                fields=("spectator_token",),
                name="game_unique_spectator_token",
            ),
        ),
    ]
