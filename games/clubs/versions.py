"""A club's own version: it moves on with every change to who is in the club, its name,
its join link or its seasons, in the change's transaction. Kept club pages are keyed by
it (with the extent of the club's games: games/clubs/access.py)."""

from __future__ import annotations

from django.db.models import F

from games.models import Club


def bump_club(club: Club | int) -> None:
    """One up, in SQL (two changes at once both count). Call it inside the change's
    transaction, so a page never sees the change without the new version."""
    pk = club if isinstance(club, int) else club.pk
    Club.objects.filter(pk=pk).update(version=F("version") + 1)
