"""Two requests, or two beat runs, at the same moment: one season row, one closing.

Needs PostgreSQL (row locks); run with DATABASE_URL pointing at one."""

import threading
from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from games.clubs import seasons
from games.models import Club, Season
from tests.conftest import require_postgres

from .season_helpers import club_of

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(work: Callable[[], object], times: int = 4) -> list[object]:
    barrier = threading.Barrier(times)
    results: list[object] = []

    def run() -> None:
        try:
            barrier.wait()
            results.append(work())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_requests_at_once_make_one_season():
    require_postgres("row locking needs PostgreSQL")
    club = club_of(get_user_model().objects.create_user("ann"))
    made = at_once(lambda: seasons.season_on(Club.objects.get(pk=club.pk), date(2026, 5, 1)).pk)
    assert len(set(made)) == 1 and len(made) == 4
    assert Season.objects.filter(club=club).count() == 1


def test_closing_runs_at_once_close_a_season_once():
    require_postgres("row locking needs PostgreSQL")
    club = club_of(get_user_model().objects.create_user("ann"))
    season = Season.objects.create(club=club, starts=date(2020, 1, 1), ends=date(2020, 12, 31))
    before = club.version
    closed = at_once(lambda: seasons.close(season.pk))
    assert sorted(closed) == [False, False, False, True]
    club.refresh_from_db()
    assert club.version == before + 1
