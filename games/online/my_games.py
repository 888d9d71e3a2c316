"""My games (`/play/`): the viewer's online games in three lists (their turn, the
others, the last finished ones), in a few queries however many there are.

Each list is read through the viewer's own seats, with the game joined: the seat says
what is the viewer's (whose turn, a bot playing it, the rank), so no game needs all its
seats for that. The current games come with their current player's name and the
viewer's profile (its time zone: "away until" is said in it); the finished list is read
as ids, versions and ranks; its games only when it is drawn anew.

The lists' HTML is cached (list.html, `{% cache … my_games_lists lists.key %}`) under a
key made of everything it shows: each game's list, public id, version, name, whose turn
and their name, the clock's words and deadline or how long the turn has waited, the
finished list's key, the viewer, language and time zones. The words change with the
clock, so the key does too: a request draws the lists anew whenever one of them would
read differently. Within a miss, the line of a current game's seats (names, bots, who
is away) is the same for every viewer at a game version, language and time zone — every
change to it bumps the version —, so list.html caches it too (under `seats_key`) and
the seats are read only for the games whose line isn't in the cache; the finished list
likewise (`Finished.key`), its games read only when it is drawn anew.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cached_property
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import get_language

from .. import cache_keys
from ..models import Game, Seat
from .pause import turn_clock, turn_order

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FINISHED_SHOWN = 20
FINISHED_FIELDS = (
    "rank",
    "game__public_id",
    "game__name",
    "game__mode",
    "game__version",
    "game__winner__name",
)
# A current game's line and the viewer's seat in it: not the engine snapshot.
CURRENT_FIELDS = (
    "is_bot",
    "resigned",
    "game__public_id",
    "game__mode",
    "game__name",
    "game__status",
    "game__version",
    "game__updated_at",
    "game__turn_started_at",
    "game__time_limit",
    "game__paused_at",
    "game__clock_stopped_at",
    "game__current_player__name",
    "player__user__profile__time_zone",
    "player__user__profile__away_until",
)


class Finished:
    """The viewer's last finished games. list.html caches their list (it has the
    viewer's ranks) under `key`, read cheaply (ids, versions, ranks: no models); the
    games themselves, with their winners, are read only when the list is drawn anew."""

    def __init__(self, shown: list[tuple[int, int, int | None]], user: User) -> None:
        self._user = user
        self.count = len(shown)
        self._ids = [game_id for game_id, _version, _rank in shown]
        self.key = ":".join(
            [str(user.pk), get_language() or ""] + [".".join(map(str, row)) for row in shown]
        )

    @cached_property
    def games(self) -> list[Game]:
        seats = Seat.objects.filter(
            player__user=self._user,
            game__mode=Game.Mode.ONLINE,
            game__status=Game.Status.FINISHED,
            game_id__in=self._ids,
        ).order_by("-game__finished_at", "-game_id")
        seats = seats.select_related("game__winner").only(*FINISHED_FIELDS)
        return [_with_seat(seat) for seat in seats]


class MyGames:
    """The viewer's games as My games shows them. `key` names the lists' HTML (what it
    shows, see the module's docstring); `your_turn` and `others` are the lists to draw
    it from: the first to ask for them reads the seats of the games whose line isn't
    in the cache."""

    def __init__(self, user: User, current: list[Seat], finished: Finished, now: datetime):
        self.now = now
        self.finished = finished
        language = get_language() or ""
        for seat in current:
            _describe(seat, language, now)
        self._current = [seat.game for seat in current]
        self._your_turn = [game for game in self._current if game.your_turn]
        self._your_turn.sort(key=lambda game: turn_order(game, now))
        self._others = [game for game in self._current if not game.your_turn]
        self.your_turn_count = len(self._your_turn)  # the header's count, counted here
        self._others.sort(key=lambda game: game.updated_at, reverse=True)
        self.empty = not current and not finished.count
        lines = [_line_key("t", game, now) for game in self._your_turn]
        lines += [_line_key("o", game, now) for game in self._others]
        zones = (language, timezone.get_current_timezone_name())
        self.key = repr((user.pk, zones, lines, finished.key))

    @cached_property
    def _ready(self) -> bool:
        """Only to draw the lists: the seats of the lines not cached."""
        _read_seats_not_cached(self._current)
        return True

    @property
    def your_turn(self) -> list[Game]:
        return self._your_turn if self._ready else []

    @property
    def others(self) -> list[Game]:
        return self._others if self._ready else []


def my_games(user: User, now: datetime | None = None) -> MyGames:
    """The user's online games: current ones each with `my_seat`, `your_turn`,
    `turn_clock`, `seats_key` and, once the lists are read and if their seats' line
    isn't cached, `seat_list` (in seat order, with players, users and profiles: who is
    away); the finished; the key of the lists' HTML. Two queries: the current games
    through the viewer's seats, the finished list's ids, versions and ranks."""
    now = now or timezone.now()
    mine = Seat.objects.filter(player__user=user, game__mode=Game.Mode.ONLINE)
    seats = mine.exclude(game__status=Game.Status.FINISHED)
    seats = seats.select_related("game__current_player", "player__user__profile")
    current = list(seats.only(*CURRENT_FIELDS))
    finished = mine.filter(game__status=Game.Status.FINISHED)
    finished = finished.order_by("-game__finished_at", "-game_id")
    shown = list(finished.values_list("game_id", "game__version", "rank")[:FINISHED_SHOWN])
    return MyGames(user, current, Finished(shown, user), now)


def _describe(seat: Seat, language: str, now: datetime) -> None:
    """What the lists' key needs of the viewer's `seat`'s current game."""
    game = _with_seat(seat)
    game.turn_clock = turn_clock(game, now)
    game.your_turn = (
        game.status == Game.Status.ACTIVE
        and not seat.is_bot
        and game.current_player_id == seat.player_id
    )
    # "away until Friday" is said in the viewer's time zone (pause.seat_away_words).
    profile = None if seat.is_bot else getattr(seat.player.user, "profile", None)
    zone = "" if profile is None else profile.time_zone or ""
    game.seats_key = ":".join((game.public_id, str(game.version), language, zone))


def _line_key(list_name: str, game: Game, now: datetime) -> tuple[object, ...]:
    """What a current game's line in the list shows (list.html), but its seats' line:
    that is `seats_key`'s. The waiting time is shown only without a clock, in "your turn",
    in words ("2 days, 3 hours") that the template writes when the lists aren't cached:
    the key has what they follow, the turn's start and the time since in the smallest
    unit the words show (`timesince`'s two adjacent units: minutes under a day, hours
    under a week, days after that; past a month a start on the 29th–31st may see "4
    weeks" stay up to a day longer)."""
    waited: tuple[object, ...] = ()
    if list_name == "t" and not game.turn_clock and game.turn_started_at:
        since = now - game.turn_started_at
        step = next(step for longer, step in _WAITED_STEPS if since < longer)
        waited = (game.turn_started_at, step, since // step)
    to_play = game.current_player.name if game.current_player is not None else None
    return (list_name, game.seats_key, game.name, game.status, to_play, game.turn_clock, waited)


# (below this long, the waiting time's words change every): see `_line_key`.
_WAITED_STEPS = [
    (timedelta(days=1), timedelta(minutes=1)),
    (timedelta(weeks=1), timedelta(hours=1)),
    (timedelta.max, timedelta(days=1)),
]


def _with_seat(seat: Seat) -> Game:
    game = seat.game
    game.my_seat = seat
    return game


def _read_seats_not_cached(games: list[Game]) -> None:
    keys = {cache_keys.fragment("my_games_seats", game.seats_key): game for game in games}
    cached = cache.get_many(list(keys))
    missing = {game.pk: game for key, game in keys.items() if key not in cached}
    if not missing:
        return
    for game in missing.values():
        game.seat_list = []
    seats = Seat.objects.filter(game_id__in=list(missing)).select_related("player__user__profile")
    for seat in seats.order_by("game_id", "position"):
        missing[seat.game_id].seat_list.append(seat)
