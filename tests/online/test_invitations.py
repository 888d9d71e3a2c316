"""Invitations by username: nobody is seated, shown a game or emailed before they accept.
The invited person answers on My games; the creator sees and withdraws pending ones in
the lobby; starting the game drops the unanswered ones; a rematch invites the same way."""

import pytest
from django.urls import reverse

from games.errors import Refused
from games.models import Game, Invitation, Seat
from games.online import lobby

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FORM = {
    "name": "Friday game",
    "seats": 3,
    "bots": 0,
    "phases": "all",
    "progression": "normal",
    "natural_card": "phase",
    "skip_target": "next",
}


def seated(game, user) -> bool:
    return Seat.objects.filter(game=game, player__user=user).exists()


def accept_url(game) -> str:
    return reverse("games:online_accept_invitation", args=[game.public_id])


def decline_url(game) -> str:
    return reverse("games:online_decline_invitation", args=[game.public_id])


def test_inviting_by_username_seats_nobody_until_they_accept(alice, bob, alice_client, client):
    response = alice_client.post(reverse("games:online_create"), {**FORM, "invite": "bob"})
    game = Game.objects.get()
    assert response.status_code == 302
    assert not seated(game, bob)
    invitation = Invitation.objects.get()
    assert (invitation.game, invitation.user, invitation.invited_by) == (game, bob, alice)
    client.force_login(bob)
    assert client.get(game.get_absolute_url()).status_code == 404
    page = client.get(reverse("games:online_list")).content.decode()
    assert "Friday game" in page and "<bdi>alice</bdi> invited you" in page
    assert f'action="{accept_url(game)}"' in page and f'action="{decline_url(game)}"' in page


def test_one_person_named_twice_is_invited_once(alice_client, bob):
    response = alice_client.post(reverse("games:online_create"), {**FORM, "invite": "bob, BOB"})
    assert response.status_code == 302
    assert Invitation.objects.get().user == bob


def test_accepting_takes_a_free_seat_and_opens_the_lobby(alice, bob, client):
    game = lobby.create_game(alice, name="Friday game", seats=3, invite=[bob])
    client.force_login(bob)
    response = client.post(accept_url(game))
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert Seat.objects.get(game=game, player__user=bob).position == 1
    assert not Invitation.objects.exists()
    assert (
        "<bdi>alice</bdi> starts the game" in client.get(game.get_absolute_url()).content.decode()
    )
    game.refresh_from_db()
    assert game.version > 0  # the creator's lobby sees bob on its next poll


def test_accepting_under_htmx_loads_the_lobby(alice, bob, client):
    game = lobby.create_game(alice, seats=3, invite=[bob])
    client.force_login(bob)
    response = client.post(accept_url(game), **HTMX)
    assert response["HX-Redirect"] == game.get_absolute_url()
    assert seated(game, bob)


def test_declining_removes_the_invitation_and_seats_nobody(alice, bob, client):
    game = lobby.create_game(alice, name="Friday game", seats=3, invite=[bob])
    client.force_login(bob)
    response = client.post(decline_url(game))
    assert response.status_code == 302 and response["Location"] == reverse("games:online_list")
    assert not Invitation.objects.exists() and not seated(game, bob)
    assert "Friday game" not in client.get(reverse("games:online_list")).content.decode()


def test_declining_under_htmx_answers_with_the_remaining_invitations(alice, bob, carol, client):
    first = lobby.create_game(alice, name="First", seats=3, invite=[bob])
    lobby.create_game(carol, name="Second", seats=3, invite=[bob])
    client.force_login(bob)
    page = client.post(decline_url(first), **HTMX).content.decode()
    assert 'id="invitations"' in page and "<html" not in page
    assert "Second" in page and "First" not in page


def test_only_the_invited_person_can_answer(alice, bob, stranger, client):
    game = lobby.create_game(alice, seats=3, invite=[bob])
    client.force_login(stranger)
    for url in (accept_url(game), decline_url(game)):
        response = client.post(url, follow=True)
        assert "This invitation is no longer open." in response.content.decode()
    assert not seated(game, stranger)
    assert Invitation.objects.filter(user=bob).exists()
    assert client.get(accept_url(game)).status_code == 405


def test_accepting_a_full_game_is_refused_and_the_invitation_stays(alice, bob, carol, client):
    game = lobby.create_game(alice, seats=2, invite=[bob])
    lobby.join(game, carol, game.invite_token)  # the link filled the last seat first
    client.force_login(bob)
    page = client.post(accept_url(game), follow=True).content.decode()
    assert "Every seat is taken." in page
    assert not seated(game, bob) and Invitation.objects.filter(user=bob).exists()


def test_starting_the_game_drops_the_invitations_and_emails_only_the_seated(
    alice, bob, carol, client, mailoutbox, django_capture_on_commit_callbacks
):
    game = lobby.create_game(alice, seats=3, invite=[bob, carol])
    lobby.accept_invitation(game, carol)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start_game(game, alice, fill_with_bots=True)
    assert not Invitation.objects.exists()
    assert not seated(game, bob)
    assert all(message.to != [bob.email] for message in mailoutbox)
    client.force_login(bob)
    response = client.post(accept_url(game), follow=True)
    assert "This invitation is no longer open." in response.content.decode()
    assert not seated(game, bob)


def test_the_creator_sees_and_withdraws_pending_invitations(alice, bob, alice_client):
    game = lobby.create_game(alice, seats=3)
    invite = reverse("games:online_invite", args=[game.public_id])
    page = alice_client.post(invite, {"username": "BOB"}, **HTMX).content.decode()
    assert 'id="lobby"' in page and "Invited, waiting for an answer" in page and "bob" in page
    invitation = Invitation.objects.get(game=game, user=bob)
    assert not seated(game, bob)
    withdraw = reverse("games:online_withdraw_invitation", args=[game.public_id, invitation.pk])
    assert f'action="{withdraw}"' in page
    page = alice_client.post(withdraw, **HTMX).content.decode()
    assert 'id="lobby"' in page and "Invited, waiting for an answer" not in page
    assert not Invitation.objects.exists()


def test_only_the_creator_withdraws_an_invitation(alice, bob, carol, client):
    game = lobby.create_game(alice, seats=3, invite=[bob])
    lobby.join(game, carol, game.invite_token)
    invitation = Invitation.objects.get()
    client.force_login(carol)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Invited, waiting for an answer" not in page
    withdraw = reverse("games:online_withdraw_invitation", args=[game.public_id, invitation.pk])
    assert "Only the game&#x27;s creator can do that." in client.post(withdraw).content.decode()
    assert Invitation.objects.exists()


def test_an_invitation_is_refused_twice_for_the_seated_and_beyond_the_seats(alice, bob, carol):
    game = lobby.create_game(alice, seats=2)
    lobby.invite_user(game, alice, "bob")
    with pytest.raises(Refused, match="already invited"):
        lobby.invite_user(game, alice, "Bob")
    with pytest.raises(Refused, match="already in this game"):
        lobby.invite_user(game, alice, "alice")
    with pytest.raises(Refused, match="Every seat is taken or promised"):
        lobby.invite_user(game, alice, "carol")
    with pytest.raises(Refused, match="already in this game"):
        lobby.create_game(alice, seats=3, invite=[alice])


def test_joining_by_the_link_uses_up_a_pending_invitation(alice, bob):
    game = lobby.create_game(alice, seats=3, invite=[bob])
    lobby.join(game, bob, game.invite_token)
    assert seated(game, bob) and not Invitation.objects.exists()


def test_bots_leave_the_invited_their_seats_in_order(alice, bob, carol):
    game = lobby.create_game(alice, seats=4, invite=[bob, carol], bots=1)
    lobby.accept_invitation(game, bob)
    lobby.accept_invitation(game, carol)
    seats = [(s.player.user, s.is_bot) for s in game.seats.select_related("player")]
    assert seats == [(alice, False), (bob, False), (carol, False), (None, True)]


def test_a_rematch_invites_the_previous_players(alice, bob, carol):
    game = lobby.create_game(alice, seats=3, invite=[bob, carol])
    for user in (bob, carol):
        lobby.accept_invitation(game, user)
    game = lobby.start_game(game, alice)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    new = lobby.rematch(game, bob)
    assert [s.player.user for s in new.seats.select_related("player")] == [bob]
    assert set(Invitation.objects.filter(game=new).values_list("user", flat=True)) == {
        alice.pk,
        carol.pk,
    }


def test_my_invitations_cost_the_same_with_more_of_them(
    alice, bob, carol, stranger, client, django_assert_max_num_queries
):
    client.force_login(bob)
    client.get(reverse("home"))  # the language is in the session from now on
    lobby.create_game(alice, name="Game 1", seats=3, invite=[bob])
    # The session, the user, My games' extent (no seats: no rows to read), the
    # invitations' check, them and their seats.
    with django_assert_max_num_queries(6):
        page = client.get(reverse("games:online_list")).content.decode()
    assert page.count("invited you") == 1
    for n in range(2, 8):
        creator = (alice, carol, stranger)[n % 3]
        game = lobby.create_game(creator, name=f"Game {n}", seats=4, invite=[bob], bots=1)
        lobby.join(game, (carol, stranger, alice)[n % 3], game.invite_token)
    with django_assert_max_num_queries(6):
        page = client.get(reverse("games:online_list")).content.decode()
    assert page.count("invited you") == 7
