"""The stats page keeps its figures in the cache (games/stats/page.py) under a key that
moves on with the games in scope: a second view counts them no more, and a change to any
of those games (one more finished, a corrected round, a renamed opponent) shows at once.
`history` is the five hand-worked games of tests/stats/conftest.py."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, Seat
from games.scoring import bump, bump_games_of

from .factories import laid, make_game, missed

pytestmark = pytest.mark.django_db


def _page(client, **params):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("games:stats"), params)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def _same_parts(page):
    """The page without what differs on every request: the masked CSRF token."""
    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", page)


def _chart_ids(page):
    return re.findall(r'<figure class="chart" id="([^"]+)"', page)


def test_a_second_view_reads_the_figures_from_the_cache_and_shows_the_same(alice_client, history):
    first, counted = _page(alice_client)
    second, kept = _page(alice_client)
    # Streak, phases, head-to-head, the three charts' rows and the recent games with
    # their seats: not asked again (the recent games are kept as drawn).
    assert kept <= counted - 8
    assert _same_parts(second) == _same_parts(first)
    assert 'data-stat="played">4<' in second
    assert "Nemesis: phase 2" in second


def test_kept_charts_have_ids_of_their_own_whichever_process_drew_them(alice_client, history):
    first, _ = _page(alice_client)
    second, _ = _page(alice_client)
    assert _chart_ids(first) == _chart_ids(second)
    assert sorted(_chart_ids(second)) == ["chart-last-game", "chart-phases", "chart-win-rate"]


def test_the_figures_move_on_when_another_game_finishes(alice_client, history):
    before, _ = _page(alice_client)
    assert 'data-stat="played">4<' in before
    make_game(
        [history["alice"], history["bob"]],
        [[laid(1, out=True), missed(1, 50)]],
        winner=0,
        days_ago=0.5,
    )
    after, _ = _page(alice_client)
    assert 'data-stat="played">5<' in after
    assert 'data-stat="streak">3<' in after  # G3, G4 and the new one


def test_the_figures_move_on_when_a_finished_game_is_corrected(alice_client, history):
    before, _ = _page(alice_client)
    assert 'data-stat="best-score">20<' in before
    game = Game.objects.get(pk=history["g1"].pk)  # not the last game: its chart is kept too
    bump(game)  # what a correction does first, then it writes the seats' totals
    Seat.objects.filter(game=game, player=history["alice"]).update(score=5)
    after, _ = _page(alice_client)
    assert 'data-stat="best-score">5<' in after


def test_the_figures_move_on_when_an_opponent_is_renamed(alice_client, history):
    before, _ = _page(alice_client)
    assert ">dora</a>" in before
    dora = history["dora"]
    dora.name = "Dorothea"
    dora.save(update_fields=["name"])
    bump_games_of(dora)  # as the profile, the admin and a claim do
    after, _ = _page(alice_client)
    assert ">Dorothea</a>" in after and ">dora</a>" not in after


def test_each_filter_keeps_figures_of_its_own(alice_client, history):
    _page(alice_client)
    online, _ = _page(alice_client, mode="online")
    assert 'data-stat="played">1<' in online
    everything, _ = _page(alice_client)
    assert 'data-stat="played">4<' in everything


def test_a_game_leaving_the_period_moves_the_figures_on(alice_client, history):
    recent, _ = _page(alice_client, period="30d")
    assert 'data-stat="played">3<' in recent  # G2, G3 and G4
    # As if 25 days went by for G2 (finished 10 days ago): no version moves, only the clock.
    Game.objects.filter(pk=history["g2"].pk).update(
        finished_at=history["g2"].finished_at - timedelta(days=25)
    )
    later, _ = _page(alice_client, period="30d")
    assert 'data-stat="played">2<' in later


def test_the_recent_games_are_kept_for_each_viewer(client, bob, carol, history):
    url = reverse("games:player_stats", args=[history["alice"].pk])
    json_link = reverse("games:export_game_json", args=["game-g1"])
    client.force_login(carol)  # she played G2 only
    assert json_link not in client.get(url).content.decode()
    client.force_login(bob)  # the same figures, but he played G1 too
    assert json_link in client.get(url).content.decode()
