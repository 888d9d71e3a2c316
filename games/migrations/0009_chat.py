"""Table talk on online games (issue 14): owned by the chat work."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0008_game_tiebreak_seats"),
    ]

    operations = []
