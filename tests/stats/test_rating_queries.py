"""The rating parts of the stats pages cost the same number of queries for 10 rated
games as for 500: the leaderboard sorted by rating, and a player's page (its rating,
chart and opponents)."""

import pytest
from django.urls import reverse

from games.models import Rating
from games.stats import rating_ledger

from .factories import bulk_history, player
from .test_stats_queries import LEADERBOARD_QUERIES, STATS_PAGE_QUERIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def site_queries(alice_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        alice_client.get(reverse("home"))
    return len(queries)


@pytest.fixture(params=[10, 500], ids=["10-games", "500-games"])
def rated_games(request, alice, bob, carol):
    people = [player(alice), player(bob)]
    bulk_history(people, request.param)
    bulk_history([player(bob), player(carol)], request.param // 2)
    rating_ledger.run()
    assert Rating.objects.get(player=people[0]).games == request.param
    return request.param


def test_the_leaderboard_by_rating_takes_a_fixed_number_of_queries(
    alice_client, rated_games, site_queries, django_assert_max_num_queries
):
    with django_assert_max_num_queries(site_queries + LEADERBOARD_QUERIES):
        response = alice_client.get(reverse("games:leaderboard"), {"sort": "rating"})
    assert response.content.decode().count('data-stat="rating"') == 2


def test_a_players_page_with_ratings_takes_a_fixed_number_of_queries(
    alice_client, bob, rated_games, site_queries, django_assert_max_num_queries
):
    url = reverse("games:player_stats", args=[player(bob).pk])
    with django_assert_max_num_queries(site_queries + STATS_PAGE_QUERIES + 1):
        response = alice_client.get(url)
    page = response.content.decode()
    assert 'data-stat="rating"' in page
    assert "Rating over time" in page
    assert "Gained most against" in page or "Lost most against" in page


def test_your_page_with_ratings_takes_a_fixed_number_of_queries(
    alice_client, rated_games, site_queries, django_assert_max_num_queries
):
    with django_assert_max_num_queries(site_queries + STATS_PAGE_QUERIES):
        response = alice_client.get(reverse("games:stats"))
    assert 'data-stat="rating"' in response.content.decode()
