"""Game emails: the outbox written with each move, and the jobs that send it.

The life of a `Notification` row::

    pending ──handed to Celery──▶ queued ──task claims it──▶ sending ──▶ sent
       ▲                                                      │ ╲
       └──── send error: a later send_after (≤ MAX_ATTEMPTS) ◀─┘  ╲─▶ skipped / failed

- `after_move` writes rows inside the move's transaction (games.services calls it), so a
  move that rolls back sends nothing, and the unique key makes a repeated write a no-op.
- After commit the rows are published to the broker. A dead broker never fails or slows
  the move (one fast attempt, errors swallowed): the rows stay pending and `sweep`, run
  by beat every minute, publishes them once the broker is back.
- The task claims its row with a conditional UPDATE (`filter(pk=…, status=…).update()`
  that returns 1), so a task delivered twice, or a row the sweeper published again, is
  sent once.
- Preferences, the per-game mute, the verified address, quiet hours and "is it still
  their turn?" are checked again just before sending: a row may wait for the morning.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from phase10site.celery import app, broker_connection

from ..engine import GameState
from ..models import Game, Move, Notification, Seat
from . import emails
from .policy import games_waiting_for_users, quiet_until, refusal

if TYPE_CHECKING:
    from django.contrib.auth.models import User

log = logging.getLogger(__name__)

Kind = Notification.Kind
Status = Notification.Status

# Rows are published right after commit; the sweeper only takes those this much older,
# so it doesn't race the normal hand-over.
SWEEP_GRACE = timedelta(minutes=1)
# A queued row the worker never claimed: a broker restarted without its data, or a
# process that wrote the row with its move and stopped before publishing it (a move's
# rows are written queued, and published once it commits). Publishing one again is
# safe: `send` claims a row once, so a second task for it sends nothing.
QUEUED_TIMEOUT = timedelta(minutes=2)
# A row claimed this long ago by a worker that never finished: the worker died while
# sending, so the email may or may not have left. Failing it visibly (rather than
# sending again) keeps the promise that nothing is sent twice.
SENDING_TIMEOUT = timedelta(minutes=10)
# Waits after failed attempts 1, 2, 3, 4; attempt MAX_ATTEMPTS failing gives up.
RETRY_DELAYS = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
)
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1

# Per-turn kinds: they only make sense while it is still the recipient's turn.
TURN_KINDS = {Kind.YOUR_TURN, Kind.REMINDER, Kind.TIME_WARNING}


# --- what the move log says -------------------------------------------------------------


def ended_turn(action: dict[str, Any]) -> bool:
    """A logged move that ended a turn: a discard, or a move that ended the round."""
    return action.get("type") == "discard" or "round_over" in (action.get("log") or {})


def turn_key(game: Game) -> int:
    """The number of the move that ended the previous turn (0 in the first turn): it
    stays the same throughout a turn, so it names the turn in the outbox's unique key.

    It agrees with `games.services`, which restarts `turn_started_at` on exactly
    these moves.
    """
    number = (
        Move.objects.filter(game=game)
        .filter(Q(action__type="discard") | Q(action__log__has_key="round_over"))
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return number or 0


# --- writing the outbox (inside the move's transaction) -----------------------------------


@dataclass(frozen=True)
class Row:
    game: Game | None
    move_number: int
    recipient: User
    kind: str
    ordinal: int = 0
    day: date | None = None
    context: dict[str, Any] | None = None


def after_move(
    game: Game,
    state: GameState,
    moves: Sequence[Move],
    *,
    started: bool = False,
    seats: Sequence[Seat] = (),
    saved: bool = False,
) -> None:
    """Called by the online services inside the move transaction, after the game is saved.

    `state` is the engine state after the moves; `moves` the Move rows just appended,
    whose "log" holds what the engine reported (a game over among them); `started`: the
    game was just dealt; `seats`: the game's seats if the caller has them, read with their
    players, users and profiles (`select_related("player__user__profile")`; else they
    are read here when someone is to be told); `saved`: the moves were just written in
    this transaction, after `scoring.bump` took the game's row (`write`'s `fresh`). Writes
    the outbox rows the moves cause and hands them to Celery once the transaction
    commits:

    - game over: the final standings to every player;
    - a new turn: "your turn" to its player, unless that player made these moves
      themselves (a Skip with two players gives the discarder another turn);
    - moves played automatically for a person (the time limit): "played for you".
    """
    found = _move_rows(game, state, moves, started=started, seats=seats)
    if found is not None:
        write(found[0], seats=found[1], fresh=saved)


def _move_rows(
    game: Game,
    state: GameState,
    moves: Sequence[Move],
    *,
    started: bool = False,
    seats: Sequence[Seat] = (),
) -> tuple[list[Row], dict[int, Seat]] | None:
    """The rows `after_move` writes and the seats by position; None: nobody to tell."""
    if game.mode != Game.Mode.ONLINE:
        return None
    # A turn finished automatically for a person (the time limit; a bot's seat has no
    # person): tell them once, keyed by the move that ended that turn.
    auto_ends = [move for move in moves if move.automatic and ended_turn(move.action)]
    game_over = any((move.action.get("log") or {}).get("game_over") for move in moves)
    next_up = None  # the seat whose turn starts now, if someone else's moves started it
    ends = [move.number for move in moves if ended_turn(move.action)]
    if not state.game_over and game.status == Game.Status.ACTIVE and (started or ends):
        movers = {move.seat for move in moves if not move.automatic}
        if state.current_seat not in movers:
            next_up = state.current_seat
    if not (auto_ends or game_over or next_up is not None):
        return None  # most moves (a draw, a lay-down, a hit) tell nobody: no query
    if not seats:
        seats = list(Seat.objects.filter(game=game).select_related("player__user__profile"))
    by_position = {seat.position: seat for seat in seats}
    rows: list[Row] = []
    auto_played = {move.seat for move in auto_ends}
    for seat in by_position.values():
        user = _person(seat) if seat.position in auto_played else None
        if user is None:
            continue
        seat_ends = [move for move in auto_ends if move.seat == seat.position]
        rows.append(
            Row(
                game,
                seat_ends[-1].number,
                user,
                Kind.AUTO_PLAYED,
                context={"discarded": _discarded(seat_ends)},
            )
        )
    if game_over:
        rows.extend(
            Row(game, game.move_number, user, Kind.GAME_OVER)
            for seat in by_position.values()
            if (user := seat.player.user) is not None
        )
    elif next_up is not None:
        next_seat = by_position.get(next_up)
        user = None if next_seat is None else _person(next_seat)
        if user is not None:
            top = state.discard_top
            rows.append(
                Row(
                    game,
                    max(ends, default=0),
                    user,
                    Kind.YOUR_TURN,
                    context={
                        "discard_top": None if top is None else str(top),
                        "round": state.round_number,
                    },
                )
            )
    return rows, by_position


def _person(seat: Seat) -> User | None:
    """The user who plays `seat` themselves: None for a bot's seat or a resigned one."""
    return None if seat.is_bot or seat.resigned else seat.player.user


def _discarded(moves: Sequence[Move]) -> str | None:
    for move in reversed(moves):
        if move.action.get("type") == "discard":
            return str(move.action.get("card"))
    return None


def write(
    rows: Iterable[Row], *, seats: dict[int, Seat] | None = None, fresh: bool = False
) -> list[int]:
    """Write outbox rows for those who want them; publish the new ones after commit.

    Returns the ids of the rows created now to go at once. The unique key turns a second
    write of the same notification into nothing: all the rows go in with one INSERT, and
    only if one of them exists already (a retried job, two at once) are they written one
    by one, each unless it exists (`get_or_create`). The INSERT has a savepoint of its
    own, so a move's transaction goes on after a row that existed.

    `fresh`: no row with these keys can exist, so the INSERT needs no savepoint: a move's
    own rows, keyed by the numbers of moves written in this transaction after its
    compare-and-swap took the game's row (kinds no job writes). A row that existed after
    all would fail the move's transaction, and nothing of the move would be saved.
    """
    now = timezone.now()
    wanted = _wanted(rows, seats, now)
    if not wanted:
        return []
    notifications = [
        Notification(**_fields(row, send_after=later or now, now=now)) for row, later in wanted
    ]
    if fresh:
        written = Notification.objects.bulk_create(notifications)
        new = [True] * len(written)
    else:
        try:
            with transaction.atomic():
                written = Notification.objects.bulk_create(notifications)
            new = [True] * len(written)
        except IntegrityError:
            pairs = [_get_or_create(row, send_after=later or now, now=now) for row, later in wanted]
            written, new = [pair[0] for pair in pairs], [pair[1] for pair in pairs]
    created = [
        notification.pk
        for notification, is_new, (_row, later) in zip(written, new, wanted, strict=True)
        if is_new and later is None  # held for quiet hours: the sweeper publishes it
    ]
    if created:
        transaction.on_commit(partial(publish_queued, created), robust=True)
    return created


def _wanted(
    rows: Iterable[Row], seats: dict[int, Seat] | None, now: datetime
) -> list[tuple[Row, datetime | None]]:
    """The rows whose recipients want them, each with when quiet hours let it go (None:
    now)."""
    wanted: list[tuple[Row, datetime | None]] = []
    for row in rows:
        seat = None
        if row.game is not None:
            seat = next(
                (s for s in (seats or {}).values() if s.player.user_id == row.recipient.pk), None
            )
        if refusal(row.kind, row.recipient, seat) is not None:
            continue
        later = None if row.kind == Kind.DIGEST else quiet_until(row.recipient.profile, now)
        wanted.append((row, later))
    return wanted


def _key(row: Row) -> dict[str, Any]:
    """The unique key of `row`'s notification."""
    if row.kind == Kind.DIGEST:
        return {"recipient": row.recipient, "kind": row.kind, "day": row.day}
    return {
        "recipient": row.recipient,
        "kind": row.kind,
        "game": row.game,
        "move_number": row.move_number,
        "ordinal": row.ordinal,
    }


def _defaults(row: Row, *, send_after: datetime, now: datetime) -> dict[str, Any]:
    defaults: dict[str, Any] = {"send_after": send_after, "context": row.context or {}}
    if send_after <= now:
        # Published as soon as the move commits (publish_queued): written queued, so
        # that needs no second statement; the sweeper publishes it again if that
        # never happens (QUEUED_TIMEOUT).
        defaults.update(status=Status.QUEUED, queued_at=now)
    if row.kind != Kind.DIGEST:
        defaults["day"] = None
    else:
        defaults.update(game=None, move_number=0, ordinal=0)
    return defaults


def _fields(row: Row, *, send_after: datetime, now: datetime) -> dict[str, Any]:
    return {**_key(row), **_defaults(row, send_after=send_after, now=now)}


def _get_or_create(row: Row, *, send_after: datetime, now: datetime) -> tuple[Notification, bool]:
    key = _key(row)
    try:
        return Notification.objects.get_or_create(
            **key, defaults=_defaults(row, send_after=send_after, now=now)
        )
    except IntegrityError:
        # Lost a race with a concurrent writer of the same row (get_or_create retries
        # the read itself, but not when the other transaction commits in between).
        return Notification.objects.get(**key), False


# --- handing rows to Celery ---------------------------------------------------------------


def hand_over(ids: Sequence[int]) -> int:
    """Publish `send_notification` for each pending row (the sweeper's); returns how
    many went. Each row is first moved pending → queued with a conditional UPDATE, so
    two overlapping sweeps publish it once."""
    return _publish(ids, claimed=False)


def publish_queued(ids: Sequence[int]) -> int:
    """Publish `send_notification` for rows a move wrote queued, once it committed;
    returns how many went."""
    return _publish(ids, claimed=True)


def _publish(ids: Sequence[int], *, claimed: bool) -> int:
    """Publish the rows `ids`, claiming each first unless `claimed`. A broker error puts
    the row, and any not published yet, back to pending and stops: the sweeper tries
    again later."""
    send_notification = app.tasks["games.send_notification"]  # by name: tasks.py imports us
    published = tried = 0  # tried: rows done with, published or claimed by another sweep
    publishing = None  # the row claimed and being handed over
    try:
        with broker_connection() as connection:
            # `connection` goes on to send_task (celery-types' stub lacks it); the arguments'
            # text for monitoring is given: Celery's saferepr of it was a tenth of a publish.
            options: Any = {"connection": connection, "retry": False, "kwargsrepr": "{}"}
            for pk in ids:
                if claimed or _claim(pk):
                    publishing = pk
                    send_notification.apply_async((pk,), **options | {"argsrepr": f"({pk},)"})
                    publishing = None
                    published += 1
                tried += 1
    except Exception as error:  # kombu, redis, OSError: the sweeper will retry
        left = list(ids[tried:])
        # Queued rows go back to pending: the one being handed over and, for a move's
        # rows (queued when written), those not tried yet; the sweeper's others are
        # still pending.
        back = left if claimed else [pk for pk in [publishing] if pk is not None]
        if back:
            Notification.objects.filter(pk__in=back, status=Status.QUEUED).update(
                status=Status.PENDING, queued_at=None
            )
        log.warning(
            "broker unavailable, %d notification(s) left for the sweeper: %s", len(left), error
        )
    return published


def _claim(pk: int) -> bool:
    """Move row `pk` pending → queued if it is still pending: the sweeper's claim on
    each row it publishes again (a move's own rows are written queued)."""
    pending = Notification.objects.filter(pk=pk, status=Status.PENDING)
    return pending.update(status=Status.QUEUED, queued_at=timezone.now()) == 1


# --- sending (the task's body) -----------------------------------------------------------


def send(notification_id: int, *, now: datetime | None = None) -> str:
    """Claim the row, send its email, record the outcome; returns the row's new status
    (or "" when another worker had it already)."""
    now = now or timezone.now()
    claimed = Notification.objects.filter(
        pk=notification_id,
        status__in=[Status.PENDING, Status.QUEUED],
        send_after__lte=now,
    ).update(status=Status.SENDING, attempts=F("attempts") + 1, claimed_at=now)
    if claimed != 1:
        return ""
    notification = Notification.objects.select_related("recipient__profile", "game").get(
        pk=notification_id
    )
    mine = Notification.objects.filter(pk=notification_id, status=Status.SENDING)
    try:
        reason = _still_wanted(notification)
        if reason is None and notification.kind != Kind.DIGEST:
            later = quiet_until(notification.recipient.profile, now)
            if later is not None:
                mine.update(status=Status.PENDING, send_after=later, attempts=F("attempts") - 1)
                return Status.PENDING
        if reason is None:
            emails.send(notification)
    except Exception as error:
        return _failed(notification, error, now)
    if reason is not None:
        mine.update(status=Status.SKIPPED, last_error=reason)
        return Status.SKIPPED
    mine.update(status=Status.SENT, sent_at=timezone.now(), last_error="")
    return Status.SENT


def _failed(notification: Notification, error: Exception, now: datetime) -> str:
    mine = Notification.objects.filter(pk=notification.pk, status=Status.SENDING)
    message = f"{type(error).__name__}: {error}"[:2000]
    if notification.attempts >= MAX_ATTEMPTS:
        log.error("notification %s failed for good: %s", notification.pk, message)
        mine.update(status=Status.FAILED, last_error=message)
        return Status.FAILED
    delay = RETRY_DELAYS[notification.attempts - 1]
    log.warning("notification %s failed, retrying in %s: %s", notification.pk, delay, message)
    mine.update(status=Status.PENDING, send_after=now + delay, last_error=message)
    return Status.PENDING


def _still_wanted(notification: Notification) -> str | None:
    """Why the email is no longer wanted (None: send it)."""
    game = notification.game
    seat = None
    if game is not None:
        seat = (
            Seat.objects.filter(game=game, player__user=notification.recipient)
            .select_related("player")
            .first()
        )
        if seat is None:
            return "not in the game"
    reason = refusal(notification.kind, notification.recipient, seat)
    waiting = games_waiting_for_users([notification.recipient_id])
    if reason is None and notification.kind == Kind.DIGEST and not waiting.exists():
        return "no game waiting"
    if reason is not None or seat is None or notification.kind not in TURN_KINDS:
        return reason
    if game is None or game.status != Game.Status.ACTIVE:
        return "game not in progress"
    if game.paused_at is not None:
        return "game paused"
    if notification.kind != Kind.YOUR_TURN and game.clock_stopped_at is not None:
        return "turn clock stopped"  # its player is away: reminders and warnings wait
    if game.current_player_id != seat.player_id or turn_key(game) != notification.move_number:
        return "turn already played"
    return None


# --- the sweeper ---------------------------------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Publish rows never handed over (broker down) and retries that are due; fail rows
    a dead worker left behind."""
    now = now or timezone.now()
    stuck = Notification.objects.filter(
        status=Status.SENDING, claimed_at__lte=now - SENDING_TIMEOUT
    ).update(
        status=Status.FAILED,
        last_error="The worker stopped while sending; not retried, so it can't be sent twice.",
    )
    Notification.objects.filter(status=Status.QUEUED, queued_at__lte=now - QUEUED_TIMEOUT).update(
        status=Status.PENDING
    )
    due = list(
        Notification.objects.filter(status=Status.PENDING, send_after__lte=now - SWEEP_GRACE)
        .order_by("send_after")
        .values_list("pk", flat=True)[:500]
    )
    return {"published": hand_over(due) if due else 0, "due": len(due), "stuck": stuck}
