"""The account page's other sections: display name and email, game emails."""

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Player

pytestmark = pytest.mark.django_db


def test_the_account_page_shows_every_section(alice_client):
    page = alice_client.get(reverse("accounts:profile")).content.decode()
    for field in ("display_name", "email", "language", "time_zone", "avatar_colour", "notify"):
        assert f'name="{field}"' in page


def test_the_display_name_is_the_users_player_name(alice_client, alice):
    response = alice_client.post(
        reverse("accounts:profile_identity"),
        {"display_name": "  Alice   Liddell ", "email": "alice@example.com"},
    )
    assert response.status_code == 302
    assert Player.for_user(alice).name == "Alice Liddell"
    alice.profile.refresh_from_db()
    assert alice.profile.email_verified  # same address: still confirmed


def test_a_new_email_must_be_confirmed_again(
    alice_client, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post(
            reverse("accounts:profile_identity"),
            {"display_name": "alice", "email": "Alice@New.example"},
        )
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"
    assert alice.profile.email_verified is False
    assert mail.outbox[-1].to == ["alice@new.example"]


def test_an_email_taken_by_another_account_is_refused(alice_client, alice, bob):
    response = alice_client.post(
        reverse("accounts:profile_identity"), {"display_name": "alice", "email": "BOB@example.com"}
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_game_email_preferences_are_saved(alice_client, alice):
    response = alice_client.post(
        reverse("accounts:profile_notifications"),
        {"notify": "digest", "reminder_hours": "48", "digest_hour": "7"},
    )
    assert response.status_code == 302
    alice.profile.refresh_from_db()
    assert (alice.profile.notify, alice.profile.reminder_hours, alice.profile.digest_hour) == (
        "digest",
        48,
        7,
    )
    assert alice.profile.quiet_hours is False  # an unticked box


def test_profile_sections_only_take_posts(alice_client):
    for name in ("accounts:profile_identity", "accounts:profile_notifications"):
        assert alice_client.get(reverse(name)).status_code == 405
