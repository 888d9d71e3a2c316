"""Query counts: the poll is nearly free, and the table page and an action cost the same
for a new two-player game and a six-player game hundreds of moves in."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from games.engine import Draw
from games.models import Game, Notification, Seat
from games.online import services
from games.online.views import online_poll
from tests.online.helpers import play_until_turn_of, started_game
from tests.saved_rows import PERSONAS, save_personas, save_rows

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Measured on SQLite: 5 (the session, the user, the game, its seats, the header's count),
# 7 (a draw: the session, the user, the seats with their game in one query, and in a
# savepoint the game's UPDATE and the move's INSERT) and 8 (a discard: its turn email's
# INSERT too, in the same savepoint). The point is that they don't grow with the number
# of seats or moves.
TABLE_QUERIES = 5
ACTION_QUERIES = 7
DISCARD_QUERIES = 8


@pytest.fixture
def small_game(alice, bob):
    game = started_game(alice, bob, seed=1)
    return play_until_turn_of(game, 0)


@pytest.fixture(scope="module")
def _saved(django_db_setup, django_db_blocker):
    """300 moves take a while to play: they are played once for this module, and each
    test gets the rows they wrote, its own copy (tests/saved_rows.py). The personas are
    saved too, so alice is the same user in the small game and the big one."""
    people = save_personas(django_db_blocker)

    def build():
        users = [User.objects.get(username=name) for name in PERSONAS]
        game = started_game(*users, bots=2, seed=2)
        return play_until_turn_of(game, 0, min_moves=300).pk

    return people, save_rows(django_db_blocker, build, on=people)


@pytest.fixture
def _big_game_pk(db, _saved):
    people, game = _saved
    people.write()
    return game.write()


@pytest.fixture
def alice(_big_game_pk):
    return User.objects.get(username="alice")


@pytest.fixture
def bob(_big_game_pk):
    return User.objects.get(username="bob")


@pytest.fixture
def carol(_big_game_pk):
    return User.objects.get(username="carol")


@pytest.fixture
def stranger(_big_game_pk):
    return User.objects.get(username="stranger")


@pytest.fixture
def big_game(_big_game_pk):
    game = Game.objects.get(pk=_big_game_pk)
    assert game.move_number >= 300 and len(services.load_state(game).players) == 6
    return game


def poll(client, game, version):
    url = reverse("games:online_poll", args=[game.public_id])
    return client.get(f"{url}?v={version}", **HTMX)


def test_an_unchanged_poll_is_204_in_at_most_two_queries(
    small_game, alice_client, django_assert_max_num_queries
):
    """The poll view reads the user id from the session and the game's version in one
    query; it never loads the user or renders a template."""
    session = SessionStore(alice_client.session.session_key)  # not loaded yet
    url = reverse("games:online_poll", args=[small_game.public_id])
    request = RequestFactory().get(f"{url}?v={small_game.version}", **HTMX)
    request.session = session
    request.user = SimpleLazyObject(_must_not_load_the_user)
    with django_assert_max_num_queries(2):
        response = online_poll(request, small_game.public_id)
    assert response.status_code == 204
    assert response.content == b""


def _must_not_load_the_user():
    raise AssertionError("an unchanged poll must not load the user")


def test_an_unchanged_poll_through_the_whole_stack(
    small_game, alice_client, django_assert_max_num_queries
):
    alice_client.get(reverse("home"))  # the first request keeps the language in the session
    with django_assert_max_num_queries(2):
        response = poll(alice_client, small_game, small_game.version)
    assert response.status_code == 204
    assert not getattr(response, "templates", None)


def test_a_changed_poll_returns_the_fresh_board(small_game, alice_client):
    response = poll(alice_client, small_game, small_game.version - 1)
    assert response.status_code == 200
    assert f"?v={small_game.version}" in response.content.decode()
    assert "<html" not in response.content.decode()


def count_queries(call):
    with CaptureQueriesContext(connection) as queries:
        response = call()
    return len(queries), response


def test_the_table_page_costs_the_same_at_any_size(
    small_game, big_game, alice_client, django_assert_max_num_queries
):
    alice_client.get(reverse("home"))  # the language is in the session from now on
    counts = []
    for game in (small_game, big_game):
        url = reverse("games:online_detail", args=[game.public_id])
        with django_assert_max_num_queries(TABLE_QUERIES):
            count, response = count_queries(lambda url=url: alice_client.get(url))
        assert "Your turn: draw a card." in response.content.decode()
        counts.append(count)
    assert counts[0] == counts[1]


def test_the_table_page_at_a_version_already_shown_reads_the_game_only(small_game, alice_client):
    """The seats, with their players, users and profiles, are kept under the game's
    version (games/online/access.py `seating_to_show`), the board too: the page again
    at the same version is the session, the user and the game. A move reads them anew."""
    alice_client.get(reverse("home"))
    url = reverse("games:online_detail", args=[small_game.public_id])
    alice_client.get(url)
    count, response = count_queries(lambda: alice_client.get(url))
    assert count == 3 and "Your turn: draw a card." in response.content.decode()
    services.perform(small_game, 0, Draw(), expected_move=small_game.move_number)
    with CaptureQueriesContext(connection) as queries:
        page = alice_client.get(url).content.decode()
    assert sum(Seat._meta.db_table in query["sql"] for query in queries.captured_queries) == 1
    assert "Your turn: lay down" in page


def test_an_action_costs_the_same_at_any_size(
    small_game, big_game, alice_client, django_assert_max_num_queries
):
    alice_client.get(reverse("home"))
    counts = []
    for game in (small_game, big_game):
        url = reverse("games:online_act", args=[game.public_id])
        data = {"move": game.move_number, "do": "draw"}
        with django_assert_max_num_queries(ACTION_QUERIES):
            count, response = count_queries(
                lambda url=url, data=data: alice_client.post(url, data, **HTMX)
            )
        assert response.status_code == 200
        assert Game.objects.get(pk=game.pk).move_number == game.move_number + 1
        counts.append(count)
    assert counts[0] == counts[1]


def test_the_same_action_through_the_services_is_a_handful_of_queries(
    big_game, django_assert_max_num_queries
):
    with django_assert_max_num_queries(6):
        services.perform(big_game, 0, Draw(), expected_move=big_game.move_number)


def test_a_draw_writes_only_the_game_fields_it_changed(big_game):
    with CaptureQueriesContext(connection) as queries:
        services.perform(big_game, 0, Draw(), expected_move=big_game.move_number)
    [update] = [query["sql"] for query in queries if query["sql"].startswith("UPDATE")]
    written = update.split(" WHERE ")[0]
    for field in ("version", "updated_at", "state", "recent_moves", "move_number"):
        assert f'"{field}" =' in written
    for field in ("seed", "status", "rounds_played", "turn_started_at", "round_reveal"):
        assert f'"{field}" =' not in written
    saved = Game.objects.get(pk=big_game.pk)
    assert saved.move_number == big_game.move_number + 1 and saved.status == big_game.status


def test_a_discard_that_starts_a_persons_turn_writes_its_email_in_one_insert_at_any_size(
    small_game, big_game, alice_client
):
    alice_client.get(reverse("home"))
    counts = []
    for game in (small_game, big_game):
        url = reverse("games:online_act", args=[game.public_id])
        alice_client.post(url, {"move": game.move_number, "do": "draw"}, **HTMX)
        game.refresh_from_db()
        card = next(str(card) for card in services.load_state(game).hands[0] if str(card) != "S")
        data = {"move": game.move_number, "do": "discard", "cards": card}
        count, response = count_queries(
            lambda url=url, data=data: alice_client.post(url, data, **HTMX)
        )
        assert (
            response.status_code == 200
            and "Waiting for <bdi>bob</bdi>." in response.content.decode()
        )
        assert count <= DISCARD_QUERIES
        counts.append(count)
    assert counts[0] == counts[1]


def test_the_turn_email_of_a_discard_is_one_insert_and_no_second_read_of_the_seats(
    small_game, alice_client, django_capture_on_commit_callbacks, time_machine
):
    # An afternoon: outside the default quiet hours, the email goes at once.
    afternoon = timezone.now().replace(hour=14, minute=0) + timedelta(days=1)
    time_machine.move_to(afternoon, tick=False)
    url = reverse("games:online_act", args=[small_game.public_id])
    alice_client.post(url, {"move": small_game.move_number, "do": "draw"}, **HTMX)
    small_game.refresh_from_db()
    hand = services.load_state(small_game).hands[0]
    card = next(str(card) for card in hand if str(card) != "S")
    data = {"move": small_game.move_number, "do": "discard", "cards": card}
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks() as callbacks,
    ):
        alice_client.post(url, data, **HTMX)
    sqls = [query["sql"] for query in queries.captured_queries]
    assert sum(sql.startswith("INSERT") and '"games_notification"' in sql for sql in sqls) == 1
    assert not any(sql.startswith("SELECT") and 'FROM "games_notification"' in sql for sql in sqls)
    # Written queued, it is published after the commit as it is: no UPDATE queues it
    # (notify/outbox.py); the sending (tasks run inline) has its own statements.
    [publish] = callbacks
    with CaptureQueriesContext(connection) as after:
        publish()
    queueing = [
        query["sql"]
        for query in after.captured_queries
        if query["sql"].startswith("UPDATE")
        and "games_notification" in query["sql"]
        and '"queued_at"' in query["sql"].split("WHERE")[0]
    ]
    assert queueing == []
    assert Notification.objects.latest("pk").status == Notification.Status.SENT
    # The seats are read once, with their game (games/online/access.py), never again,
    # and the game not apart from them; put in order in Python, not by an ORDER BY.
    [seats] = [sql for sql in sqls if sql.startswith("SELECT") and Seat._meta.db_table in sql]
    assert "ORDER BY" not in seats
    game_table = f'FROM "{Game._meta.db_table}"'
    assert not any(sql.startswith("SELECT") and game_table in sql for sql in sqls)
    assert sum('FROM "accounts_profile"' in sql for sql in sqls) == 0  # away: read with the seats


def test_the_headers_your_turn_count_is_one_query_of_its_own_then_kept_a_few_seconds(
    small_game, big_game, alice_client
):
    """Both games wait for alice: the header says 2, counted by one query, and the next
    page within `YOUR_TURNS_SECONDS` shows it without counting again."""
    url = reverse("games:online_detail", args=[small_game.public_id])
    with CaptureQueriesContext(connection) as queries:
        page = alice_client.get(url).content.decode()
        again = alice_client.get(url).content.decode()
    assert '<span class="badge">2</span>' in page and '<span class="badge">2</span>' in again
    assert sum(sql["sql"].startswith("SELECT COUNT(*)") for sql in queries.captured_queries) == 1
