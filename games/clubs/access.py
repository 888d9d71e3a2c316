"""Who may open a club: its members only. Everyone else gets 404, as with a game, so a
club's pages don't even say it exists."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Count, Max, Q, Subquery, Sum
from django.http import Http404

from games.models import Club, ClubMember, Game, RatingMark

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def club_for_member(user: User, public_id: str) -> Club:
    """The club `public_id`, with `viewer_is_admin` set for `user`, or 404 unless they
    are a member. One query."""
    membership = (
        ClubMember.objects.filter(club__public_id=public_id, user=user)
        .select_related("club")
        .first()
    )
    if membership is None:
        raise Http404
    club = membership.club
    club.viewer_is_admin = membership.is_admin
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


def page_extent(club: Club) -> tuple[int, int, int, int]:
    """`games_extent(club)` and how far the ratings have got (`RatingMark.revision`: it
    moves on with every ratings run), in one query: the club page shows its members'
    ratings, which a run writes after a game's last version bump. Read from the club's
    row, so a club without games still has a row to carry the revision."""
    row = Club.objects.filter(pk=club.pk).aggregate(
        # Not named "games": that name would hide the relation from the sums after it.
        count=Count("games"),
        versions=Sum("games__version"),
        ids=Sum("games__id"),
        ratings=Max(Subquery(RatingMark.objects.filter(pk=1).values("revision"))),
    )
    return (row["count"], row["versions"] or 0, row["ids"] or 0, row["ratings"] or 0)
