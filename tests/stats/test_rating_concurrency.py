"""Rating tasks that run at the same moment (several workers): the ratings are claimed
by one run at a time, every game is taken in once, and the numbers are those of a
recompute from scratch.

Needs PostgreSQL (row locks); run with DATABASE_URL pointing at one."""

import threading

import pytest
from django.db import connections

from games.models import RatedGame, RatingChange
from games.stats import rating_ledger
from tests.conftest import require_postgres

from .test_rating_ledger import game_of, people, recomputed, snapshot  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_tasks_running_at_once_rate_each_game_once(people):  # noqa: F811
    require_postgres("row locking needs PostgreSQL")
    games = [game_of(people[n % 3 : n % 3 + 3], [0, 1, 2], days_ago=10 - n) for n in range(6)]
    barrier = threading.Barrier(4)
    rated: list[int] = []

    def work(game_id: int) -> None:
        try:
            barrier.wait()
            rated.append(rating_ledger.run(game_id))
        finally:
            connections.close_all()

    # Two tasks for the last game (a duplicate delivery), two for earlier ones.
    ids = [games[-1].pk, games[-1].pk, games[0].pk, games[2].pk]
    threads = [threading.Thread(target=work, args=(pk,)) for pk in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sum(rated) == len(games)
    assert RatedGame.objects.count() == len(games)
    assert RatingChange.objects.count() == 3 * len(games)
    assert snapshot() == recomputed()
