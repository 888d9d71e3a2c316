"""The rating models move to the games app (games/stats/). Their tables stay: accounts
forgets the models here, games/0015 takes them over with the same tables, and no row
is copied."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_game_rules_statistics")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="RatingChange"),
                migrations.DeleteModel(name="RatedGame"),
                migrations.DeleteModel(name="RatingMark"),
                migrations.DeleteModel(name="Rating"),
            ],
            database_operations=[],
        ),
    ]
