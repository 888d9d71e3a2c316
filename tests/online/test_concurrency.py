"""Two submissions of the same turn at the same moment: exactly one is applied.

Needs PostgreSQL (row locks); run with DATABASE_URL pointing at one."""

import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from games.errors import Stale
from games.models import Game, Move
from games.online import services
from tests.conftest import require_postgres
from tests.online.helpers import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_concurrent_submissions_of_the_same_turn_apply_exactly_once(alice, bob):
    require_postgres("row locking needs PostgreSQL")
    game = started_game(alice, bob, seed=9)
    seat = services.load_state(game).current_seat
    user = game.seats.get(position=seat).player.user
    clients = []
    for _n in range(2):
        client = Client()
        client.force_login(user)  # two tabs, or a double click
        clients.append(client)
    url = reverse("games:online_act", args=[game.public_id])
    barrier = threading.Barrier(2)
    pages: list[str] = []

    def submit(client: Client) -> None:
        try:
            barrier.wait()
            response = client.post(url, {"move": 0, "do": "draw"}, HTTP_HX_REQUEST="true")
            pages.append(response.content.decode())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(pages) == 2
    assert Move.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).move_number == 1
    assert sum("The game moved on" in page for page in pages) == 1


def test_two_concurrent_services_calls_apply_exactly_once(alice, bob):
    require_postgres("row locking needs PostgreSQL")
    from games.engine import Draw

    game = started_game(alice, bob, seed=9)
    seat = services.load_state(game).current_seat
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def submit() -> None:
        try:
            barrier.wait()
            services.perform(game.pk, seat, Draw(), expected_move=0)
            outcomes.append("applied")
        except Stale:
            outcomes.append("stale")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit) for _n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["applied", "stale"]
    assert Move.objects.filter(game=game).count() == 1


def test_a_move_and_another_players_chat_line_at_the_same_moment_are_both_kept(alice, bob):
    require_postgres("concurrent writers need PostgreSQL")
    game = started_game(alice, bob, seed=9)
    seat = services.load_state(game).current_seat
    mover = game.seats.get(position=seat).player.user
    talker = bob if mover == alice else alice
    posts = [
        (mover, reverse("games:online_act", args=[game.public_id]), {"move": 0, "do": "draw"}),
        (talker, reverse("games:online_chat", args=[game.public_id]), {"text": "good luck"}),
    ]
    barrier = threading.Barrier(len(posts))
    statuses: list[int] = []

    def submit(user, url, data) -> None:
        client = Client()
        client.force_login(user)
        try:
            barrier.wait()
            statuses.append(client.post(url, data, HTTP_HX_REQUEST="true").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=post) for post in posts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert statuses == [200, 200]
    saved = Game.objects.get(pk=game.pk)
    assert saved.move_number == 1 and Move.objects.filter(game=game).count() == 1
    assert [line[3] for line in saved.recent_chat] == ["good luck"]
    assert saved.version == game.version + 2
