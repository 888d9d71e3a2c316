"""The year in review: a member's (all their finished games of a calendar year) and a
club's (the club's finished games of the year), and the link that shares a member's.

A game belongs to the year in which it finished, in the site's time zone. The figures
are kept in the cache under the extent of the games they cover (how many, the sums of
their versions and ids) and of those games' ratings (how many were rated, when last):
the ratings' task writes a game's rating changes after the game's own last change, so
its version alone would keep a climb from before them. docs/clubs.md says each figure
in plain words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, cast

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Max, QuerySet, Sum
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from games import cache_keys
from games.errors import Refused
from games.models import Club, Game, Player, RatingChange, YearShare
from games.stats import figures
from games.stats.ratings import SCALE_FACTOR, shown
from games.stats.scope import Scope

from . import records
from .records import GameRef, GameRow, Person, PhaseNeed, Record
from .records import featured_year as featured_year

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# The first year a review can be asked for: none of the site's games is older.
FIRST_YEAR = 2000
# How many people the lists of a review name.
TOP = 3


def window(year: int) -> tuple[datetime, datetime]:
    """The year's first moment and the next year's, in the site's time zone."""
    zone = records.site_zone()
    return datetime(year, 1, 1, tzinfo=zone), datetime(year + 1, 1, 1, tzinfo=zone)


def is_open(year: int, today: date) -> bool:
    """Whether a review of `year` may be asked for: not before the site's first games,
    not in the future."""
    return FIRST_YEAR <= year <= today.year


# --- a member's year -----------------------------------------------------------------------


@dataclass(frozen=True)
class BestGame:
    """A member's best game of the year: their best place among the people at the
    table; a tie goes to the game with more people, then the lower final score, then
    the earlier game."""

    game: GameRef
    place: int
    people: int
    score: int | None  # None: they resigned


@dataclass(frozen=True)
class Climb:
    """A rating over the year: before the year's first rated game and after its last."""

    start: int
    end: int
    games: int

    @property
    def change(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class Partner:
    person: Person
    games: int


@dataclass(frozen=True)
class PersonYear:
    key: str
    year: int
    games: int
    wins: int
    partners: list[Partner]  # the people played with most
    nemesis: figures.PhaseStat | None
    best: BestGame | None
    climb: Climb | None
    records: dict[str, Record]


def person_scope(player: Player, year: int) -> Scope:
    return Scope(player=player, window=window(year))


def person_extent(scope: Scope) -> tuple[object, ...]:
    """The player's games of the year in five values: how many, the sums of their
    versions and ids (figures.extent's three), how many were rated and when last. One
    query."""
    row = scope.seats().aggregate(
        games=Count("id"),
        versions=Sum("game__version"),
        ids=Sum("game_id"),
        rated=Count("game__rated_game"),
        rated_at=Max("game__rated_game__rated_at"),
    )
    return (row["games"], row["versions"] or 0, row["ids"] or 0, row["rated"], row["rated_at"])


def person_year(player: Player, year: int) -> PersonYear:
    """`player`'s year in review: the extent (one query), the rest from the cache or
    counted."""
    scope = person_scope(player, year)
    return _person_year(cache_keys.person_year(player, year, person_extent(scope)), scope, year)


def lazy_person_year(player: Player, year: int) -> tuple[str, PersonYear]:
    """The key of `player`'s year in review (one query) and the review itself, read from
    the cache or counted only when something uses it: a page whose HTML of it is kept
    doesn't."""
    scope = person_scope(player, year)
    key = cache_keys.person_year(player, year, person_extent(scope))
    return key, cast("PersonYear", SimpleLazyObject(lambda: _person_year(key, scope, year)))


def _person_year(key: str, scope: Scope, year: int) -> PersonYear:
    kept: PersonYear | None = cache.get(key)
    if kept is None:
        kept = count_person_year(scope, year, key)
        cache.set(key, kept, cache_keys.VERSION_SECONDS)
    return kept


def count_person_year(scope: Scope, year: int, key: str) -> PersonYear:
    player = scope.player
    assert player is not None
    summary = figures.summary(scope)
    games = Game.objects.filter(pk__in=scope.seats().values("game"))
    rows = records.game_rows(games)
    partners = [
        Partner(Person(rival.player_id, rival.name, rival.is_guest), rival.games)
        for rival in figures.head_to_head(scope, limit=TOP)
    ]
    return PersonYear(
        key=key,
        year=year,
        games=summary.played,
        wins=summary.won,
        partners=partners,
        nemesis=figures.nemesis(figures.phase_stats(scope)),
        best=best_game(rows, player.pk),
        climb=climb(player, year),
        records=records.records(rows, records.phase_completions(games), holder=player.pk),
    )


def best_game(games: list[GameRow], player_id: int) -> BestGame | None:
    best: BestGame | None = None
    for game in games:
        places = game.placed()
        if player_id not in places:
            continue
        seat = next(seat for seat in game.seats if seat.player_id == player_id)
        candidate = BestGame(
            game.ref, places[player_id], len(places), None if seat.resigned else seat.score
        )
        if best is None or _rank(candidate) < _rank(best):
            best = candidate
    return best


def _rank(game: BestGame) -> tuple[int, int, float]:
    return (game.place, -game.people, float("inf") if game.score is None else game.score)


def climb(player: Player, year: int) -> Climb | None:
    """The player's rating before their first rated game of the year and after their
    last. One query."""
    start, end = window(year)
    changes = list(
        RatingChange.objects.filter(player=player, finished_at__gte=start, finished_at__lt=end)
        .order_by("finished_at", "game_id")
        .values_list("ordinal_before", "ordinal_after")
    )
    if not changes:
        return None
    return Climb(shown(changes[0][0]), shown(changes[-1][1]), len(changes))


# --- a club's year -------------------------------------------------------------------------


@dataclass(frozen=True)
class BusyNight:
    """The club's busiest night: the day (in the site's time zone) with the most games
    finished; a tie goes to the earlier day."""

    day: date
    games: int
    people: int


@dataclass(frozen=True)
class Tally:
    person: Person
    value: int


@dataclass(frozen=True)
class ClubYear:
    key: str
    year: int
    games: int
    nights: int
    online: int
    most_wins: list[Tally]
    most_games: list[Tally]
    phases: list[PhaseNeed]
    stopper: PhaseNeed | None
    busiest: BusyNight | None
    climbers: list[Tally]  # rating points gained in the club's games, members only
    records: dict[str, Record]


def club_year(club: Club, year: int) -> ClubYear:
    """The club's year in review (`club` as access.club_for_member reads it), from the
    cache or counted."""
    return _club_year(cache_keys.club_year(club, year), club, year)


def lazy_club_year(club: Club, year: int) -> tuple[str, ClubYear]:
    """The key of the club's year in review (no query: the club's version says it) and
    the review itself, read from the cache or counted only when something uses it (as
    `lazy_person_year`)."""
    key = cache_keys.club_year(club, year)
    return key, cast("ClubYear", SimpleLazyObject(lambda: _club_year(key, club, year)))


def _club_year(key: str, club: Club, year: int) -> ClubYear:
    kept: ClubYear | None = cache.get(key)
    if kept is None:
        games = records.finished_games(club, window(year))
        kept = count_club_year(club, year, games, key)
        cache.set(key, kept, cache_keys.VERSION_SECONDS)
    return kept


def _top(counter: Counter[Person]) -> list[Tally]:
    ranked = sorted(counter.items(), key=lambda item: (-item[1], item[0].name, item[0].player_id))
    return [Tally(person, value) for person, value in ranked[:TOP] if value > 0]


def count_club_year(club: Club, year: int, games: QuerySet[Game], key: str) -> ClubYear:
    rows = records.game_rows(games)
    phases = records.phase_needs(games)
    wins: Counter[Person] = Counter()
    played: Counter[Person] = Counter()
    for game in rows:
        places = game.placed()
        played.update(seat.person for seat in game.seats if seat.player_id in places)
        winner = game.winner
        if winner is not None:
            wins[winner.person] += 1
    return ClubYear(
        key=key,
        year=year,
        games=len(rows),
        nights=sum(game.ref.mode == Game.Mode.NIGHT for game in rows),
        online=sum(game.ref.mode == Game.Mode.ONLINE for game in rows),
        most_wins=_top(wins),
        most_games=_top(played),
        phases=phases,
        stopper=records.stopper(phases),
        busiest=busiest_night(rows),
        climbers=climbers(club, games),
        records=records.records(rows, records.phase_completions(games)),
    )


def busiest_night(games: list[GameRow]) -> BusyNight | None:
    zone = records.site_zone()
    days: dict[date, list[GameRow]] = {}
    for game in games:
        days.setdefault(game.ref.finished_at.astimezone(zone).date(), []).append(game)
    if not days:
        return None
    day = min(days, key=lambda d: (-len(days[d]), d))
    people = {player for game in days[day] for player in game.placed()}
    return BusyNight(day, len(days[day]), len(people))


def climbers(club: Club, games: QuerySet[Game]) -> list[Tally]:
    """The members whose rating gained most in the year's club games: the sum of what
    each of those games moved it, on the shown scale. One query."""
    rows = (
        RatingChange.objects.filter(
            game__in=games.values("pk"), player__user__club_memberships__club=club
        )
        .values("player", "player__name")
        .annotate(gain=Sum(F("ordinal_after") - F("ordinal_before")))
    )
    gains: Counter[Person] = Counter(
        {
            Person(row["player"], row["player__name"], False): round(
                SCALE_FACTOR * (row["gain"] or 0.0)
            )
            for row in rows
        }
    )
    return _top(gains)


# --- sharing a member's year -----------------------------------------------------------------


def share(user: User, year: int) -> YearShare:
    """Share `user`'s year by a new unguessable link, or keep the link they have (a
    second click). Refused for a year without their games."""
    player = Player.objects.filter(user=user).first()
    with transaction.atomic():
        if player is None or not person_scope(player, year).seats().exists():
            raise Refused(
                _("You have no finished games in %(year)s to share.") % {"year": year},
                code="empty_year",
            )
        shared, _created = YearShare.objects.get_or_create(user=user, year=year)
    return shared


def stop_sharing(user: User, year: int) -> None:
    """Delete the link to `user`'s year: it answers 404 from now on."""
    deleted, _rows = YearShare.objects.filter(user=user, year=year).delete()
    if not deleted:
        raise Refused(_("Your %(year)s isn't shared.") % {"year": year}, code="not_shared")


def shared_link(user: User, year: int) -> YearShare | None:
    return YearShare.objects.filter(user=user, year=year).first()
