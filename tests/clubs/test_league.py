"""The league table's arithmetic (games/clubs/league.py), on places written by hand."""

import doctest

import pytest

from games.clubs import league, seasons
from games.clubs.league import Person, Row, points_for, table
from games.stats.ratings import Placing

POINTS = [3, 2, 1, 0]


def game(*places: tuple[int, int]) -> list[Placing]:
    return [Placing(player, rank) for player, rank in places]


def people(*names: str) -> dict[int, Person]:
    return {number: Person(name, False) for number, name in enumerate(names, start=1)}


def order(rows: list[Row]) -> list[tuple[int, str]]:
    return [(row.place, row.name) for row in rows]


def test_each_place_scores_its_points_and_places_past_the_list_score_nothing():
    assert [points_for(place, [5, 3]) for place in (1, 2, 3, 6)] == [5, 3, 0, 0]


def test_people_who_share_a_place_each_get_its_points_and_a_shared_first_place_is_a_win():
    (ann, bo, cy) = table([game((1, 1), (2, 1), (3, 2))], people("Ann", "Bo", "Cy"), points=POINTS)
    assert (ann.points, bo.points, cy.points) == (3, 3, 2)
    assert (ann.wins, bo.wins, cy.wins) == (1, 1, 0)


def test_equal_points_go_to_more_wins_first():
    # Ann: 1st and 3rd = 3 + 1 = 4 points, 1 win; Bo: 2nd twice = 4 points, no win.
    rows = table(
        [game((1, 1), (2, 2)), game((2, 2), (1, 3), (3, 1))],
        people("Ann", "Bo", "Cy"),
        points=POINTS,
    )
    assert [(row.name, row.points, row.wins) for row in rows[:2]] == [("Ann", 4, 1), ("Bo", 4, 0)]


def test_equal_points_and_wins_go_to_the_better_average_place():
    # [3, 1, 1, 0]: Ann 1st and 3rd = 4 points (average 2); Bo 1st and 2nd = 4 points
    # (average 1.5); Cy 2nd, 2nd, 1st = 5 points.
    rows = table(
        [game((1, 1), (3, 2)), game((1, 3), (2, 1), (3, 2)), game((2, 2), (3, 1))],
        people("Ann", "Bo", "Cy"),
        points=[3, 1, 1, 0],
    )
    assert [(row.name, row.points, row.wins, row.average_place) for row in rows] == [
        ("Cy", 5, 1, 5 / 3),
        ("Bo", 4, 1, 1.5),
        ("Ann", 4, 1, 2.0),
    ]
    assert [row.place for row in rows] == [1, 2, 3]


def test_equal_points_wins_and_average_go_to_more_games_then_the_name_then_the_player():
    # Best 1 game each: everyone with a win has 3 points. Cy (1st, 2nd, 3rd) and Bo (1st,
    # 3rd) both average 2nd; Cy played more. "ann" and "Ann" (1st once each) are equal
    # on all of it and on the name in any case: the lower player id first.
    rows = table(
        [
            game((3, 1), (4, 2)),
            game((3, 2), (2, 1)),
            game((3, 3), (2, 3), (4, 2), (5, 1)),
            game((1, 1), (4, 3)),
        ],
        {
            1: Person("ann", False),
            2: Person("Bo", False),
            3: Person("Cy", False),
            4: Person("Dee", False),
            5: Person("Ann", True),
        },
        points=POINTS,
        best_of=1,
    )
    assert [(row.player_id, row.points, row.wins, row.games, row.counted) for row in rows] == [
        (1, 3, 1, 1, 1),
        (5, 3, 1, 1, 1),
        (3, 3, 1, 3, 1),
        (2, 3, 1, 2, 1),
        (4, 2, 0, 3, 1),  # Dee: 2nd, 2nd, 3rd; only the best (2 points) counts
    ]


def test_best_of_counts_only_each_persons_highest_scoring_games():
    # Ann: 1st, 4th, 4th, 2nd = 3 + 0 + 0 + 2; best 2 = 5. Bo: 2nd, 1st, 1st, 4th; best 2 = 6.
    games = [
        game((1, 1), (2, 2)),
        game((1, 4), (2, 1)),
        game((1, 4), (2, 1)),
        game((1, 2), (2, 4)),
    ]
    everything = table(games, people("Ann", "Bo"), points=POINTS)
    best = table(games, people("Ann", "Bo"), points=POINTS, best_of=2)
    assert [(row.name, row.points, row.counted) for row in everything] == [
        ("Bo", 8, 4),
        ("Ann", 5, 4),
    ]
    assert [(row.name, row.points, row.counted, row.games) for row in best] == [
        ("Bo", 6, 2, 4),
        ("Ann", 5, 2, 4),
    ]


def test_a_kept_row_comes_back_equal():
    (row,) = table([game((1, 1), (2, 2))], people("Ann", "Bo"), points=POINTS)[:1]
    assert Row.from_kept(row.kept()) == row


def test_no_games_make_an_empty_table():
    assert table([], {}, points=POINTS) == []


@pytest.mark.parametrize("module", [league, seasons])
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
