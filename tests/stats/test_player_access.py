"""Who may open a player's page: someone you actually played with — a started game
(in progress or finished) in which you both sat — or a guest at a game night you
score. Never because someone created a lobby and named you in it."""

import pytest
from django.urls import reverse

from games.models import Player
from games.online import lobby
from games.stats.access import co_players

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Totally friendly game",
    "seats": 3,
    "bots": 0,
    "phases": "all",
    "progression": "normal",
    "natural_card": "phase",
    "skip_target": "next",
}


def player_page(client, user):
    return client.get(reverse("games:player_stats", args=[Player.for_user(user).pk]))


def test_a_stranger_who_invites_you_cannot_open_your_player_page(alice, history, stranger, client):
    client.force_login(stranger)
    response = client.post(reverse("games:online_create"), {**FORM, "invite": "alice"})
    assert response.status_code == 302
    assert player_page(client, alice).status_code == 404
    page = client.get(reverse("games:leaderboard")).content.decode()
    assert "alice" not in page and "bob" not in page


def test_a_lobby_together_opens_no_player_page_until_the_game_starts(carol, stranger, client):
    game = lobby.create_game(carol, seats=2)
    lobby.join(game, stranger, game.invite_token)
    client.force_login(carol)
    assert player_page(client, stranger).status_code == 404
    client.force_login(stranger)
    assert player_page(client, carol).status_code == 404
    lobby.start_game(game, carol)
    assert player_page(client, carol).status_code == 200


def test_co_players_are_people_from_started_games_only(carol, stranger, history):
    game = lobby.create_game(stranger, seats=3)
    lobby.join(game, carol, game.invite_token)
    names = set(co_players(history["carol"]).values_list("name", flat=True))
    assert names == {"alice", "bob", "carol"}
