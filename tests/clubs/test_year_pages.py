"""The year in review's pages (games/clubs/year_views.py): a member's own with its share
link, the shared page for anyone with the link, a club's; and their query counts."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Player, YearShare
from tests.clubs.records_helpers import bulk_club_games, make_club, seed

pytestmark = pytest.mark.django_db


def own_url(number: int) -> str:
    return reverse("games:year_review", args=[number])


def shared_url(share: YearShare) -> str:
    return reverse("games:year_shared", args=[share.token])


def stat(html: str, name: str) -> str:
    match = re.search(rf'data-stat="{name}"[^>]*>(.*?)</(dd|p|ol)>', html, re.S)
    assert match, name
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


def test_your_year_shows_its_figures_and_the_years_around_it(client, alice, bob, carol):
    history = seed(alice, bob, carol)
    client.force_login(alice)
    html = client.get(own_url(2025)).content.decode()
    assert stat(html, "games") == "7"
    assert stat(html, "wins") == "3"
    assert stat(html, "climb") == "+30 1000 → 1030"
    assert stat(html, "nemesis").startswith("Phase 3")
    assert stat(html, "partners") == "bob 7 games carol 4 games Dora Quinn 2 games"
    assert history.games["G4"].get_absolute_url() in html  # the best game, its records
    assert own_url(2024) in html and own_url(2026) in html
    assert "Share my year" in html


def test_an_empty_year_says_so_kindly(client, alice):
    client.force_login(alice)
    html = client.get(own_url(2023)).content.decode()
    assert "No finished games in 2023. Score a game night or play online" in html


def test_a_year_to_come_is_not_there(client, alice):
    client.force_login(alice)
    assert client.get(own_url(timezone.localdate().year + 1)).status_code == 404
    assert client.get(own_url(1999)).status_code == 404


def test_sharing_makes_a_link_anyone_can_open_until_it_stops(client, alice, bob, carol):
    seed(alice, bob, carol)
    client.force_login(alice)
    response = client.post(reverse("games:year_share", args=[2025]), follow=True)
    assert "Your year is shared" in response.content.decode()
    share = YearShare.objects.get(user=alice, year=2025)
    assert shared_url(share) in response.content.decode()
    assert 'data-copy="year-share-link"' in response.content.decode()

    html = Client().get(shared_url(share)).content.decode()  # nobody logged in
    assert "alice" in html and stat(html, "games") == "7"
    # Guests by first name only; no club, no game's name or page, nobody else's rating.
    assert stat(html, "partners") == "bob 7 games carol 4 games Dora 2 games"
    assert "Quinn" not in html
    assert "Thursday club" not in html
    main = html[html.index("<main") : html.index("</main>")]
    assert "/nights/" not in main and "/play/" not in main and ">G4<" not in main
    assert "990" not in html  # bob's rating after G1
    assert "Share my year" not in html and "Stop sharing" not in html

    response = client.post(reverse("games:year_stop_sharing", args=[2025]), follow=True)
    assert "You stopped sharing" in response.content.decode()
    assert not YearShare.objects.filter(user=alice).exists()
    assert Client().get(shared_url(share)).status_code == 404

    client.post(reverse("games:year_share", args=[2025]))
    again = YearShare.objects.get(user=alice, year=2025)
    assert again.token != share.token


def test_a_double_click_on_share_keeps_one_link(client, alice, bob, carol):
    seed(alice, bob, carol)
    client.force_login(alice)
    client.post(reverse("games:year_share", args=[2025]))
    first = YearShare.objects.get(user=alice)
    client.post(reverse("games:year_share", args=[2025]))
    assert list(YearShare.objects.filter(user=alice)) == [first]


def test_stopping_a_share_that_isnt_there_says_so(client, alice, bob, carol):
    seed(alice, bob, carol)
    YearShare.objects.create(user=bob, year=2025)
    client.force_login(alice)
    response = client.post(reverse("games:year_stop_sharing", args=[2025]), follow=True)
    assert "Your 2025 isn't shared." in html.unescape(response.content.decode())
    assert YearShare.objects.filter(user=bob).count() == 1  # nobody else's is touched


def test_a_year_without_games_cant_be_shared(client, alice):
    client.force_login(alice)
    response = client.post(reverse("games:year_share", args=[2023]), follow=True)
    assert "You have no finished games in 2023 to share." in response.content.decode()
    assert not YearShare.objects.exists()


def test_the_clubs_year_shows_its_figures(client, alice, bob, carol):
    history = seed(alice, bob, carol)
    client.force_login(carol)
    url = reverse("games:club_year", args=[history.club.public_id, 2025])
    html = client.get(url).content.decode()
    assert stat(html, "games") == "6"
    assert stat(html, "busiest").endswith("2 games · 4 people")
    # Each count takes its own plural: Slovak says 2–4 people unlike 5 or more.
    slovak = client.get(url, HTTP_ACCEPT_LANGUAGE="sk").content.decode()
    assert stat(slovak, "busiest").endswith("2 hry · 4 ľudia")
    assert stat(html, "climbers") == "carol +50 alice +30"
    assert stat(html, "most-wins") == "alice 2 wins bob 2 wins carol 2 wins"
    assert reverse("games:club_year", args=[history.club.public_id, 2024]) in html


def test_the_stats_page_links_to_your_year(client, alice):
    client.force_login(alice)
    html = client.get(reverse("games:stats")).content.decode()
    today = timezone.localdate()
    assert own_url(year_shown(today)) in html


def year_shown(today) -> int:  # type: ignore[no-untyped-def]
    from games.clubs.year import featured_year

    return featured_year(today) or today.year


@pytest.mark.parametrize("games", [8, 40])
def test_the_years_cost_the_same_whatever_the_games(
    client, alice, bob, carol, games, django_assert_max_num_queries, django_assert_num_queries
):
    club = make_club("Big club", alice, bob, carol)
    players = [Player.for_user(user) for user in (alice, bob, carol)]
    players.append(Player.objects.create(name="Dora Quinn", created_by=alice))
    bulk_club_games(club, players, games)
    client.force_login(alice)
    number = timezone.localdate().year
    club_url = reverse("games:club_year", args=[club.public_id, number])
    client.get(club_url)
    client.get(own_url(number))
    # Kept: session, user, the club with the ratings' run (its version says the rest).
    with django_assert_num_queries(3):
        assert client.get(club_url).status_code == 200
    # Kept: session, user, Player, extent, the share link.
    with django_assert_max_num_queries(5):
        assert client.get(own_url(number)).status_code == 200
    share = YearShare.objects.create(user=alice, year=number)
    # Kept, shared: the link with its user and Player, extent.
    with django_assert_max_num_queries(2):
        assert Client().get(shared_url(share)).status_code == 200
