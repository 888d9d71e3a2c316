"""The club's stats (games/clubs/records.py), each figure against its value worked out
by hand from the seeded history (tests/clubs/records_helpers.py `seed`)."""

from __future__ import annotations

import pytest

from games.clubs import records
from games.models import Game, Player, Seat
from games.templatetags.game_words import night_name
from tests.clubs.records_helpers import at, club_game, correct, make_club, seed
from tests.stats.factories import laid, missed, picked, player

pytestmark = pytest.mark.django_db


def figures(history):  # type: ignore[no-untyped-def]
    return records.club_figures(history.club)


def summary(record):  # type: ignore[no-untyped-def]
    return (
        record.value,
        record.holder.name,
        record.game.title,
        None if record.first is None else record.first.title,
    )


def test_every_record_is_the_hand_worked_one(alice, bob, carol):
    kept = figures(seed(alice, bob, carol))
    assert {kind: summary(record) for kind, record in kept.records.items()} == {
        # G4 and G6 were both won on 0: the first (G4) keeps it.
        "lowest_total": (0, "alice", "G4", None),
        "fewest_rounds": (1, "bob", "G6", None),
        # carol's G2 (claimed from Caz) and G3; bob's G5–G6 is as long but later.
        "streak": (2, "carol", "G3", "G2"),
        # G3: after round 2 alice had laid 2 phases, carol none.
        "comeback": (2, "carol", "G3", None),
    }
    assert kept.games == 7  # G0–G6: not G7 (no club's), not G8 (in play)


def test_before_the_claim_the_streak_was_bobs(alice, bob, carol):
    kept = figures(seed(alice, bob, carol, claim=False))
    # Caz won G2 and carol G3: two people, two streaks of one.
    assert summary(kept.records["streak"]) == (2, "bob", "G6", "G5")


def test_the_phase_that_stops_the_club_most_is_worked_out_by_hand(alice, bob, carol):
    kept = figures(seed(alice, bob, carol))
    # Phase 1: 26 rounds spent by the people who laid it, 17 times laid (G0 3/2, G1 5/3,
    # G2 4/3, G3 5/3 — the bot's rounds left out —, G4 3/2 — carol's try before she
    # resigned left out: a bot laid it —, G5 5/3, G6 1/1 — carol's seat not accepted).
    assert [(p.phase, p.tries, p.completed) for p in kept.phases] == [
        (1, 26, 17),
        (2, 6, 6),
        (3, 2, 2),
    ]
    assert kept.stopper is not None and kept.stopper.phase == 1
    assert round(kept.stopper.average, 3) == 1.529


def test_the_head_to_head_grid_counts_places_among_people(alice, bob, carol):
    kept = figures(seed(alice, bob, carol))
    assert [p.name for p in kept.grid_people] == ["alice", "bob", "carol"]
    # alice above bob: G1, G2, G3, G4; bob above alice: G0, G5, G6. carol above alice:
    # G2, G3; alice above carol: G4 (carol resigned: last). G5's tie counts for neither;
    # G6 not for carol (she hadn't accepted her seat). Guests and the bot aren't members.
    assert [row.beat for row in kept.grid] == [[None, 4, 1], [3, None, 2], [2, 2, None]]


def test_games_per_month_include_the_months_without(alice, bob, carol):
    kept = figures(seed(alice, bob, carol))
    assert [(m.year, m.month, m.games) for m in kept.months] == [
        (2024, 11, 1),
        (2024, 12, 0),
        (2025, 1, 2),
        (2025, 2, 1),
        (2025, 3, 1),
        (2025, 4, 0),
        (2025, 5, 0),
        (2025, 6, 2),
    ]
    assert kept.busiest_month == 2


def test_a_correction_moves_the_kept_figures_on(alice, bob, carol, django_assert_num_queries):
    history = seed(alice, bob, carol)
    assert figures(history).records["lowest_total"].game.title == "G4"
    with django_assert_num_queries(1):  # kept: the extent alone
        figures(history)
    # A correction gives alice 12 points in G4: G6's 0 (bob) is the record now.
    Seat.objects.filter(game=history.games["G4"], player=history.alice).update(score=12)
    correct(history.games["G4"])
    assert summary(figures(history).records["lowest_total"]) == (0, "bob", "G6", None)


def test_pick_a_phase_games_imported_games_and_bots_wins_count_as_defined(alice, bob):
    club = make_club("Odd club", alice, bob)
    a, b = player(alice), player(bob)
    bot = Player.objects.create(name="Bot")
    # alice wins, a pick-a-phase night: its rounds say nothing of tries.
    club_game(
        club,
        at(2025, 1, 1),
        [a, b],
        [[missed(4, 10), missed(2, 5)], [picked(4, out=True), picked(2, 5)]],
        winner=0,
        rules={"pick_a_phase": True},
    )
    # alice wins again, an imported game: its rounds aren't known.
    imported = club_game(club, at(2025, 1, 2), [a, b], [], winner=0)
    Game.objects.filter(pk=imported.pk).update(rounds_played=0)
    # A bot wins: alice's streak ends. Then alice wins once more.
    club_game(
        club, at(2025, 1, 3), [a, bot], [[missed(1, 20), laid(1, out=True)]], winner=1, bots=(1,)
    )
    club_game(club, at(2025, 1, 4), [a, b], [[laid(1, out=True), missed(1, 9)]], winner=0)
    kept = records.club_figures(club)
    assert [(p.phase, p.tries, p.completed) for p in kept.phases] == [(1, 1, 1)]
    # Pick-a-phase tries don't count; the imported game's 0 rounds don't either.
    fewest = kept.records["fewest_rounds"]
    assert (fewest.value, fewest.game.finished_at) == (1, at(2025, 1, 4))
    # The imported win counts in the streak; the bot's win ends it.
    assert summary(kept.records["streak"])[:2] == (2, "alice")
    assert kept.records["streak"].first is not None
    assert kept.records["streak"].first.finished_at == at(2025, 1, 1)


def test_a_night_without_a_name_is_called_by_its_day_as_in_the_other_lists(alice, bob, carol):
    history = seed(alice, bob, carol)
    night = Game.objects.get(name="G6")  # the fewest rounds to win: a night
    Game.objects.filter(pk=night.pk).update(name="", version=night.version + 1)
    record = figures(history).records["fewest_rounds"]
    assert record.game.title == night_name(Game.objects.get(pk=night.pk))
    assert record.game.title.startswith("Game night of ")
