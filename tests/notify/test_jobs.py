"""The beat jobs: reminders, the daily digest and time limits. Each one is run at
chosen moments (time-machine) and twice, to prove a second run does nothing."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from games.engine.absent import auto_discard
from games.models import Game, Move
from games.notify import jobs, outbox
from games.tasks import enforce_time_limits, send_digests, send_reminders
from tests.conftest import require_postgres
from tests.notify.helpers import Kind, Status, game_between, play_turn, rows, sent_to

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)  # a Tuesday morning in UTC


@pytest.fixture
def at(time_machine, django_capture_on_commit_callbacks):
    """at(when, job, ...): run `job` at `when`, with its commits' hand-over."""

    def run(when, job, *args, **kwargs):
        time_machine.move_to(when, tick=False)
        with django_capture_on_commit_callbacks(execute=True):
            return job(*args, **kwargs)

    return run


def _prefer(user, **fields):
    for name, value in fields.items():
        setattr(user.profile, name, value)
    user.profile.save()


def reminders_to(mailoutbox, user):
    return [m for m in sent_to(mailoutbox, user) if m.subject.startswith("Still your turn")]


# --- reminders ------------------------------------------------------------------------


def test_a_reminder_goes_once_the_turn_has_waited_the_players_delay(alice, bob, mailoutbox, at):
    at(T0, game_between, alice, bob)  # bob's turn; his delay is 24 hours
    at(T0 + timedelta(hours=23, minutes=59), send_reminders.delay)
    assert reminders_to(mailoutbox, bob) == []
    at(T0 + timedelta(hours=24, minutes=1), send_reminders.delay)
    [message] = reminders_to(mailoutbox, bob)
    assert message.subject == "Still your turn — Friday game, round 1"
    assert "for 24 hours" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_reminders_are_spaced_by_the_delay_and_stop_after_three(alice, bob, mailoutbox, at):
    _prefer(bob, reminder_hours=12)
    at(T0, game_between, alice, bob)
    sent_at_hours = []
    for hour in range(1, 100):
        at(T0 + timedelta(hours=hour, minutes=1), send_reminders.delay)
        if len(reminders_to(mailoutbox, bob)) > len(sent_at_hours):
            sent_at_hours.append(hour)
    assert sent_at_hours == [12, 24, 36]
    assert [row.ordinal for row in rows(kind=Kind.REMINDER)] == [1, 2, 3]


def test_running_the_reminder_job_twice_sends_once(alice, bob, mailoutbox, at):
    at(T0, game_between, alice, bob)
    at(T0 + timedelta(hours=25), send_reminders.delay)
    at(T0 + timedelta(hours=25), send_reminders.delay)
    assert len(reminders_to(mailoutbox, bob)) == 1


def test_no_reminders_for_never_digest_readers_or_a_muted_game(alice, bob, carol, mailoutbox, at):
    _prefer(bob, reminder_hours=0)
    at(T0, game_between, alice, bob, name="Never")
    _prefer(carol, notify="digest")
    at(T0, game_between, alice, carol, name="Digest")
    muted = at(T0, game_between, bob, alice, name="Muted")  # alice plays first here
    muted.seats.filter(player__user=alice).update(muted=True)
    at(T0 + timedelta(days=3), send_reminders.delay)
    assert [m for m in mailoutbox if m.subject.startswith("Still")] == []


def test_a_new_turn_starts_its_own_reminders(alice, bob, mailoutbox, at):
    game = at(T0, game_between, alice, bob)
    at(T0 + timedelta(hours=25), send_reminders.delay)
    at(T0 + timedelta(hours=26), play_turn, game)  # bob plays; alice's turn
    at(T0 + timedelta(hours=26 + 24, minutes=1), send_reminders.delay)
    assert len(reminders_to(mailoutbox, bob)) == 1
    assert len(reminders_to(mailoutbox, alice)) == 1


def test_a_reminder_held_by_quiet_hours_pushes_the_next_one_back(alice, bob, mailoutbox, at):
    start = datetime(2026, 3, 10, 23, 0, tzinfo=UTC)  # bob is in UTC, quiet hours on
    at(start, game_between, alice, bob)
    at(start + timedelta(hours=24, minutes=1), send_reminders.delay)  # 23:01: held
    [first] = rows(kind=Kind.REMINDER)
    assert first.status == Status.PENDING
    assert first.send_after == datetime(2026, 3, 12, 8, 0, tzinfo=UTC)
    at(datetime(2026, 3, 12, 8, 2, tzinfo=UTC), outbox.sweep)
    assert len(reminders_to(mailoutbox, bob)) == 1
    # 48 hours after the turn began is 23:00 again, but only 15 hours after the first
    # reminder went out: the second waits for a full delay after it.
    at(start + timedelta(hours=48, minutes=1), send_reminders.delay)
    assert len(rows(kind=Kind.REMINDER)) == 1
    at(datetime(2026, 3, 13, 8, 1, tzinfo=UTC), send_reminders.delay)
    assert len(reminders_to(mailoutbox, bob)) == 2


def test_the_reminder_and_time_limit_jobs_find_waiting_turns_through_the_partial_index(
    alice, bob, at
):
    at(T0, game_between, alice, bob)
    waiting = jobs._waiting_games(T0, timedelta(hours=12))
    if connection.vendor != "postgresql":
        # SQLite can't match a bound parameter to a partial index's condition, so it
        # takes the (status, updated_at) index instead: still no scan of every game.
        assert "SCAN games_game" not in waiting.explain()
        return
    with connection.cursor() as cursor:
        # A handful of rows makes any plan cheap: forbid the table scan to see that the
        # partial index can answer (its condition matches the query's).
        cursor.execute("SET LOCAL enable_seqscan = off")
    plan = waiting.explain()
    # The planner picks between the partial index and (status, updated_at) by cost, and
    # that choice moves with table statistics; either way no game is scanned blindly.
    assert "Seq Scan on games_game" not in plan, plan
    assert "on games_game" in plan, plan


# --- the daily digest -------------------------------------------------------------------


def test_the_digest_goes_at_the_chosen_hour_in_each_readers_time_zone(
    alice, bob, carol, mailoutbox, at
):
    _prefer(bob, notify="digest", digest_hour=8, time_zone="Asia/Tokyo")  # UTC+9
    _prefer(carol, notify="digest", digest_hour=8, time_zone="America/New_York")  # UTC-4
    at(T0 - timedelta(days=2), game_between, alice, bob, name="Older")
    at(T0 - timedelta(days=1), game_between, alice, bob, name="Newer")
    at(T0 - timedelta(days=1), game_between, alice, carol, name="Carol's")
    at(datetime(2026, 3, 10, 22, 50, tzinfo=UTC), send_digests.delay)  # 07:50 in Tokyo
    assert mailoutbox == []
    at(datetime(2026, 3, 10, 23, 5, tzinfo=UTC), send_digests.delay)  # 08:05 in Tokyo
    [message] = mailoutbox
    assert message.to == ["bob@example.com"]
    assert message.subject == "2 games are waiting for you"
    assert message.body.index("Older") < message.body.index("Newer")  # longest first
    at(datetime(2026, 3, 10, 23, 55, tzinfo=UTC), send_digests.delay)
    assert len(mailoutbox) == 1  # one a day
    at(datetime(2026, 3, 11, 12, 5, tzinfo=UTC), send_digests.delay)  # 08:05 in New York
    assert [m.to for m in mailoutbox][1:] == [["carol@example.com"]]
    at(datetime(2026, 3, 11, 23, 5, tzinfo=UTC), send_digests.delay)  # Tokyo, next day
    assert len(sent_to(mailoutbox, bob)) == 2


def test_the_digest_ignores_quiet_hours_and_skips_a_day_with_nothing_waiting(
    alice, bob, carol, mailoutbox, at
):
    _prefer(bob, notify="digest", digest_hour=6)  # UTC, quiet hours on
    _prefer(carol, notify="digest", digest_hour=6)  # nothing waits for carol
    at(T0 - timedelta(days=1), game_between, alice, bob)
    at(datetime(2026, 3, 10, 6, 1, tzinfo=UTC), send_digests.delay)
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]


def test_a_muted_game_is_left_out_of_the_digest(alice, bob, mailoutbox, at):
    _prefer(bob, notify="digest", digest_hour=9)
    game = at(T0, game_between, alice, bob)
    game.seats.filter(player__user=bob).update(muted=True)
    at(T0 + timedelta(hours=1, minutes=5), send_digests.delay)
    assert mailoutbox == []


# --- time limits ------------------------------------------------------------------------


def test_a_timed_turn_gets_a_warning_at_eighty_percent_once(alice, bob, mailoutbox, at):
    at(T0, game_between, alice, bob, time_limit=timedelta(hours=12))  # warn at 9:36
    at(T0 + timedelta(hours=9, minutes=35), enforce_time_limits.delay)
    assert len(mailoutbox) == 1  # the turn email only
    at(T0 + timedelta(hours=9, minutes=37), enforce_time_limits.delay)
    at(T0 + timedelta(hours=9, minutes=39), enforce_time_limits.delay)
    [warning] = [m for m in mailoutbox if m.subject.startswith("Time is running out")]
    assert warning.to == ["bob@example.com"]
    assert "2 hours, 23 minutes left" in warning.body.replace("\xa0", " ")


def test_at_the_limit_the_turn_is_played_for_the_absent_player_and_the_next_is_told(
    alice, bob, mailoutbox, at
):
    game = at(T0, game_between, alice, bob, time_limit=timedelta(hours=12))
    mailoutbox.clear()
    result = at(T0 + timedelta(hours=12, minutes=1), enforce_time_limits.delay).get()
    assert result == {"warned": 0, "played": 1}
    moves = list(Move.objects.filter(game=game))
    assert [(m.action["type"], m.automatic, m.seat) for m in moves] == [
        ("draw", True, 1),
        ("discard", True, 1),
    ]
    assert moves[0].action["from_discard"] is False
    game.refresh_from_db()
    assert game.current_player.user == alice
    [played] = sent_to(mailoutbox, bob)
    assert played.subject == "Your turn was played for you — Friday game"
    assert "was discarded" in played.body
    [turn] = sent_to(mailoutbox, alice)
    assert turn.subject.startswith("Your turn — Friday game")
    assert "bob's time ran out: their turn was played for them." in turn.body
    # A second run finds alice's fresh turn and does nothing.
    again = at(T0 + timedelta(hours=12, minutes=2), enforce_time_limits.delay).get()
    assert again == {"warned": 0, "played": 0}
    assert Move.objects.filter(game=game).count() == 2


def test_a_player_who_drew_before_time_ran_out_only_has_a_card_discarded(alice, bob, at):
    from games.engine import Draw
    from games.online import services

    game = at(T0, game_between, alice, bob, time_limit=timedelta(hours=12))
    at(T0 + timedelta(hours=1), services.perform, game, 1, Draw(), expected_move=0)
    at(T0 + timedelta(hours=12, minutes=1), enforce_time_limits.delay)
    moves = list(Move.objects.filter(game=game).values_list("action__type", "automatic"))
    assert moves == [("draw", False), ("discard", True)]


def test_the_automatic_discard_keeps_the_phase_and_prefers_high_cards():
    from games.engine import Rules, new_game
    from games.engine.cards import parse_cards
    from games.engine.game import apply, arrange_deck

    deck = arrange_deck(
        [parse_cards(""), parse_cards("R7 B7 G7 Y3 R3 B12 W S G1 Y10")],
        up_card="G5",
        draw_pile=parse_cards("Y11"),
    )
    state = apply(new_game(2, Rules(), decks=[deck]), __import__("games.engine").engine.Draw())
    choice = auto_discard(state)
    # The two sets (7s, 3s) and the Wild stay; of the rest the highest-scoring goes:
    # B12 or Y11 (10 points each), by colour and number order the last one.
    assert str(choice.card) in {"B12", "Y11"}
    assert not choice.card.is_wild and not choice.card.is_skip


def test_no_time_limit_means_no_warning_and_no_automatic_play(alice, bob, mailoutbox, at):
    game = at(T0, game_between, alice, bob)
    at(T0 + timedelta(days=30), enforce_time_limits.delay)
    assert Move.objects.filter(game=game).count() == 0
    assert len(mailoutbox) == 1


# --- two runs at once (real concurrency on PostgreSQL; serialised on SQLite) ------------


def _at_once(job, when, runs=4):
    # SQLite's shared in-memory test database refuses a second writer outright
    # ("table is locked") instead of making it wait; PostgreSQL runs them for real.
    require_postgres("concurrent writers need PostgreSQL")
    barrier = threading.Barrier(runs)
    results, errors = [], []

    def run():
        try:
            barrier.wait()
            results.append(job(when))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(runs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return results


@pytest.mark.django_db(transaction=True)
def test_reminder_jobs_running_at_the_same_time_send_once(alice, bob, mailoutbox, time_machine):
    time_machine.move_to(T0, tick=False)
    game_between(alice, bob)
    later = T0 + timedelta(hours=25)
    time_machine.move_to(later, tick=False)
    results = _at_once(jobs.send_reminders, later)
    assert sorted(results) == [0, 0, 0, 1]
    assert len(reminders_to(mailoutbox, bob)) == 1


@pytest.mark.django_db(transaction=True)
def test_time_limit_jobs_running_at_the_same_time_play_the_turn_once(
    alice, bob, mailoutbox, time_machine
):
    time_machine.move_to(T0, tick=False)
    game = game_between(alice, bob, time_limit=timedelta(hours=12))
    later = T0 + timedelta(hours=13)
    time_machine.move_to(later, tick=False)
    results = _at_once(jobs.enforce_time_limits, later)
    assert sum(result["played"] for result in results) == 1
    assert Move.objects.filter(game=game).count() == 2
    assert Game.objects.get(pk=game.pk).move_number == 2
    assert len(sent_to(mailoutbox, alice)) == 1


def test_a_seat_handed_to_a_bot_gets_no_reminder_and_no_digest(alice, bob, mailoutbox, at):
    _prefer(alice, notify="digest", digest_hour=9)
    game = at(T0, game_between, alice, bob)
    # bob resigned and the bot's task was lost: his turn waits, but not for him.
    game.seats.filter(player__user=bob).update(is_bot=True, resigned=True)
    at(T0 + timedelta(hours=1, minutes=5), send_digests.delay)
    at(T0 + timedelta(hours=25), send_reminders.delay)
    at(T0 + timedelta(hours=25), enforce_time_limits.delay)
    assert len(mailoutbox) == 1  # the turn email from before he resigned


def test_a_digest_is_dropped_when_nothing_is_waiting_any_more_at_sending_time(
    alice, bob, mailoutbox, time_machine, django_capture_on_commit_callbacks
):
    _prefer(bob, notify="digest", digest_hour=9)
    time_machine.move_to(T0, tick=False)
    game = game_between(alice, bob)
    time_machine.move_to(T0 + timedelta(hours=1, minutes=5), tick=False)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        send_digests.delay()
    play_turn(game)  # bob plays before the worker gets to the digest
    for callback in callbacks:
        callback()
    [digest] = rows(kind=Kind.DIGEST)
    assert (digest.status, digest.last_error) == (Status.SKIPPED, "no game waiting")
    assert mailoutbox == []


def test_the_admin_lists_failed_notifications_with_their_error(alice, bob, admin_client, at):
    at(T0, game_between, alice, bob)
    [row] = rows()
    row.status, row.last_error = Status.FAILED, "SMTPRecipientsRefused: no such user"
    row.save()
    response = admin_client.get("/admin/games/notification/?status__exact=failed")
    assert response.status_code == 200
    assert b"SMTPRecipientsRefused: no such user" in response.content
    assert (
        admin_client.get("/admin/games/notification/?status__exact=sent").context["cl"].result_count
        == 0
    )
    admin_client.post(
        "/admin/games/notification/",
        {"action": "send_again", "_selected_action": [row.pk]},
    )
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.PENDING, 0)
