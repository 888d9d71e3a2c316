"""Sign-up keeps what the newcomer's browser says: the language the site was shown in
(so their emails are in it too) and the time zone (so quiet hours are their nights)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.notify.helpers import AFTERNOON, game_between

pytestmark = pytest.mark.django_db


def _signup(client, capture, **extra):
    data = {
        "username": "dana",
        "email": "dana@example.com",
        "password1": "a-long-enough-password",
        "password2": "a-long-enough-password",
        **extra.pop("data", {}),
    }
    with capture(execute=True):
        return client.post(reverse("accounts:signup"), data, **extra)


def _dana():
    return get_user_model().objects.select_related("profile").get(username="dana")


def test_a_finnish_sign_up_gets_game_emails_in_finnish(
    client, alice, mailoutbox, django_capture_on_commit_callbacks, time_machine
):
    time_machine.move_to(AFTERNOON)  # outside dana's quiet hours, whenever the suite runs
    response = _signup(client, django_capture_on_commit_callbacks, HTTP_ACCEPT_LANGUAGE="fi")
    assert response.status_code == 302
    dana = _dana()
    assert dana.profile.language == "fi"
    [confirm] = mailoutbox
    assert confirm.subject == "Vahvista sähköpostisi Phase 10 Clubia varten"
    dana.profile.email_verified = True
    dana.profile.save()
    mailoutbox.clear()
    # Later, outside any request of dana's: seat 1 (dana) plays first.
    with django_capture_on_commit_callbacks(execute=True):
        game_between(alice, dana, name="Perjantai")
    [turn] = mailoutbox
    assert turn.to == ["dana@example.com"]
    assert turn.subject == "Sinun vuorosi — Perjantai, kierros 1"


def test_the_language_picked_in_the_footer_is_the_one_kept(
    client, django_capture_on_commit_callbacks
):
    client.post(reverse("set_language"), {"language": "da", "next": "/"})
    _signup(client, django_capture_on_commit_callbacks, HTTP_ACCEPT_LANGUAGE="fi")
    assert _dana().profile.language == "da"


def test_sign_up_keeps_the_browsers_time_zone(client, django_capture_on_commit_callbacks):
    _signup(client, django_capture_on_commit_callbacks, data={"time_zone": "Australia/Sydney"})
    assert _dana().profile.time_zone == "Australia/Sydney"


@pytest.mark.parametrize("zone", ["", "Mars/Olympus", "../../etc/passwd", "x" * 300])
def test_a_missing_or_unknown_time_zone_signs_up_in_utc(
    client, django_capture_on_commit_callbacks, zone
):
    response = _signup(client, django_capture_on_commit_callbacks, data={"time_zone": zone})
    assert response.status_code == 302
    assert _dana().profile.time_zone == "UTC"


def test_the_sign_up_page_asks_the_browser_for_its_zone_without_inline_script(client):
    page = client.get(reverse("accounts:signup")).content.decode()
    assert 'type="hidden" name="time_zone"' in page and "data-browser-time-zone" in page
    assert 'src="/static/js/time-zone.js"' in page
    assert "<script>" not in page and "Intl.DateTimeFormat" not in page
