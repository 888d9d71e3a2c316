"""Round points above what a hand can hold, saved before the engine bounded them.

The engine refuses a round with more than `MAX_ROUND_POINTS` (250) for a seat, and a
game night's page folds every stored round through it: a night saved earlier with, say,
1000000000 points in a round failed with a 500 on every page that showed it. Such points
are capped at the bound, and what depends on them is recomputed the way a correction
recomputes it: the running totals of the rounds, and (through the engine's progression,
the same fold the pages use) the seats' totals, phases and ranks and the night's winner.
Capping can change the winner, or even make a tie; the version is bumped so every cached
drawing of the night is redrawn, and `updated_at` moves so the ratings' sweep re-rates
it. The scorer can correct the capped round afterwards like any other.

The engine is the standard library only (it never imports Django or the models), so it
is imported here as it is: a frozen copy would be a second copy of the rules.
"""

from django.db import migrations
from django.utils import timezone

from games.engine.progression import RoundResult, progress, settle_tiebreak, standing_ranks
from games.engine.rules import Rules

# The engine's bound when this migration was written (games/engine/progression.py).
MAX_ROUND_POINTS = 250


def cap_legacy_round_points(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    RoundScore = apps.get_model("games", "RoundScore")
    affected = RoundScore.objects.filter(
        points__gt=MAX_ROUND_POINTS, game__mode="table"
    ).values("game_id")
    for game in Game.objects.filter(pk__in=affected).order_by("pk"):
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        position = {seat.pk: seat.position for seat in seats}
        rows = sorted(
            RoundScore.objects.filter(game=game),
            key=lambda row: (row.round_number, position[row.seat_id]),
        )
        totals = [0] * len(seats)
        for row in rows:
            row.points = min(row.points, MAX_ROUND_POINTS)
            totals[position[row.seat_id]] += row.points
            row.total = totals[position[row.seat_id]]
        RoundScore.objects.bulk_update(rows, ["points", "total"])
        for seat in seats:
            seat.score = totals[seat.position]
        fields = ["version", "updated_at"]
        standing = _standing(game, seats, position, rows)
        if standing is not None:
            _copy_standing(game, seats, standing)
            fields += ["status", "winner", "finished_at"]
        Seat.objects.bulk_update(seats, ["score", "phase", "phases_completed", "rank", "is_winner"])
        game.version += 1
        game.save(update_fields=fields)


def _standing(game, seats, position, rows):
    """The night's standing from its (capped) rounds, or None when the rounds don't add up
    for another reason: then only the totals are recomputed and the rest left as it was."""
    rules = Rules.from_dict(game.rules or {})
    results = []
    for number in sorted({row.round_number for row in rows}):
        points = [0] * len(seats)
        completed = {}
        went_out = None
        for row in rows:
            if row.round_number != number:
                continue
            seat = position[row.seat_id]
            points[seat] = row.points
            if row.phase_completed is not None:
                completed[seat] = row.phase_completed
            if row.went_out:
                went_out = seat
        results.append(RoundResult(went_out=went_out, completed=completed, points=points))
    try:
        standing = progress(len(seats), rules, results, dealer=game.first_dealer)
        winner = game.tiebreak_winner
        if winner is not None and standing.tiebreak_needed and winner in standing.tiebreak_seats:
            standing = settle_tiebreak(standing, winner)
    except ValueError:  # the engine's RuleError and ActionError
        return None
    return standing


def _copy_standing(game, seats, standing):
    """What games/scoring.refresh_seats and nights/services._save store."""
    ranks = standing_ranks(Rules.from_dict(game.rules or {}), standing)
    for seat in seats:
        seat.score = standing.scores[seat.position]
        seat.phase = standing.phase[seat.position]
        seat.phases_completed = len(standing.completed[seat.position])
        seat.rank = ranks[seat.position]
        seat.is_winner = seat.position == standing.winner
    if standing.game_over:
        game.status = "finished"
        game.winner_id = seats[standing.winner].player_id
        game.finished_at = game.finished_at or timezone.now()
    else:
        game.status = "active"
        game.winner_id = None
        game.finished_at = None


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_game_rated"),
    ]

    operations = [
        migrations.RunPython(cap_legacy_round_points, migrations.RunPython.noop, elidable=True),
    ]
