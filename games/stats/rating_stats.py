"""Ratings as the pages show them: a player's rating, its history (for the chart), the
opponents they gained or lost most against, a game's rating changes, and the
leaderboard's rating column. Each function is one query, whatever the history's length
(tests/stats/test_rating_queries.py).

Numbers are on the shown scale (`ratings.shown`); a change is the difference of two
shown numbers, so "+23" always matches the ratings printed beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, F, OuterRef, Q, Subquery, Sum, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext_lazy as _

from games.models import Game, Player, Rating, RatingChange

from . import ratings
from .figures import sample_positions
from .leaderboard import LeaderboardRow

PROVISIONAL_GAMES = ratings.PROVISIONAL_GAMES
# The rating chart never draws more points than this, however many games.
HISTORY_POINTS = 60
# The leaderboard's orders (`?sort=`).
SORTS = {"wins": _("By win rate"), "rating": _("By rating")}
# Opponents listed each way on the player page.
OPPONENTS = 3


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating now, as people see it."""

    shown: int
    games: int
    mu: float
    sigma: float

    @property
    def provisional(self) -> bool:
        return ratings.is_provisional(self.games)

    @classmethod
    def of(cls, rating: Rating) -> PlayerRating:
        skill = ratings.Skill(rating.mu, rating.sigma)
        return cls(shown=skill.shown, games=rating.games, mu=rating.mu, sigma=rating.sigma)


def player_rating(player: Player) -> PlayerRating | None:
    """`player`'s rating, or None before their first rated game. One query."""
    rating = Rating.objects.filter(player=player).first()
    return None if rating is None or not rating.games else PlayerRating.of(rating)


# --- history --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingPoint:
    game_number: int  # the player's rated games so far
    finished_at: datetime
    shown: int


def history(player: Player, games: int, points: int = HISTORY_POINTS) -> list[RatingPoint]:
    """The rating after each rated game (at most `points` of them, evenly spread, always
    the last); `games` is how many there are (`PlayerRating.games`). One query."""
    if not games:
        return []
    order = [F("finished_at").asc(), F("game_id").asc()]
    rows = (
        RatingChange.objects.filter(player=player)
        .annotate(number=Window(RowNumber(), order_by=order))
        .filter(number__in=sample_positions(games, points))
        .order_by("number")
        .values_list("number", "finished_at", "ordinal_after")
    )
    return [RatingPoint(n, at, ratings.shown(ordinal)) for n, at, ordinal in rows]


# --- opponents ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opponent:
    player_id: int
    name: str
    is_guest: bool
    games: int  # rated games together
    change: int  # the player's skill (mu) gained or lost in those games, shown scale

    @property
    def change_text(self) -> str:
        return signed(self.change)


def opponents(player: Player, limit: int = OPPONENTS) -> tuple[list[Opponent], list[Opponent]]:
    """The people `player` gained most against and lost most against: the sum of the
    player's skill changes (mu, on the shown scale) in the rated games they shared.

    Mu rather than the shown rating, which also climbs as the uncertainty shrinks (a
    newcomer gains even in a game they lose): mu moves with results only. In a game of
    three or more the change counts for each opponent in it. One query."""
    rows = (
        RatingChange.objects.filter(player=player)
        .values(
            opponent=F("game__rating_changes__player"),
            name=F("game__rating_changes__player__name"),
            user=F("game__rating_changes__player__user"),
            anonymised=F("game__rating_changes__player__anonymised"),
        )
        .annotate(games=Count("pk"), gained=Sum(F("mu_after") - F("mu_before")))
        .order_by()
    )
    found = [
        Opponent(
            player_id=row["opponent"],
            name=row["name"],
            is_guest=row["user"] is None and not row["anonymised"],
            games=row["games"],
            change=round(ratings.SCALE_FACTOR * row["gained"]),
        )
        for row in rows
        if row["opponent"] != player.pk
    ]
    best = sorted((o for o in found if o.change > 0), key=lambda o: (-o.change, o.name))
    worst = sorted((o for o in found if o.change < 0), key=lambda o: (o.change, o.name))
    return best[:limit], worst[:limit]


# --- a game ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRatingRow:
    player_id: int
    name: str
    rank: int  # among the game's people
    before: int
    after: int
    provisional: bool  # the player had fewer than 5 rated games after this one

    @property
    def change(self) -> int:
        return self.after - self.before

    @property
    def change_text(self) -> str:
        """The change with its sign: "+23", "−7" (a minus sign), "±0"."""
        return signed(self.change)


def signed(number: int) -> str:
    """A rating change with its sign.

    >>> signed(23), signed(-7), signed(0)
    ('+23', '−7', '±0')
    """
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"−{-number}"
    return "±0"


def game_changes(game: Game) -> list[GameRatingRow]:
    """What `game` did to each person's rating, best place first; empty until it is
    rated (or when it moves nobody). One query."""
    so_far = RatingChange.objects.filter(
        Q(finished_at__lt=OuterRef("finished_at"))
        | Q(finished_at=OuterRef("finished_at"), game_id__lte=OuterRef("game_id")),
        player=OuterRef("player"),
    )
    rows = (
        RatingChange.objects.filter(game=game)
        .annotate(
            name=F("player__name"),
            games=Subquery(so_far.order_by().values("player").annotate(n=Count("pk")).values("n")),
        )
        .order_by("rank", "name", "player_id")
    )
    return [
        GameRatingRow(
            player_id=row.player_id,
            name=row.name,
            rank=row.rank,
            before=ratings.shown(row.ordinal_before),
            after=ratings.shown(row.ordinal_after),
            provisional=ratings.is_provisional(row.games or 0),
        )
        for row in rows
    ]


# --- the leaderboard --------------------------------------------------------------------------


def leaderboard_ratings(player_ids: Iterable[int]) -> dict[int, PlayerRating]:
    """The ratings of these players (those who have one). One query."""
    return {
        rating.player_id: PlayerRating.of(rating)
        for rating in Rating.objects.filter(player_id__in=list(player_ids), games__gt=0)
    }


def with_ratings(
    rows: Sequence[LeaderboardRow], *, by_rating: bool
) -> list[tuple[LeaderboardRow, PlayerRating | None]]:
    """The leaderboard's rows, each with its player's rating. `by_rating`: ordered by
    rating instead, ranked among the players whose rating is no longer provisional
    (the others follow unranked, then those without a rating). One query."""
    found = leaderboard_ratings(row.player_id for row in rows)
    paired = [(row, found.get(row.player_id)) for row in rows]
    if not by_rating:
        return paired

    def order(pair: tuple[LeaderboardRow, PlayerRating | None]) -> tuple[int, int, str]:
        row, rating = pair
        if rating is None:
            return (2, 0, row.name.lower())
        return (int(rating.provisional), -rating.shown, row.name.lower())

    ranked = []
    for position, (row, rating) in enumerate(sorted(paired, key=order), start=1):
        rank = position if rating is not None and not rating.provisional else None
        ranked.append((LeaderboardRow(**{**row.__dict__, "rank": rank}), rating))
    return ranked
