"""A game night's page draws its QR code once per share link, and reads its scoreboard
and draws its score chart once per game version (and language); the cache has them after
that, and a new version is read and drawn afresh."""

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from games.cache_keys import csrf_cookie, night_game
from games.cache_keys import qr as qr_key
from games.cache_keys import score_chart as score_chart_key
from games.models import Game
from tests.nights.helpers import edit_round, post_round, start_night

pytestmark = pytest.mark.django_db

QR_TITLE = "QR code of the live scoreboard link"


def share_url(game: Game) -> str:
    return "http://testserver" + reverse("games:night_share", args=[game.share_token])


def finished_night(client: Client) -> Game:
    game = start_night(client, guests=["Bob"], phases="custom", custom="1")
    post_round(client, game, went_out=0, points=[0, 35], completed=[0])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_the_qr_code_is_drawn_once_and_then_read_from_the_cache(alice_client):
    game = start_night(alice_client)
    key = qr_key(share_url(game), QR_TITLE)
    assert cache.get(key) is None
    page = alice_client.get(game.get_absolute_url()).content.decode()
    drawn = cache.get(key)
    assert drawn is not None and drawn.startswith("<svg") and drawn in page
    # What the cache holds is what the next page shows: it isn't drawn again. (The share
    # panel around it is drawn once per version: the next round's page draws it anew.)
    cache.set(key, '<svg data-from="cache"></svg>')
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert '<svg data-from="cache"></svg>' in page and drawn not in page


def test_each_share_link_has_its_own_qr_code(alice_client):
    first, second = start_night(alice_client, name="One"), start_night(alice_client, name="Two")
    alice_client.get(first.get_absolute_url())
    alice_client.get(second.get_absolute_url())
    codes = {cache.get(qr_key(share_url(game), QR_TITLE)) for game in (first, second)}
    assert len(codes) == 2 and None not in codes


def test_the_score_chart_is_drawn_once_per_version(alice_client):
    game = finished_night(alice_client)
    key = score_chart_key(game)
    page = alice_client.get(game.get_absolute_url()).content.decode()
    drawn = cache.get(key)
    assert drawn is not None and 'class="chart"' in drawn and drawn in page
    cache.set(key, '<figure data-from="cache"></figure>')
    # The page's game (nights/page.py game_html) holds it as drawn; drawn anew, the game
    # reads the chart from the cache.
    again = alice_client.get(game.get_absolute_url()).content.decode()
    assert drawn in again and "data-from" not in again
    game.refresh_from_db()
    request = RequestFactory().get("/")
    request.COOKIES = {name: morsel.value for name, morsel in alice_client.cookies.items()}
    csrf = csrf_cookie(request)
    assert csrf is not None
    kept = night_game(game, can_edit=True, with_ratings=True, csrf=csrf)
    assert cache.delete(kept)
    drawn_anew = alice_client.get(game.get_absolute_url()).content.decode()
    assert '<figure data-from="cache"></figure>' in drawn_anew


def test_a_corrected_round_draws_a_fresh_chart(alice_client):
    game = finished_night(alice_client)
    alice_client.get(game.get_absolute_url())
    old_key = score_chart_key(game)
    cache.set(old_key, '<figure data-from="cache"></figure>')
    # Bob had 45 points, not 35: a new version, so a new key and a chart drawn from the rows.
    edit_round(alice_client, game, 1, went_out=0, points=[0, 45], completed=[0])
    game.refresh_from_db()
    assert score_chart_key(game) != old_key
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert '<figure data-from="cache"></figure>' not in page
    assert "Bob 45" in cache.get(score_chart_key(game))  # the final scores, in its description


def test_the_chart_is_cached_per_language(alice_client):
    game = finished_night(alice_client)
    alice_client.get(game.get_absolute_url())
    with translation.override("fi"):
        finnish = score_chart_key(game)
    assert finnish != score_chart_key(game)
    assert cache.get(finnish) is None


@pytest.mark.parametrize("phases", ["1", "1 2 3 4 5 6 7 8 9 10"])
def test_a_night_seen_again_reads_neither_its_rounds_nor_its_chart(
    alice_client, phases, django_assert_max_num_queries
):
    game = start_night(alice_client, guests=["Bob"], phases="custom", custom=phases)
    while game.status != Game.Status.FINISHED:  # alice and Bob take turns going out
        out = game.rounds_played % 2
        points = [25 * out, 25 - 25 * out]
        post_round(alice_client, game, went_out=out, points=points, completed=[out])
        game.refresh_from_db()
    first = alice_client.get(game.get_absolute_url())
    # session, user, the game (with its `ratings_version`: a task rates the game after
    # its last version): the scoreboard, its drawing, the chart, the rating changes, the
    # co-scorers of this version, the QR code and the "your turn" badge's count come from
    # the cache.
    with django_assert_max_num_queries(3):
        page = alice_client.get(game.get_absolute_url())
    assert "How the game went" in page.content.decode()
    assert page.context["board"] == first.context["board"]
    assert len(page.context["board"].rounds) == game.rounds_played


def test_a_saved_round_shows_on_the_page_at_once(alice_client):
    game = start_night(alice_client)
    assert alice_client.get(game.get_absolute_url()).context["board"].rounds == ()
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    page = alice_client.get(game.get_absolute_url())
    assert [cell.points for cell in page.context["board"].rounds[0].cells] == [0, 35, 20]
    assert "Round 2" in page.content.decode()
