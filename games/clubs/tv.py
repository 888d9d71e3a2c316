"""The club's TV view: the current season's table on a big screen, with the club's game
nights in progress under it, following every saved round by polling.

The page sends back the version it shows (`live_version`): the site's date and the club's
version (every saved round moves its club's version on: games/scoring.py `bump_club`),
so the poll answers 204 after the club's membership query while nothing moved."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import Club, Game, Seat

from . import seasons

# The nights in progress the TV shows, the latest first.
NIGHTS_SHOWN = 4


def live_version(club: Club) -> str:
    """What the TV page shows, as one string (no query: the club's version covers its
    games). The site's date is in it: the first poll of a new day (and so of a new
    season) draws the page again."""
    return f"{seasons.site_today():%Y%m%d}.{club.version}"


@dataclass(frozen=True)
class LiveSeat:
    name: str
    rank: int | None
    phase: int | None
    score: int
    is_bot: bool


@dataclass(frozen=True)
class LiveNight:
    public_id: str
    name: str
    created_at: datetime
    rounds_played: int
    seats: list[LiveSeat]


def nights_in_progress(club: Club) -> list[LiveNight]:
    """The club's game nights under way (the latest `NIGHTS_SHOWN`) with their standings
    after the last saved round: the seats' totals, which every round refreshes. One query."""
    latest = (
        Game.objects.filter(club=club, mode=Game.Mode.NIGHT, status=Game.Status.ACTIVE)
        .order_by("-created_at", "-pk")
        .values("pk")[:NIGHTS_SHOWN]
    )
    seats = (
        Seat.objects.filter(game__in=latest)
        .order_by("-game__created_at", "-game_id", "rank", "position")
        .values_list(
            "game_id",
            "game__public_id",
            "game__name",
            "game__created_at",
            "game__rounds_played",
            "player__name",
            "rank",
            "phase",
            "score",
            "is_bot",
        )
    )
    nights: dict[int, LiveNight] = {}
    for game_id, public_id, name, created_at, rounds, player, rank, phase, score, bot in seats:
        night = nights.get(game_id)
        if night is None:
            night = nights[game_id] = LiveNight(public_id, name, created_at, rounds, [])
        night.seats.append(LiveSeat(player, rank, phase, score, bot))
    return list(nights.values())
