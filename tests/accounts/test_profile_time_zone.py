"""The account page offers the browser's time zone when it differs from the account's:
a hidden form that static/js/time-zone.js fills in and shows."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_account_page_carries_the_offer_and_the_script(alice_client, alice):
    alice.profile.time_zone = "Europe/Helsinki"
    alice.profile.save()
    page = alice_client.get(reverse("accounts:profile")).content.decode()
    offer = page.split('data-time-zone-offer="Europe/Helsinki"')[1].split("</form>")[0]
    assert " hidden>" in offer and 'name="time_zone"' in offer
    assert f'action="{reverse("accounts:profile_time_zone")}"' in page
    assert 'src="/static/js/time-zone.js"' in page and "<script>" not in page


def test_taking_the_browsers_time_zone_saves_it(alice_client, alice):
    response = alice_client.post(
        reverse("accounts:profile_time_zone"), {"time_zone": "Australia/Sydney"}, follow=True
    )
    assert "Your time zone is now Australia/Sydney." in response.content.decode()
    alice.profile.refresh_from_db()
    assert alice.profile.time_zone == "Australia/Sydney"


@pytest.mark.parametrize("zone", ["", "Mars/Olympus", "UTC; DROP TABLE"])
def test_a_zone_the_server_doesnt_know_changes_nothing(alice_client, alice, zone):
    response = alice_client.post(
        reverse("accounts:profile_time_zone"), {"time_zone": zone}, follow=True
    )
    assert "That time zone isn&#x27;t one we know." in response.content.decode()
    alice.profile.refresh_from_db()
    assert alice.profile.time_zone == "UTC"


def test_the_offer_needs_a_post_and_a_login(client, alice_client):
    url = reverse("accounts:profile_time_zone")
    assert alice_client.get(url).status_code == 405
    client.logout()
    assert client.post(url, {"time_zone": "Australia/Sydney"}).status_code == 302
