"""My games (`/play/`): the viewer's online games in three lists (their turn, the
others, the last finished ones), in a few queries however many there are.

The lists are read through the viewer's own seats, with the game joined: the seat says
what is the viewer's (whose turn, a bot playing it, the rank), so no game needs all its
seats for that. They are read as rows, not models: the current games and the last
finished ones, each with what the key of the lists' HTML needs. The rows are kept under
the extent of the viewer's seats (`_extent`: their count and the sums of their games'
versions and ids, which any change to any of the games moves on), so a visit that finds
nothing changed asks the database only for those few numbers; the clocks' words are
worked out from the rows on every request.

The lists' HTML is cached (list.html, `{% cache … my_games_lists lists.key %}`) under a
key made of everything it shows: each game's list, public id and version, the clock's
words and deadline or how long the turn has waited, the finished list's key, the viewer,
language and time zones. The version stands for the rest of a game's line (its name,
status, whose turn it is and their name): every change to them bumps it, a player's new
name too (`scoring.bump_games_of`). The words change with the clock, so the key does
too: a request draws the lists anew whenever one of them would read differently.

Only a request that draws them reads the games as models. Within it, the line of a
current game's seats (names, bots, who is away) is the same for every viewer at a game
version, language and time zone — every change to it bumps the version —, so list.html
caches it too (under `seats_key`) and the seats are read only for the games whose line
isn't in the cache; the finished list likewise (`Finished.key`), its games read only
when it is drawn anew.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from django.core.cache import cache
from django.db.models import Count, Max, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.translation import get_language

from accounts.models import Profile

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
# What a current game's line draws from, when the lists are drawn: not the engine snapshot.
DRAWN_FIELDS = ("public_id", "mode", "name", "status", "turn_started_at", "current_player__name")


class Row(NamedTuple):
    """One of the viewer's games as the lists' key reads it (`ROW_FIELDS`)."""

    game_id: int
    public_id: str
    version: int
    status: str
    current_player_id: int | None
    updated_at: datetime
    turn_started_at: datetime | None
    time_limit: timedelta | None
    paused_at: datetime | None
    clock_stopped_at: datetime | None
    player_id: int
    is_bot: bool
    time_zone: str | None  # the viewer's (`_seats_key`)


ROW_FIELDS = (
    "game_id",
    "game__public_id",
    "game__version",
    "game__status",
    "game__current_player",
    "game__updated_at",
    "game__turn_started_at",
    "game__time_limit",
    "game__paused_at",
    "game__clock_stopped_at",
    "player_id",
    "is_bot",
    "player__user__profile__time_zone",
)


class Finished:
    """The viewer's last finished games. list.html caches their list (it has the
    viewer's ranks) under `key`, read cheaply (ids, versions, ranks: no models); the
    games themselves, with their winners, are read only when the list is drawn anew."""

    def __init__(self, shown: list[tuple[int, int, int | None]], user: User, language: str):
        self._user = user
        self.count = len(shown)
        self._ids = [game_id for game_id, _version, _rank in shown]
        self.key = repr((user.pk, language, shown))

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
    it from: the first to ask for them reads the games, and the seats of the games whose
    line isn't in the cache."""

    def __init__(
        self,
        user: User,
        current: list[Row],
        finished: list[tuple[int, int, int | None]],
        now: datetime,
    ):
        self.now = now
        language = get_language() or ""
        self.finished = Finished(finished, user, language)
        self._clocks = {row.game_id: turn_clock(row, now) for row in current}
        self._seats_keys = {row.game_id: _seats_key(row, language) for row in current}
        self._your_turn = [row for row in current if _waits_for_viewer(row)]
        self._your_turn.sort(key=lambda row: turn_order(row, now))
        self._others = [row for row in current if not _waits_for_viewer(row)]
        self._others.sort(key=lambda row: row.updated_at, reverse=True)
        self.your_turn_count = len(self._your_turn)  # the header's count, counted here
        self.empty = not current and not finished
        lines = [self._line_key("t", row) for row in self._your_turn]
        lines += [self._line_key("o", row) for row in self._others]
        zones = (language, timezone.get_current_timezone_name())
        self.key = repr((user.pk, zones, lines, self.finished.key))

    def _line_key(self, list_name: str, row: Row) -> tuple[object, ...]:
        """What a current game's line in the list shows (list.html) beside its version:
        the clock, or the time the turn has waited. That is shown only without a clock,
        in "your turn", in words ("2 days, 3 hours") that the template writes when the
        lists aren't cached: the key has what they follow, the turn's start and the time
        since in the smallest unit the words show (`timesince`'s two adjacent units:
        minutes under a day, hours under a week, days after that; past a month a start
        on the 29th–31st may see "4 weeks" stay up to a day longer)."""
        clock = self._clocks[row.game_id]
        waited: tuple[object, ...] = ()
        if list_name == "t" and not clock and row.turn_started_at:
            since = self.now - row.turn_started_at
            step = next(step for longer, step in _WAITED_STEPS if since < longer)
            waited = (row.turn_started_at, step, since // step)
        return (list_name, self._seats_keys[row.game_id], clock, waited)

    @cached_property
    def _games(self) -> dict[int, Game]:
        """Only to draw the lists: the games, each with its clock and seats' key, and the
        seats of the lines not cached (with the viewer's: whose time zone they speak)."""
        rows = self._your_turn + self._others
        games = Game.objects.filter(pk__in=[row.game_id for row in rows])
        games = games.select_related("current_player").only(*DRAWN_FIELDS)
        drawn = {game.pk: game for game in games}
        for row in rows:
            if row.game_id in drawn:
                game = drawn[row.game_id]
                game.turn_clock = self._clocks[row.game_id]
                game.seats_key = self._seats_keys[row.game_id]
        viewers = {row.game_id: row.player_id for row in rows if row.game_id in drawn}
        _read_seats_not_cached([drawn[game_id] for game_id in viewers], viewers)
        return drawn

    @property
    def your_turn(self) -> list[Game]:
        return [self._games[row.game_id] for row in self._your_turn if row.game_id in self._games]

    @property
    def others(self) -> list[Game]:
        return [self._games[row.game_id] for row in self._others if row.game_id in self._games]


def my_games(user: User, now: datetime | None = None) -> MyGames:
    """The user's online games: the rows of their current ones and of the last finished,
    kept under the extent of their seats (one query; two more when it moved on); the
    key of the lists' HTML. Drawing the lists reads the current games (each with
    `turn_clock`, `seats_key` and, if their seats' line isn't cached, `seat_list` in seat
    order with players, users and profiles, and `my_seat`), the finished list its games."""
    now = now or timezone.now()
    mine = Seat.objects.filter(player__user=user, game__mode=Game.Mode.ONLINE)
    extent = _extent(user, mine)
    if not extent:  # no online seat: no rows
        return MyGames(user, [], [], now)
    key = cache_keys.my_games_rows(user.pk, extent)
    kept: tuple[list[Row], list[tuple[int, int, int | None]]] | None = cache.get(key)
    if kept is None:
        current = mine.exclude(game__status=Game.Status.FINISHED).order_by()
        finished = mine.filter(game__status=Game.Status.FINISHED)
        finished = finished.order_by("-game__finished_at", "-game_id")[:FINISHED_SHOWN]
        kept = (
            [Row._make(row) for row in sorted(current.values_list(*ROW_FIELDS))],
            list(finished.values_list("game_id", "game__version", "rank")),
        )
        cache.set(key, kept, cache_keys.VERSION_SECONDS)
    return MyGames(user, *kept, now)


def _extent(user: User, mine: QuerySet[Seat]) -> tuple[object, ...]:
    """The user's online seats (`mine`) in a few values: how many, the sums of their
    games' versions and ids, and the user's time zone (their profile's, which the rows
    carry and no game's version covers). Every change to a game bumps its version
    (games/scoring.py), so the sums move on with any change to a row (whose turn, the
    clock, a rank, a game's end); the count and the ids when a game comes or goes. As
    the stats page keys its figures (stats/figures.py `extent`). Empty without a seat.
    One query; the time zone a subquery (one value) rather than a join through every
    seat's player and user."""
    zone = Subquery(Profile.objects.filter(user=user).values("time_zone"))
    row = mine.aggregate(
        games=Count("id"), versions=Sum("game__version"), ids=Sum("game_id"), zone=Max(zone)
    )
    if not row["games"]:
        return ()
    return (row["games"], int(row["versions"]), int(row["ids"]), row["zone"])


def _waits_for_viewer(row: Row) -> bool:
    return (
        row.status == Game.Status.ACTIVE
        and not row.is_bot
        and row.current_player_id == row.player_id
    )


def _seats_key(row: Row, language: str) -> str:
    """The key of a game's seats line: "away until Friday" is said in the viewer's time
    zone (pause.seat_away_words), and a bot playing the viewer's seat has none."""
    zone = "" if row.is_bot else row.time_zone or ""
    return ":".join((row.public_id, str(row.version), language, zone))


# (below this long, the waiting time's words change every): see `MyGames._line_key`.
_WAITED_STEPS = [
    (timedelta(days=1), timedelta(minutes=1)),
    (timedelta(weeks=1), timedelta(hours=1)),
    (timedelta.max, timedelta(days=1)),
]


def _with_seat(seat: Seat) -> Game:
    game = seat.game
    game.my_seat = seat
    return game


def _read_seats_not_cached(games: list[Game], viewers: dict[int, int]) -> None:
    """The seats of the `games` whose line isn't cached, and the viewer's among them
    (`viewers`: each game's viewer's player)."""
    keys = {cache_keys.fragment("my_games_seats", game.seats_key): game for game in games}
    cached = cache.get_many(list(keys))
    missing = {game.pk: game for key, game in keys.items() if key not in cached}
    if not missing:
        return
    for game in missing.values():
        game.seat_list = []
    seats = Seat.objects.filter(game_id__in=list(missing)).select_related("player__user__profile")
    for seat in seats.order_by("game_id", "position"):
        game = missing[seat.game_id]
        game.seat_list.append(seat)
        if seat.player_id == viewers[seat.game_id]:
            game.my_seat = seat
