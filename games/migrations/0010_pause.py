"""Paused games and pause votes (issue 14)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_chat"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="pause_votes",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="game",
            name="paused_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="clock_stopped_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
