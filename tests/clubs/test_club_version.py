"""A club's kept pages (its page, its year in review) are keyed by the club's version and
the ratings' run alone, so every change to one of its games moves the club on
(games/scoring.py `bump_club`). One test per way a game changes; a game of no club moves
no club."""

from __future__ import annotations

import random

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from accounts.deletion import delete_account
from games.clubs import membership
from games.models import Club, Player, Seat
from games.online import lobby, pause
from games.scoring import bump_games_of, save_seat_setting
from tests.clubs.membership_helpers import club_night, make_club
from tests.nights.helpers import post_round
from tests.online.helpers import play_human_turn, started_game
from tests.site.test_admin import change_form


def version(club: Club) -> int:
    return Club.objects.values_list("version", flat=True).get(pk=club.pk)


class Moves:
    """`with Moves(club):` asserts the block moved the club's version on."""

    def __init__(self, club: Club) -> None:
        self.club = club

    def __enter__(self) -> None:
        self.before = version(self.club)

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            assert version(self.club) > self.before


@pytest.fixture
def club(alice, bob):  # type: ignore[no-untyped-def]
    return make_club(alice, bob)


def test_a_night_made_in_the_club_and_its_rounds(club, alice, bob):
    with Moves(club):
        night = club_night(club, alice, [Player.for_user(alice), Player.for_user(bob)])
    scorer = Client()
    scorer.force_login(alice)
    with Moves(club):
        response = post_round(scorer, night, went_out=0, points=[0, 25], completed=[0])
    assert response.status_code in (200, 302)


def test_an_online_game_from_its_lobby_to_a_move(club, alice, bob):
    with Moves(club):
        game = started_game(alice, bob, club=club)
    with Moves(club):
        play_human_turn(game, random.Random(3))


def test_a_lobby_made_and_called_off(club, alice):
    with Moves(club):
        game = lobby.create_game(alice, seats=2, club=club)
    with Moves(club):
        lobby.leave(game, alice)  # the creator leaving calls it off


def test_a_player_renamed_a_seat_muted_and_away_mode(club, alice, bob):
    game = started_game(alice, bob, club=club)
    with Moves(club):
        bump_games_of(Player.for_user(bob))  # what a rename, a claim or a deletion calls
    seat = Seat.objects.get(game=game, player__user=bob)
    seat.muted = True
    with Moves(club):
        save_seat_setting(seat, "muted")
    with Moves(club):
        pause.show_away_change(bob)


def test_a_game_of_no_club_moves_no_club(club, alice, bob):
    before = version(club)
    game = started_game(alice, bob)
    play_human_turn(game, random.Random(3))
    seat = Seat.objects.get(game=game, player__user=bob)
    seat.muted = True
    save_seat_setting(seat, "muted")
    assert version(club) == before


def test_a_game_deleted_in_the_admin(club, alice, bob, rf):
    game = club_night(club, alice, [Player.for_user(alice), Player.for_user(bob)])
    model_admin = admin.site._registry[type(game)]
    with Moves(club):
        model_admin.delete_model(rf.post("/"), game)
    assert not type(game).objects.filter(pk=game.pk).exists()


def test_a_member_renamed_who_never_played_in_the_club(club, alice, carol):
    membership.join(carol, club.invite_token)
    with Moves(club):
        bump_games_of(Player.for_user(carol))  # the members' list shows the name


def _rename_in_the_admin(admin_client, user, username: str) -> None:
    url = reverse("admin:auth_user_change", args=[user.pk])
    data = change_form(admin_client.get(url).content.decode(), "user_form")
    data["username"] = [username]
    assert admin_client.post(url, data).status_code == 302
    user.refresh_from_db()
    assert user.username == username


def test_a_username_changed_in_the_admin(club, alice, carol, stranger, admin_client):
    """The club's page shows members as "@username" and the people it invited by their
    usernames; only staff change one (Django's user admin)."""
    membership.join(carol, club.invite_token)
    with Moves(club):
        _rename_in_the_admin(admin_client, carol, "caroline")
    membership.invite(club, alice, stranger.username)
    assert not Player.objects.filter(user=stranger).exists()  # never played, not a member
    with Moves(club):
        _rename_in_the_admin(admin_client, stranger, "someone")


def test_an_account_deleted_with_an_invitation_waiting(club, alice, carol):
    membership.invite(club, alice, "carol")
    with Moves(club):
        delete_account(carol)
    assert not club.invitations.exists()
