"""Who wants which game email, and when: preferences, the per-game mute, a verified
address, quiet hours in the recipient's own time zone. Checked when a row is written
and again just before it is sent (a row may wait for the morning)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import Exists, OuterRef, Q, QuerySet

from accounts.models import Profile

from ..models import Game, Notification, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Kind = Notification.Kind

MAX_REMINDERS = 3
QUIET_START, QUIET_END = time(22, 0), time(8, 0)


def zone(profile: Profile) -> ZoneInfo:
    try:
        return ZoneInfo(profile.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_now(profile: Profile, now: datetime) -> datetime:
    return now.astimezone(zone(profile))


def quiet_until(profile: Profile, now: datetime) -> datetime | None:
    """When the recipient's quiet hours end, if they are in them now (else None)."""
    if not profile.quiet_hours:
        return None
    local = local_now(profile, now)
    if local.time() >= QUIET_START:
        day = local.date() + timedelta(days=1)
    elif local.time() < QUIET_END:
        day = local.date()
    else:
        return None
    return datetime.combine(day, QUIET_END, tzinfo=zone(profile))


def refusal(kind: str, user: User, seat: Seat | None) -> str | None:
    """Why `user` doesn't get an email of `kind` now (None: they do).

    Per-turn mail (your turn, reminders, time limit) is for those who chose it; the
    digest for those who chose the digest; the final standings for both; "off" means
    nothing at all. A muted game sends nothing.
    """
    profile = getattr(user, "profile", None)
    if profile is None or not user.is_active or not user.email:
        return "no address"
    if not profile.email_verified:
        return "address not verified"
    if seat is not None and seat.muted:
        return "game muted"
    if seat is not None and (seat.is_bot or seat.resigned) and kind != Kind.GAME_OVER:
        return "a bot plays this seat"
    notify = profile.notify
    if notify == Profile.Notify.OFF:
        return "game emails turned off"
    if kind == Kind.DIGEST:
        return None if notify == Profile.Notify.DIGEST else "digest not chosen"
    if kind == Kind.GAME_OVER:
        return None
    if notify != Profile.Notify.EACH_TURN:
        return "per-turn emails not chosen"
    if kind == Kind.REMINDER and not profile.reminder_hours:
        return "reminders turned off"
    return None


def games_waiting_for_users(user_ids: Sequence[int]) -> QuerySet[Game]:
    """Active online games whose turn is one of these users', their seat neither muted
    nor handed to a bot, the game not paused."""
    left_out = Seat.objects.filter(game=OuterRef("pk"), player=OuterRef("current_player")).filter(
        Q(muted=True) | Q(is_bot=True)
    )
    return Game.objects.filter(
        status=Game.Status.ACTIVE,
        mode=Game.Mode.ONLINE,
        current_player__user__in=user_ids,
        paused_at__isnull=True,
    ).exclude(Exists(left_out))


def games_waiting_for(user: User) -> list[Game]:
    """Every game waiting for `user`, the longest-waiting first (the digest's list)."""
    return list(games_waiting_for_users([user.pk]).order_by("turn_started_at", "pk"))
