"""Only the scorer and co-scorers change a game night; seated members and everyone with
the share link can look; nobody else can see it (404) or change it."""

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Player, RoundScore
from games.nights import services as nights
from tests.nights.helpers import post_round, round_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice_client, alice, bob):
    """alice scores; bob (a member) sits at seat 1; Carol is a guest."""
    night = nights.create_game(
        alice,
        players=[Player.for_user(alice), Player.for_user(bob), "Carol"],
        first_dealer=0,
        rules=Rules(),
    )
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    night.refresh_from_db()
    return night


@pytest.fixture
def visitor():
    """A second browser (the `client` fixture is alice's, via alice_client)."""
    return Client()


def private_gets(game):
    return [
        reverse("games:night_detail", args=[game.public_id]),
        reverse("games:night_edit_round", args=[game.public_id, 1]),
    ]


def private_posts(game):
    return {
        reverse("games:night_add_round", args=[game.public_id]): round_data(
            game, went_out=0, points=[0, 5, 5], completed=[0]
        ),
        reverse("games:night_edit_round", args=[game.public_id, 1]): round_data(
            game, went_out=1, points=[5, 0, 5], completed=[1]
        ),
        reverse("games:night_undo", args=[game.public_id]): {"version": game.version},
        reverse("games:night_tiebreak", args=[game.public_id]): {
            "version": game.version,
            "winner": 0,
        },
        reverse("games:night_co_scorer", args=[game.public_id]): {
            "version": game.version,
            "username": "stranger",
        },
        reverse("games:night_rematch", args=[game.public_id]): {"version": game.version},
    }


def unchanged(game, version):
    game.refresh_from_db()
    assert game.version == version
    assert RoundScore.objects.filter(game=game).count() == 3
    assert not game.co_scorers.exists()
    assert Game.objects.count() == 1


def test_a_stranger_gets_404_on_every_private_page(visitor, stranger, game):
    visitor.force_login(stranger)
    for url in private_gets(game):
        assert visitor.get(url).status_code == 404, url
    for url, data in private_posts(game).items():
        assert visitor.post(url, data).status_code == 404, url
    unchanged(game, game.version)


def test_a_seated_member_can_look_but_not_change(visitor, bob, game):
    visitor.force_login(bob)
    page = visitor.get(game.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    assert "Enter round" not in text and "Undo" not in text and "✎" not in text
    assert visitor.get(private_gets(game)[1]).status_code == 404
    for url, data in private_posts(game).items():
        assert visitor.post(url, data).status_code == 404, url
    unchanged(game, game.version)


def test_visitors_who_are_not_logged_in_are_sent_to_log_in(visitor, game):
    for url in private_gets(game):
        response = visitor.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response.url
    for url, data in private_posts(game).items():
        assert visitor.post(url, data).status_code == 302
    unchanged(game, game.version)


def test_the_share_link_is_read_only_for_anyone(visitor, game):
    url = reverse("games:night_share", args=[game.share_token])
    page = visitor.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "alice" in text and "Carol" in text
    assert "<form" not in text.split('id="live"')[1].split("</main>")[0]
    assert visitor.post(url, round_data(game, went_out=0, points=[0, 5, 5])).status_code == 405
    live = reverse("games:night_share_live", args=[game.share_token])
    assert visitor.post(live, {}).status_code == 405
    unchanged(game, game.version)


def test_a_wrong_share_token_is_404(visitor, game):
    assert visitor.get(reverse("games:night_share", args=["not-the-token"])).status_code == 404
    live = reverse("games:night_share_live", args=["not-the-token"])
    assert visitor.get(live).status_code == 404


def test_the_share_token_is_not_the_public_id_and_is_long(game):
    assert game.share_token != game.public_id
    assert len(game.share_token) >= 22  # 128 bits


def test_a_co_scorer_added_by_the_scorer_can_enter_rounds(alice_client, visitor, carol, game):
    url = reverse("games:night_co_scorer", args=[game.public_id])
    response = alice_client.post(url, {"version": game.version, "username": "CAROL"})
    assert response.status_code == 302
    assert list(game.co_scorers.all()) == [carol]
    visitor.force_login(carol)
    response = post_round(visitor, game, went_out=1, points=[5, 0, 5], completed=[1])
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.rounds_played == 2


def test_adding_an_unknown_or_existing_scorer_says_why(alice_client, game):
    url = reverse("games:night_co_scorer", args=[game.public_id])
    response = alice_client.post(url, {"version": game.version, "username": "nobody"})
    assert "There is no member with that username." in response.content.decode()
    response = alice_client.post(url, {"version": game.version, "username": "alice"})
    assert "alice already keeps score in this game." in response.content.decode()
    assert not game.co_scorers.exists()


def test_a_stale_co_scorer_form_is_refused(alice_client, carol, game):
    url = reverse("games:night_co_scorer", args=[game.public_id])
    response = alice_client.post(url, {"version": 0, "username": "carol"}, follow=True)
    assert "This game changed since you opened the form" in response.content.decode()
    assert not game.co_scorers.exists()


def test_a_co_scorer_sees_the_forms_and_who_keeps_score(visitor, carol, game):
    game.co_scorers.add(carol)
    visitor.force_login(carol)
    text = visitor.get(game.get_absolute_url()).content.decode()
    assert "Enter round" in text and "Undo round 1" in text
    assert "<li>alice</li>" in text and "<li>carol</li>" in text  # the scorers' list


@pytest.mark.parametrize("viewer", ["alice", "bob", "carol"])
def test_the_scorer_a_co_scorer_and_a_seated_member_see_it_in_the_same_queries(
    visitor, alice, bob, carol, game, viewer, django_assert_max_num_queries
):
    game.co_scorers.add(carol)
    visitor.force_login({"alice": alice, "bob": bob, "carol": carol}[viewer])
    first = visitor.get(game.get_absolute_url())
    # session, user, the game, whether the viewer co-scores it (the scorer isn't asked);
    # who sits at it is on its kept scoreboard, the header's count is kept too
    with django_assert_max_num_queries(4):
        again = visitor.get(game.get_absolute_url())
    assert again.content.decode().count("Enter round") == (viewer != "bob")
    assert again.context["can_edit"] == first.context["can_edit"] == (viewer != "bob")
