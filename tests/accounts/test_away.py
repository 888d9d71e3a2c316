"""Away mode (accounts/away.py): at most 30 days a calendar year, coming back early gives
back the days after today, others see "away until …" beside the name."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse

from accounts import away
from accounts.models import AwayPeriod
from games.engine import Rules
from games.errors import Refused
from games.online import lobby, pause
from tests.online.helpers import started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)  # a Tuesday


@pytest.fixture(autouse=True)
def _now(time_machine):
    time_machine.move_to(T0, tick=False)


def test_thirty_days_a_year_are_allowed_and_one_more_is_refused_saying_whats_left(bob):
    with pytest.raises(Refused) as refused:
        away.go_away(bob, date(2026, 4, 9))  # 10 March to 8 April is 30 days; one more
    assert refused.value.message == (
        "That is 31 days away. You have 30 days of away mode left in 2026 (at most 30 a year)."
    )
    assert not AwayPeriod.objects.exists()
    away.go_away(bob, date(2026, 4, 8))
    bob.profile.refresh_from_db()
    assert bob.profile.away_until == datetime(2026, 4, 9, tzinfo=UTC)
    assert away.days_left(bob, 2026) == 0


def test_coming_back_early_gives_back_the_days_after_today(bob, time_machine):
    away.go_away(bob, date(2026, 3, 19))  # ten days
    time_machine.move_to(T0 + timedelta(days=2), tick=False)
    assert away.come_back(bob) == 7  # 10, 11 and 12 March are used
    assert away.days_left(bob, 2026) == 27
    bob.profile.refresh_from_db()
    assert bob.profile.away_until is None


def test_days_are_counted_in_each_calendar_year(bob, time_machine):
    time_machine.move_to(datetime(2026, 12, 20, 12, tzinfo=UTC), tick=False)
    away.go_away(bob, date(2027, 1, 5))
    assert away.days_left(bob, 2026) == 30 - 12
    assert away.days_left(bob, 2027) == 30 - 5


def test_changing_the_last_day_while_away_counts_the_period_once(bob):
    away.go_away(bob, date(2026, 3, 19))
    away.go_away(bob, date(2026, 3, 29))  # twenty days in all, not thirty
    assert AwayPeriod.objects.count() == 1
    assert away.days_left(bob, 2026) == 10


def test_a_day_in_the_past_is_refused(bob):
    with pytest.raises(Refused, match="today or a later day"):
        away.go_away(bob, date(2026, 3, 9))


def test_a_stretch_that_began_days_ago_cannot_be_moved_to_end_in_the_past(bob, time_machine):
    away.go_away(bob, date(2026, 3, 19))
    time_machine.move_to(T0 + timedelta(days=3), tick=False)  # the 13th
    with pytest.raises(Refused, match="today or a later day"):
        away.go_away(bob, date(2026, 3, 11))
    bob.profile.refresh_from_db()
    assert bob.profile.away_until == datetime(2026, 3, 20, tzinfo=UTC)  # unchanged
    away.go_away(bob, date(2026, 3, 13))  # today is the last day: fine
    assert away.days_left(bob, 2026) == 26


def test_the_form_refuses_too_long_a_stretch_and_says_how_many_days_are_left(client, bob):
    away.go_away(bob, date(2026, 3, 29))
    away.come_back(bob)  # the 10th counted
    client.force_login(bob)
    response = client.post(reverse("accounts:away"), {"until": "2026-04-30"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "You have 29 days of away mode left in 2026" in page
    bob.profile.refresh_from_db()
    assert bob.profile.away_until is None


def test_the_page_sets_and_ends_away_mode(client, bob):
    client.force_login(bob)
    response = client.post(reverse("accounts:away"), {"until": "2026-03-12"})
    assert response.status_code == 302
    page = client.get(reverse("accounts:away")).content.decode()
    assert "You are away" in page and "You have 27 days of away mode left in 2026." in page
    assert "away until Thursday" in client.get(reverse("accounts:profile")).content.decode()
    client.post(reverse("accounts:away_end"))
    bob.profile.refresh_from_db()
    assert bob.profile.away_until is None


def test_others_see_away_until_beside_the_name_on_the_board_and_in_the_lobby(
    client, alice, bob, carol
):
    game = started_game(alice, bob)
    away.go_away(bob, date(2026, 3, 12))
    client.force_login(alice)
    board = client.get(game.get_absolute_url()).content.decode()
    assert "away until Thursday" in board
    assert "(stopped while the player is away)" not in board  # no time limit here
    waiting = lobby.create_game(carol, name="Next", seats=3, rules=Rules(), invite=[])
    lobby.join(waiting, bob, waiting.invite_token)
    client.force_login(carol)
    assert "away until Thursday" in client.get(waiting.get_absolute_url()).content.decode()


def test_the_away_day_is_said_in_the_viewers_time_zone(client, alice, bob):
    game = started_game(alice, bob)
    away.go_away(bob, date(2026, 3, 12))  # until midnight UTC
    alice.profile.time_zone = "Pacific/Auckland"  # 13 hours ahead: Friday by then
    alice.profile.save()
    client.force_login(alice)
    assert "away until Friday" in client.get(game.get_absolute_url()).content.decode()


def test_a_later_day_than_a_week_is_said_as_a_date(bob):
    away.go_away(bob, date(2026, 3, 25))
    assert away.status_words(bob) == "away until March 25"


def test_away_ends_by_itself_at_midnight_after_the_last_day(client, alice, bob, time_machine):
    game = started_game(alice, bob)
    away.go_away(bob, date(2026, 3, 12))
    time_machine.move_to(datetime(2026, 3, 13, 0, 5, tzinfo=UTC), tick=False)
    assert pause.wake_returned() == 1
    bob.profile.refresh_from_db()
    assert bob.profile.away_until is None
    client.force_login(alice)
    assert "away until" not in client.get(game.get_absolute_url()).content.decode()
