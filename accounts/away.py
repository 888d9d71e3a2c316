"""Away mode: "away until …", like the vacations of OGS or BGA.

While a user is away, the clocks of the turns waiting for them stand still, so neither
reminders nor the time limit's automatic turn come (games/online/pause.py keeps the
clocks; the jobs in games/notify/jobs.py skip a stopped clock), and others see "away
until Friday" beside their name.

How days count: in the user's own time zone, every calendar day they are away for any
part of is one day, the first and the last included, at most `MAX_DAYS_A_YEAR` in a
calendar year (a stretch over New Year counts in each year). Away starts at once and
ends at midnight after the last day. Coming back early ends it now and gives back the
days after today (today stays counted).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import Refused
from games.online import pause
from games.words import away_words

from .models import AwayPeriod, Profile

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_DAYS_A_YEAR = 30


def _zone(profile: Profile) -> ZoneInfo:
    try:
        return ZoneInfo(profile.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def today(profile: Profile, now: datetime | None = None) -> date:
    """The user's calendar day now, in their time zone."""
    return (now or timezone.now()).astimezone(_zone(profile)).date()


def end_of(profile: Profile, last_day: date) -> datetime:
    """When away ends: the midnight after `last_day` in the user's time zone."""
    return datetime.combine(last_day + timedelta(days=1), time(0), tzinfo=_zone(profile))


def days_in_year(first_day: date, last_day: date, year: int) -> int:
    """How many days of first_day..last_day (both counted) fall in `year`.

    >>> days_in_year(date(2026, 12, 30), date(2027, 1, 2), 2026)
    2
    """
    start = max(first_day, date(year, 1, 1))
    end = min(last_day, date(year, 12, 31))
    return max(0, (end - start).days + 1)


def days_used(user: User, year: int, *, leaving_out: AwayPeriod | None = None) -> int:
    periods = AwayPeriod.objects.filter(
        user=user, first_day__lte=date(year, 12, 31), last_day__gte=date(year, 1, 1)
    )
    if leaving_out is not None:
        periods = periods.exclude(pk=leaving_out.pk)
    return sum(days_in_year(p.first_day, p.last_day, year) for p in periods)


def days_left(user: User, year: int, *, leaving_out: AwayPeriod | None = None) -> int:
    return max(0, MAX_DAYS_A_YEAR - days_used(user, year, leaving_out=leaving_out))


def current(user: User, now: datetime | None = None) -> AwayPeriod | None:
    """The away period going on now, if the user is away."""
    now = now or timezone.now()
    profile = user.profile
    if profile.away_until is None or profile.away_until <= now:
        return None
    return AwayPeriod.objects.filter(user=user, last_day__gte=today(profile, now)).last()


def status_words(user: User, now: datetime | None = None) -> str:
    """ "away until Friday" while the user is away, else ""."""
    now = now or timezone.now()
    until = user.profile.away_until
    if until is None or until <= now:
        return ""
    with timezone.override(_zone(user.profile)):
        return away_words(until, now)


def check(user: User, first_day: date, last_day: date, *, leaving_out: AwayPeriod | None) -> None:
    """Raise Refused, saying how many days are left, if first_day..last_day is more
    than the user has left in a year it touches."""
    if last_day < first_day:
        raise Refused(_("Choose today or a later day."), code="away_past", field="until")
    for year in range(first_day.year, last_day.year + 1):
        wanted = days_in_year(first_day, last_day, year)
        left = days_left(user, year, leaving_out=leaving_out)
        if wanted > left:
            too_long = ngettext(
                "That is %(count)s day away.", "That is %(count)s days away.", wanted
            ) % {"count": wanted}
            remaining = ngettext(
                "You have %(count)s day of away mode left in %(year)s (at most %(max)s a year).",
                "You have %(count)s days of away mode left in %(year)s (at most %(max)s a year).",
                left,
            ) % {"count": left, "year": year, "max": MAX_DAYS_A_YEAR}
            raise Refused(f"{too_long} {remaining}", code="away_too_long", field="until")


@transaction.atomic
def go_away(user: User, last_day: date, *, now: datetime | None = None) -> AwayPeriod:
    """Away from now until the end of `last_day` (a new period, or the current one
    made longer or shorter); the turns waiting for the user stop their clocks."""
    now = now or timezone.now()
    profile = Profile.objects.select_for_update().get(user=user)
    if profile.away_until is not None and profile.away_until <= now:
        # An away that ran out before the jobs noticed: its clocks restart first.
        pause.restart_clocks_of(user, profile.away_until)
    user.profile = profile
    period = current(user, now)
    first_day = period.first_day if period is not None else today(profile, now)
    if last_day < today(profile, now):
        # Not even to shorten a stretch that began days ago: that is coming back.
        raise Refused(_("Choose today or a later day."), code="away_past", field="until")
    check(user, first_day, last_day, leaving_out=period)
    if period is None:
        period = AwayPeriod.objects.create(user=user, first_day=first_day, last_day=last_day)
    else:
        period.last_day = last_day
        period.save(update_fields=["last_day"])
    profile.away_until = end_of(profile, last_day)
    profile.save(update_fields=["away_until"])
    pause.stop_clocks_of(user, now)
    return period


@transaction.atomic
def come_back(user: User, *, now: datetime | None = None) -> int:
    """End away mode now; returns the days given back (those after today)."""
    now = now or timezone.now()
    profile = Profile.objects.select_for_update().get(user=user)
    user.profile = profile
    period = current(user, now)
    if period is None:
        raise Refused(_("You aren't away."), code="not_away")
    day = today(profile, now)
    given_back = max(0, (period.last_day - day).days)
    period.last_day = max(period.first_day, day)
    period.save(update_fields=["last_day"])
    profile.away_until = None
    profile.save(update_fields=["away_until"])
    pause.restart_clocks_of(user, now)
    return given_back
