"""Pausing an online game: who is asked, what a pause stops, resuming with the time the
turn had left (games/online/pause.py, pause_views.py)."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.urls import reverse

from games.engine import Draw
from games.errors import Refused
from games.models import Game, Move
from games.online import pause, services
from tests.conftest import require_postgres
from tests.online.helpers import seat_of, started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def timed(alice, bob, time_machine):
    """alice and bob, bob to play first, 12 hours a turn, dealt at T0."""
    time_machine.move_to(T0, tick=False)
    game = started_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(time_limit=timedelta(hours=12))
    game.refresh_from_db()
    return game


def url(game, name):
    return reverse(f"games:online_{name}", args=[game.public_id])


def board(client, game):
    return client.get(reverse("games:online_detail", args=[game.public_id])).content.decode()


def test_a_pause_starts_once_every_person_seated_agrees(timed, alice, bob):
    assert pause.agree(timed, alice) is False
    timed.refresh_from_db()
    assert timed.paused_at is None and timed.pause_votes == [0]
    assert pause.agree(timed, bob) is True
    timed.refresh_from_db()
    assert timed.paused_at == T0 and timed.pause_votes == []


def test_agreeing_twice_changes_nothing(timed, alice):
    pause.agree(timed, alice)
    version = Game.objects.get(pk=timed.pk).version
    assert pause.agree(timed, alice) is False
    assert Game.objects.get(pk=timed.pk).version == version


def test_a_bots_seat_is_not_asked(alice, bob):
    game = started_game(alice, bob, bots=1)
    pause.agree(game, alice)
    assert Game.objects.get(pk=game.pk).paused_at is None  # bob still to agree
    assert pause.agree(game, bob) is True  # the bot was never asked


def test_a_resigned_player_is_not_asked_and_cannot_vote(alice, bob, carol):
    game = started_game(alice, bob, carol)
    services.resign(game, carol)
    with pytest.raises(Refused):
        pause.agree(game, carol)
    pause.agree(game, alice)
    assert pause.agree(game, bob) is True


def test_a_stranger_cannot_vote_or_resume_a_game_they_have_no_seat_in(
    timed, client, stranger, alice, bob
):
    client.force_login(stranger)
    for name in ("pause", "pause_decline", "resume"):
        assert client.post(url(timed, name)).status_code == 404
    assert Game.objects.get(pk=timed.pk).pause_votes == []


def test_the_request_shows_on_the_board_with_who_agreed(timed, client, alice, bob):
    client.force_login(alice)
    response = client.post(url(timed, "pause"), **HTMX)
    assert "You agreed to a pause" in response.content.decode()
    client.force_login(bob)
    page = board(client, timed)
    assert "A pause is asked for. Agreed: <bdi>alice</bdi>." in page
    assert "Agree to pause" in page and "No, play on" in page


def test_saying_no_ends_the_request(timed, client, alice, bob):
    pause.agree(timed, alice)
    client.force_login(bob)
    response = client.post(url(timed, "pause_decline"))
    assert response.status_code == 302
    timed.refresh_from_db()
    assert timed.pause_votes == [] and timed.paused_at is None


def test_a_paused_game_refuses_moves_with_a_clear_message(timed, client, alice, bob):
    pause.agree(timed, alice)
    pause.agree(timed, bob)
    timed.refresh_from_db()
    bob_seat = seat_of(timed, bob)
    with pytest.raises(Refused, match="The game is paused"):
        services.perform(timed, bob_seat, Draw(), expected_move=timed.move_number)
    client.force_login(bob)
    response = client.post(url(timed, "act"), {"move": timed.move_number, "do": "draw"}, **HTMX)
    page = response.content.decode()
    assert "The game is paused" in page
    assert 'id="board-draw"' not in page  # no move offered while paused
    assert Move.objects.filter(game=timed).count() == 0


def test_resuming_gives_the_turn_the_time_it_had_left(timed, alice, bob, time_machine):
    time_machine.move_to(T0 + timedelta(hours=2), tick=False)
    pause.agree(timed, alice)
    pause.agree(timed, bob)
    time_machine.move_to(T0 + timedelta(days=3), tick=False)
    timed.refresh_from_db()
    assert pause.time_left(timed) == timedelta(hours=10)  # frozen while paused
    pause.resume(timed, alice)
    timed.refresh_from_db()
    assert timed.paused_at is None and timed.clock_stopped_at is None
    assert timed.turn_started_at == T0 + timedelta(days=3) - timedelta(hours=2)
    assert pause.time_left(timed) == timedelta(hours=10)


def test_resuming_a_game_that_isnt_paused_is_refused(timed, alice):
    with pytest.raises(Refused, match="isn't paused"):
        pause.resume(timed, alice)


def test_a_bot_waits_while_the_game_is_paused_and_plays_once_resumed(
    alice, time_machine, django_capture_on_commit_callbacks
):
    time_machine.move_to(T0, tick=False)
    game = started_game(alice, bots=1)  # the bot's turn first; its task not run yet
    game.refresh_from_db()
    assert services.load_state(game).current_seat == 1
    assert pause.agree(game, alice) is True  # the only person seated: paused at once
    game.refresh_from_db()
    assert services.play_turn(game, expected_move=game.move_number) is False
    time_machine.move_to(T0 + timedelta(hours=1), tick=False)
    assert services.queue_stalled_bot(game, list(game.seats.all())) is False
    with django_capture_on_commit_callbacks(execute=True):
        pause.resume(game, alice)
    game.refresh_from_db()
    assert services.load_state(game).current_seat == 0  # the bot played on resume


def test_the_paused_board_says_so_and_offers_resume(timed, client, alice, bob):
    pause.agree(timed, alice)
    pause.agree(timed, bob)
    client.force_login(alice)
    page = board(client, timed)
    assert "The game is paused" in page
    assert "Resume the game" in page
    assert "data-deadline" not in page  # static/js/clock.js has nothing to count down
    assert "(paused)" in page
    response = client.post(url(timed, "resume"))
    assert response.status_code == 302
    assert "data-deadline" in board(client, timed)


def test_an_unchanged_poll_of_a_paused_game_is_two_queries_and_no_render(
    timed, client, alice, bob, django_assert_max_num_queries
):
    pause.agree(timed, alice)
    pause.agree(timed, bob)
    timed.refresh_from_db()
    client.force_login(alice)
    client.get(reverse("home"))
    with django_assert_max_num_queries(2):
        response = client.get(f"{url(timed, 'poll')}?v={timed.version}", **HTMX)
    assert response.status_code == 204
    assert not getattr(response, "templates", None)


@pytest.mark.django_db(transaction=True)
def test_the_last_two_agreeing_at_once_pause_the_game_once(alice, bob):
    require_postgres("row locking needs PostgreSQL")
    game = started_game(alice, bob)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def agree(user):
        try:
            barrier.wait()
            results.append(pause.agree(Game.objects.get(pk=game.pk), user))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=agree, args=(user,)) for user in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(results) == [False, True]  # the second under the lock completes it
    game.refresh_from_db()
    assert game.paused_at is not None and game.pause_votes == []
