"""A club's seasons: which one a day falls in, what admins may change, the league table
(league.py does its arithmetic), closing a season that is over, and the members' ratings
over a season. The rules in words are docs/clubs.md's "Seasons and the league table".

Season rows come to exist when they are first needed: `season_on(club, day)` returns the
season covering the day and, when none does, creates the calendar year's (cut short where
the club's other seasons already cover part of it). The season page asks it for today;
the beat job (`close_due`) asks it for every past day a club game finished on that no
season covers yet, then closes the seasons that are over.

A season's days are whole days of the site's time zone (`settings.TIME_ZONE`), the same
for everyone whatever their own time zone: a game counts in the season covering the day
it finished there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cached_property
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import cache_keys
from games.errors import Refused
from games.models import Club, ClubMember, Game, RatingChange, Season, Seat
from games.scoring import bump_club
from games.stats import ratings
from games.stats.rating_stats import signed
from games.words import isolated

from . import access, league
from .league import Row

# What admins may choose.
MAX_PLACES = 10
MAX_POINTS = 100
MAX_BEST_OF = 999


# --- days -------------------------------------------------------------------------------


def site_zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)


def site_today() -> date:
    return timezone.localdate(timezone=site_zone())


def window(season: Season) -> tuple[datetime, datetime]:
    """The season as instants: from its first day's midnight to the midnight after its
    last day, in the site's time zone."""
    zone = site_zone()
    start = datetime.combine(season.starts, time.min, tzinfo=zone)
    end = datetime.combine(season.ends + timedelta(days=1), time.min, tzinfo=zone)
    return start, end


def is_over(season: Season) -> bool:
    return season.ends < site_today()


def label(season: Season) -> str:
    """The season's name, or its year when the admins gave none."""
    return str(season)


# --- which season ----------------------------------------------------------------------


def _covering(club_id: int, day: date) -> QuerySet[Season]:
    return Season.objects.filter(club_id=club_id, starts__lte=day, ends__gte=day)


def season_on(club: Club, day: date) -> Season:
    """The club's season covering `day`, created when there is none: the calendar year,
    shortened to the days the club's other seasons leave free. One query when it exists.
    Two requests at once both find none; the second waits on the club's row (the version
    bump) and then finds the first one's season."""
    found = _covering(club.pk, day).first()
    if found is not None:
        return found
    with transaction.atomic():
        bump_club(club.pk)
        # What the caller keys pages by from here on.
        club.version = Club.objects.values_list("version", flat=True).get(pk=club.pk)
        found = _covering(club.pk, day).first()
        if found is not None:
            return found
        starts, ends = date(day.year, 1, 1), date(day.year, 12, 31)
        before = (
            Season.objects.filter(club_id=club.pk, ends__lt=day)
            .order_by("-ends")
            .values_list("ends", flat=True)
            .first()
        )
        after = (
            Season.objects.filter(club_id=club.pk, starts__gt=day)
            .order_by("starts")
            .values_list("starts", flat=True)
            .first()
        )
        if before is not None and before >= starts:
            starts = before + timedelta(days=1)
        if after is not None and after <= ends:
            ends = after - timedelta(days=1)
        return Season.objects.create(club_id=club.pk, starts=starts, ends=ends)


def current_season(club: Club) -> Season:
    return season_on(club, site_today())


def club_season(club: Club, season_id: int) -> Season | None:
    """One of the club's seasons by id (None for another club's or no season)."""
    return Season.objects.filter(club=club, pk=season_id).first()


def other_seasons(club: Club, season: Season) -> list[Season]:
    """The club's other seasons, latest first, for the list of past champions. One query."""
    return list(
        Season.objects.filter(club=club).exclude(pk=season.pk).order_by("-starts").defer("club")
    )


def champion_name(season: Season) -> str | None:
    """The champion as the kept table names them (a champion who was a guest and has
    since been claimed keeps the name they won under), or None before the season closes
    or when nobody played."""
    if season.closed_at is None or not season.final_table:
        return None
    return str(season.final_table[0]["name"])


# --- settings -----------------------------------------------------------------------------


def parse_points(text: str) -> list[int]:
    """Points per place as typed: whole numbers separated by commas (Latin or Arabic)
    or spaces, in any script's digits.

    >>> parse_points("3, 2, 1, 0"), parse_points("10 5 2"), parse_points("٣، ٢، ١، ٠")
    ([3, 2, 1, 0], [10, 5, 2], [3, 2, 1, 0])
    """
    parts = text.replace(",", " ").replace("،", " ").split()
    if not parts:
        raise Refused(_("Give the points for at least first place."), field="points")
    if len(parts) > MAX_PLACES:
        raise Refused(
            _("Give points for at most %(places)s places.") % {"places": MAX_PLACES},
            field="points",
        )
    if not all(part.isdecimal() for part in parts):
        raise Refused(
            _("Points are whole numbers separated by commas, like 3, 2, 1, 0."), field="points"
        )
    points = [int(part) for part in parts]
    if max(points) > MAX_POINTS:
        raise Refused(
            _("A place can give at most %(points)s points.") % {"points": MAX_POINTS},
            field="points",
        )
    return points


def points_text(points: Sequence[int]) -> str:
    return ", ".join(str(number) for number in points)


@dataclass(frozen=True)
class SeasonSettings:
    name: str
    starts: date
    ends: date
    points: list[int]
    best_of: int | None


def update_season(club: Club, season_id: int, new: SeasonSettings, *, version: int) -> Season:
    """Save an admin's settings of a season that isn't over; `version` is the club's
    version the form was drawn at (a second click of the same form is refused).
    The view checks the person is an admin."""
    with transaction.atomic():
        moved = Club.objects.filter(pk=club.pk, version=version).update(version=F("version") + 1)
        if moved != 1:
            raise Refused(
                _("The club changed since you opened this page. Check the season and save again."),
                code="stale",
            )
        season = Season.objects.filter(club=club, pk=season_id).first()
        if season is None:
            raise Refused(_("There is no such season in this club."))
        if season.closed_at is not None or is_over(season):
            raise Refused(_("This season is over: its table is kept as it was and can't change."))
        if new.ends < new.starts:
            raise Refused(_("A season can't end before it starts."), field="ends")
        overlap = (
            Season.objects.filter(club=club, starts__lte=new.ends, ends__gte=new.starts)
            .exclude(pk=season.pk)
            .order_by("starts")
            .first()
        )
        if overlap is not None:
            raise Refused(
                _("These dates overlap the season %(name)s (%(starts)s to %(ends)s).")
                % {
                    "name": isolated(label(overlap)),
                    "starts": date_format(overlap.starts, "SHORT_DATE_FORMAT"),
                    "ends": date_format(overlap.ends, "SHORT_DATE_FORMAT"),
                },
                field="starts",
            )
        season.name = new.name
        season.starts, season.ends = new.starts, new.ends
        season.points, season.best_of = new.points, new.best_of
        season.save(update_fields=["name", "starts", "ends", "points", "best_of"])
    club.version = version + 1
    return season


# --- the table ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Seat:
    """What `ratings.placings` reads of a seat."""

    player_id: int
    is_bot: bool
    resigned: bool
    rank: int | None
    accepted: bool


def standings(club: Club, season: Season) -> list[Row]:
    """The season's league table, best first: the kept copy once the season is closed,
    else worked out from its games (one query)."""
    if season.closed_at is not None:
        return [Row.from_kept(values) for values in season.final_table]
    return _work_out(club.pk, season)


def _work_out(club_id: int, season: Season) -> list[Row]:
    start, end = window(season)
    seats = (
        Seat.objects.filter(
            game__club_id=club_id,
            game__status=Game.Status.FINISHED,
            game__finished_at__gte=start,
            game__finished_at__lt=end,
        )
        .order_by("game_id", "position")
        .values_list(
            "game_id",
            "player_id",
            "is_bot",
            "resigned",
            "rank",
            "accepted",
            "player__name",
            "player__user_id",
            "player__anonymised",
        )
    )
    games: dict[int, list[_Seat]] = {}
    people: dict[int, league.Person] = {}
    for game_id, player_id, is_bot, resigned, rank, accepted, name, user_id, anonymised in seats:
        games.setdefault(game_id, []).append(_Seat(player_id, is_bot, resigned, rank, accepted))
        people[player_id] = league.Person(name, user_id is None and not anonymised)
    # Every finished club game counts, rated or not: the league is the club's, not the
    # ratings'. Only who is placed, and where, is the ratings' rule.
    placed = [ratings.placings(game_seats) for game_seats in games.values()]
    return league.table(placed, people, points=season.points, best_of=season.best_of)


class SeasonTable:
    """What `clubs/_season_table.html` shows: a season's table, its rows read only when
    the kept HTML (`key`) is missing."""

    def __init__(self, club: Club, season: Season, key: str) -> None:
        self.club = club
        self.season = season
        self.key = key

    @cached_property
    def rows(self) -> list[Row]:
        return standings(self.club, self.season)

    @property
    def points_text(self) -> str:
        return points_text(self.season.points)


def season_table(club: Club, season: Season) -> SeasonTable:
    """The table's context, keyed by everything it shows: one query while the season is
    open (its games' extent), none once it is closed (the kept copy changes no more)."""
    if season.closed_at is not None:
        extent = None
    else:
        start, end = window(season)
        extent = access.games_extent(club, finished_from=start, finished_before=end)
    return SeasonTable(club, season, cache_keys.season_table(club, season, extent))


def current_table(club: Club) -> SeasonTable:
    """The club page's season table: two queries when its HTML is kept (the season, its
    games' extent)."""
    return season_table(club, current_season(club))


# --- closing ------------------------------------------------------------------------------


def close_due() -> int:
    """The beat job: make sure every past day a club game finished on has its season,
    then close every season that is over. Returns how many it closed."""
    for club_id, day in _uncovered_days():
        season_on(Club(pk=club_id), day)
    due = Season.objects.filter(closed_at__isnull=True, ends__lt=site_today())
    return sum(close(season_id) for season_id in due.values_list("pk", flat=True))


def _uncovered_days() -> list[tuple[int, date]]:
    """(club, day) for each day before today on which a club game finished that no
    season of its club covers. One query; none are found once the job has run."""
    today = datetime.combine(site_today(), time.min, tzinfo=site_zone())
    covering = Season.objects.filter(
        club=OuterRef("club"), starts__lte=OuterRef("day"), ends__gte=OuterRef("day")
    )
    return list(
        Game.objects.filter(club__isnull=False, status=Game.Status.FINISHED, finished_at__lt=today)
        .annotate(day=TruncDate("finished_at", tzinfo=site_zone()))
        .filter(~Exists(covering))
        .order_by("club_id", "day")
        .values_list("club_id", "day")
        .distinct()
    )


def close(season_id: int) -> bool:
    """Work a season's table out once more and keep it, if the season is over and not
    yet closed. The conditional UPDATE claims it: a second run (or a second beat) finds
    it closed and does nothing. False when there was nothing to do."""
    with transaction.atomic():
        claimed = Season.objects.filter(
            pk=season_id, closed_at__isnull=True, ends__lt=site_today()
        ).update(closed_at=timezone.now())
        if claimed != 1:
            return False
        season = Season.objects.get(pk=season_id)
        rows = _work_out(season.club_id, season)
        season.final_table = [row.kept() for row in rows]
        season.champion_id = rows[0].player_id if rows else None
        season.save(update_fields=["final_table", "champion"])
        bump_club(season.club_id)
    return True


# --- ratings over a season ----------------------------------------------------------------


@dataclass(frozen=True)
class MemberRating:
    """A member's rating now and its change over a season's club games, as the stats
    pages show ratings (`ratings.shown`)."""

    user_id: int
    name: str
    shown: int | None  # None before their first rated game
    provisional: bool
    change: int | None  # None without a rated club game in the season

    @property
    def change_text(self) -> str:
        return "" if self.change is None else signed(self.change)


def member_ratings(club: Club, season: Season) -> list[MemberRating]:
    """Each member's rating now and its change from before their first rated club game
    of the season to after their last (ratings are global: games elsewhere in between
    move it too), best rating first, unrated members last. One query."""
    start, end = window(season)
    in_season = RatingChange.objects.filter(
        player=OuterRef("user__player"),
        game__club=club,
        game__finished_at__gte=start,
        game__finished_at__lt=end,
    )
    first = in_season.order_by("finished_at", "game_id").values("ordinal_before")[:1]
    last = in_season.order_by("-finished_at", "-game_id").values("ordinal_after")[:1]
    rows = (
        ClubMember.objects.filter(club=club)
        .annotate(before=Subquery(first), after=Subquery(last))
        .values_list(
            "user_id",
            "user__username",
            "user__player__name",
            "user__player__rating__mu",
            "user__player__rating__sigma",
            "user__player__rating__games",
            "before",
            "after",
        )
    )
    found = []
    for user_id, username, name, mu, sigma, games, before, after in rows:
        rated = mu is not None and bool(games)
        found.append(
            MemberRating(
                user_id=user_id,
                name=name or username,
                shown=ratings.Skill(mu, sigma).shown if rated else None,
                provisional=rated and ratings.is_provisional(games),
                change=None
                if before is None or after is None
                else ratings.shown(after) - ratings.shown(before),
            )
        )
    return sorted(
        found,
        key=lambda row: (row.shown is None, -(row.shown or 0), row.name.casefold(), row.user_id),
    )
