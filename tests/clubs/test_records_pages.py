"""The club's stats page (games/clubs/stats_views.py) and the club page's records summary
(clubs/_records.html): what they show, that they are kept, and their query counts."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.clubs import records
from games.models import Player
from tests.clubs.records_helpers import bulk_club_games, make_club, seed

pytestmark = pytest.mark.django_db


def stats_url(club) -> str:  # type: ignore[no-untyped-def]
    return reverse("games:club_stats", args=[club.public_id])


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_stats_page_shows_the_records_with_their_games(client, alice, bob, carol):
    history = seed(alice, bob, carol)
    client.force_login(bob)
    html = client.get(stats_url(history.club)).content.decode()
    records_part = html[html.index('id="records-heading"') : html.index('id="grid-heading"')]
    assert 'data-record="lowest_total"' in records_part
    assert 'data-value="0"' in records_part
    assert history.games["G4"].get_absolute_url() in records_part
    assert history.games["G3"].get_absolute_url() in records_part  # streak, comeback
    assert "Biggest comeback: the most phases a person who went on to win" in html
    assert "Phase 1 stops you most" in html
    assert "1.5 rounds on average" in text(html)
    assert 'data-month="2024-12"' in html  # a month without games has its line


def test_a_club_without_finished_games_says_so(client, alice):
    club = make_club("Empty club", alice)
    client.force_login(alice)
    html = client.get(stats_url(club)).content.decode()
    assert "No finished club games yet" in html


def test_the_club_page_summary_reads_the_kept_figures(alice, bob, carol, rf):
    history = seed(alice, bob, carol)
    request = rf.get("/")
    request.user = bob
    context = records.summary_context(history.club, timezone.localdate().replace(month=12))
    html = render_to_string("clubs/_records.html", context, request=request)
    assert "Phase 1 stops you most: 1.5 rounds on average." in text(html)
    kinds = re.findall(r'data-record="(\w+)"', html)
    assert kinds == ["lowest_total", "streak", "comeback"]
    assert reverse("games:club_stats", args=[history.club.public_id]) in html
    year = timezone.localdate().year
    assert reverse("games:club_year", args=[history.club.public_id, year]) in html


def test_the_summary_points_to_no_year_in_the_middle_of_one(alice, bob, carol, rf):
    history = seed(alice, bob, carol)
    context = records.summary_context(history.club, timezone.localdate().replace(month=6))
    html = render_to_string("clubs/_records.html", context)
    assert "in review" not in html


@pytest.mark.parametrize("games", [8, 40])
def test_the_stats_page_costs_the_same_whatever_the_games(
    client, alice, bob, carol, games, django_assert_max_num_queries
):
    club = make_club("Big club", alice, bob, carol)
    players = [Player.for_user(user) for user in (alice, bob, carol)]
    players.append(Player.objects.create(name="Dora Quinn", created_by=alice))
    bulk_club_games(club, players, games)
    client.force_login(alice)
    # Counted: session, user, club, extent, the figures' four queries and the header's
    # count of games waiting (kept for a while after).
    with django_assert_max_num_queries(9):
        assert client.get(stats_url(club)).status_code == 200
    # Kept: session, user, club, extent.
    with django_assert_max_num_queries(4):
        assert client.get(stats_url(club)).status_code == 200
