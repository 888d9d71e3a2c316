"""The outbox: a move writes its notification rows in its own transaction, hands them
to Celery after commit, and each is sent exactly once."""

import time
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import transaction

from games import notifications
from games.models import Notification
from games.tasks import send_notification, sweep_notifications
from phase10site.celery import app as celery_app
from tests.games.notify_helpers import (
    DEAD_SMTP,
    Kind,
    Status,
    game_between,
    play_turn,
    rows,
    sent_to,
)

pytestmark = pytest.mark.django_db

# 14:00 UTC: outside everyone's quiet hours in the zones these tests use.
AFTERNOON = datetime(2026, 3, 10, 14, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _afternoon():
    with time_machine.travel(AFTERNOON, tick=True):
        yield


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run the after-commit hand-over as a real commit would."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def test_starting_a_game_tells_the_first_player_it_is_their_turn(alice, bob, mailoutbox, committed):
    committed(game_between, alice, bob)
    # Seat 0 deals round 1, so seat 1 (bob) plays first.
    [message] = mailoutbox
    assert message.to == ["bob@example.com"]
    assert message.subject == "Your turn — Friday game, round 1"
    [row] = rows()
    assert (row.kind, row.recipient, row.status, row.move_number) == (
        Kind.YOUR_TURN,
        bob,
        Status.SENT,
        0,
    )


def test_every_game_email_has_one_click_unsubscribe_headers(alice, bob, mailoutbox, committed):
    committed(game_between, alice, bob)
    [message] = mailoutbox
    assert message.extra_headers["List-Unsubscribe"].startswith(
        "<http://127.0.0.1:8000/unsubscribe/"
    )
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    html = message.alternatives[0].content
    assert "http://127.0.0.1:8000/" in html and "Open the game" in html
