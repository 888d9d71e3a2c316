"""A Player's statistics, computed in the database.

Everything reads the denormalised `Seat` totals and the `RoundScore` rows that
both modes write, never the online move log. Each function issues a fixed number
of queries whatever the number of games, so the stats page costs the same for a
newcomer and for a veteran (tests/stats/test_stats_queries.py).

Only finished games count, and only what people played: a game a person resigned
counts as played and not won (even when the bot that took their seat won it), its final
score is not theirs, and a round a bot played for them (`RoundScore.by_bot`) is not
theirs either. Bots are nobody's opponent, and have no stats of their own.
A `Scope` (scope.py) says whose stats and which games: mode, period
and variant.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import (
    Avg,
    Case,
    Count,
    Exists,
    F,
    Min,
    OuterRef,
    Prefetch,
    Q,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber

from games.models import Player, RoundScore, Seat

from .scope import FINISHED_BY_THEM, WON, Scope, pick_a_phase_q

# A phase needs this many tries before it can be anyone's nemesis: one unlucky
# round is not a pattern.
NEMESIS_MIN_ROUNDS = 3
# The win-rate chart never draws more points than this, however many games.
WIN_RATE_POINTS = 40
HEAD_TO_HEAD_LIMIT = 20
RECENT_GAMES = 10


def share_of(part: int | None, whole: int | None) -> float | None:
    return None if not whole else (part or 0) / whole


# --- summary ----------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    played: int
    won: int
    average_score: float | None
    best_score: int | None
    average_rounds: float | None
    longest_streak: int

    @property
    def win_rate(self) -> float | None:
        return share_of(self.won, self.played)


def summary(scope: Scope) -> Summary:
    """Games played and won, average and best (lowest) final score and rounds per game
    (of the games played to the end), and the longest winning streak. Two queries."""
    row = scope.seats().aggregate(
        played=Count("id"),
        won=Count("id", filter=WON),
        average_score=Avg("score", filter=FINISHED_BY_THEM),
        best_score=Min("score", filter=FINISHED_BY_THEM),
        # An imported game's rounds are unknown (rounds_played 0: bgstats.py).
        average_rounds=Avg(
            "game__rounds_played", filter=FINISHED_BY_THEM & Q(game__rounds_played__gt=0)
        ),
    )
    return Summary(**row, longest_streak=longest_streak(scope))


def extent(scope: Scope) -> tuple[int, int, int]:
    """The games in scope in three numbers: how many, the sum of their versions and the
    sum of their ids. Every change to a game (its rounds, its seats, its players' names)
    bumps its version (games/scoring.py), so the second moves on with any change to any
    of them; the first and third when games come into the scope or leave it. What the
    stats page's kept figures are keyed by (games/stats/page.py). One query."""
    row = scope.seats().aggregate(
        games=Count("id"), versions=Sum("game__version"), ids=Sum("game_id")
    )
    return (row["games"], row["versions"] or 0, row["ids"] or 0)


def _finish_order() -> list[Any]:
    return [F("game__finished_at").asc(), F("pk").asc()]


def longest_streak(scope: Scope) -> int:
    """The most games won in a row ("gaps and islands"): numbering the games once
    overall and once among wins only, consecutive wins share the difference of the
    two numbers. The ORM builds the windowed query; SQL groups it (a window can't
    appear in GROUP BY)."""
    islands = (
        scope.seats()
        .annotate(won=Case(When(WON, then=Value(True)), default=Value(False)))
        .annotate(
            island=Window(RowNumber(), order_by=_finish_order())
            - Window(RowNumber(), partition_by=[F("won")], order_by=_finish_order())
        )
        .values("won", "island")
    )
    sql, params = islands.query.sql_with_params()
    # Raw: the ORM groups by a window in the same SELECT, which SQL forbids (no derived tables).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT MAX(streak) FROM (SELECT COUNT(*) AS streak "
            f"FROM ({sql}) islands WHERE islands.won GROUP BY islands.island) streaks",
            params,
        )
        (longest,) = cursor.fetchone()
    return longest or 0


# --- phases -----------------------------------------------------------------


@dataclass(frozen=True)
class PhaseStat:
    phase: int
    rounds: int  # rounds in which the player tried this phase
    completed: int  # of those, rounds in which they laid it
    rounds_to_complete: int  # tries at this phase in the games where they did lay it
    picked: int = 0  # times laid in pick-a-phase games (where tries aren't recorded)

    @property
    def share(self) -> float | None:
        """The share of rounds trying this phase in which it was completed."""
        return share_of(self.completed, self.rounds)

    @property
    def average_rounds(self) -> float | None:
        """How many rounds the player needed, on average, to complete it."""
        return share_of(self.rounds_to_complete, self.completed)

    @property
    def share_percent(self) -> int:
        return round((self.share or 0) * 100)


def phase_stats(scope: Scope) -> list[PhaseStat]:
    """Per phase: rounds tried, rounds completed, and the tries it took (the person's
    own rounds: not those a bot played for them); and the times it was laid in
    pick-a-phase games. One query.

    A try counts towards "rounds needed" when the same seat laid that phase later
    (or then); tries in a game that ended first are left out of the average. Whether
    the seat laid it is a window over that seat's tries at that phase, so the query
    stays one pass over the player's rounds whatever plan the database picks (a
    correlated EXISTS here went quadratic when the table's statistics were stale).

    Pick-a-phase rounds record only the phase laid (as the one tried), so they count
    in `picked` alone: counted as tries, every phase would look laid at the first try.
    """
    tries = (
        RoundScore.objects.filter(
            game__in=scope.seats().values("game"),
            player=scope.player,
            by_bot=False,
            phase_attempted__isnull=False,
        )
        .annotate(
            picking=Case(When(pick_a_phase_q(), then=Value(1)), default=Value(0)),
            laid_by_seat=Window(
                Count(Case(When(phase_completed=F("phase_attempted"), then=Value(1)))),
                partition_by=[F("seat_id"), F("phase_attempted")],
            ),
        )
        .values("phase_attempted", "phase_completed", "laid_by_seat", "picking")
        .order_by()  # a round's default order (its seat's position) would join the seats
    )
    sql, params = tries.query.sql_with_params()
    # Raw: the ORM sums over a window in the same SELECT, which SQL forbids (no derived tables).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tries.phase_attempted,"
            " SUM(CASE WHEN tries.picking = 0 THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN tries.picking = 0 AND tries.phase_completed IS NOT NULL"
            " THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN tries.picking = 0 AND tries.laid_by_seat > 0 THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN tries.picking = 1 AND tries.phase_completed IS NOT NULL"
            " THEN 1 ELSE 0 END)"
            f" FROM ({sql}) tries GROUP BY tries.phase_attempted ORDER BY tries.phase_attempted",
            params,
        )
        rows = cursor.fetchall()
    return [
        PhaseStat(
            phase=phase,
            rounds=rounds,
            completed=completed,
            rounds_to_complete=needed,
            picked=picked,
        )
        for phase, rounds, completed, needed, picked in rows
    ]


def nemesis(phases: list[PhaseStat]) -> PhaseStat | None:
    """The phase completed least often (of those tried often enough and ever missed);
    ties go to the one that took more rounds, then the later phase."""
    candidates = [p for p in phases if p.rounds >= NEMESIS_MIN_ROUNDS and p.completed < p.rounds]
    if not candidates:
        return None
    return min(candidates, key=lambda p: (p.share, -(p.average_rounds or math.inf), -p.phase))


# --- opponents --------------------------------------------------------------


@dataclass(frozen=True)
class HeadToHead:
    player_id: int
    name: str
    is_guest: bool
    games: int
    wins: int  # games the scope's player won
    losses: int  # games this opponent won


def head_to_head(scope: Scope, limit: int = HEAD_TO_HEAD_LIMIT) -> list[HeadToHead]:
    """Each opponent (a person, not a bot) with games together and wins each way, most
    frequent first. In games of three or more, a game someone else won counts for
    neither; nor does one a bot won for a person who resigned. One query."""
    i_won = Seat.objects.filter(WON, game=OuterRef("game"), player=scope.player)
    rows = (
        Seat.objects.filter(Seat.of_people(), game__in=scope.seats().values("game"))
        .exclude(player=scope.player)
        .values("player", "player__name", "player__user", "player__anonymised")
        .annotate(
            games=Count("id"),
            losses=Count("id", filter=WON),
            wins=Count("id", filter=Exists(i_won)),
        )
        .order_by("-games", "player__name", "player")[:limit]
    )
    return [
        HeadToHead(
            player_id=row["player"],
            name=row["player__name"],
            is_guest=is_guest_row(row),
            games=row["games"],
            wins=row["wins"],
            losses=row["losses"],
        )
        for row in rows
    ]


def is_guest_row(row: Mapping[str, object]) -> bool:
    # As Player.is_guest: a deleted account's Player has no user either.
    return row["player__user"] is None and not row["player__anonymised"]


# --- recent games -----------------------------------------------------------


def recent_seats(scope: Scope, viewer: Player | None, limit: int = RECENT_GAMES) -> list[Seat]:
    """The player's latest finished games (their seat, with the game and everyone in it).
    `viewer_seated` says whether the viewer played in the game. Two queries."""
    seats = list(
        scope.seats()
        .select_related("game", "game__winner")
        # An online game's engine snapshot can be large, and a list never needs it.
        .defer("game__state")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("player")))
        .order_by("-game__finished_at", "-pk")[:limit]
    )
    for seat in seats:
        # From the prefetched seats: a per-row subquery would run for every game
        # before the sort picks the latest ten.
        seat.viewer_seated = viewer is not None and any(  # type: ignore[attr-defined]  # for the template
            other.player_id == viewer.pk for other in seat.game.seats.all()
        )
    return seats


# --- charts' data -------------------------------------------------------------


@dataclass(frozen=True)
class WinRatePoint:
    game_number: int
    finished_at: datetime
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.game_number


def sample_positions(count: int, points: int = WIN_RATE_POINTS) -> list[int]:
    """At most `points` positions from 1..count, evenly spread, always with the last.

    >>> sample_positions(5)
    [1, 2, 3, 4, 5]
    >>> sample_positions(100, points=4)
    [25, 50, 75, 100]
    """
    if count <= points:
        return list(range(1, count + 1))
    return sorted({math.ceil(count * i / points) for i in range(1, points + 1)})


def win_rate_over_time(scope: Scope, played: int) -> list[WinRatePoint]:
    """The running win rate after each game (sampled when there are many). One query;
    `played` is the number of games in scope (from `summary`)."""
    if not played:
        return []
    win = Case(When(WON, then=1), default=0)
    rows = (
        scope.seats()
        .annotate(
            game_number=Window(RowNumber(), order_by=_finish_order()),
            wins_so_far=Window(Sum(win), order_by=_finish_order()),
            finished_at=F("game__finished_at"),
        )
        .filter(game_number__in=sample_positions(played))
        .order_by("game_number")
        .values_list("game_number", "finished_at", "wins_so_far")
    )
    return [WinRatePoint(n, finished, wins) for n, finished, wins in rows]


@dataclass(frozen=True)
class PhaseByRound:
    round_number: int
    mine: float | None
    others: float | None


def phase_by_round(scope: Scope) -> list[PhaseByRound]:
    """The average phase the player was on in each round of their games (the rounds
    they played, not a bot for them), next to their opponents' in the same games
    (pick-a-phase games left out). One query."""
    rows = (
        RoundScore.objects.filter(game__in=scope.phase_games(), phase_attempted__isnull=False)
        .values("round_number")
        .annotate(
            mine=Avg("phase_attempted", filter=Q(player=scope.player, by_bot=False)),
            others=Avg("phase_attempted", filter=~Q(player=scope.player)),
        )
        .order_by("round_number")
    )
    return [PhaseByRound(row["round_number"], row["mine"], row["others"]) for row in rows]
