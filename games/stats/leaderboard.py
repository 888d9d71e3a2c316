"""The leaderboard: everyone who shared a game with a player, ranked by win rate over
all their finished games in scope. One query, whatever the number of games."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import Avg, Count

from games.models import Seat

from .access import co_players
from .figures import is_guest_row, share_of
from .scope import FINISHED_BY_THEM, WON, Scope

# Players with at least this many games are ranked; the others are listed after them,
# unranked, so one lucky game doesn't top the table.
MIN_GAMES = 3


@dataclass(frozen=True)
class LeaderboardRow:
    player_id: int
    name: str
    is_guest: bool
    games: int
    wins: int
    average_score: float | None
    rank: int | None = None

    @property
    def win_rate(self) -> float | None:
        return share_of(self.wins, self.games)


def ranked(scope: Scope) -> list[LeaderboardRow]:
    """Everyone who shared a game with the scope's player, by win rate over all their
    finished games in scope (not only the shared ones; a game they resigned is played
    and lost, and its score not theirs). One query."""
    assert scope.player is not None, "a leaderboard is always someone's"
    rows = (
        Seat.objects.filter(scope.games_q(), player__in=co_players(scope.player))
        .values("player", "player__name", "player__user", "player__anonymised")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=WON),
            average_score=Avg("score", filter=FINISHED_BY_THEM),
        )
    )
    board = [
        LeaderboardRow(
            player_id=row["player"],
            name=row["player__name"],
            is_guest=is_guest_row(row),
            games=row["games"],
            wins=row["wins"],
            average_score=row["average_score"],
        )
        for row in rows
    ]
    board.sort(
        key=lambda r: (
            r.games < MIN_GAMES,
            -(r.win_rate or 0),
            -r.wins,
            r.average_score if r.average_score is not None else math.inf,
            r.name.lower(),
        )
    )
    ranked = []
    for position, row in enumerate(board, start=1):
        rank = position if row.games >= MIN_GAMES else None
        ranked.append(LeaderboardRow(**{**row.__dict__, "rank": rank}))
    return ranked
