"""Two phones saving the same round at the same moment: it is saved once.

Needs PostgreSQL (row locks); run with DATABASE_URL pointing at one."""

import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from games.models import Game, RoundScore
from tests.conftest import require_postgres
from tests.nights.helpers import round_data, start_night

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_scorers_saving_a_round_at_once_save_it_once(alice, alice_client, bob):
    require_postgres("row locking needs PostgreSQL")
    game = start_night(alice_client)
    game.co_scorers.add(bob)
    data = round_data(game, went_out=0, points=[0, 35, 20], completed=[0])
    url = reverse("games:night_add_round", args=[game.public_id])
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def submit(user) -> None:  # type: ignore[no-untyped-def]
        client = Client()
        client.force_login(user)
        try:
            barrier.wait()
            statuses.append(client.post(url, data).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(user,)) for user in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [200, 302]  # one saved (redirect), one told it was stale
    assert Game.objects.get(pk=game.pk).rounds_played == 1
    assert RoundScore.objects.filter(game=game).count() == 3
