"""What a skill rating is, and how one game moves it.

Every person who plays (a member or a guest) has a rating: openskill's Weng–Lin
Plackett–Luce model, made for free-for-all games of 2 to 6, keeps a skill estimate
`mu` and its uncertainty `sigma` per player. After a game, the people's places (ties
share a place) move everyone's mu and shrink their sigma.

People see one number, the conservative estimate `mu - 3·sigma` (openskill's
ordinal: the skill they very likely have at least) on a familiar scale:

    rating = 1000 + 25 × (mu − 3·sigma)

A newcomer (mu 25, sigma 25/3) starts at 1000 and climbs as the uncertainty shrinks: a
player of exactly average skill in four-player games is near 1250 after 30 games, 1350
after 60 and 1500 after a few hundred (sigma about 1.7), while a skill gap that wins
three games in four head-to-head is about 100 points (one beta). Until a player has `PROVISIONAL_GAMES` rated games the number is marked
provisional: it says more about how little is known than about skill.

Who is rated in a game (`placings`): the people, never a bot. A game with bots is
rated among its people only (a bot's place is left out, as if it had not played),
unless the game is not rated at all (`Game.rated`, the creator's choice). A person who
resigned is placed last, below everyone who played to the end (several resigned: they
share the last place). It takes two people, one of whom played to the end.

This module only computes; `rating_ledger` decides which games are rated, in which
order, and stores the results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from openskill.models import PlackettLuce, PlackettLuceRating

# The model's defaults (openskill's): mu 25, sigma 25/3, beta 25/6, tau 25/300.
SCALE_BASE = 1000
SCALE_FACTOR = 25
PROVISIONAL_GAMES = 5


@cache
def model() -> PlackettLuce:
    """The one rating model (openskill's Plackett–Luce with its default parameters)."""
    return PlackettLuce()


@dataclass(frozen=True)
class Skill:
    """A player's skill estimate: the mean and its uncertainty."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate, mu − 3·sigma.

        >>> Skill(25.0, 25 / 3).ordinal
        0.0
        """
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The number people see (see the module's docstring).

        >>> Skill(25.0, 25 / 3).shown, Skill(27.0, 1.5).shown
        (1000, 1562)
        """
        return shown(self.ordinal)


def initial() -> Skill:
    """Where every player starts."""
    start = model().rating()
    return Skill(start.mu, start.sigma)


def shown(ordinal: float) -> int:
    """An ordinal on the shown scale, rounded to a whole number.

    >>> shown(0.0), shown(20.0), shown(-2.1)
    (1000, 1500, 948)
    """
    return round(SCALE_BASE + SCALE_FACTOR * ordinal)


def is_provisional(games: int) -> bool:
    """Too few rated games for the number to mean much yet.

    >>> is_provisional(4), is_provisional(5)
    (True, False)
    """
    return games < PROVISIONAL_GAMES


# --- who is rated in a game -------------------------------------------------------------


class SeatLike(Protocol):
    """What `placings` reads of a seat (a `games.models.Seat`)."""

    @property
    def player_id(self) -> int: ...
    @property
    def is_bot(self) -> bool: ...
    @property
    def resigned(self) -> bool: ...
    @property
    def rank(self) -> int | None: ...
    @property
    def accepted(self) -> bool: ...


@dataclass(frozen=True)
class Placing:
    """One person's place among the people of a game (1 = best; ties share a place)."""

    player_id: int
    rank: int


def placings(seats: Sequence[SeatLike], *, rated: bool = True) -> list[Placing]:
    """The people of a finished game and their places, in seat order; empty when the
    game moves nobody's rating (not rated, fewer than two people, or nobody played it
    to the end). Places are dense: a bot's place leaves no gap.

    >>> from types import SimpleNamespace as S
    >>> def seat(player, rank, bot=False, resigned=False, accepted=True):
    ...     return S(player_id=player, rank=rank, is_bot=bot or resigned, resigned=resigned,
    ...              accepted=accepted)
    >>> placings([seat(1, 2), seat(2, 1, bot=True), seat(3, 3), seat(4, 2, resigned=True)])
    [Placing(player_id=1, rank=1), Placing(player_id=3, rank=2), Placing(player_id=4, rank=3)]
    >>> placings([seat(1, 1), seat(2, 1)])  # a tie
    [Placing(player_id=1, rank=1), Placing(player_id=2, rank=1)]
    >>> placings([seat(1, 1), seat(2, 2, bot=True)])  # one person: nothing to rate
    []
    >>> placings([seat(1, 1), seat(2, 2, accepted=False), seat(3, 3)])  # not said yes yet
    [Placing(player_id=1, rank=1), Placing(player_id=3, rank=2)]
    """
    if not rated:
        return []
    # A member's seat that waits for their answer (games/nights/seating.py) is left out
    # as a bot's is, until they accept.
    people = [seat for seat in seats if (seat.resigned or not seat.is_bot) and seat.accepted]
    finished = sorted({seat.rank for seat in people if not seat.resigned and seat.rank})
    if len(people) < 2 or not finished:
        return []
    place = {rank: number for number, rank in enumerate(finished, start=1)}
    last = len(finished) + 1
    return [
        Placing(seat.player_id, last if seat.resigned or not seat.rank else place[seat.rank])
        for seat in people
    ]


# --- one game ---------------------------------------------------------------------------


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Everyone's skill after one game: `skills[i]` finished at place `ranks[i]` (lower
    is better, equal is a tie). Deterministic: the same inputs give the same floats.

    >>> after = rate([initial(), initial()], [1, 2])
    >>> after[0].mu > 25 > after[1].mu, after[0].sigma < 25 / 3
    (True, True)
    >>> tied = rate([initial(), initial()], [1, 1])
    >>> tied[0] == tied[1]
    True
    """
    rating_model = model()
    teams: list[list[PlackettLuceRating]] = [
        [rating_model.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills
    ]
    result = rating_model.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in result]
