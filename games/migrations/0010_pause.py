"""Paused games and pause votes (issue 14)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_chat"),
    ]

    operations = []
