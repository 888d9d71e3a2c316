"""A game night's tie-breaker result keeps the tied seats it was played by.

A correction that changes who is tied used to erase the result, so reverting the
correction lost it; now the result is kept with its seats and counts while those seats
are the tie (games/nights/scoreboard.py, `RecordedTiebreak`). The results already
recorded get the seats of the tie they decide now. One that decides nothing keeps none
(as would one the fold can't read): it then counts for any tie its winner is in, as
before.
"""

from django.db import migrations, models

from games.engine.progression import RoundResult, progress
from games.engine.rules import Rules


def record_tied_seats(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    RoundScore = apps.get_model("games", "RoundScore")
    nights = Game.objects.filter(mode="table", tiebreak_winner__isnull=False).order_by("pk")
    for game in nights:
        position = dict(Seat.objects.filter(game=game).values_list("pk", "position"))
        rounds = {}
        for row in RoundScore.objects.filter(game=game):
            went_out, completed, points = rounds.setdefault(
                row.round_number, [None, {}, [0] * len(position)]
            )
            seat = position[row.seat_id]
            points[seat] = row.points
            if row.phase_completed is not None:
                completed[seat] = row.phase_completed
            if row.went_out:
                rounds[row.round_number][0] = seat
        results = [
            RoundResult(went_out=went_out, completed=completed, points=points)
            for _number, (went_out, completed, points) in sorted(rounds.items())
        ]
        try:
            standing = progress(
                len(position), Rules.from_dict(game.rules or {}), results, dealer=game.first_dealer
            )
        except ValueError:  # the engine's RuleError and ActionError
            continue
        if standing.tiebreak_needed and game.tiebreak_winner in standing.tiebreak_seats:
            game.tiebreak_seats = list(standing.tiebreak_seats)
            game.save(update_fields=["tiebreak_seats"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_cap_legacy_round_points"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="tiebreak_seats",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(record_tied_seats, migrations.RunPython.noop, elidable=True),
    ]
