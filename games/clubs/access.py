"""Who may open a club: its members only. Everyone else gets 404, as with a game, so a
club's pages don't even say it exists."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Count, F, Q, Sum
from django.http import Http404

from games.models import Club, Game

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def club_for_member(user: User, public_id: str) -> Club:
    """The club `public_id`, with `viewer_is_admin` set for `user`, or 404 unless they
    are a member. One query."""
    club = (
        Club.objects.filter(public_id=public_id, members__user=user)
        .annotate(admin=F("members__is_admin"))
        .first()
    )
    if club is None:
        raise Http404
    club.viewer_is_admin = club.admin
    return club


def games_extent(
    club: Club, *, finished_from: datetime | None = None, finished_before: datetime | None = None
) -> tuple[int, int, int]:
    """The club's games (those finished in the window, when one is given) in three
    numbers: how many, the sum of their versions and the sum of their ids. Every change
    to a game bumps its version (games/scoring.py), so the sum moves on with any change;
    the count and the ids when a game joins or leaves. What kept club pages are keyed
    by, with `Club.version` (games/cache_keys.py). One query."""
    games = Game.objects.filter(club=club)
    if finished_from is not None or finished_before is not None:
        window = Q(status=Game.Status.FINISHED)
        if finished_from is not None:
            window &= Q(finished_at__gte=finished_from)
        if finished_before is not None:
            window &= Q(finished_at__lt=finished_before)
        games = games.filter(window)
    row = games.aggregate(games=Count("id"), versions=Sum("version"), ids=Sum("id"))
    return (row["games"], row["versions"] or 0, row["ids"] or 0)
