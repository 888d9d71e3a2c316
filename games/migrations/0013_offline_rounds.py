"""Rounds entered offline are applied once (issue 16)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_night_seats"),
    ]

    operations = []
