"""Inviting by username: one lookup (`find_member`) for every form that
names a member — active accounts only, any case."""

import pytest
from django.urls import reverse

from games.models import Game
from games.players import find_member

pytestmark = pytest.mark.django_db

FORM = {
    "seats": 4,
    "bots": 0,
    "phases": "all",
    "progression": "normal",
    "natural_card": "phase",
    "skip_target": "next",
}


def test_a_deactivated_account_cannot_be_invited(alice_client, bob):
    bob.is_active = False
    bob.save()
    page = alice_client.post(reverse("games:online_create"), {**FORM, "invite": "BOB"})
    assert "There is no player called" in page.content.decode()
    assert not Game.objects.exists()
    assert find_member("bob") is None


def test_usernames_match_in_any_case(alice_client, bob):
    response = alice_client.post(reverse("games:online_create"), {**FORM, "invite": " BoB "})
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.invitations.get().user == bob


def test_a_longer_invite_list_than_seats_is_refused_before_any_lookup(
    alice_client, django_assert_max_num_queries
):
    names = " ".join(f"user{n}" for n in range(50))
    # Session, user, header count, the member's clubs (the form's club choice): no lookups.
    with django_assert_max_num_queries(4):
        page = alice_client.post(reverse("games:online_create"), {**FORM, "invite": names})
    assert "Invite at most 5 players." in page.content.decode()
