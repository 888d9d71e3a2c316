"""The outbox: a move writes its notification rows in its own transaction, hands them
to Celery after commit, and each is sent exactly once."""

import time
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import transaction

from games.models import Notification
from games.notify import outbox
from games.tasks import send_notification, sweep_notifications
from phase10site.celery import app as celery_app
from tests.notify.helpers import (
    AFTERNOON,
    DEAD_SMTP,
    Kind,
    Status,
    act,
    deal,
    game_between,
    play_turn,
    rows,
    sent_to,
    whose_turn,
)

pytestmark = pytest.mark.django_db


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


def test_the_unsubscribe_header_stays_literal_on_the_wire(alice, bob, mailoutbox, committed):
    # Folded into RFC 2047 encoded words, the URL would be lost on mail clients.
    import email.policy

    committed(game_between, alice, bob)
    [message] = mailoutbox
    header = message.extra_headers["List-Unsubscribe"]
    assert len(header) > 78
    for policy, end in ((email.policy.default, "\n"), (email.policy.SMTP, "\r\n")):
        raw = message.message(policy=policy).as_bytes().decode()
        assert f"List-Unsubscribe: {header}{end}" in raw


def test_a_discard_tells_the_next_player_and_only_them(alice, bob, carol, mailoutbox, committed):
    game = committed(game_between, alice, bob, carol)
    mailoutbox.clear()
    game = committed(play_turn, game)  # bob draws and discards; carol is next
    [message] = mailoutbox
    assert message.to == ["carol@example.com"]
    assert rows(kind=Kind.YOUR_TURN, recipient=carol)[0].move_number == game.move_number == 2


def test_a_skip_in_a_two_player_game_keeps_the_turn_and_sends_no_second_email(
    alice, bob, mailoutbox, committed
):
    from games.engine import Discard, Draw

    game = committed(game_between, alice, bob)  # bob plays first: his one email
    deal(game, ["", "S B9 B10 B11"], up_card="G5", draw_pile="B1 R11")
    committed(act, game, Draw(), Discard("S"))  # alice is skipped: bob plays on
    assert whose_turn(game) == bob
    assert (len(sent_to(mailoutbox, bob)), sent_to(mailoutbox, alice)) == (1, [])
    committed(act, game, Draw(), Discard("B9"))
    assert len(sent_to(mailoutbox, alice)) == 1
    assert len(sent_to(mailoutbox, bob)) == 1


def test_a_draw_alone_sends_nothing(alice, bob, mailoutbox, committed):
    from games.engine import Draw
    from games.online import services

    game = committed(game_between, alice, bob)
    mailoutbox.clear()
    committed(services.perform, game, 1, Draw(), expected_move=0)
    assert mailoutbox == [] and len(rows()) == 1


def test_the_row_is_written_with_the_move_and_handed_over_only_after_commit(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game_between(alice, bob)
    [row] = rows()
    # Written queued (published once the move commits: no second statement for it).
    assert row.status == Status.QUEUED and mailoutbox == []
    for callback in callbacks:
        callback()
    assert len(mailoutbox) == 1
    row.refresh_from_db()
    assert row.status == Status.SENT and row.attempts == 1 and row.sent_at is not None


def test_a_move_that_rolls_back_leaves_no_notification(alice, bob, mailoutbox, committed):
    game = committed(game_between, alice, bob)
    with pytest.raises(RuntimeError), transaction.atomic():
        play_turn(game)
        raise RuntimeError("the request failed after the move")
    assert rows(recipient=alice) == []


def test_calling_the_hook_again_for_the_same_moves_writes_nothing_new(
    alice, bob, mailoutbox, committed
):
    from games.models import Move
    from games.online import services

    game = committed(game_between, alice, bob)
    game = committed(play_turn, game)
    moves = list(Move.objects.filter(game=game))
    with transaction.atomic():
        created = outbox.after_move(game, services.load_state(game), moves)
    assert created is None
    assert len(rows(recipient=alice, kind=Kind.YOUR_TURN)) == 1
    assert len(sent_to(mailoutbox, alice)) == 1


def test_a_moves_email_row_that_existed_already_fails_the_move_and_saves_none_of_it(alice, bob):
    """A move writes its rows without a savepoint (their keys hold the number of a move
    written in the same transaction); were one there already, nothing is saved."""
    from django.db import IntegrityError

    from games.engine import Draw
    from games.engine.absent import auto_discard
    from games.online import services

    game = game_between(alice, bob)
    seat = services.load_state(game).current_seat
    game = services.perform(game, seat, Draw(), expected_move=game.move_number)
    drawer = whose_turn(game)
    discard = auto_discard(services.load_state(game))
    next_up = bob if drawer == alice else alice
    Notification.objects.create(
        game=game, move_number=game.move_number + 1, recipient=next_up, kind=Kind.YOUR_TURN
    )
    with pytest.raises(IntegrityError):
        services.perform(game, seat, discard, expected_move=game.move_number)
    game.refresh_from_db()
    assert game.moves.count() == game.move_number and game.move_number == 1
    assert len(rows(kind=Kind.YOUR_TURN, move_number=2)) == 1  # the one that was there


def test_a_task_delivered_twice_sends_once(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        game_between(alice, bob)
    [row] = rows()
    send_notification.delay(row.pk)
    send_notification.delay(row.pk)
    assert len(mailoutbox) == 1
    row.refresh_from_db()
    assert row.status == Status.SENT and row.attempts == 1


def test_a_row_already_being_sent_by_another_worker_is_left_alone(alice, bob, mailoutbox):
    with transaction.atomic():
        game_between(alice, bob)
    [row] = rows()
    Notification.objects.filter(pk=row.pk).update(status=Status.SENDING)
    assert outbox.send(row.pk) == ""
    assert mailoutbox == []


def test_the_turn_email_says_round_phase_and_the_discard_pile(alice, bob, mailoutbox, committed):
    from games.notify.emails import card_name
    from games.online import services

    game = committed(game_between, alice, bob)
    mailoutbox.clear()
    game = committed(play_turn, game)
    state = services.load_state(game)
    [message] = mailoutbox
    assert message.subject == "Your turn — Friday game, round 1"
    assert f"On the discard pile: {card_name(str(state.discard_top))}." in message.body
    assert "Your goal: Phase 1: a set of 3 + a set of 3" in message.body
    assert game.get_absolute_url() in message.body


def test_emails_are_written_in_the_recipients_language(alice, bob, mailoutbox, committed):
    bob.profile.language = "fi"
    bob.profile.save()
    committed(game_between, alice, bob)
    [message] = mailoutbox
    assert '<html lang="fi" dir="ltr">' in message.alternatives[0].content


def test_an_arabic_email_reads_right_to_left(alice, bob, mailoutbox, committed):
    bob.profile.language = "ar"
    bob.profile.save()
    committed(game_between, alice, bob)
    [message] = mailoutbox
    html = message.alternatives[0].content
    assert '<html lang="ar" dir="rtl">' in html
    # Again inside the body, for mail programs that drop <html> and its attributes.
    assert '<div lang="ar" dir="rtl"' in html


def test_a_game_name_is_not_html_escaped_in_the_plain_text(alice, bob, mailoutbox, committed):
    committed(game_between, alice, bob, name="Tom & Jerry's")
    [message] = mailoutbox
    assert message.subject == "Your turn — Tom & Jerry's, round 1"
    assert "Tom & Jerry's" in message.body
    assert "Tom &amp; Jerry&#x27;s" in message.alternatives[0].content


# --- who gets mail ---------------------------------------------------------------------


def _prefer(user, **fields):
    for name, value in fields.items():
        setattr(user.profile, name, value)
    user.profile.save()


def test_an_unverified_address_gets_no_mail(alice, bob, mailoutbox, committed):
    _prefer(bob, email_verified=False)
    committed(game_between, alice, bob)
    assert mailoutbox == [] and rows() == []


def test_game_emails_off_sends_nothing(alice, bob, mailoutbox, committed):
    _prefer(bob, notify="off")
    committed(game_between, alice, bob)
    assert mailoutbox == []


def test_digest_readers_get_no_per_turn_mail(alice, bob, mailoutbox, committed):
    _prefer(bob, notify="digest")
    committed(game_between, alice, bob)
    assert mailoutbox == []


def test_a_muted_game_sends_nothing_to_that_player(alice, bob, mailoutbox, committed):
    game = committed(game_between, alice, bob)
    game.seats.filter(player__user=alice).update(muted=True)
    mailoutbox.clear()
    committed(play_turn, game)
    assert mailoutbox == []


def test_preferences_are_checked_again_when_the_email_is_sent(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game_between(alice, bob)
    _prefer(bob, notify="off")
    for callback in callbacks:
        callback()
    [row] = rows()
    assert mailoutbox == []
    assert (row.status, row.last_error) == (Status.SKIPPED, "game emails turned off")


def test_a_turn_email_is_dropped_if_the_turn_was_played_before_it_went_out(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = game_between(alice, bob)
        play_turn(game)
    for callback in callbacks:
        callback()
    bob_row = rows(recipient=bob)[0]
    assert (bob_row.status, bob_row.last_error) == (Status.SKIPPED, "turn already played")
    assert [m.to for m in mailoutbox] == [["alice@example.com"]]


def test_an_old_turns_email_is_dropped_when_the_same_player_is_on_turn_again(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    # bob's first "your turn" waits (a broker down, say) while bob and then alice play:
    # when it goes out bob is on turn again, but for another turn, which has its own.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = game_between(alice, bob)
        game = play_turn(game)  # bob
        game = play_turn(game)  # alice: bob's turn again
    assert whose_turn(game) == bob
    old, new = rows(recipient=bob, kind=Kind.YOUR_TURN)
    assert (old.move_number, new.move_number) == (0, 4)
    for callback in callbacks:
        callback()
    old.refresh_from_db()
    new.refresh_from_db()
    assert (old.status, old.last_error) == (Status.SKIPPED, "turn already played")
    assert new.status == Status.SENT
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]


# --- quiet hours -----------------------------------------------------------------------


def test_quiet_hours_hold_a_turn_email_until_eight_in_the_recipients_time_zone(
    alice, bob, mailoutbox, committed, time_machine
):
    _prefer(bob, time_zone="Europe/Helsinki")  # UTC+2 in March
    time_machine.move_to(datetime(2026, 3, 10, 21, 30, tzinfo=UTC), tick=False)  # 23:30 there
    committed(game_between, alice, bob)
    [row] = rows()
    assert mailoutbox == [] and row.status == Status.PENDING
    assert row.send_after == datetime(2026, 3, 11, 6, 0, tzinfo=UTC)  # 08:00 there
    time_machine.move_to(datetime(2026, 3, 11, 5, 59, tzinfo=UTC), tick=False)
    sweep_notifications.delay()
    assert mailoutbox == []
    time_machine.move_to(datetime(2026, 3, 11, 6, 1, tzinfo=UTC), tick=False)
    sweep_notifications.delay()
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]


def test_without_quiet_hours_mail_goes_at_night(alice, bob, mailoutbox, committed, time_machine):
    _prefer(bob, time_zone="Europe/Helsinki", quiet_hours=False)
    time_machine.move_to(datetime(2026, 3, 10, 21, 30, tzinfo=UTC), tick=False)
    committed(game_between, alice, bob)
    assert len(mailoutbox) == 1


def test_quiet_hours_follow_each_recipients_own_clock(
    alice, bob, mailoutbox, committed, time_machine
):
    # 23:30 in Helsinki is 16:30 in Chicago: daytime there.
    _prefer(bob, time_zone="America/Chicago")
    time_machine.move_to(datetime(2026, 3, 10, 21, 30, tzinfo=UTC), tick=False)
    committed(game_between, alice, bob)
    assert len(mailoutbox) == 1


def test_a_row_that_reaches_the_worker_during_quiet_hours_waits_again(
    alice, bob, mailoutbox, time_machine
):
    time_machine.move_to(datetime(2026, 3, 10, 20, 30, tzinfo=UTC), tick=False)
    with transaction.atomic():
        game_between(alice, bob)
    [row] = rows()
    time_machine.move_to(datetime(2026, 3, 10, 23, 0, tzinfo=UTC), tick=False)  # UTC profile
    assert outbox.send(row.pk) == Status.PENDING
    row.refresh_from_db()
    assert row.send_after == datetime(2026, 3, 11, 8, 0, tzinfo=UTC) and row.attempts == 0
    assert mailoutbox == []


# --- send errors, the sweeper, a dead broker ----------------------------------------------


def test_a_send_error_retries_with_backoff_and_gives_up_visibly(
    alice, bob, mailoutbox, settings, time_machine, django_capture_on_commit_callbacks
):
    settings.MAILERS = DEAD_SMTP
    now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    time_machine.move_to(now, tick=False)
    with django_capture_on_commit_callbacks(execute=True):
        game_between(alice, bob)
    [row] = rows()
    waits = []
    for _attempt in range(10):
        row.refresh_from_db()
        if row.status != Status.PENDING:
            break
        waits.append(row.send_after - now)
        now = row.send_after + timedelta(minutes=1)
        time_machine.move_to(now, tick=False)
        sweep_notifications.delay()
    row.refresh_from_db()
    assert row.status == Status.FAILED
    assert row.attempts == outbox.MAX_ATTEMPTS == 5
    assert "ConnectionRefusedError" in row.last_error
    assert waits == list(outbox.RETRY_DELAYS)
    assert mailoutbox == []


def test_the_sweeper_leaves_fresh_rows_to_the_normal_hand_over(
    alice, bob, mailoutbox, time_machine
):
    time_machine.move_to(AFTERNOON, tick=False)
    with transaction.atomic():
        game_between(alice, bob)
    # Pending, as a hand-over that found the broker down leaves it.
    Notification.objects.update(status=Status.PENDING, queued_at=None)
    assert sweep_notifications.delay().get()["due"] == 0
    time_machine.move_to(AFTERNOON + timedelta(seconds=61), tick=False)
    assert sweep_notifications.delay().get() == {"published": 1, "due": 1, "stuck": 0}
    assert len(mailoutbox) == 1


def test_the_sweeper_fails_a_row_a_dead_worker_left_while_sending(
    alice, bob, mailoutbox, time_machine
):
    time_machine.move_to(AFTERNOON, tick=False)
    with transaction.atomic():
        game_between(alice, bob)
    [row] = rows()
    Notification.objects.filter(pk=row.pk).update(status=Status.SENDING, claimed_at=AFTERNOON)
    time_machine.move_to(AFTERNOON + timedelta(minutes=11), tick=False)
    assert sweep_notifications.delay().get()["stuck"] == 1
    row.refresh_from_db()
    assert row.status == Status.FAILED and "can't be sent twice" in row.last_error
    assert mailoutbox == []


def test_the_sweeper_publishes_again_a_row_the_broker_lost(alice, bob, mailoutbox, time_machine):
    time_machine.move_to(AFTERNOON, tick=False)
    with transaction.atomic():
        game_between(alice, bob)
    [row] = rows()
    Notification.objects.filter(pk=row.pk).update(status=Status.QUEUED, queued_at=AFTERNOON)
    time_machine.move_to(AFTERNOON + timedelta(minutes=12), tick=False)
    sweep_notifications.delay()
    assert len(mailoutbox) == 1


def test_a_row_whose_move_never_published_it_is_sent_by_the_sweeper_minutes_later(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks, time_machine
):
    time_machine.move_to(AFTERNOON, tick=False)
    # The process stops between the commit and the publish: the callbacks never run.
    with django_capture_on_commit_callbacks(execute=False):
        game_between(alice, bob)
    [row] = rows()
    assert row.status == Status.QUEUED
    time_machine.move_to(AFTERNOON + timedelta(minutes=1), tick=False)
    sweep_notifications.delay()
    assert mailoutbox == []  # it may still be on its way
    time_machine.move_to(AFTERNOON + timedelta(minutes=3), tick=False)
    sweep_notifications.delay()  # queued too long: pending again, published
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]
    sweep_notifications.delay()
    assert len(mailoutbox) == 1


@pytest.fixture
def dead_broker():
    """Celery for real (not eager) against a port where nothing listens."""
    keys = ("broker_url", "broker_write_url")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(dict.fromkeys(keys, "redis://127.0.0.1:1/0"))
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.update(saved)
    celery_app.conf.task_always_eager = True


def test_a_move_succeeds_quickly_when_the_broker_is_down_and_mails_once_it_is_back(
    alice, bob, mailoutbox, committed, dead_broker, time_machine
):
    game = committed(game_between, alice, bob)
    started = time.monotonic()
    game = committed(play_turn, game)
    elapsed = time.monotonic() - started
    assert elapsed < 2, elapsed
    assert game.move_number == 2
    assert {row.status for row in rows()} == {Status.PENDING}
    assert mailoutbox == []
    # The broker is back (eager again); the next sweep a minute later sends alice's
    # email, and drops bob's: he has played that turn in the meantime.
    celery_app.conf.task_always_eager = True
    time_machine.move_to(AFTERNOON + timedelta(minutes=5))
    sweep_notifications.delay()
    assert [m.to for m in mailoutbox] == [["alice@example.com"]]
    assert rows(recipient=bob)[0].status == Status.SKIPPED
