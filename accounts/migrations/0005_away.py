"""Away mode: "away until …", at most 30 days a year (issue 14)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_ratings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="away_until",
            field=models.DateTimeField(blank=True, null=True, verbose_name="away until"),
        ),
        migrations.CreateModel(
            name="AwayPeriod",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("first_day", models.DateField(verbose_name="first day")),
                ("last_day", models.DateField(verbose_name="last day")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="away_periods",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "away period",
                "verbose_name_plural": "away periods",
                "ordering": ["first_day", "pk"],
                "indexes": [
                    models.Index(fields=["user", "last_day"], name="away_period_user_idx")
                ],
            },
        ),
    ]
