"""The live scoreboard at the share link, its poll, and query counts that don't grow."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Player
from games.nights import services as nights
from games.nights.scoreboard import RoundEntry
from tests.nights.helpers import post_round, start_night
from tests.saved_rows import save_personas, save_rows

pytestmark = pytest.mark.django_db

# Scorer's page: session, user, profile (language), the menu's "your turn" badge, game with
# access check, seats, rounds, co-scorers (share panel). The same for 2 rounds or 40.
DETAIL_QUERIES = 8
# Share page for a visitor: game, seats, rounds.
SHARE_QUERIES = 3
# List: session, user, profile, "your turn" badge, games with their count (pager), seats.
LIST_QUERIES = 6
# An unchanged poll: the version, nothing else.
POLL_QUERIES = 1


def night_with_rounds(user, rounds: int) -> Game:
    """A 6-player standard game with `rounds` rounds. The player who goes out (and so
    completes a phase) rotates, so nobody reaches phase 10 within 40 rounds."""
    players = [Player.for_user(user), "Bob", "Carol", "Dan", "Eve", "Fay"]
    game = nights.create_game(user, players=players, first_dealer=0, rules=Rules())
    for number in range(rounds):
        out = number % len(players)
        entry = RoundEntry(
            went_out=out,
            points=tuple(0 if seat == out else 5 * (seat + number % 3 + 1) for seat in range(6)),
            completed={out: None},
        )
        game = nights.add_round(game, entry, version=game.version)
    return game


@pytest.fixture(scope="module")
def _saved(django_db_setup, django_db_blocker):
    """alice's night of 40 rounds, entered once for this module; each test that asks for
    it gets a copy of its own (tests/saved_rows.py)."""
    people = save_personas(django_db_blocker, ("alice",))

    def build():
        return night_with_rounds(User.objects.get(username="alice"), 40).pk

    return people, save_rows(django_db_blocker, build, on=people)


@pytest.fixture
def alice(db, _saved):
    _saved[0].write()
    return User.objects.get(username="alice")


@pytest.fixture
def saved_night(alice, _saved):
    """`night_with_rounds(alice, rounds)`: the saved copy for 40 rounds."""
    return lambda rounds: (
        Game.objects.get(pk=_saved[1].write()) if rounds == 40 else night_with_rounds(alice, rounds)
    )


def live_url(game, version=None):
    url = reverse("games:night_share_live", args=[game.share_token])
    return f"{url}?version={game.version if version is None else version}"


@pytest.mark.parametrize("rounds", [2, 40])
def test_the_scoreboard_takes_the_same_queries_for_a_short_and_a_long_game(
    saved_night, alice_client, rounds, django_assert_max_num_queries
):
    game = saved_night(rounds)
    assert game.rounds_played == rounds and game.status == "active"
    with django_assert_max_num_queries(DETAIL_QUERIES):
        page = alice_client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert len(page.context["board"].rounds) == rounds


@pytest.mark.parametrize("rounds", [2, 40])
def test_the_share_page_takes_the_same_queries_for_a_short_and_a_long_game(
    saved_night, rounds, django_assert_max_num_queries
):
    game = saved_night(rounds)
    with django_assert_max_num_queries(SHARE_QUERIES):
        page = Client().get(reverse("games:night_share", args=[game.share_token]))
    assert page.status_code == 200


@pytest.mark.parametrize("rounds", [2, 40])
def test_a_changed_poll_takes_the_same_queries_for_a_short_and_a_long_game(
    saved_night, rounds, django_assert_max_num_queries
):
    game = saved_night(rounds)
    with django_assert_max_num_queries(SHARE_QUERIES + 1):
        response = Client().get(live_url(game, version=0), headers={"HX-Request": "true"})
    assert response.status_code == 200


@pytest.mark.parametrize("games", [1, 12])
def test_the_list_of_game_nights_takes_the_same_queries_for_few_and_many(
    alice, alice_client, games, django_assert_max_num_queries
):
    for _game in range(games):
        night_with_rounds(alice, 1)
    with django_assert_max_num_queries(LIST_QUERIES):
        page = alice_client.get(reverse("games:night_list"))
    assert len(page.context["page"].object_list) == games


def test_an_unchanged_poll_answers_204_with_one_query_and_no_template(
    alice, django_assert_max_num_queries
):
    game = night_with_rounds(alice, 3)
    with django_assert_max_num_queries(POLL_QUERIES):
        response = Client().get(live_url(game), headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response.content == b""
    assert response.templates == []


def test_a_poll_after_a_new_round_gets_the_new_board_with_the_new_version(alice, alice_client):
    game = start_night(alice_client)
    old = Game.objects.get(pk=game.pk).version
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    game.refresh_from_db()
    response = Client().get(live_url(game, version=old), headers={"HX-Request": "true"})
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="live"')
    assert f"?version={game.version}" in page
    assert 'hx-trigger="every 3s"' in page
    assert "<html" not in page


def test_polling_stops_once_the_game_is_over(alice_client):
    game = start_night(alice_client, phases="custom", custom="1")
    old = Game.objects.get(pk=game.pk).version
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    response = Client().get(live_url(game, version=old), headers={"HX-Request": "true"})
    page = response.content.decode()
    assert "<bdi>alice</bdi> wins" in page
    assert "hx-trigger" not in page and "hx-get" not in page
    share = Client().get(reverse("games:night_share", args=[game.share_token])).content.decode()
    assert "hx-trigger" not in share


def test_the_share_page_polls_with_its_version(alice_client):
    game = start_night(alice_client)
    game.refresh_from_db()
    page = Client().get(reverse("games:night_share", args=[game.share_token])).content.decode()
    assert f'hx-get="{live_url(game)}"' in page
    assert 'hx-trigger="every 3s"' in page


def test_the_scorer_sees_the_share_link_and_its_qr_code(alice_client):
    game = start_night(alice_client)
    page = alice_client.get(game.get_absolute_url()).content.decode()
    share_url = "http://testserver" + reverse("games:night_share", args=[game.share_token])
    assert f'value="{share_url}"' in page
    assert '<svg viewBox="' in page and "QR code of the live scoreboard link" in page


def live(page: str) -> str:
    """The live scoreboard of a share page, without the footer (its form has a CSRF token)."""
    return page.split('<div id="live"')[1].split("<footer")[0]


@pytest.mark.parametrize("rounds", [2, 40])
def test_later_visitors_of_the_same_version_get_the_board_without_reading_it(
    saved_night, rounds, django_assert_max_num_queries
):
    game = saved_night(rounds)
    url = reverse("games:night_share", args=[game.share_token])
    first = Client().get(url).content.decode()
    with django_assert_max_num_queries(1):  # the game by its token; the board is cached
        again = Client().get(url).content.decode()
    assert live(again) == live(first)
    assert live(first).count('<th scope="row">') == rounds  # every round, from the cache too


def test_the_share_page_and_its_poll_show_a_new_round_at_once(alice, alice_client):
    game = start_night(alice_client)
    url = reverse("games:night_share", args=[game.share_token])
    assert "No rounds yet." in Client().get(url).content.decode()
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    game.refresh_from_db()
    page = Client().get(url).content.decode()
    assert "No rounds yet." not in page and f'data-version="{game.version}"' in page
    poll = Client().get(live_url(game, version=0), headers={"HX-Request": "true"})
    assert poll.content.decode() in page  # the same drawing of the new version
