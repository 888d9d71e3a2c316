"""The TV view of a night's live scoreboard: public through the share token, read-only,
not for search engines, polled by version; and live pages say they update only when
they can (with JavaScript)."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.nights.helpers import post_round, start_night
from tests.nights.test_share import SHARE_QUERIES, night_with_rounds

pytestmark = pytest.mark.django_db


def tv_url(game) -> str:
    return reverse("games:night_tv", args=[game.share_token])


def tv_live_url(game, version) -> str:
    return f"{reverse('games:night_tv_live', args=[game.share_token])}?version={version}"


def test_anyone_with_the_share_link_sees_the_tv_view_read_only_and_unindexed(alice_client):
    game = start_night(alice_client, guests=["Bob", "Carol"])
    page = Client().get(tv_url(game))
    html = page.content.decode()
    assert page.status_code == 200
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "Round 1" in html and "Bob" in html and "Carol" in html
    assert "<form" not in html
    assert f'hx-get="{tv_live_url(game, game.version)}"' in html


def test_a_forged_token_finds_no_tv_view(alice_client):
    start_night(alice_client)
    assert Client().get(reverse("games:night_tv", args=["not-the-token"])).status_code == 404
    live = reverse("games:night_tv_live", args=["not-the-token"])
    assert Client().get(f"{live}?version=0").status_code == 404


def test_the_tv_view_is_linked_from_the_nights_page_and_the_share_page(alice_client):
    game = start_night(alice_client)
    assert tv_url(game) in alice_client.get(game.get_absolute_url()).content.decode()
    share = reverse("games:night_share", args=[game.share_token])
    assert tv_url(game) in Client().get(share).content.decode()


def test_the_tv_poll_answers_204_while_nothing_changed_and_the_new_board_after_a_round(
    alice_client, django_assert_max_num_queries
):
    game = start_night(alice_client, guests=["Bob", "Carol"])
    viewer = Client()
    with django_assert_max_num_queries(1):
        same = viewer.get(tv_live_url(game, game.version), headers={"HX-Request": "true"})
    assert same.status_code == 204 and same.content == b""
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    game.refresh_from_db()
    changed = viewer.get(tv_live_url(game, game.version - 1), headers={"HX-Request": "true"})
    html = changed.content.decode()
    assert changed.status_code == 200
    assert "Round 2" in html and f"?version={game.version}" in html
    assert "<html" not in html


@pytest.mark.parametrize("rounds", [2, 40])
def test_the_tv_view_takes_the_same_queries_for_a_short_and_a_long_game(
    alice, rounds, django_assert_max_num_queries
):
    game = night_with_rounds(alice, rounds)
    with django_assert_max_num_queries(SHARE_QUERIES):
        page = Client().get(tv_url(game))
    assert page.status_code == 200
    with django_assert_max_num_queries(1):  # the game by its token; the board is cached
        assert Client().get(tv_url(game)).status_code == 200


@pytest.mark.parametrize("name", ["games:night_share", "games:night_tv"])
def test_a_live_page_says_it_updates_by_itself_only_where_javascript_runs(alice_client, name):
    game = start_night(alice_client)
    html = Client().get(reverse(name, args=[game.share_token])).content.decode()
    assert "data-if-script hidden" in html
    assert "<noscript>" in html and "Reload the page to see the latest round." in html
    assert "/static/js/live.js" in html


def test_a_finished_nights_tv_view_shows_the_winner_and_stops_polling(alice_client):
    game = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
    post_round(alice_client, game, went_out=0, points=[0, 35], completed=[0])
    html = Client().get(tv_url(game)).content.decode()
    assert "<bdi>alice</bdi> wins after 1 round!" in html
    assert "The game is over: these are the final scores." in html
    assert "hx-get" not in html and "<noscript>" not in html


def test_a_finished_nights_banner_escapes_its_winners_name_once(alice_client):
    game = start_night(
        alice_client, guests=["O'Brien & <Bo>", "Cy"], me=False, phases="custom", custom="1"
    )
    post_round(alice_client, game, went_out=0, points=[0, 35], completed=[0])
    html = Client().get(tv_url(game)).content.decode()
    banner = html.split('class="banner win"')[1].split("</p>")[0]
    assert "<bdi>O&#x27;Brien &amp; &lt;Bo&gt;</bdi> wins after 1 round!" in banner
    assert "&amp;amp;" not in banner and "&amp;#39;" not in banner
