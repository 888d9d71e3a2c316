"""The time-limit and reminder jobs across a paused game and an away player: the clock
stands still, nothing is sent or played, and once it runs again the turn has the time it
had left (time-machine moves the clock)."""

import threading
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection

from accounts import away
from games.models import Game, Move
from games.notify import jobs, outbox
from games.notify.policy import games_waiting_for_users
from games.online import pause
from games.tasks import enforce_time_limits, send_reminders
from tests.conftest import require_postgres
from tests.notify.helpers import Kind, Status, game_between, play_turn, rows, sent_to

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)  # a Tuesday morning in UTC
BACK = datetime(2026, 3, 13, 0, 0, tzinfo=UTC)  # the end of bob's away (Thursday 12th)
HOUR = timedelta(hours=1)


@pytest.fixture
def at(time_machine, django_capture_on_commit_callbacks):
    def run(when, job, *args, **kwargs):
        time_machine.move_to(when, tick=False)
        with django_capture_on_commit_callbacks(execute=True):
            return job(*args, **kwargs)

    return run


def reminders_to(mailoutbox, user):
    return [m for m in sent_to(mailoutbox, user) if m.subject.startswith("Still your turn")]


@pytest.fixture(autouse=True)
def _no_quiet_hours(bob):
    # The reminders here fall at night in UTC: sent at once, not held for the morning.
    bob.profile.quiet_hours = False
    bob.profile.save()


def played(game):
    return Move.objects.filter(game=game, automatic=True).count()


def paused(game, *users):
    for user in users:
        pause.agree(game, user)


# --- a paused game ----------------------------------------------------------------------


def test_the_time_limit_waits_across_a_pause_and_resumes_with_the_time_left(alice, bob, at):
    game = at(T0, game_between, alice, bob, time_limit=timedelta(hours=12))  # bob to play
    at(T0 + 2 * HOUR, paused, game, alice, bob)
    at(T0 + timedelta(days=2), enforce_time_limits.delay)
    assert played(game) == 0 and rows(kind=Kind.TIME_WARNING) == []
    at(T0 + timedelta(days=3), pause.resume, game, alice)  # 10 hours left
    at(T0 + timedelta(days=3) + 9 * HOUR + timedelta(minutes=59), enforce_time_limits.delay)
    assert played(game) == 0
    assert len(rows(kind=Kind.TIME_WARNING)) == 1  # at 80%: 9h36 of the 12 hours used
    at(T0 + timedelta(days=3) + 10 * HOUR + timedelta(minutes=1), enforce_time_limits.delay)
    assert played(game) == 2  # the draw and the discard


def test_reminders_wait_across_a_pause(alice, bob, mailoutbox, at):
    game = at(T0, game_between, alice, bob)  # bob's delay: 24 hours
    at(T0 + HOUR, paused, game, alice, bob)
    at(T0 + timedelta(hours=30), send_reminders.delay)
    assert reminders_to(mailoutbox, bob) == []
    at(T0 + timedelta(days=2), pause.resume, game, bob)  # the turn has waited one hour
    at(T0 + timedelta(days=2, hours=22), send_reminders.delay)
    assert reminders_to(mailoutbox, bob) == []
    at(T0 + timedelta(days=2, hours=23, minutes=1), send_reminders.delay)
    assert len(reminders_to(mailoutbox, bob)) == 1


def test_an_email_written_before_the_pause_is_not_sent_during_it(alice, bob, time_machine):
    time_machine.move_to(T0, tick=False)
    game = game_between(alice, bob)  # "your turn" to bob, not handed over yet
    [row] = rows(kind=Kind.YOUR_TURN)
    paused(game, alice, bob)
    assert outbox.send(row.pk, now=T0) == Status.SKIPPED
    row.refresh_from_db()
    assert row.last_error == "game paused"


def test_a_paused_game_is_not_in_the_digest(alice, bob, time_machine):
    time_machine.move_to(T0, tick=False)
    game = game_between(alice, bob)
    assert list(games_waiting_for_users([bob.pk])) == [game]
    paused(game, alice, bob)
    assert list(games_waiting_for_users([bob.pk])) == []


# --- an away player ---------------------------------------------------------------------


def test_the_time_limit_waits_while_the_player_is_away_then_counts_from_the_return(alice, bob, at):
    game = at(T0, game_between, alice, bob, time_limit=timedelta(hours=12))
    at(T0 + HOUR, away.go_away, bob, date(2026, 3, 12))  # 11 hours left
    at(T0 + timedelta(days=2), enforce_time_limits.delay)
    assert played(game) == 0 and rows(kind=Kind.TIME_WARNING) == []
    # The job that runs after midnight restarts the clock from midnight, not from its run.
    at(BACK + timedelta(minutes=30), enforce_time_limits.delay)
    game.refresh_from_db()
    assert game.clock_stopped_at is None
    assert pause.time_left(game, BACK) == 11 * HOUR
    at(BACK + 10 * HOUR + timedelta(minutes=59), enforce_time_limits.delay)
    assert played(game) == 0
    at(BACK + 11 * HOUR + timedelta(minutes=1), enforce_time_limits.delay)
    assert played(game) == 2


def test_reminders_wait_while_the_player_is_away(alice, bob, mailoutbox, at):
    at(T0, game_between, alice, bob)
    at(T0 + 2 * HOUR, away.go_away, bob, date(2026, 3, 12))
    at(T0 + timedelta(days=2), send_reminders.delay)
    assert reminders_to(mailoutbox, bob) == []
    at(BACK + 21 * HOUR, send_reminders.delay)  # 2 + 21 hours waited
    assert reminders_to(mailoutbox, bob) == []
    at(BACK + 22 * HOUR + timedelta(minutes=1), send_reminders.delay)
    assert len(reminders_to(mailoutbox, bob)) == 1


def test_coming_back_early_restarts_the_clock_at_once(alice, bob, at):
    game = at(T0, game_between, alice, bob, time_limit=timedelta(hours=12))
    at(T0 + HOUR, away.go_away, bob, date(2026, 3, 20))
    at(T0 + timedelta(days=1), away.come_back, bob)
    game.refresh_from_db()
    assert game.clock_stopped_at is None
    assert pause.time_left(game, T0 + timedelta(days=1)) == 11 * HOUR


def test_a_turn_that_starts_while_its_player_is_away_starts_stopped(alice, bob, at):
    game = at(T0, game_between, alice, bob, time_limit=timedelta(hours=12))
    at(T0 + HOUR, away.go_away, alice, date(2026, 3, 12))
    at(T0 + 2 * HOUR, play_turn, game)  # bob plays: alice's turn begins
    game.refresh_from_db()
    assert game.current_player.user == alice
    assert game.clock_stopped_at == T0 + 2 * HOUR
    at(T0 + timedelta(days=1), enforce_time_limits.delay)
    assert played(game) == 0
    at(BACK + timedelta(minutes=5), enforce_time_limits.delay)
    game.refresh_from_db()
    assert pause.time_left(game, BACK) == timedelta(hours=12)


def test_a_pause_during_an_away_keeps_the_clock_stopped_until_both_end(alice, bob, at):
    game = at(T0, game_between, alice, bob, time_limit=timedelta(hours=12))
    at(T0 + HOUR, away.go_away, bob, date(2026, 3, 12))
    at(T0 + 2 * HOUR, paused, game, alice, bob)
    at(T0 + 3 * HOUR, pause.resume, game, alice)  # bob still away: stays stopped
    game.refresh_from_db()
    assert game.clock_stopped_at == T0 + HOUR
    at(BACK + timedelta(minutes=1), enforce_time_limits.delay)
    game.refresh_from_db()
    assert game.clock_stopped_at is None
    assert pause.time_left(game, BACK) == 11 * HOUR


# --- two runs at once (PostgreSQL) -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_jobs_running_at_once_restart_a_returned_players_clock_once(alice, bob, time_machine):
    require_postgres("concurrent writers need PostgreSQL")
    time_machine.move_to(T0, tick=False)
    game = game_between(alice, bob, time_limit=timedelta(hours=12))
    time_machine.move_to(T0 + HOUR, tick=False)
    away.go_away(bob, date(2026, 3, 12))
    later = BACK + timedelta(minutes=10)
    time_machine.move_to(later, tick=False)
    barrier = threading.Barrier(4)
    results, errors = [], []

    def run():
        try:
            barrier.wait()
            results.append(pause.wake_returned(later))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(results) == [0, 0, 0, 1]
    game.refresh_from_db()
    assert pause.time_left(game, BACK) == 11 * HOUR
    assert jobs.enforce_time_limits(later) == {"warned": 0, "played": 0}
    assert Game.objects.get(pk=game.pk).clock_stopped_at is None
