"""My games (`/play/`): the viewer's online games in three lists (their turn, the
others, the last finished ones), read in the same few queries however many there are.

Each list is read through the viewer's own seats, with the game joined: the seat says
what is the viewer's (whose turn, a bot playing it, the rank), so no game needs all its
seats for that. The line of a current game's seats (names, bots, who is away) is the
same for every viewer at a game version, language and time zone — every change to it
bumps the version —, so list.html caches it (`{% cache %}` under `seats_key`) and the
seats are read only for the games whose line isn't in the cache. What differs per
viewer or per minute (the list a game is in, the clock, "you came #2") is drawn per
request from the viewer's seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import get_language

from ..models import Game, Seat
from .pause import turn_clock, turn_order

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FINISHED_SHOWN = 20
SEATS_FRAGMENT = "my_games_seats"  # list.html's {% cache … my_games_seats game.seats_key %}
# Only what a list shows is read (not the engine snapshot, the logs, the rules): a
# current game's line (its state and clock, whose turn; the viewer's seat, and their time
# zone for "away until"), a finished game's (its winner, the viewer's rank).
CURRENT_FIELDS = (
    "is_bot",
    "resigned",
    "player__user__profile__time_zone",
    "game__public_id",
    "game__name",
    "game__mode",
    "game__status",
    "game__version",
    "game__updated_at",
    "game__time_limit",
    "game__turn_started_at",
    "game__clock_stopped_at",
    "game__paused_at",
    "game__current_player__name",
)
FINISHED_FIELDS = (
    "rank",
    "game__public_id",
    "game__name",
    "game__mode",
    "game__version",
    "game__winner__name",
)


class Finished:
    """The viewer's last finished games. list.html caches their list (it has the
    viewer's ranks) under `key`, read cheaply (ids, versions, ranks: no models); the
    games themselves, with their winners, are read only when the list is drawn anew."""

    def __init__(self, mine: QuerySet[Seat], user: User) -> None:
        self._mine = mine.filter(game__status=Game.Status.FINISHED).order_by(
            "-game__finished_at", "-game_id"
        )
        shown = list(self._mine.values_list("game_id", "game__version", "rank")[:FINISHED_SHOWN])
        self.count = len(shown)
        self._ids = [game_id for game_id, _version, _rank in shown]
        self.key = ":".join(
            [str(user.pk), get_language() or ""] + [".".join(map(str, row)) for row in shown]
        )

    @cached_property
    def games(self) -> list[Game]:
        seats = self._mine.filter(game_id__in=self._ids).select_related("game__winner")
        return [_with_seat(seat) for seat in seats.only(*FINISHED_FIELDS)]


@dataclass
class MyGames:
    your_turn: list[Game]
    others: list[Game]
    finished: Finished


def my_games(user: User, now: datetime | None = None) -> MyGames:
    """The user's online games: current ones each with `my_seat`, `your_turn`,
    `turn_clock`, `seats_key` and, if their seats' line isn't cached, `seat_list` (in
    seat order, with players, users and profiles: who is away); and the finished."""
    now = now or timezone.now()
    mine = Seat.objects.filter(player__user=user, game__mode=Game.Mode.ONLINE)
    current = list(
        mine.exclude(game__status=Game.Status.FINISHED)
        .select_related("game__current_player", "player__user__profile")
        .only(*CURRENT_FIELDS)
        .order_by()  # sorted below
    )
    your_turn: list[Game] = []
    others: list[Game] = []
    for me in current:
        game = _with_seat(me)
        game.turn_clock = turn_clock(game, now)
        game.your_turn = (
            game.status == Game.Status.ACTIVE
            and not me.is_bot
            and game.current_player_id == me.player_id
        )
        game.seats_key = _seats_key(game, me)
        (your_turn if game.your_turn else others).append(game)
    _read_seats_not_cached([seat.game for seat in current])
    your_turn.sort(key=lambda game: turn_order(game, now))
    others.sort(key=lambda game: game.updated_at, reverse=True)
    return MyGames(your_turn, others, Finished(mine, user))


def _with_seat(seat: Seat) -> Game:
    game = seat.game
    game.my_seat = seat
    return game


def _seats_key(game: Game, me: Seat) -> str:
    # "away until Friday" is said in the viewer's time zone (pause.seat_away_words).
    user = None if me.is_bot else me.player.user
    profile = getattr(user, "profile", None) if user is not None else None
    zone = profile.time_zone if profile is not None else ""
    return ":".join((game.public_id, str(game.version), get_language() or "", zone))


def _read_seats_not_cached(games: list[Game]) -> None:
    keys = {make_template_fragment_key(SEATS_FRAGMENT, [game.seats_key]): game for game in games}
    cached = cache.get_many(list(keys))
    missing = {game.pk: game for key, game in keys.items() if key not in cached}
    if not missing:
        return
    for game in missing.values():
        game.seat_list = []
    seats = Seat.objects.filter(game_id__in=list(missing)).select_related("player__user__profile")
    for seat in seats.order_by("game_id", "position"):
        missing[seat.game_id].seat_list.append(seat)
