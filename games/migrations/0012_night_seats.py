"""Game-night seats: members seated by username accept (issue 16)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_reveal_spectators"),
    ]

    operations = []
