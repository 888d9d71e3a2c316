import random

import pytest
from django.db.models import F

from games.engine import Discard, Draw, Rules, replay
from games.errors import Refused, Stale
from games.models import Game, Move, RoundScore, Seat
from games.online import chat, lobby, services
from tests.online.helpers import play_human_turn, play_on, seat_of, started_game

pytestmark = pytest.mark.django_db


def test_creating_a_game_seats_the_creator_and_the_bots_and_invites_the_others(alice, bob):
    game = lobby.create_game(alice, name="Friday", seats=4, bots=1, invite=[bob])
    assert game.status == Game.Status.LOBBY
    # bob's seat (1) waits for his answer; the bot sits after it.
    assert [(s.position, s.is_bot) for s in game.seats.all()] == [(0, False), (2, True)]
    assert game.invitations.get().user == bob
    lobby.accept_invitation(game, bob)
    seats = list(game.seats.select_related("player"))
    assert [(s.position, s.is_bot) for s in seats] == [(0, False), (1, False), (2, True)]
    assert seats[1].player.user == bob
    assert lobby.lobby_size(game) == 4


def test_starting_deals_round_one_from_a_stored_seed(alice, bob):
    game = lobby.create_game(alice, seats=3, invite=[bob])
    lobby.accept_invitation(game, bob)
    game = lobby.start_game(game, alice)
    assert game.status == Game.Status.ACTIVE
    assert game.seed is not None and game.move_number == 0
    state = services.load_state(game)
    assert state.seats == 2  # the empty third seat closed up
    assert game.current_player == game.seats.get(position=state.current_seat).player
    assert game.turn_started_at is not None


def test_only_the_creator_starts_and_only_with_two_seats_filled(alice, bob):
    game = lobby.create_game(alice, seats=3)
    with pytest.raises(Refused):
        lobby.start_game(game, alice)
    lobby.invite_user(game, alice, "bob")
    lobby.accept_invitation(game, bob)
    with pytest.raises(Refused):
        lobby.start_game(game, bob)
    lobby.start_game(game, alice, fill_with_bots=True)
    assert Seat.objects.filter(game=game, is_bot=True).count() == 1


def test_an_action_appends_a_move_and_bumps_the_move_number_and_version(alice, bob):
    game = started_game(alice, bob)
    version = game.version
    seat = services.load_state(game).current_seat
    game = services.perform(game, seat, Draw(), expected_move=0)
    assert game.move_number == 1 and game.version == version + 1
    move = Move.objects.get(game=game)
    assert (move.number, move.seat, move.action["type"]) == (1, seat, "draw")


def test_a_stale_move_number_is_refused_and_nothing_changes(alice, bob):
    game = started_game(alice, bob)
    seat = services.load_state(game).current_seat
    services.perform(game, seat, Draw(), expected_move=0)
    with pytest.raises(Stale):
        services.perform(game, seat, Draw(), expected_move=0)
    assert Move.objects.filter(game=game).count() == 1


def test_an_illegal_action_gives_the_rule_and_changes_nothing(alice, bob):
    game = started_game(alice, bob)
    state = services.load_state(game)
    before = (game.version, game.state)
    with pytest.raises(Refused, match="Draw a card first"):
        services.perform(
            game, state.current_seat, Discard(state.hands[state.current_seat][0]), expected_move=0
        )
    game.refresh_from_db()
    assert (game.version, game.state) == before
    assert not Move.objects.filter(game=game).exists()


def test_a_seat_cannot_act_out_of_turn(alice, bob):
    game = started_game(alice, bob)
    other = 1 - services.load_state(game).current_seat
    with pytest.raises(Refused, match="isn't your turn"):
        services.perform(game, other, Draw(), expected_move=0)


def test_a_game_with_one_person_and_bots_is_played_to_the_end(
    alice, django_capture_on_commit_callbacks
):
    rng = random.Random(3)
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(alice, bots=2, rules=Rules(phases=(1, 2, 3)), seed=11)
    me = seat_of(game, alice)
    for _turn in range(500):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        assert services.load_state(game).current_seat == me  # the bots played up to us
        with django_capture_on_commit_callbacks(execute=True):
            play_human_turn(game, rng)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner is not None and game.finished_at is not None
    seats = list(game.seats.all())
    assert sum(seat.is_winner for seat in seats) == 1
    assert {seat.rank for seat in seats if seat.is_winner} == {1}
    # Every finished round is stored per seat, like a game night's.
    rounds = RoundScore.objects.filter(game=game)
    assert rounds.count() == game.rounds_played * len(seats)
    last = rounds.filter(round_number=game.rounds_played)
    assert sorted(row.total for row in last) == sorted(seat.score for seat in seats)
    # The seed and the move log reproduce the snapshot.
    state = services.load_state(game)
    actions = [services.action_of(m.action) for m in Move.objects.filter(game=game)]
    assert replay(list(state.players), actions, state.rules, seed=game.seed).to_dict() == game.state


def test_a_duplicate_bot_task_does_nothing(alice, django_capture_on_commit_callbacks):
    game = started_game(alice, bots=1, seed=5)
    state = services.load_state(game)
    if state.current_seat == seat_of(game, alice):
        with django_capture_on_commit_callbacks(execute=False):
            play_human_turn(game, random.Random(1))
        game.refresh_from_db()
    move = game.move_number
    assert services.play_turn(game, expected_move=move) is True
    assert services.play_turn(game, expected_move=move) is False
    game.refresh_from_db()
    assert Move.objects.filter(game=game).count() == game.move_number


def test_resigning_hands_the_seat_to_a_bot(alice, bob, django_capture_on_commit_callbacks):
    game = started_game(alice, bob, seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game, bob)
    seat = Seat.objects.get(game=game, player__user=bob)
    assert seat.resigned and seat.is_bot
    game.refresh_from_db()
    state = services.load_state(game)
    assert state.current_seat == seat_of(game, alice) or game.status == Game.Status.FINISHED


def test_the_rounds_a_bot_plays_for_a_resigned_person_are_the_bots(alice, bob):
    """Stats count a person's rounds only: the round rows say who played them."""
    game = started_game(alice, bob, bots=1, rules=Rules(phases=(1, 2)), seed=5)
    game = play_on(game, rounds=1)
    services.resign(game, bob)
    game = play_on(game, time_limit=True)
    assert game.status == Game.Status.FINISHED and game.rounds_played >= 2
    rows = RoundScore.objects.filter(game=game).select_related("seat", "player")
    played_by = {(row.player.user_id, row.round_number): row.by_bot for row in rows}
    for (user, number), by_bot in played_by.items():
        if user == alice.pk:
            assert not by_bot  # the time limit played her later turns: still her seat
        elif user == bob.pk:
            assert by_bot == (number > 1)
        else:
            assert by_bot  # the bot's own seat


def test_a_rematch_invites_the_same_people_to_a_new_lobby(alice, bob):
    game = started_game(alice, bob, bots=1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    new = lobby.rematch(game, bob)
    assert new.status == Game.Status.LOBBY and new.creator == bob
    assert new.invitations.get().user == alice
    lobby.accept_invitation(new, alice)
    assert sorted(s.player.user_id or 0 for s in new.seats.select_related("player")) == sorted(
        [0, alice.pk, bob.pk]
    )


def test_a_bot_turn_that_waited_too_long_is_queued_again(
    alice, client, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    game = started_game(alice, bots=1, seed=5)
    game = play_until_bot(game)
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    client.force_login(alice)
    move = game.move_number
    with django_capture_on_commit_callbacks(execute=True):
        client.get(game.get_absolute_url())
    game.refresh_from_db()
    assert game.move_number > move  # the bot played (Celery runs tasks inline in tests)


def test_the_beat_job_plays_bots_whose_task_was_lost(
    alice, bob, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from games.tasks import requeue_stalled_bots

    stalled = play_until_bot(started_game(alice, bots=1, seed=5))
    recent = play_until_bot(started_game(bob, bots=1, seed=5))
    Game.objects.filter(pk=stalled.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    moves = {stalled.pk: stalled.move_number, recent.pk: recent.move_number}
    with django_capture_on_commit_callbacks(execute=True):
        assert requeue_stalled_bots.delay().get() == 1
    stalled.refresh_from_db()
    recent.refresh_from_db()
    assert stalled.move_number > moves[stalled.pk]  # the bot played
    assert recent.move_number == moves[recent.pk]  # a bot within its delay is left alone


def play_until_bot(game):
    for _n in range(50):
        game.refresh_from_db()
        state = services.load_state(game)
        if game.seats.get(position=state.current_seat).is_bot:
            return game
        play_human_turn(game, random.Random(2))
    raise AssertionError("the bot never got a turn")


def test_a_move_that_hands_the_turn_to_a_bot_does_not_wait_for_a_dead_broker(
    alice, django_capture_on_commit_callbacks
):
    import time

    from phase10site.celery import app

    game = started_game(alice, bots=1, seed=5)
    while services.load_state(game).current_seat != seat_of(game, alice):
        services.play_turn(game, expected_move=game.move_number)
        game.refresh_from_db()
    keys = ("broker_url", "broker_write_url", "task_always_eager")
    saved = {key: app.conf[key] for key in keys}
    # Port 1 on loopback: nothing listens, the connection is refused for real.
    app.conf.update(
        broker_url="redis://127.0.0.1:1/0",
        broker_write_url="redis://127.0.0.1:1/0",
        task_always_eager=False,
    )
    try:
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            play_human_turn(game, random.Random(3))
        took = time.monotonic() - started
    finally:
        app.conf.update(saved)
    game.refresh_from_db()
    assert Move.objects.filter(game=game).count() == game.move_number  # the move is saved
    assert took < 2, f"the move waited {took:.2f}s on the broker"


def test_a_move_on_a_copy_read_before_another_change_is_played_on_the_fresh_game(alice, bob):
    """The table's view passes the game and seats it read; the move's UPDATE checks
    that version. A change in between that isn't a move (a chat line, say) bumps the
    version: the move is played again on the game read under the lock."""
    game = started_game(alice, bob, seed=3)
    copy = Game.objects.get(pk=game.pk)
    seats = list(copy.seats.order_by("position"))
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)  # someone else's change
    seat = services.load_state(copy).current_seat
    saved = services.perform(copy, seat, Draw(), expected_move=0, seats=seats)
    assert saved is not copy and saved.move_number == 1 and saved.version == game.version + 2
    assert copy.move_number == 0 and copy.version == game.version  # as it was read
    assert Move.objects.filter(game=game).count() == 1


def test_a_move_on_a_copy_a_move_behind_is_stale_and_saves_nothing(alice, bob):
    game = started_game(alice, bob, seed=3)
    copy = Game.objects.get(pk=game.pk)
    seats = list(copy.seats.order_by("position"))
    seat = services.load_state(copy).current_seat
    services.perform(game.pk, seat, Draw(), expected_move=0)  # the other tab was faster
    with pytest.raises(Stale):
        services.perform(copy, seat, Draw(), expected_move=0, seats=seats)
    assert copy.move_number == 0
    assert Move.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).move_number == 1


def _as_the_table_read_it(game):
    read = Game.objects.get(pk=game.pk)
    return read, list(read.seats.select_related("player__user__profile").order_by("position"))


def test_a_move_whose_compare_and_swap_loses_to_a_chat_message_is_still_applied_once(alice, bob):
    game = started_game(alice, bob, seed=3)
    read, seats = _as_the_table_read_it(game)
    seat = services.load_state(read).current_seat
    other = bob if seats[seat].player.user == alice else alice
    chat.post(game, other, "good luck")  # after the read: the move's UPDATE finds it
    saved = services.perform(read, seat, Draw(), expected_move=0, seats=seats)
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.move_number == saved.move_number == 1
    assert fresh.version == saved.version == read.version + 2  # the chat's bump, the move's
    assert Move.objects.filter(game=game).count() == 1
    assert [line[3] for line in fresh.recent_chat] == ["good luck"]  # the move kept it


def test_a_double_click_is_stale_and_changes_nothing(alice, bob):
    game = started_game(alice, bob, seed=3)
    read, seats = _as_the_table_read_it(game)
    seat = services.load_state(read).current_seat
    services.perform(read, seat, Draw(), expected_move=0, seats=seats)
    before = Game.objects.get(pk=game.pk)
    with pytest.raises(Stale):
        services.perform(read, seat, Draw(), expected_move=0, seats=seats)  # the same page
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.move_number, after.state) == (
        before.version,
        before.move_number,
        before.state,
    )
    assert Move.objects.filter(game=game).count() == 1


def test_a_move_that_loses_its_compare_and_swap_every_time_gives_up_stale_and_saves_nothing(
    alice, bob, monkeypatch
):
    game = started_game(alice, bob, seed=3)
    seat = services.load_state(game).current_seat
    bump, tries = services.bump, []

    def someone_else_first(changed, *fields):
        tries.append(changed.version)
        # Another change just before (a pause, a chat); in the move's savepoint here, so
        # it rolls back with it.
        Game.objects.filter(pk=changed.pk).update(version=F("version") + 1)
        bump(changed, *fields)

    monkeypatch.setattr(services, "bump", someone_else_first)
    with pytest.raises(Stale):
        services.perform(game.pk, seat, Draw(), expected_move=0)
    fresh = Game.objects.get(pk=game.pk)
    assert len(tries) == services.ATTEMPTS  # each on the game read again
    assert fresh.move_number == 0 and fresh.version == game.version
    assert not Move.objects.filter(game=game).exists()
