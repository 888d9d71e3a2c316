"""games/migrations/0007 and 0008: nights saved before the engine bounded a round's points
(`MAX_ROUND_POINTS`) and before a tie-breaker result kept the seats it was for.

A round of 1000000000 points, written straight into the table as the old code saved it,
made every page that folds the rounds fail with a 500 once the engine refused it.
0007 caps such points and recomputes what depends on them through the engine, as a
correction would; 0008 gives every recorded tie-breaker result its tied seats."""

import importlib

import pytest
from django.apps import apps
from django.db.models import F
from django.urls import reverse

from games.engine import RuleError
from games.engine.progression import MAX_ROUND_POINTS
from games.models import Game, RoundScore, Seat
from tests.nights.helpers import post_round, seats, start_night, tiebreak

pytestmark = pytest.mark.django_db

cap_migration = importlib.import_module("games.migrations.0007_cap_legacy_round_points")
seats_migration = importlib.import_module("games.migrations.0008_game_tiebreak_seats")

LEGACY = 1_000_000_000


def migrate_as_then(function) -> None:
    """Run a migration's function on the rows as they were when it ran: before 0016
    renamed the mode, nights were stored as "table"."""
    Game.objects.filter(mode="night").update(mode="table")
    function(apps, None)
    Game.objects.filter(mode="table").update(mode="night")


def write_legacy_points(game: Game, round_number: int, position: int, points: int) -> None:
    """What the old code stored for a round typed in with `points`: the row, the running
    totals after it and the seat's total (ranks and winner left as they were)."""
    row = RoundScore.objects.get(game=game, round_number=round_number, seat__position=position)
    extra = points - row.points
    RoundScore.objects.filter(pk=row.pk).update(points=points)
    RoundScore.objects.filter(
        game=game, seat__position=position, round_number__gte=round_number
    ).update(total=F("total") + extra)
    Seat.objects.filter(game=game, position=position).update(score=F("score") + extra)


def totals(game: Game, position: int) -> list[tuple[int, int]]:
    rows = RoundScore.objects.filter(game=game, seat__position=position).order_by("round_number")
    return [(row.points, row.total) for row in rows]


@pytest.fixture
def legacy_night(alice_client):
    """alice and Bob, phases 1–3: alice 300 points, Bob 25 — but Bob's 25 of round 1
    was saved as 1000000000, so alice won."""
    game = start_night(alice_client, guests=["Bob"], phases="custom", custom="1 2 3")
    post_round(alice_client, game, went_out=0, points=[0, 25], completed=[0, 1])
    post_round(alice_client, game, went_out=1, points=[200, 0], completed=[0, 1])
    post_round(alice_client, game, went_out=1, points=[100, 0], completed=[0, 1])
    write_legacy_points(game, 1, 1, LEGACY)
    alice, bob = seats(game)
    Seat.objects.filter(pk=alice.pk).update(rank=1, is_winner=True)
    Seat.objects.filter(pk=bob.pk).update(rank=2, is_winner=False)
    Game.objects.filter(pk=game.pk).update(winner=alice.player, version=F("version") + 1)
    game.refresh_from_db()
    return game


def test_a_legacy_round_over_the_limit_breaks_the_night_s_page(alice_client, legacy_night):
    with pytest.raises(RuleError):
        alice_client.get(legacy_night.get_absolute_url())


def test_the_migration_caps_the_points_and_recomputes_totals_ranks_and_winner(
    alice_client, legacy_night
):
    version = legacy_night.version
    migrate_as_then(cap_migration.cap_legacy_round_points)

    assert totals(legacy_night, 1) == [(MAX_ROUND_POINTS, 250), (0, 250), (0, 250)]
    assert totals(legacy_night, 0) == [(0, 0), (200, 200), (100, 300)]
    assert [(seat.score, seat.rank, seat.is_winner) for seat in seats(legacy_night)] == [
        (300, 2, False),
        (250, 1, True),
    ]
    legacy_night.refresh_from_db()
    assert (legacy_night.status, legacy_night.winner.name) == (Game.Status.FINISHED, "Bob")
    assert legacy_night.version > version  # every cached page of the night is redrawn
    page = alice_client.get(legacy_night.get_absolute_url())
    assert page.status_code == 200
    assert "<bdi>Bob</bdi> wins after 3 rounds!" in page.content.decode()


def test_the_capped_round_can_be_corrected_afterwards(alice_client, legacy_night):
    migrate_as_then(cap_migration.cap_legacy_round_points)
    url = reverse("games:night_edit_round", args=[legacy_night.public_id, 1])
    response = alice_client.get(url)
    assert response.status_code == 200
    assert response.context["form"].initial["points_1"] == MAX_ROUND_POINTS


def test_a_night_still_being_played_takes_new_rounds_after_the_migration(alice_client):
    game = start_night(alice_client, guests=["Bob"])
    post_round(alice_client, game, went_out=0, points=[0, 25], completed=[0])
    write_legacy_points(game, 1, 1, LEGACY)
    migrate_as_then(cap_migration.cap_legacy_round_points)
    response = post_round(alice_client, game, went_out=1, points=[40, 0], completed=[1])
    assert response.status_code == 302
    assert totals(game, 1) == [(250, 250), (0, 250)]


def test_the_migration_leaves_every_other_night_alone(alice_client, legacy_night):
    other = start_night(alice_client, guests=["Carol"])
    post_round(alice_client, other, went_out=0, points=[0, 250], completed=[0])
    other.refresh_from_db()
    before = (other.version, totals(other, 1))
    migrate_as_then(cap_migration.cap_legacy_round_points)
    other.refresh_from_db()
    assert (other.version, totals(other, 1)) == before


def test_the_tie_breaker_results_get_the_seats_they_were_for(alice_client):
    game = start_night(alice_client, phases="custom", custom="1")
    post_round(alice_client, game, went_out=1, points=[5, 0, 0], completed=[1, 2])
    tiebreak(alice_client, game, winner=2)
    Game.objects.filter(pk=game.pk).update(tiebreak_seats=[])
    migrate_as_then(seats_migration.record_tied_seats)
    game.refresh_from_db()
    assert (game.tiebreak_winner, game.tiebreak_seats) == (2, [1, 2])
