"""A club's version: what kept club pages are keyed by, with its games' extent."""

from __future__ import annotations

from django.db.models import F

from games.models import Club


def bump(club_id: int) -> None:
    """Move the club one version on: call it in the transaction that changes its members,
    name or seasons. The UPDATE takes the club row's lock until commit, so it also
    queues two changes of one club one after the other."""
    Club.objects.filter(pk=club_id).update(version=F("version") + 1)
