"""Who can be seated or asked: members found by username, and a user's seat."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model

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
