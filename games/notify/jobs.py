"""The periodic jobs of game emails and time limits, run by beat (`games.tasks`).

Each writes outbox rows whose unique key makes a second run a no-op, or plays a turn
under the game row's lock with the move number checked, so overlapping runs (or two
beats by mistake) never act twice.
"""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, F, Q, QuerySet
from django.utils import timezone

from accounts.models import Profile

from ..engine.absent import auto_discard, auto_draw
from ..errors import Refused
from ..models import Game, Notification, Seat
from ..online import pause, services
from .outbox import Row, turn_key, write
from .policy import MAX_REMINDERS, games_waiting_for_users, zone

log = logging.getLogger(__name__)

Kind = Notification.Kind

WARN_AT = (4, 5)  # warn when 4/5 (80%) of the time limit has gone
# The digest goes out in the chosen hour, or in the two after it if beat was down.
DIGEST_CATCH_UP_HOURS = 2


def _waiting_games(now: datetime, waited: timedelta) -> QuerySet[Game]:
    """Active online games whose turn has waited at least `waited`: the partial index
    game_waiting_turn_idx answers this, however many games there are. A stopped clock
    (the game paused, its player away: online/pause.py) waits for nothing."""
    return Game.objects.filter(
        status=Game.Status.ACTIVE,
        mode=Game.Mode.ONLINE,
        turn_started_at__lte=now - waited,
        clock_stopped_at__isnull=True,
        paused_at__isnull=True,
    ).select_related("current_player__user__profile")


def send_reminders(now: datetime | None = None) -> int:
    """Remind players whose turn has waited longer than their reminder delay: at most
    MAX_REMINDERS per turn, each one delay after the previous. Returns rows written."""
    now = now or timezone.now()
    pause.wake_returned(now)  # clocks of aways that ran out count again first
    shortest = min(hours for hours, _label in _reminder_choices() if hours)
    written = 0
    for game in _waiting_games(now, timedelta(hours=shortest)).exclude(current_player__user=None):
        player, started = game.current_player, game.turn_started_at
        if player is None or player.user is None or started is None:
            continue  # never: the query leaves such games out (this tells the type checker)
        user = player.user
        hours = user.profile.reminder_hours
        if not hours:
            continue
        delay = timedelta(hours=hours)
        with transaction.atomic():
            key = turn_key(game)
            earlier = list(
                Notification.objects.filter(
                    game=game, move_number=key, recipient=user, kind=Kind.REMINDER
                ).order_by("ordinal")
            )
            ordinal = len(earlier) + 1
            if ordinal > MAX_REMINDERS or now - started < delay * ordinal:
                continue
            if earlier and now - earlier[-1].send_after < delay:
                continue  # the last one waited out quiet hours: keep the spacing
            waited_hours = int((now - started).total_seconds() // 3600)
            written += len(
                write(
                    [
                        Row(
                            game,
                            key,
                            user,
                            Kind.REMINDER,
                            ordinal=ordinal,
                            context={"waited_hours": waited_hours},
                        )
                    ],
                    seats=_seats_by_position(game),
                )
            )
    return written


def _reminder_choices() -> list[tuple[int, Any]]:
    return list(Profile._meta.get_field("reminder_hours").choices or [])


def _seats_by_position(game: Game) -> dict[int, Seat]:
    return {seat.position: seat for seat in Seat.objects.filter(game=game).select_related("player")}


def send_digests(now: datetime | None = None) -> int:
    """Write today's digest for each digest reader whose chosen hour it is (in their
    time zone) and who has a game waiting for them. Returns rows written."""
    now = now or timezone.now()
    readers = Profile.objects.filter(notify=Profile.Notify.DIGEST, email_verified=True)
    zones = readers.values_list("time_zone", flat=True).distinct()
    due = Q(pk__in=[])
    days: dict[str, date] = {}
    for name in zones:
        local = now.astimezone(zone(Profile(time_zone=name)))
        hours = [h for h in range(local.hour - DIGEST_CATCH_UP_HOURS, local.hour + 1) if h >= 0]
        due |= Q(time_zone=name, digest_hour__in=hours)
        days[name] = local.date()
    profiles = list(readers.filter(due).select_related("user"))
    waiting = set(
        games_waiting_for_users([profile.user_id for profile in profiles]).values_list(
            "current_player__user", flat=True
        )
    )
    written = 0
    for profile in profiles:
        if profile.user_id not in waiting:
            continue
        day = days[profile.time_zone]
        with transaction.atomic():
            written += len(write([Row(None, 0, profile.user, Kind.DIGEST, day=day)]))
    return written


def enforce_time_limits(now: datetime | None = None) -> dict[str, int]:
    """Warn at 80% of a game's time limit; at the limit, play the turn for the absent
    player (the engine's `auto_draw` and `auto_discard`)."""
    now = now or timezone.now()
    pause.wake_returned(now)
    # No turn can be due for a warning before 4/5 of the shortest limit a game may
    # have: that bound lets the partial index skip every turn younger than that.
    shortest = min(limit for limit in services.TIME_LIMITS.values() if limit)
    timed = (
        _waiting_games(now, shortest * WARN_AT[0] / WARN_AT[1])
        .filter(time_limit__isnull=False)
        .annotate(
            # Whole-number arithmetic on the duration: SQLite stores it as microseconds.
            warn_at=ExpressionWrapper(
                F("turn_started_at")
                + ExpressionWrapper(
                    F("time_limit") * WARN_AT[0] / WARN_AT[1], output_field=DurationField()
                ),
                output_field=DateTimeField(),
            ),
            deadline=ExpressionWrapper(
                F("turn_started_at") + F("time_limit"), output_field=DateTimeField()
            ),
        )
        .filter(warn_at__lte=now)
    )
    done = {"warned": 0, "played": 0}
    for game in timed:
        if game.deadline <= now:
            done["played"] += play_for_absent(game, now=now)
            continue
        user = game.current_player.user if game.current_player else None
        if user is None:
            continue
        with transaction.atomic():
            done["warned"] += len(
                write(
                    [Row(game, turn_key(game), user, Kind.TIME_WARNING)],
                    seats=_seats_by_position(game),
                )
            )
    return done


def play_for_absent(game: Game, *, now: datetime) -> int:
    """Play the current turn of `game` for its absent player: draw from the pile (if
    not drawn yet), discard the card `auto_discard` picks; both moves are logged as
    automatic. Returns 1 if it played, 0 if the turn had moved on (another run, or the
    player came back)."""
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(
                pk=game.pk,
                status=Game.Status.ACTIVE,
                turn_started_at=game.turn_started_at,
                clock_stopped_at__isnull=True,
                paused_at__isnull=True,
            )
            .first()
        )
        if locked is None or locked.time_limit is None:
            return 0
        if locked.turn_started_at is None or locked.turn_started_at + locked.time_limit > now:
            return 0
        state = services.load_state(locked)
        seat = state.current_seat
        try:
            if not state.drawn:
                locked = services.perform(
                    locked, seat, auto_draw(state), expected_move=locked.move_number, automatic=True
                )
                state = services.load_state(locked)
            services.perform(
                locked,
                seat,
                auto_discard(state),
                expected_move=locked.move_number,
                automatic=True,
            )
        except Refused as error:
            log.warning("time limit: could not play game %s: %s", game.pk, error.message)
            transaction.set_rollback(True)
            return 0
    return 1
