"""The stats pages cost the same number of queries for 10 games as for 500."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from .factories import bulk_history, player

pytestmark = pytest.mark.django_db

# On top of what every page costs a logged-in user (session, user, the header's
# counts: `site_queries`): the viewer's profile and Player, the extent of the games in
# scope (games/stats/page.py), then summary, streak, phases, head-to-head, recent games
# and their seats, the last game's score chart, win rate over time and phase per round,
# and the rating section (the rating, its history and the opponents by rating change:
# tests/stats/test_rating_queries.py). Someone else's page adds one: the Player being
# looked at.
STATS_PAGE_QUERIES = 15
# The next views of the same figures read them from the cache (test_stats_kept.py): the
# profile, the Player, the extent and the rating section.
STATS_PAGE_KEPT_QUERIES = 6
# The viewer's Player, the leaderboard and its players' ratings.
LEADERBOARD_QUERIES = 3


@pytest.fixture
def site_queries(alice_client):
    """What any page costs a logged-in user before its own queries (the home page)."""
    with CaptureQueriesContext(connection) as queries:
        alice_client.get(reverse("home"))
    return len(queries)


@pytest.fixture(params=[10, 500], ids=["10-games", "500-games"])
def games(request, alice, bob):
    bulk_history([player(alice), player(bob)], request.param)
    return request.param


def test_your_stats_page_takes_a_fixed_number_of_queries(
    alice_client, games, site_queries, django_assert_max_num_queries
):
    with django_assert_max_num_queries(site_queries + STATS_PAGE_QUERIES):
        response = alice_client.get(reverse("games:stats"))
    assert f'data-stat="played">{games}<' in response.content.decode()


def test_a_second_view_of_your_stats_takes_a_fixed_number_of_queries(
    alice_client, games, site_queries, django_assert_max_num_queries
):
    alice_client.get(reverse("games:stats"))
    with django_assert_max_num_queries(site_queries + STATS_PAGE_KEPT_QUERIES):
        response = alice_client.get(reverse("games:stats"))
    assert f'data-stat="played">{games}<' in response.content.decode()


def test_someone_elses_stats_page_takes_a_fixed_number_of_queries(
    alice_client, bob, games, site_queries, django_assert_max_num_queries
):
    url = reverse("games:player_stats", args=[player(bob).pk])
    with django_assert_max_num_queries(site_queries + STATS_PAGE_QUERIES + 1):
        response = alice_client.get(url, {"mode": "night", "period": "year"})
    assert response.status_code == 200


def test_the_leaderboard_takes_a_fixed_number_of_queries(
    alice_client, games, site_queries, django_assert_max_num_queries
):
    with django_assert_max_num_queries(site_queries + LEADERBOARD_QUERIES):
        response = alice_client.get(reverse("games:leaderboard"))
    assert response.status_code == 200
