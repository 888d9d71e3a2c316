"""A season's league table, worked out from the places people took in its games: pure
Python over plain values, so the arithmetic is tested without a database.

Each game gives each of its people the points of their place (`points[place - 1]`;
places past the list's end score 0; people who share a place each get its points).
With `best_of`, only each person's `best_of` highest-scoring games count towards their
points; their games, wins and average place still count every game.

The order (docs/clubs.md, "Seasons and the league table"): more points, then more wins,
then the better (lower) average place, then more games, then the name (case-insensitive),
then who played first in the club (the lower player id): two people equal on all of it
are two guests of the same name, and the order must not depend on the database.

>>> from games.stats.ratings import Placing
>>> people = {1: Person("Ann", False), 2: Person("Bo", True)}
>>> rows = table([[Placing(1, 1), Placing(2, 2)], [Placing(2, 1), Placing(1, 1)]],
...              people, points=[3, 2, 1, 0])
>>> [(row.place, row.name, row.points, row.wins) for row in rows]
[(1, 'Ann', 6, 2), (2, 'Bo', 5, 1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

from games.stats.ratings import Placing


@dataclass(frozen=True)
class Person:
    """Who a player is, as the table names them."""

    name: str
    is_guest: bool


@dataclass(frozen=True)
class Row:
    """One person's line of the table. `place_total`: the sum of their places (the
    average is worked out from it, so a kept table stores whole numbers only)."""

    place: int
    player_id: int
    name: str
    is_guest: bool
    games: int
    wins: int
    place_total: int
    points: int
    counted: int  # the games whose points count (all of them without best_of)

    @property
    def win_rate(self) -> int:
        """Wins in percent of games, rounded.

        >>> Row(1, 1, "A", False, games=3, wins=2, place_total=4, points=8, counted=3).win_rate
        67
        """
        return round(100 * self.wins / self.games) if self.games else 0

    @property
    def average_place(self) -> float:
        return self.place_total / self.games if self.games else 0.0

    def kept(self) -> dict[str, Any]:
        """The row as a closed season keeps it (`Season.final_table`)."""
        return asdict(self)

    @classmethod
    def from_kept(cls, values: dict[str, Any]) -> Row:
        return cls(**{name: values[name] for name in cls.__dataclass_fields__})


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    place_total: int = 0
    scores: list[int] = field(default_factory=list)


def points_for(place: int, points: Sequence[int]) -> int:
    """The points of a place (1 = first); places past the list's end score 0.

    >>> points_for(1, [3, 2, 1, 0]), points_for(3, [3, 2, 1, 0]), points_for(5, [3, 2])
    (3, 1, 0)
    """
    return points[place - 1] if 0 < place <= len(points) else 0


def table(
    games: Iterable[Sequence[Placing]],
    people: dict[int, Person],
    *,
    points: Sequence[int],
    best_of: int | None = None,
) -> list[Row]:
    """The table of `games` (each the `ratings.placings` of one finished game), best
    first, each row's `place` its position in this order. `people` names every player
    who is placed.

    >>> from games.stats.ratings import Placing
    >>> people = {1: Person("Ann", False), 2: Person("Bo", False), 3: Person("Cy", False)}
    >>> games = [[Placing(1, 1), Placing(2, 2)], [Placing(1, 2), Placing(2, 1)],
    ...          [Placing(1, 1), Placing(3, 2)]]
    >>> [(r.name, r.points, r.counted) for r in table(games, people, points=[3, 1], best_of=1)]
    [('Ann', 3, 1), ('Bo', 3, 1), ('Cy', 1, 1)]
    """
    tallies: dict[int, _Tally] = {}
    for placings in games:
        for placing in placings:
            tally = tallies.setdefault(placing.player_id, _Tally())
            tally.games += 1
            tally.wins += placing.rank == 1
            tally.place_total += placing.rank
            tally.scores.append(points_for(placing.rank, points))
    unsorted = []
    for player_id, tally in tallies.items():
        counted = sorted(tally.scores, reverse=True)[:best_of] if best_of else tally.scores
        person = people[player_id]
        unsorted.append(
            Row(
                place=0,
                player_id=player_id,
                name=person.name,
                is_guest=person.is_guest,
                games=tally.games,
                wins=tally.wins,
                place_total=tally.place_total,
                points=sum(counted),
                counted=len(counted),
            )
        )
    ordered = sorted(unsorted, key=_order)
    return [Row(**{**row.kept(), "place": place}) for place, row in enumerate(ordered, start=1)]


def _order(row: Row) -> tuple[int, int, Fraction, int, str, int]:
    average = Fraction(row.place_total, row.games or 1)  # exact: 3/2 and 6/4 are equal
    return (-row.points, -row.wins, average, -row.games, row.name.casefold(), row.player_id)
