"""The year in review (games/clubs/year.py): a member's and a club's, each figure against
its value worked out by hand from the seeded history (tests/clubs/records_helpers.py)."""

from __future__ import annotations

from datetime import date

import pytest

from games.clubs import access, year
from tests.clubs.records_helpers import at, club_game, correct, make_club, seed
from tests.stats.factories import laid, missed, player


def club_year(club, member, number):
    """The club's year as its page reads it: the club (its version, the ratings' run)
    read afresh by a member."""
    return year.club_year(access.club_for_member(member, club.public_id), number)


pytestmark = pytest.mark.django_db


def test_alices_2025_is_the_hand_worked_one(alice, bob, carol):
    history = seed(alice, bob, carol)
    review = year.person_year(history.alice, 2025)
    # G1–G6 and G7 (no club's): G0 was 2024, G8 is in play.
    assert (review.games, review.wins) == (7, 3)  # won G1, G4, G7
    # bob in all seven; carol in G2 (claimed), G3, G4, G5 (not G6: not accepted);
    # Dora in G1 and G5. The bot is nobody's partner.
    assert [(p.person.name, p.games) for p in review.partners] == [
        ("bob", 7),
        ("carol", 4),
        ("Dora Quinn", 2),
    ]
    assert [p.person.is_guest for p in review.partners] == [False, False, True]
    # Phase 3: laid in G1, missed three times in G3: 1 of 4. Phase 1: 6 of 9.
    assert review.nemesis is not None
    assert (review.nemesis.phase, review.nemesis.rounds, review.nemesis.completed) == (3, 4, 1)
    # Won G1 (3 people, 10 points), G4 (3 people, 0 points) and G7 (2 people): G4.
    assert review.best is not None
    assert (review.best.game.title, review.best.place, review.best.people) == ("G4", 1, 3)
    assert review.best.score == 0
    # 0 → 1.0 (G1) → 1.2 (G3): shown 1000 → 1030.
    assert review.climb == year.Climb(start=1000, end=1030, games=2)
    assert {kind: (r.value, r.game.title) for kind, r in review.records.items()} == {
        "lowest_total": (0, "G4"),  # G7's 0 came later
        "fewest_rounds": (1, "G7"),
        "streak": (1, "G1"),  # her wins G1, G4, G7 each had a loss between
    }


def test_the_clubs_2025_is_the_hand_worked_one(alice, bob, carol):
    history = seed(alice, bob, carol)
    review = club_year(history.club, alice, 2025)
    assert (review.games, review.nights, review.online) == (6, 4, 2)
    # Two wins each: the names decide the order.
    assert [(t.person.name, t.value) for t in review.most_wins] == [
        ("alice", 2),
        ("bob", 2),
        ("carol", 2),
    ]
    assert [(t.person.name, t.value) for t in review.most_games] == [
        ("alice", 6),
        ("bob", 6),
        ("carol", 4),
    ]
    # Phase 1: 23 rounds for 15 lays (G0's 3 for 2 are 2024's).
    assert review.stopper is not None
    assert (review.stopper.phase, review.stopper.tries, review.stopper.completed) == (1, 23, 15)
    # 10 January: G1 and G2, alice, bob, Dora and carol.
    assert review.busiest == year.BusyNight(date(2025, 1, 10), games=2, people=4)
    # alice +1.0 (G1) +0.2 (G3) = 1.2 → 30; carol +2.0 → 50; bob -0.4 → -10 (no climb).
    assert [(t.person.name, t.value) for t in review.climbers] == [("carol", 50), ("alice", 30)]
    assert {kind: (r.value, r.holder.name, r.game.title) for kind, r in review.records.items()} == {
        "lowest_total": (0, "alice", "G4"),
        "fewest_rounds": (1, "bob", "G6"),
        "streak": (2, "carol", "G3"),
        "comeback": (2, "carol", "G3"),
    }


def test_a_game_counts_in_the_year_it_finished_in_the_sites_time_zone(alice, bob, settings):
    settings.TIME_ZONE = "Europe/Helsinki"
    club = make_club("Late club", alice, bob)
    a, b = player(alice), player(bob)
    # 23:30 UTC on New Year's Eve is 01:30 on 1 January in Helsinki.
    club_game(club, at(2024, 12, 31, 23, 30), [a, b], [[laid(1, out=True), missed(1, 5)]], winner=0)
    assert club_year(club, alice, 2024).games == 0
    assert club_year(club, alice, 2025).games == 1
    assert year.person_year(a, 2025).wins == 1


def test_a_correction_moves_the_kept_year_on(alice, bob, carol):
    history = seed(alice, bob, carol)
    assert club_year(history.club, alice, 2025).games == 6
    history.games["G6"].seats.filter(position=1).update(is_winner=False)
    correct(history.games["G6"])
    # G6 has no winner now: bob's fewest rounds goes, G4 and G2 (2 rounds) remain: G2's.
    assert club_year(history.club, alice, 2025).records["fewest_rounds"].game.title == "G2"


def test_a_new_rating_moves_the_kept_year_on(alice, bob, carol):
    from tests.clubs.records_helpers import rating

    history = seed(alice, bob, carol)
    assert year.person_year(history.bob, 2025).climb == year.Climb(1000, 990, 1)
    # The ratings' task writes G5's changes after the game's last change.
    rating(history.bob, history.games["G5"], -0.4, 0.6)
    assert year.person_year(history.bob, 2025).climb == year.Climb(1000, 1015, 2)


@pytest.mark.parametrize(
    ("today", "featured"),
    [(date(2026, 11, 30), None), (date(2026, 12, 1), 2026), (date(2027, 1, 31), 2026)],
)
def test_the_pages_point_to_a_year_from_december_to_january(today, featured):
    assert year.featured_year(today) == featured
