"""A club's stats: the phase that stops the group most, its records, the head-to-head
grid of its members and its games over time. docs/clubs.md ("Records and the year in
review") says each one in plain words; this module is the definition.

Only finished games count, and only people: a bot's place leaves no gap, ties share a
place and a person who resigned shares the last place (`ratings.placings`), a round a
bot played for a person is not theirs, and a member who hasn't accepted a night's seat
isn't at that table.

Everything is counted from three queries (the seats of the games in finish order, the
rounds in which a phase was laid, the tries per phase) and one for who the members are,
whatever the number of games; the page keeps the result in the cache under the club's
version and the extent of its finished games (`club_figures`), so a request asks only
for that extent.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from itertools import groupby
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, F, Q, QuerySet
from django.urls import reverse

from games import cache_keys
from games.models import Club, Game, Player, RoundScore, Seat
from games.stats.ratings import placings
from games.stats.scope import not_pick_a_phase_q
from games.words import night_title

from . import access

# Every finished game is later than this: the extent of a club's finished games is
# asked for from here on (a game in play moves its version every round, and the stats
# count finished games only).
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)

# The records, in the order the pages show them.
LOWEST_TOTAL = "lowest_total"
FEWEST_ROUNDS = "fewest_rounds"
STREAK = "streak"
COMEBACK = "comeback"
RECORD_KINDS = (LOWEST_TOTAL, FEWEST_ROUNDS, STREAK, COMEBACK)


def site_zone() -> ZoneInfo:
    """The site's time zone: a game counts on the day (month, year) it finished there."""
    return ZoneInfo(settings.TIME_ZONE)


# --- what the pages show ----------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    """Someone at the club's games. A guest's name is shown by first name only on a
    shared page (`first_name`)."""

    player_id: int
    name: str
    is_guest: bool

    @property
    def first_name(self) -> str:
        """>>> Person(1, "Dora Q. Smith", True).first_name
        'Dora'
        """
        return (self.name.split() or [""])[0]


@dataclass(frozen=True)
class GameRef:
    public_id: str
    name: str
    mode: str
    finished_at: datetime
    created_at: datetime

    @property
    def url(self) -> str:
        name = "games:night_detail" if self.mode == Game.Mode.NIGHT else "games:online_detail"
        return reverse(name, args=[self.public_id])

    @property
    def title(self) -> str:
        """As the game's other lists call it: a night without a name by its date."""
        if self.mode == Game.Mode.NIGHT:
            return night_title(self.name, self.created_at)
        return str(Game(name=self.name, public_id=self.public_id))


@dataclass(frozen=True)
class Record:
    """One record: its kind (RECORD_KINDS), its value, who holds it and the game that
    set it (a streak's last game; `first` its first)."""

    kind: str
    value: int
    holder: Person
    game: GameRef
    first: GameRef | None = None


@dataclass(frozen=True)
class PhaseNeed:
    """How many rounds people needed for a phase, over the games where they laid it."""

    phase: int
    tries: int  # rounds spent on it by the people who laid it, the laying round included
    completed: int  # times laid

    @property
    def average(self) -> float:
        return self.tries / self.completed

    def percent_of(self, most: float) -> int:
        return round(100 * self.average / most) if most else 0


@dataclass(frozen=True)
class GridRow:
    person: Person
    beat: list[int | None]  # per column: games this row placed above that column (None: self)


@dataclass(frozen=True)
class Month:
    year: int
    month: int
    games: int

    @property
    def date(self) -> datetime:
        return datetime(self.year, self.month, 1, tzinfo=site_zone())


@dataclass(frozen=True)
class ClubFigures:
    key: str  # cache_keys.club_records: what the page's kept HTML varies on too
    games: int
    phases: list[PhaseNeed]
    stopper: PhaseNeed | None
    records: dict[str, Record]
    grid_people: list[Person]
    grid: list[GridRow]
    months: list[Month]
    busiest_month: int

    @property
    def top_records(self) -> dict[str, Record]:
        """The club page's three: lowest winning total, longest streak, biggest comeback."""
        return {
            kind: record
            for kind, record in self.records.items()
            if kind in (LOWEST_TOTAL, STREAK, COMEBACK)
        }


# --- the games, folded once ---------------------------------------------------------------


@dataclass(frozen=True)
class SeatRow:
    """What `placings` and the records read of a seat."""

    player_id: int
    is_bot: bool
    resigned: bool
    rank: int | None
    accepted: bool
    is_winner: bool
    score: int
    person: Person

    @property
    def won(self) -> bool:
        """A person won it, having played to the end (a bot won a resigned seat)."""
        return self.is_winner and not self.is_bot and not self.resigned and self.accepted


@dataclass
class GameRow:
    id: int
    ref: GameRef
    rounds_played: int
    seats: list[SeatRow] = field(default_factory=list)

    @property
    def winner(self) -> SeatRow | None:
        return next((seat for seat in self.seats if seat.won), None)

    def placed(self) -> dict[int, int]:
        """Player id → place among the game's people (`ratings.placings`)."""
        return {p.player_id: p.rank for p in placings(self.seats)}


def finished_games(club: Club, window: tuple[datetime, datetime] | None = None) -> QuerySet[Game]:
    games = Game.objects.filter(club=club, status=Game.Status.FINISHED, finished_at__isnull=False)
    if window is not None:
        games = games.filter(finished_at__gte=window[0], finished_at__lt=window[1])
    return games


def game_rows(games: QuerySet[Game]) -> list[GameRow]:
    """The games with their seats, in the order they finished. One query."""
    seats = (
        Seat.objects.filter(game__in=games.values("pk"), game__finished_at__isnull=False)
        .order_by("game__finished_at", "game_id", "position")
        .values_list(
            "game_id",
            "game__public_id",
            "game__name",
            "game__mode",
            "game__finished_at",
            "game__created_at",
            "game__rounds_played",
            "player_id",
            "player__name",
            "player__user",
            "player__anonymised",
            "is_bot",
            "resigned",
            "rank",
            "accepted",
            "is_winner",
            "score",
        )
    )
    rows: list[GameRow] = []
    for row in seats:
        (game_id, public_id, name, mode, finished_at, created_at, rounds) = row[:7]
        (player_id, player_name, user, anonymised, is_bot, resigned, rank) = row[7:14]
        (accepted, is_winner, score) = row[14:]
        assert finished_at is not None  # filtered above
        if not rows or rows[-1].id != game_id:
            rows.append(
                GameRow(game_id, GameRef(public_id, name, mode, finished_at, created_at), rounds)
            )
        person = Person(player_id, player_name, user is None and not anonymised)
        rows[-1].seats.append(
            SeatRow(player_id, is_bot, resigned, rank, accepted, is_winner, score, person)
        )
    return rows


def phase_completions(games: QuerySet[Game]) -> dict[int, list[tuple[int, int]]]:
    """Game id → (round number, player id) of every phase laid, in round order (bots'
    and people's alike: the scoreboard's standing). One query."""
    laid = (
        RoundScore.objects.filter(game__in=games.values("pk"), phase_completed__isnull=False)
        .order_by("game_id", "round_number")
        .values_list("game_id", "round_number", "player_id")
    )
    return {
        game_id: [(number, player) for _game, number, player in rows]
        for game_id, rows in groupby(laid, key=lambda row: row[0])
    }


# --- records -----------------------------------------------------------------------------


def records(
    games: list[GameRow], laid: dict[int, list[tuple[int, int]]], holder: int | None = None
) -> dict[str, Record]:
    """The records of `games` (in finish order), of anyone or of the player `holder`
    only. Each goes to whoever set it first: a later game only takes it by beating it.

    - lowest winning total: the lowest final score a person won with;
    - fewest rounds to win: the fewest rounds of a game a person won (imported games,
      whose rounds are unknown, left out);
    - longest winning streak: the most games in a row, in finish order, won by the same
      person (a game won by a bot, or by anyone else, ends it);
    - biggest comeback: the most phases a person who went on to win was behind the
      leader (the seat with the most phases laid) at the end of a round.
    """
    best: dict[str, Record] = {}

    def offer(kind: str, value: int, seat: SeatRow, game: GameRow, lower: bool) -> None:
        held = best.get(kind)
        if held is None or (value < held.value if lower else value > held.value):
            best[kind] = Record(kind, value, seat.person, game.ref)

    run: list[GameRow] = []
    run_holder: int | None = None
    for game in games:
        winner = game.winner
        if winner is None or (holder is not None and winner.player_id != holder):
            run, run_holder = [], None
            continue
        offer(LOWEST_TOTAL, winner.score, winner, game, lower=True)
        if game.rounds_played > 0:
            offer(FEWEST_ROUNDS, game.rounds_played, winner, game, lower=True)
        gap = comeback(game, winner.player_id, laid.get(game.id, []))
        if gap > 0:
            offer(COMEBACK, gap, winner, game, lower=False)
        if winner.player_id != run_holder:
            run, run_holder = [], winner.player_id
        run.append(game)
        held = best.get(STREAK)
        if held is None or len(run) > held.value:
            best[STREAK] = Record(STREAK, len(run), winner.person, game.ref, first=run[0].ref)
    return {kind: best[kind] for kind in RECORD_KINDS if kind in best}


def comeback(game: GameRow, winner: int, laid: Iterable[tuple[int, int]]) -> int:
    """The most phases `winner` was behind the leader at the end of a round of `game`.

    >>> g = GameRow(1, GameRef("x", "", "night", EARLIEST, EARLIEST), 5)
    >>> comeback(g, 1, [(1, 2), (2, 2), (3, 1), (4, 1), (5, 1)])
    2
    """
    done: Counter[int] = Counter()
    gap = 0
    for _number, rounds in groupby(laid, key=lambda item: item[0]):
        for _round, player in rounds:
            done[player] += 1
        gap = max(gap, max(done.values()) - done[winner])
    return gap


# --- the phase that stops the group ------------------------------------------------------


def phase_needs(games: QuerySet[Game]) -> list[PhaseNeed]:
    """Per phase: the rounds people spent on it in the games where they went on to lay
    it (the laying round included), and how many times it was laid. Their ratio is the
    average rounds needed. A person's own rounds only (not those a bot played for them);
    pick-a-phase games left out (their rounds record only the phase laid). One query.

    The join to the seat's own laying round finds at most one row: a seat lays a phase
    once, and moves on."""
    rows = (
        RoundScore.objects.filter(
            not_pick_a_phase_q(),
            Seat.of_people("seat__"),
            game__in=games.values("pk"),
            by_bot=False,
            phase_attempted__isnull=False,
        )
        .filter(
            seat__round_scores__phase_completed=F("phase_attempted"),
            seat__round_scores__by_bot=False,
        )
        .values("phase_attempted")
        .annotate(
            tries=Count("id"),
            laid=Count("id", filter=Q(phase_completed=F("phase_attempted"))),
        )
        .order_by("phase_attempted")
        .values_list("phase_attempted", "tries", "laid")
    )
    # phase_attempted is never None here (filtered above); `or 0` says so to the types.
    return [PhaseNeed(phase or 0, tries, laid) for phase, tries, laid in rows]


def stopper(phases: list[PhaseNeed]) -> PhaseNeed | None:
    """The phase that stops the group most: the highest average of rounds needed; a tie
    goes to the phase laid more often, then to the later phase.

    >>> stopper([PhaseNeed(1, 4, 2), PhaseNeed(2, 6, 3), PhaseNeed(3, 2, 2)])
    PhaseNeed(phase=2, tries=6, completed=3)
    """
    if not phases:
        return None
    return max(phases, key=lambda p: (p.average, p.completed, p.phase))


# --- head to head, months -----------------------------------------------------------------


def member_players(club: Club) -> set[int]:
    """The ids of the club's members' Players. One query."""
    return set(
        Player.objects.filter(user__club_memberships__club=club).values_list("pk", flat=True)
    )


def head_to_head(games: list[GameRow], members: set[int]) -> tuple[list[Person], list[GridRow]]:
    """The members who played, most games first (then by name), and for each the games
    they placed above each other member at a table both sat at as people."""
    played: Counter[int] = Counter()
    beat: defaultdict[tuple[int, int], int] = defaultdict(int)
    people: dict[int, Person] = {}
    for game in games:
        places = game.placed()
        for seat in game.seats:
            if seat.player_id in places and seat.player_id in members:
                played[seat.player_id] += 1
                people[seat.player_id] = seat.person
        for winner, place in places.items():
            for loser, other in places.items():
                if place < other and winner in members and loser in members:
                    beat[winner, loser] += 1
    order = sorted(people.values(), key=lambda p: (-played[p.player_id], p.name, p.player_id))
    grid = [
        GridRow(
            row,
            [None if row == column else beat[row.player_id, column.player_id] for column in order],
        )
        for row in order
    ]
    return order, grid


def months(games: list[GameRow]) -> list[Month]:
    """Games per month (in the site's time zone), from the first month to the last,
    months without games included."""
    zone = site_zone()
    counts = Counter(
        (local.year, local.month)
        for local in (game.ref.finished_at.astimezone(zone) for game in games)
    )
    if not counts:
        return []
    (year, month), last = min(counts), max(counts)
    result = []
    while (year, month) <= last:
        result.append(Month(year, month, counts[year, month]))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return result


# --- kept ---------------------------------------------------------------------------------


def club_figures(club: Club) -> ClubFigures:
    """The club's stats page's figures: asks for the extent of the club's finished games
    (one query) and counts the rest only when nothing is kept under it."""
    extent = access.games_extent(club, finished_from=EARLIEST)
    key = cache_keys.club_records(club, extent)
    kept: ClubFigures | None = cache.get(key)
    if kept is None:
        kept = count_figures(club, key)
        cache.set(key, kept, cache_keys.VERSION_SECONDS)
    return kept


def count_figures(club: Club, key: str) -> ClubFigures:
    games = finished_games(club)
    rows = game_rows(games)
    phases = phase_needs(games)
    people, grid = head_to_head(rows, member_players(club))
    by_month = months(rows)
    return ClubFigures(
        key=key,
        games=len(rows),
        phases=phases,
        stopper=stopper(phases),
        records=records(rows, phase_completions(games)),
        grid_people=people,
        grid=grid,
        months=by_month,
        busiest_month=max((m.games for m in by_month), default=0),
    )


def summary_context(club: Club, today: date) -> dict[str, Any]:
    """What the club page's `clubs/_records.html` needs: the club, its kept figures (one
    query when they are kept), their kept HTML's key and the year in review to point to
    (year.featured_year of `today`, or None)."""
    kept = club_figures(club)
    return {
        "club": club,
        "club_figures": kept,
        "clubs_parts": cache_keys.clubs_parts(kept.key, "summary"),
        "featured_year": featured_year(today),
    }


def featured_year(today: date) -> int | None:
    """The year the stats pages and the club page point to: from December 1st the year
    ending, through January the year just ended; none the rest of the year.

    >>> featured_year(date(2026, 12, 1)), featured_year(date(2027, 1, 31))
    (2026, 2026)
    >>> featured_year(date(2027, 2, 1)) is None
    True
    """
    if today.month == 12:
        return today.year
    if today.month == 1:
        return today.year - 1
    return None
