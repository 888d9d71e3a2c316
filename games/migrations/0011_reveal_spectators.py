"""Hands shown at round end and spectator links (issue 14)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_pause"),
    ]

    operations = []
