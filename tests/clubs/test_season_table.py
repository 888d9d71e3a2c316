"""A season's league table, from a seeded history worked out by hand (season_helpers.history)."""

from datetime import date

import pytest

from accounts import claims
from games.clubs import seasons
from games.models import Player

from .season_helpers import At, club_of, game, history, utc

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_july(time_machine):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)


def lines(rows):
    return [(row.place, row.name, row.games, row.wins, row.place_total, row.points) for row in rows]


def test_the_table_counts_the_club_games_finished_in_the_season_as_placed_by_the_ratings(
    alice, bob, carol, in_july
):
    seeded = history(alice, bob, carol)
    season = seasons.current_season(seeded.club)
    assert (season.starts, season.ends) == (date(2026, 1, 1), date(2026, 12, 31))
    rows = seasons.standings(seeded.club, season)
    assert lines(rows) == [
        (1, "alice", 5, 3, 8, 12),
        (2, "bob", 4, 2, 6, 10),
        (3, "carol", 3, 1, 5, 7),
        (4, "Dora", 1, 0, 3, 1),
    ]
    assert [row.is_guest for row in rows] == [False, False, False, True]
    assert rows[0].win_rate == 60 and rows[0].average_place == 1.6


def test_best_of_counts_each_persons_best_games_and_the_tie_goes_to_more_wins(
    alice, bob, carol, in_july
):
    # Best 2: alice 3 + 3 (of 3, 3, 2, 1, 3), bob 3 + 3 (of 2, 3, 3, 2), carol 3 + 2, Dora 1.
    # alice and bob have 6 each: alice's 3 wins beat bob's 2.
    seeded = history(alice, bob, carol)
    season = seasons.current_season(seeded.club)
    season.best_of = 2
    rows = seasons.standings(seeded.club, season)
    assert [(row.name, row.points, row.counted, row.games) for row in rows] == [
        ("alice", 6, 2, 5),
        ("bob", 6, 2, 4),
        ("carol", 5, 2, 3),
        ("Dora", 1, 1, 1),
    ]


def test_other_points_per_place_and_places_past_them_scoring_nothing(alice, bob, carol, in_july):
    # [5]: only first places score. alice won night1, online2 and night5; bob night3 and
    # online4; carol shared night3's first place.
    seeded = history(alice, bob, carol)
    season = seasons.current_season(seeded.club)
    season.points = [5]
    rows = seasons.standings(seeded.club, season)
    assert [(row.name, row.points) for row in rows] == [
        ("alice", 15),
        ("bob", 10),
        ("carol", 5),
        ("Dora", 0),
    ]


def test_a_claimed_guests_games_count_as_the_members_who_claimed_them(alice, bob, carol, in_july):
    seeded = history(alice, bob, carol)
    claim = claims.invite(alice, seeded.dora, "carol")
    claims.accept(claim, carol)
    season = seasons.current_season(seeded.club)
    # carol takes Dora's third place in night1: 4 games, places 5 + 3, points 7 + 1.
    assert lines(seasons.standings(seeded.club, season)) == [
        (1, "alice", 5, 3, 8, 12),
        (2, "bob", 4, 2, 6, 10),
        (3, "carol", 4, 1, 8, 8),
    ]


def test_a_game_counts_on_the_day_it_finished_in_the_sites_time_zone(
    alice, bob, carol, in_july, settings
):
    # night0 finished 31 Dec 2025 23:30 UTC: 1 Jan 2026 in Helsinki, so 2026's there.
    # bob won it (3 points), alice came 2nd (2).
    settings.TIME_ZONE = "Europe/Helsinki"
    seeded = history(alice, bob, carol)
    season = seasons.current_season(seeded.club)
    assert lines(seasons.standings(seeded.club, season))[:2] == [
        (1, "alice", 6, 3, 10, 14),
        (2, "bob", 5, 3, 7, 13),
    ]


def test_a_game_of_one_person_and_bots_places_nobody(alice, in_july):
    club = club_of(alice)
    robot = Player.objects.create(name="Bot")
    game(club, [At(Player.for_user(alice), 1), At(robot, 2, bot=True)], finished=utc(2026, 2, 1))
    assert seasons.standings(club, seasons.current_season(club)) == []


def test_the_table_is_one_query_however_many_games_and_people(
    alice, bob, carol, in_july, django_assert_num_queries
):
    seeded = history(alice, bob, carol)
    season = seasons.current_season(seeded.club)
    with django_assert_num_queries(1):
        small = seasons.standings(seeded.club, season)
    for number in range(30):
        guests = [Player.objects.create(name=f"Guest {number}.{seat}") for seat in range(3)]
        seats = [At(seeded.ann, 2), *(At(person, rank) for rank, person in enumerate(guests, 1))]
        game(seeded.club, seats, finished=utc(2026, 2, 1 + number % 27))
    with django_assert_num_queries(1):
        big = seasons.standings(seeded.club, season)
    assert len(small) == 4 and len(big) == 4 + 90
