"""Quiet hours are the recipient's nights where they live: a newcomer in Sydney signs up
with their browser's zone, and their turn emails go in Sydney's daytime."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from games.notify.policy import quiet_until
from tests.notify.helpers import Status, game_between, rows

pytestmark = pytest.mark.django_db

SYDNEY = "Australia/Sydney"  # UTC+11 in March (daylight saving time)


@pytest.fixture
def sydney(client, time_machine, django_capture_on_commit_callbacks):
    """dana signed up from a browser in Sydney and confirmed her address."""
    time_machine.move_to(datetime(2026, 3, 1, 3, 0, tzinfo=UTC), tick=False)
    data = {
        "username": "dana",
        "email": "dana@example.com",
        "password1": "a-long-enough-password",
        "password2": "a-long-enough-password",
        "time_zone": SYDNEY,
    }
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:signup"), data)
    dana = get_user_model().objects.get(username="dana")
    dana.profile.email_verified = True
    dana.profile.save()
    mail.outbox.clear()  # the confirmation link
    return dana


def test_a_turn_email_goes_at_once_in_sydneys_morning(
    sydney, alice, mailoutbox, time_machine, django_capture_on_commit_callbacks
):
    # 00:30 UTC: night in UTC, 11:30 in Sydney.
    time_machine.move_to(datetime(2026, 3, 10, 0, 30, tzinfo=UTC), tick=False)
    with django_capture_on_commit_callbacks(execute=True):
        game_between(alice, sydney)  # seat 1 (dana) plays first
    assert [m.to for m in mailoutbox] == [["dana@example.com"]]


def test_a_turn_email_at_night_in_sydney_waits_for_eight_there(
    sydney, alice, mailoutbox, time_machine, django_capture_on_commit_callbacks
):
    # 12:30 UTC: afternoon in UTC, 23:30 in Sydney.
    time_machine.move_to(datetime(2026, 3, 10, 12, 30, tzinfo=UTC), tick=False)
    with django_capture_on_commit_callbacks(execute=True):
        game_between(alice, sydney)
    [row] = rows()
    assert mailoutbox == [] and row.status == Status.PENDING
    assert row.send_after == datetime(2026, 3, 10, 21, 0, tzinfo=UTC)  # 08:00 on the 11th


def test_quiet_hours_follow_sydneys_clock_across_midnight(sydney):
    profile = sydney.profile
    assert quiet_until(profile, datetime(2026, 3, 10, 10, 59, tzinfo=UTC)) is None  # 21:59
    held = quiet_until(profile, datetime(2026, 3, 10, 11, 0, tzinfo=UTC))  # 22:00
    assert held == datetime(2026, 3, 10, 21, 0, tzinfo=UTC)
    held = quiet_until(profile, datetime(2026, 3, 10, 20, 59, tzinfo=UTC))  # 07:59
    assert held == datetime(2026, 3, 10, 21, 0, tzinfo=UTC)
    assert quiet_until(profile, datetime(2026, 3, 10, 21, 0, tzinfo=UTC)) is None  # 08:00
