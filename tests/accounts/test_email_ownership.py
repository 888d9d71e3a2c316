"""An address belongs to whoever confirms it. Typing someone's address at sign-up proves
nothing: such an account never matches a guest claim sent to that address, and never
keeps the address's real owner from signing up with it."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import claims
from accounts.models import GuestClaim
from games.models import Player, Seat
from tests.stats.factories import laid, make_game, missed, player

pytestmark = pytest.mark.django_db

OWNER = "owner@example.com"


@pytest.fixture
def squatter(db):
    """Signed up with someone else's address; never confirmed it (they can't)."""
    return get_user_model().objects.create_user("squatter", OWNER, "a-long-enough-password")


@pytest.fixture
def guest(alice, bob):
    """A guest at a game night alice scored."""
    guest = player("Olive", created_by=alice)
    make_game(
        [player(alice), player(bob), guest],
        [[missed(1, 20), missed(1, 30), laid(1, out=True)]],
        winner=2,
        rules={"phases": [1]},
    )
    return guest


def _signup(client, capture, username="owner", email=OWNER):
    data = {
        "username": username,
        "email": email,
        "password1": "a-long-enough-password",
        "password2": "a-long-enough-password",
    }
    with capture(execute=True):
        return client.post(reverse("accounts:signup"), data)


def _confirm_link(address):
    body = next(m.body for m in reversed(mail.outbox) if m.to == [address])
    return "/" + re.search(r"https?://[^/]+/(accounts/verify/\S+/)", body).group(1)


def test_an_unconfirmed_account_does_not_keep_the_owner_from_signing_up(
    squatter, client, django_capture_on_commit_callbacks
):
    response = _signup(client, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    owner = get_user_model().objects.get(username="owner")
    assert owner.email == OWNER
    client.get(_confirm_link(OWNER))
    owner.profile.refresh_from_db()
    assert owner.profile.email_verified


def test_a_confirmed_address_still_belongs_to_one_account(
    alice, client, django_capture_on_commit_callbacks
):
    response = _signup(client, django_capture_on_commit_callbacks, email="ALICE@example.com")
    assert "An account with this email already exists." in response.content.decode()
    assert not get_user_model().objects.filter(username="owner").exists()


def test_the_owner_can_move_to_an_address_only_an_unconfirmed_account_has(
    squatter, alice_client, alice
):
    response = alice_client.post(
        reverse("accounts:profile_identity"), {"display_name": "alice", "email": OWNER}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == OWNER


def test_a_second_account_cannot_confirm_an_address_already_confirmed(
    squatter, client, django_capture_on_commit_callbacks
):
    _signup(client, django_capture_on_commit_callbacks)
    client.get(_confirm_link(OWNER))
    # The squatter's own link (sent to the owner's inbox) doesn't confirm it twice.
    with django_capture_on_commit_callbacks(execute=True):
        client.force_login(squatter)
        client.post(reverse("accounts:resend_verification"))
    page = client.get(_confirm_link(OWNER), follow=True).content.decode()
    assert "already confirmed for another account" in page
    squatter.profile.refresh_from_db()
    assert not squatter.profile.email_verified


def test_a_claim_sent_to_an_address_never_goes_to_an_unconfirmed_account(
    squatter, guest, alice_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post(reverse("accounts:invite_guest", args=[guest.pk]), {"who": OWNER})
    claim = GuestClaim.objects.get()
    assert (claim.user, claim.approver, claim.email) == (None, None, OWNER)
    client = Client()
    client.force_login(squatter)
    assert "Olive" not in client.get(reverse("accounts:claims")).content.decode()
    response = client.post(reverse("accounts:claim_accept", args=[claim.pk]))
    assert response.status_code == 404
    with pytest.raises(claims.ClaimError):
        claims.accept(claim, squatter)
    assert Player.objects.filter(pk=guest.pk, user=None).exists()


def test_the_owner_who_confirms_the_address_takes_the_claim(
    squatter, guest, alice_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post(reverse("accounts:invite_guest", args=[guest.pk]), {"who": OWNER})
    claim = GuestClaim.objects.get()
    client = Client()
    _signup(client, django_capture_on_commit_callbacks)
    client.get(_confirm_link(OWNER))
    client.post(reverse("accounts:claim_accept", args=[claim.pk]))
    owner = get_user_model().objects.get(username="owner")
    assert Seat.objects.filter(player__user=owner).count() == 1
    assert not Player.objects.filter(pk=guest.pk).exists()
