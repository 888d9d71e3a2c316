"""One word, night: the real-deck mode's stored value "table" becomes "night"."""

from django.db import migrations, models


def to_night(apps, schema_editor):
    apps.get_model("games", "Game").objects.filter(mode="table").update(mode="night")


def to_table(apps, schema_editor):
    apps.get_model("games", "Game").objects.filter(mode="night").update(mode="table")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0015_ratings_from_accounts'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='mode',
            field=models.CharField(choices=[('night', 'Game night'), ('online', 'Online')], max_length=8, verbose_name='mode'),
        ),
        migrations.RunPython(to_night, to_table),
    ]
