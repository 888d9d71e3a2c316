"""An online game's "Next game" is a column, not a key in the engine's snapshot.

The first "Next game" tap kept the new game's public id under "rematch" in the finished
game's `state`, which the replay (rightly) does not produce. Those pointers move here.
"""

import django.db.models.deletion
from django.db import migrations, models


def move_pointers(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(mode="online", status="finished", state__has_key="rematch"):
        state = dict(game.state)
        following = Game.objects.filter(public_id=state.pop("rematch")).first()
        game.state = state
        game.next_game = following
        game.save(update_fields=["state", "next_game"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_offline_rounds"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="next_game",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="previous_game",
                to="games.game",
            ),
        ),
        migrations.RunPython(move_pointers, migrations.RunPython.noop, elidable=True),
    ]
