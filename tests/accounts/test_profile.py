import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_profile_needs_a_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response.url


def test_a_user_can_choose_their_language_and_the_site_follows_it(alice_client, alice):
    response = alice_client.post(
        reverse("accounts:profile"),
        {"language": "fi", "time_zone": "Europe/Helsinki", "avatar_colour": "#c0392b"},
    )
    assert response.status_code == 302
    alice.profile.refresh_from_db()
    assert (alice.profile.language, alice.profile.time_zone) == ("fi", "Europe/Helsinki")
    assert alice_client.get(reverse("home")).context["LANGUAGE_CODE"] == "fi"


def test_an_unknown_time_zone_is_refused(alice_client, alice):
    response = alice_client.post(
        reverse("accounts:profile"),
        {"language": "", "time_zone": "Mars/Olympus", "avatar_colour": "#c0392b"},
    )
    assert response.status_code == 200
    alice.profile.refresh_from_db()
    assert alice.profile.time_zone == "UTC"
