"""Game-night seats: members seated by username accept (issue 16)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_reveal_spectators"),
    ]

    operations = [
        # Every existing seat was taken by its person (or a bot, or a guest): accepted.
        migrations.AddField(
            model_name="seat",
            name="accepted",
            field=models.BooleanField(default=True, verbose_name="accepted"),
        ),
    ]
