"""Creating a game, the lobby (invite link, usernames, bots) and starting."""

import pytest
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Seat
from games.online import lobby

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_creating_a_game_with_every_rules_option(alice, bob, alice_client):
    response = alice_client.post(
        reverse("games:online_create"),
        {
            "name": "Slow Sunday",
            "seats": 4,
            "bots": 1,
            "invite": "bob",
            "time_limit": "2d",
            "phases": "custom",
            "custom_phases": "1, 4, 7, 10",
            "progression": "all_advance",
            "natural_card": "group",
            "skip_target": "choose",
            "hit_others_same_turn": "on",
            "go_out_by_hitting": "on",
        },
    )
    game = Game.objects.get(name="Slow Sunday")
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert Rules.from_dict(game.rules) == Rules(
        phases=(1, 4, 7, 10),
        all_advance=True,
        natural_card="group",
        skip_target="choose",
        hit_others_same_turn=True,
        go_out_by_hitting=True,
    )
    assert game.time_limit.days == 2
    # bob is invited (he accepts or declines); his seat is kept next to alice's.
    assert [(s.position, s.player.user, s.is_bot) for s in game.seats.select_related("player")] == [
        (0, alice, False),
        (2, None, True),
    ]
    assert game.invitations.get().user == bob


def test_the_standard_game_is_the_default(alice_client):
    alice_client.post(
        reverse("games:online_create"),
        {
            "seats": 2,
            "bots": 0,
            "phases": "all",
            "progression": "normal",
            "natural_card": "phase",
            "skip_target": "next",
        },
    )
    game = Game.objects.get()
    assert Rules.from_dict(game.rules) == Rules() and game.time_limit is None


def test_the_create_form_refuses_unknown_usernames_and_too_many_players(alice_client):
    page = alice_client.post(
        reverse("games:online_create"),
        {
            "seats": 2,
            "bots": 1,
            "invite": "nobody",
            "phases": "all",
            "progression": "normal",
            "natural_card": "phase",
            "skip_target": "next",
        },
    ).content.decode()
    assert "There is no player called" in page
    assert not Game.objects.exists()


def test_a_friend_joins_through_the_invite_link(alice, bob, client):
    game = lobby.create_game(alice, seats=3)
    client.force_login(bob)
    url = reverse("games:online_join", args=[game.invite_token])
    page = client.get(url).content.decode()
    assert "Take a seat" in page and "alice" in page
    response = client.post(url)
    assert response.status_code == 302
    assert Seat.objects.filter(game=game, player__user=bob).exists()
    # Joining twice is harmless; the lobby now shows bob to alice.
    client.post(url)
    assert Seat.objects.filter(game=game).count() == 2


def test_a_revoked_link_stops_working(alice, bob, alice_client, client):
    game = lobby.create_game(alice, seats=3)
    old = game.invite_token
    alice_client.post(reverse("games:online_revoke_link", args=[game.public_id]))
    game.refresh_from_db()
    assert game.invite_token != old
    client.force_login(bob)
    assert client.get(reverse("games:online_join", args=[old])).status_code == 404
    assert client.post(reverse("games:online_join", args=[old])).status_code == 404


def test_the_creator_invites_players_by_username_and_adds_bots(alice, bob, alice_client):
    game = lobby.create_game(alice, seats=3)
    invite = reverse("games:online_invite", args=[game.public_id])
    page = alice_client.post(invite, {"username": "nobody"}, **HTMX).content.decode()
    assert "There is no player called" in page
    page = alice_client.post(invite, {"username": "BOB"}, **HTMX).content.decode()
    assert "bob" in page and 'id="lobby"' in page
    lobby.accept_invitation(game, bob)
    alice_client.post(reverse("games:online_add_bot", args=[game.public_id]), **HTMX)
    assert Seat.objects.filter(game=game).count() == 3
    page = alice_client.post(reverse("games:online_add_bot", args=[game.public_id]), **HTMX)
    assert "Every seat is taken" in page.content.decode()


def test_only_the_creator_starts_and_empty_seats_can_become_bots(alice, bob, client):
    game = lobby.create_game(alice, seats=4, invite=[bob])
    lobby.accept_invitation(game, bob)
    client.force_login(bob)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Start the game" not in page
    client.post(reverse("games:online_start", args=[game.public_id]))
    assert Game.objects.get(pk=game.pk).status == Game.Status.LOBBY
    client.force_login(alice)
    response = client.post(
        reverse("games:online_start", args=[game.public_id]), {"fill_with_bots": "on"}, **HTMX
    )
    assert response["HX-Redirect"] == game.get_absolute_url()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert Seat.objects.filter(game=game, is_bot=True).count() == 2


def test_a_lobby_with_one_player_cannot_start(alice, alice_client):
    game = lobby.create_game(alice, seats=3)
    page = alice_client.post(reverse("games:online_start", args=[game.public_id]), **HTMX)
    assert "At least two seats" in page.content.decode()


def test_the_lobby_poll_reloads_the_page_once_the_game_starts(alice, bob, client):
    game = lobby.create_game(alice, seats=2, invite=[bob])
    lobby.accept_invitation(game, bob)
    game.refresh_from_db()
    client.force_login(bob)
    url = reverse("games:online_poll", args=[game.public_id])
    assert client.get(f"{url}?in=lobby&v={game.version}", **HTMX).status_code == 204
    lobby.start_game(game, alice)
    response = client.get(f"{url}?in=lobby&v={game.version}", **HTMX)
    assert response["HX-Redirect"] == game.get_absolute_url()


def test_leaving_the_lobby_and_cancelling_it(alice, bob, client):
    game = lobby.create_game(alice, seats=3, invite=[bob], bots=1)
    lobby.accept_invitation(game, bob)
    client.force_login(bob)
    client.post(reverse("games:online_leave", args=[game.public_id]))
    assert not Seat.objects.filter(game=game, player__user=bob).exists()
    assert client.get(game.get_absolute_url()).status_code == 404
    client.force_login(alice)
    client.post(reverse("games:online_leave", args=[game.public_id]))
    assert not Game.objects.filter(pk=game.pk).exists()
