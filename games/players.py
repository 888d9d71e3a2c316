"""Who can be seated or asked: members found by username, a user's seat, whether a
player is away."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model

from accounts.models import Profile

from .models import Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def find_member(username: str) -> User | None:
    """The active user called `username` (any case), or None: who can be invited to a
    game or made a co-scorer."""
    return (
        get_user_model().objects.filter(username__iexact=username.strip(), is_active=True).first()
    )


def seat_for_user(seats: Iterable[Seat], user: User) -> Seat | None:
    """The seat of `user` among `seats` (already loaded with their players), or None."""
    for seat in seats:
        if seat.player.user_id == user.pk:
            return seat
    return None


def away_until(player_id: int | None, now: datetime) -> datetime | None:
    """When the person playing as `player_id` comes back, if they are away now (their
    turn clocks stand still meanwhile: games/online/pause.py); else None."""
    if player_id is None:
        return None
    return (
        Profile.objects.filter(user__player=player_id, away_until__gt=now)
        .values_list("away_until", flat=True)
        .first()
    )
