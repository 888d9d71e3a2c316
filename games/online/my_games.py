"""My games (`/play/`): the viewer's online games in three lists (their turn, the
others, the last finished ones), read in one round trip however many there are.

Each list is read through the viewer's own seats, with the game joined: the seat says
what is the viewer's (whose turn, a bot playing it, the rank), so no game needs all its
seats for that. One hand-written query (`MY_GAMES_SQL`) brings the current games, the
finished list's ids, versions and ranks, the viewer's time zone and whether any
invitation waits for them: the ORM took longer to build its three queries than
PostgreSQL took to run them, and each round trip costs about as much again.

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
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models.expressions import Col
from django.utils import timezone
from django.utils.translation import get_language

from accounts.models import Profile

from .. import cache_keys
from ..models import Game, Invitation, Player, Seat
from ..raw_sql import converters
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

_GAME, _SEAT, _PLAYER = (f'"{model._meta.db_table}"' for model in (Game, Seat, Player))
_PROFILE, _INVITATION = (f'"{model._meta.db_table}"' for model in (Profile, Invitation))
# A current game's line and the viewer's seat in it, in model order (Model.from_db).
_GAME_COLUMNS = [
    field.attname
    for field in Game._meta.concrete_fields
    if field.attname
    in {
        "id",
        "public_id",
        "mode",
        "name",
        "status",
        "version",
        "updated_at",
        "current_player_id",
        "turn_started_at",
        "time_limit",
        "paused_at",
        "clock_stopped_at",
    }
]
_SEAT_COLUMNS = [
    field.attname
    for field in Seat._meta.concrete_fields
    if field.attname in {"id", "game_id", "player_id", "is_bot", "resigned"}
]
_COLUMNS = [
    "kind",
    *(f"g.{column}" for column in _GAME_COLUMNS),
    "cp.name",
    *(f"s.{column}" for column in _SEAT_COLUMNS),
    "s.rank",
    "g.finished_at",
]
_AT = {column: index for index, column in enumerate(_COLUMNS)}


def _select(values: dict[str, str]) -> str:
    return "SELECT " + ", ".join(values.get(column, "NULL") for column in _COLUMNS)


def _in_mine(column: str) -> str:
    """Where `mine` (below) keeps a column of _COLUMNS."""
    table, name = column.split(".")
    return f"m.{name}" if table == "g" else f"m.seat_{name}"


# One round trip for the whole page (see the module's docstring). `mine`: the viewer's
# seats in online games with their games, read once through the index on
# games_seat.player_id (so it costs the same however many other games there are) for
# both lists. Rows by `kind`: 0 the current games (the game, its current player's name,
# the viewer's seat), 1 the last finished (id, version, the viewer's rank; newest
# first), 2 one row, the last: the viewer's profile (id, time zone: "away until" is
# said in it) and whether an invitation waits for them.
MY_GAMES_SQL = (
    "WITH mine AS (SELECT "
    + ", ".join(f"g.{name}" for name in (*_GAME_COLUMNS, "finished_at"))
    + ", "
    + ", ".join(f"s.{name} AS seat_{name}" for name in (*_SEAT_COLUMNS, "rank"))
    + f" FROM {_SEAT} s JOIN {_GAME} g ON g.id = s.game_id"
    f" WHERE s.player_id = (SELECT id FROM {_PLAYER} WHERE user_id = %s) AND g.mode = %s) "
    + _select(
        {"kind": "0", "cp.name": "cp.name"}
        | {c: _in_mine(c) for c in _COLUMNS[1:-2] if c != "cp.name"}
    )
    + f" FROM mine m LEFT JOIN {_PLAYER} cp ON cp.id = m.current_player_id WHERE m.status <> %s"
    " UNION ALL "
    + _select(
        {"kind": "1"} | {c: "f." + c[2:] for c in ("g.id", "g.version", "s.rank", "g.finished_at")}
    )
    + " FROM (SELECT m.id, m.version, m.seat_rank AS rank, m.finished_at FROM mine m"
    " WHERE m.status = %s ORDER BY m.finished_at DESC, m.id DESC LIMIT %s) f"
    " UNION ALL "
    + _select(
        {
            "kind": "2",
            "g.id": "profile.id",
            "g.name": "profile.time_zone",
            "s.is_bot": f"EXISTS (SELECT 1 FROM {_INVITATION} i JOIN {_GAME} ig"
            " ON ig.id = i.game_id WHERE i.user_id = %s AND ig.status = %s)",
        }
    )
    + f" FROM (SELECT 1) one LEFT JOIN {_PROFILE} profile ON profile.user_id = %s"
    f" ORDER BY 1, {_AT['g.finished_at'] + 1} DESC, 2 DESC"
)


@lru_cache(maxsize=4)
def _converting(vendor: str) -> list[tuple[int, Col, list[Any]]]:
    """Where the backend converts what it reads (SQLite's datetimes and durations), as
    the ORM would; PostgreSQL's values come ready (an empty list). `vendor`: the key."""
    fields = {
        f"{table}.{field.attname}": field
        for table, model in (("g", Game), ("s", Seat))
        for field in model._meta.concrete_fields
    }
    converting = []
    for at, column in enumerate(_COLUMNS):
        if column in fields:
            col, found = converters(fields[column], column[0])
            if found:
                converting.append((at, col, found))
    return converting


def _read(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    converting = _converting(connection.vendor)
    if not converting:
        return rows
    read = [list(row) for row in rows]
    for row in read:
        for at, col, found in converting:
            for converter in found:
                row[at] = converter(row[at], col, connection)
    return [tuple(row) for row in read]


def _params(user: User) -> list[Any]:
    online, lobby, finished = Game.Mode.ONLINE.value, Game.Status.LOBBY, Game.Status.FINISHED
    return [
        *(user.pk, online),
        finished.value,
        *(finished.value, FINISHED_SHOWN),
        *(user.pk, lobby.value, user.pk),
    ]


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
    in the cache. `your_turn_count` is the header's count (the same definition)."""

    def __init__(
        self,
        me: _Me,
        rows: list[tuple[Any, ...]],
        finished: Finished,
        invited: bool,
        now: datetime,
    ) -> None:
        self.now = now
        self.finished = finished
        self.has_invitations = invited
        self._me = me
        self._rows = rows
        language = get_language() or ""
        self._current = current = [_current_game(row, me, language, now) for row in rows]
        self._your_turn = [game for game in current if game.your_turn]
        self._your_turn.sort(key=lambda game: turn_order(game, now))
        self._others = [game for game in current if not game.your_turn]
        self._others.sort(key=lambda game: game.updated_at, reverse=True)
        self.your_turn_count = len(self._your_turn)
        self.empty = not current and not finished.count
        names = {game.pk: row[_AT["cp.name"]] for game, row in zip(current, rows, strict=True)}
        lines = [_line_key("t", game, names[game.pk], now) for game in self._your_turn]
        lines += [_line_key("o", game, names[game.pk], now) for game in self._others]
        zones = (language, timezone.get_current_timezone_name())
        self.key = repr((me.user.pk, zones, lines, finished.key))

    @cached_property
    def _ready(self) -> bool:
        """Only to draw the lists: each game's current player and the viewer's seat
        (with their player, user and profile), the seats of the lines not cached."""
        if self._current:
            player = self._me.player(self._rows[0][_AT["s.player_id"]])  # one in every game
            for game, row in zip(self._current, self._rows, strict=True):
                _with_players(game, row, player)
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
    away); the finished; whether an invitation waits; the key of the lists' HTML."""
    now = now or timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(MY_GAMES_SQL, _params(user))
        rows = _read(cursor.fetchall())
    *listed, viewer = rows  # kind 2 sorts last
    me = _Me(user, viewer[_AT["g.id"]], viewer[_AT["g.name"]])
    current = [row for row in listed if row[0] == 0]
    shown = [(row[1], row[_AT["g.version"]], row[_AT["s.rank"]]) for row in listed if row[0] == 1]
    invited = bool(viewer[_AT["s.is_bot"]])
    return MyGames(me, current, Finished(shown, user), invited, now)


class _Me:
    """The viewer's user and profile (its time zone), and their player as a seat of
    theirs would bring it with select_related: what "away until" reads of the viewer."""

    def __init__(self, user: User, profile_id: int | None, time_zone: str | None) -> None:
        self.user = user
        self.profile_id = profile_id
        self.time_zone = time_zone

    def player(self, player_id: int) -> Player:
        alias = connection.alias
        user = get_user_model().from_db(alias, ["id"], [self.user.pk])
        profile = None
        if self.profile_id is not None:
            profile = Profile.from_db(
                alias,
                ["id", "user_id", "time_zone"],
                [self.profile_id, self.user.pk, self.time_zone],
            )
        Profile.user.field.remote_field.set_cached_value(user, profile)
        player = Player.from_db(alias, ["id", "user_id"], [player_id, self.user.pk])
        Player.user.field.set_cached_value(player, user)
        return player


_GAME_AT, _SEAT_AT = _AT["g.id"], _AT["s.id"]


def _current_game(row: tuple[Any, ...], me: _Me, language: str, now: datetime) -> Game:
    """A current game from its row: what the lists' key needs (its players are
    `_with_players`', only to draw)."""
    game = Game.from_db(
        connection.alias, _GAME_COLUMNS, row[_GAME_AT : _GAME_AT + len(_GAME_COLUMNS)]
    )
    is_bot = row[_AT["s.is_bot"]]
    game.turn_clock = turn_clock(game, now)
    game.your_turn = (
        game.status == Game.Status.ACTIVE
        and not is_bot
        and game.current_player_id == row[_AT["s.player_id"]]
    )
    # "away until Friday" is said in the viewer's time zone (pause.seat_away_words).
    zone = "" if is_bot or me.profile_id is None else me.time_zone or ""
    game.seats_key = ":".join((game.public_id, str(game.version), language, zone))
    return game


def _with_players(game: Game, row: tuple[Any, ...], me: Player) -> None:
    """The game's current player (their name) and the viewer's seat, as select_related
    would bring them."""
    alias = connection.alias
    current_player = None
    if game.current_player_id is not None:
        name = row[_AT["cp.name"]]
        current_player = Player.from_db(alias, ["id", "name"], [game.current_player_id, name])
    Game.current_player.field.set_cached_value(game, current_player)
    seat = Seat.from_db(alias, _SEAT_COLUMNS, row[_SEAT_AT : _SEAT_AT + len(_SEAT_COLUMNS)])
    Seat.game.field.set_cached_value(seat, game)
    Seat.player.field.set_cached_value(seat, me)
    game.my_seat = seat


def _line_key(list_name: str, game: Game, to_play: str | None, now: datetime) -> tuple[object, ...]:
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
