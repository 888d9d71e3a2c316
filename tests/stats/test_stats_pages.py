"""The stats pages: who may see what, and that the numbers and charts are on them.
`history` is the five hand-worked games of tests/stats/conftest.py."""

import pytest
from django.urls import reverse

from games.models import Player

from .factories import player

pytestmark = pytest.mark.django_db


def _page(client, url, **params):
    response = client.get(url, params)
    assert response.status_code == 200
    return response.content.decode()


def test_visitors_are_asked_to_log_in_for_stats(client):
    page = _page(client, reverse("games:stats"))
    assert reverse("accounts:login") in page


def test_your_stats_page_shows_the_numbers_and_the_three_charts(alice_client, history):
    page = _page(alice_client, reverse("games:stats"))
    assert 'data-stat="played">4<' in page
    assert 'data-stat="won">3<' in page
    assert 'data-stat="win-rate">75%<' in page
    assert 'data-stat="best-score">20<' in page
    assert 'data-stat="streak">2<' in page
    assert "Nemesis: phase 2" in page
    assert page.count('<svg class="chart-svg"') == 3
    for title in ("Win rate over time", "Phase reached per round", "Score after each round"):
        assert f">{title}</title>" in page
    assert page.count('class="visually-hidden"') >= 3
    assert "The phase you were on in each round, on average over your games" in page


def test_the_filters_change_the_numbers(alice_client, history):
    page = _page(alice_client, reverse("games:stats"), mode="online")
    assert 'data-stat="played">1<' in page
    assert 'data-stat="win-rate">0%<' in page
    page = _page(alice_client, reverse("games:stats"), mode="night", period="30d")
    assert 'data-stat="played">2<' in page


def test_an_old_link_that_says_mode_table_still_shows_the_game_nights(alice_client, history):
    page = _page(alice_client, reverse("games:stats"), mode="table", period="30d")
    assert 'data-stat="played">2<' in page


def test_unknown_filter_values_fall_back_to_everything(alice_client, history):
    page = _page(alice_client, reverse("games:stats"), mode="cards", period="forever")
    assert 'data-stat="played">4<' in page


def test_a_player_you_played_with_has_a_stats_page(client, carol, history):
    client.force_login(carol)
    page = _page(client, reverse("games:player_stats", args=[history["alice"].pk]))
    assert 'data-stat="played">4<' in page
    assert "The phase alice was on in each round, on average over their games" in page


def test_your_own_player_page_redirects_to_your_stats(alice_client, history):
    response = alice_client.get(reverse("games:player_stats", args=[history["alice"].pk]))
    assert response.status_code == 302
    assert response.url == reverse("games:stats")


def test_strangers_get_404_for_players_they_never_met(client, stranger, history):
    client.force_login(stranger)
    for who in ("alice", "bob", "dora"):
        response = client.get(reverse("games:player_stats", args=[history[who].pk]))
        assert response.status_code == 404


def test_a_guest_is_visible_only_to_those_who_played_with_them(client, carol, history):
    client.force_login(carol)
    response = client.get(reverse("games:player_stats", args=[history["dora"].pk]))
    assert response.status_code == 404
    client.force_login(history["alice"].user)
    page = _page(client, reverse("games:player_stats", args=[history["dora"].pk]))
    assert 'data-stat="played">1<' in page


def test_a_player_page_needs_a_login(client, history):
    response = client.get(reverse("games:player_stats", args=[history["alice"].pk]))
    assert response.status_code == 302


def test_a_new_user_sees_an_empty_stats_page(client, stranger):
    client.force_login(stranger)
    page = _page(client, reverse("games:stats"))
    assert "No finished games here yet" in page
    assert player(stranger).name == "stranger"


def test_the_leaderboard_lists_the_people_you_play_with(alice_client, stranger, history):
    page = _page(alice_client, reverse("games:leaderboard"))
    for name in ("alice", "bob", "carol", "dora"):
        assert f">{name}</a>" in page
    assert "stranger" not in page


def test_charts_keep_numbers_machine_readable_in_languages_with_a_decimal_comma(
    alice_client, alice, history
):
    alice.profile.language = "fi"
    alice.profile.save()
    alice_client.force_login(alice)  # the profile's language is read at login
    page = _page(alice_client, reverse("games:stats"))
    assert '<html lang="fi"' in page
    svg = page.split('<svg class="chart-svg"')[2].split("</svg>")[0]
    path = svg.split('<path d="')[1].split('"')[0]
    assert "," not in path


def test_a_stored_unknown_time_zone_falls_back_to_utc(alice_client, alice, history):
    alice.profile.time_zone = "Mars/Olympus"
    alice.profile.save()
    page = _page(alice_client, reverse("games:stats"))
    assert 'data-stat="played">4<' in page


def test_the_avatar_shows_the_players_initials_on_their_stats_and_profile(alice_client, alice):
    me = player(alice)
    me.name = "ada lovelace"
    me.save(update_fields=["name"])
    assert '">AL</span>' in _page(alice_client, reverse("games:stats"))
    assert '">AL</span>' in _page(alice_client, reverse("accounts:profile"))
    assert [Player(name=name).initials for name in ("Bob", "", "  ")] == ["B", "?", "?"]
