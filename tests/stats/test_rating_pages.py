"""Ratings on the pages: the stats page's rating section, the leaderboard by rating, a
game's "+23" (both modes), the exports, and the new online game's "Rated game"."""

import csv
import io
import json

import pytest
from django.urls import reverse

from games.engine import Rules
from games.models import Game, RatingChange
from games.stats import rating_ledger
from tests.online.helpers import play_on, started_game

from .factories import make_game, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(alice, bob, carol):
    """alice beats bob six times, then loses to carol once."""
    a, b, c = player(alice), player(bob), player(carol)
    games = [make_game([a, b], [], winner=0, days_ago=10 - n) for n in range(6)]
    games.append(make_game([a, c], [], winner=1, days_ago=1, name="The upset"))
    rating_ledger.run()
    return {"alice": a, "bob": b, "carol": c, "games": games}


def test_your_stats_page_shows_your_rating_its_chart_and_opponents(alice_client, rated):
    page = alice_client.get(reverse("games:stats")).content.decode()
    rating = RatingChange.objects.filter(player=rated["alice"]).last()
    assert f'data-stat="rating">{round(1000 + 25 * rating.ordinal_after)}<' in page
    assert "after 7 rated games" in page
    assert "provisional" not in page.split('id="rating-heading"')[1].split("</section>")[0]
    assert "Rating over time" in page
    assert "You gained most against" in page and "You lost most against" in page
    gained = page.split("You gained most against")[1].split("</ul>")[0]
    assert "bob" in gained and "+" in gained
    assert "carol" in page.split("You lost most against")[1].split("</ul>")[0]


def test_the_rating_says_where_it_starts_and_why_it_climbs_beside_the_number(alice_client, rated):
    # carol beat alice once: her first rated game, and her number is well above 1000.
    url = reverse("games:player_stats", args=[rated["carol"].pk])
    page = alice_client.get(url).content.decode()
    panel = page.split('id="rating-heading"')[1].split("</section>")[0]
    number, after = panel.split('data-stat="rating">')[1].split("<", 1)
    assert int(number) > 1000
    explained = after.split("data-rating-explained>")[1].split("</p>")[0]
    assert explained == (
        "Everyone starts at 1000. The number is a cautious estimate: it climbs as the app "
        "learns your skill, so it can go up even after a game you didn't win."
    )


def test_a_new_players_rating_is_provisional(alice_client, rated):
    url = reverse("games:player_stats", args=[rated["carol"].pk])
    page = alice_client.get(url).content.decode()
    assert "after 1 rated game" in page
    assert "Provisional until 5 rated games" in page


def test_a_player_without_rated_games_sees_where_their_rating_will_come_from(alice, alice_client):
    make_game([player(alice), player("Zed")], [], winner=0)  # not rated yet
    page = alice_client.get(reverse("games:stats")).content.decode()
    assert "No rated games yet" in page


def test_the_leaderboard_can_be_sorted_by_rating(alice_client, rated):
    page = alice_client.get(reverse("games:leaderboard"), {"sort": "rating"}).content.decode()
    assert 'aria-current="true">By rating<' in page
    body = page.split("<tbody>")[1]
    # alice (7 games) is ranked; bob (6) too; carol's one game is provisional: unranked.
    assert body.index(">alice<") < body.index(">bob<") < body.index(">carol<")
    assert "provisional" in body.split(">carol<")[1]


def test_the_leaderboard_by_win_rate_still_shows_the_ratings(alice_client, rated):
    page = alice_client.get(reverse("games:leaderboard")).content.decode()
    assert 'aria-current="true">By win rate<' in page
    assert page.count('data-stat="rating"') == 3


def test_a_game_nights_page_shows_what_it_did_to_each_rating(alice_client, rated):
    game = rated["games"][-1]
    page = alice_client.get(game.get_absolute_url()).content.decode()
    section = page.split('id="rating-changes-heading"')[1].split("</section>")[0]
    carol = RatingChange.objects.get(game=game, player=rated["carol"])
    change = round(1000 + 25 * carol.ordinal_after) - round(1000 + 25 * carol.ordinal_before)
    assert f"+{change}" in section
    assert "−" in section  # alice lost some
    assert section.index("carol") < section.index("alice")  # the winner first


def test_a_game_in_progress_shows_no_ratings(alice_client, alice, bob):
    game = make_game([player(alice), player(bob)], [], winner=0, status=Game.Status.ACTIVE)
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "rating-changes-heading" not in page


def test_an_online_games_page_shows_the_rating_changes_once_rated(
    alice, bob, alice_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_on(started_game(alice, bob, bots=1, rules=Rules(phases=(1,)), seed=3))
    page = alice_client.get(game.get_absolute_url()).content.decode()
    section = page.split('id="rating-changes-heading"')[1].split("</section>")[0]
    assert "alice" in section and "bob" in section and "Ada" not in section
    assert section.count("provisional") == 2


def test_the_ratings_csv_has_your_rating_history(alice_client, rated):
    response = alice_client.get(reverse("games:export_ratings_csv"))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    header, *history = rows
    assert header[:3] == ["game", "name", "mode"]
    assert len(history) == 7
    first = dict(zip(header, history[0], strict=True))
    assert first["rating before"] == "1000"
    assert first["your place among the people"] == "1"
    assert int(first["change"]) == int(first["rating after"]) - 1000 > 0


def test_a_games_json_has_its_rating_changes(alice_client, rated):
    game = rated["games"][0]
    response = alice_client.get(reverse("games:export_game_json", args=[game.public_id]))
    ratings = json.loads(response.content)["ratings"]
    assert [(r["name"], r["place"], r["before"]) for r in ratings] == [
        ("alice", 1, 1000),
        ("bob", 2, 1000),
    ]


def test_a_new_online_game_is_rated_unless_its_creator_says_no(alice_client):
    page = alice_client.get(reverse("games:online_create")).content.decode()
    assert 'name="rated"' in page and "checked" in page.split('name="rated"')[1].split(">")[0]
    base = {"seats": 2, "bots": 1, "phases": "all", "progression": "normal"}
    base |= {"natural_card": "phase", "skip_target": "next"}
    alice_client.post(reverse("games:online_create"), {**base, "name": "Rated", "rated": "on"})
    alice_client.post(reverse("games:online_create"), {**base, "name": "Friendly"})
    assert Game.objects.get(name="Rated").rated
    assert not Game.objects.get(name="Friendly").rated
