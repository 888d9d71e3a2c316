"""Pausing an online game, and the turn clock that a pause or away mode stops.

A pause is asked for on the board and agreed by every seat a person plays (a bot's
seat, or one whose person resigned, isn't asked); the last agreement pauses the game.
While it is paused no move is taken (`services` refuses it, bots wait), no clock runs
and no email goes (`notify` checks `paused_at`). Anyone seated resumes it.

The clock: while it runs, the turn's deadline is `turn_started_at + time_limit`. When
something stops it — the game paused, or the current player away (accounts/away.py) —
`clock_stopped_at` says since when. Once nothing stops it any more, `turn_started_at`
moves on by the time it stood still, so the turn has exactly the time it had left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile

from ..errors import Refused
from ..models import Game, Player, Seat
from ..notify.policy import zone
from ..players import away_until, seat_for_user
from ..scoring import bump, bump_all
from ..words import away_words, time_left_words
from . import services

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CLOCK_FIELDS = ("turn_started_at", "clock_stopped_at")


# --- the clock ------------------------------------------------------------------------------


class Clocked(Protocol):
    """What the turn clock is read from: a `Game`, or My games' row of one (my_games.py)."""

    @property
    def status(self) -> str: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def turn_started_at(self) -> datetime | None: ...
    @property
    def time_limit(self) -> timedelta | None: ...
    @property
    def paused_at(self) -> datetime | None: ...
    @property
    def clock_stopped_at(self) -> datetime | None: ...


def time_left(game: Clocked, now: datetime | None = None) -> timedelta | None:
    """The time the current turn has left (frozen while its clock is stopped), or None
    without a time limit."""
    if game.time_limit is None or game.turn_started_at is None:
        return None
    at = game.clock_stopped_at or now or timezone.now()
    return game.turn_started_at + game.time_limit - at


def turn_clock(game: Clocked, now: datetime) -> dict[str, object] | None:
    """The current turn's clock for a list of games (My games): its deadline and the
    time left in words, for static/js/clock.js to count down; or, stopped, the time it
    keeps and why. None without a time limit."""
    left = time_left(game, now)
    if left is None or game.status != Game.Status.ACTIVE:
        return None
    if game.clock_stopped_at is not None:
        return {
            "stopped": True,
            "paused": game.paused_at is not None,
            "left": time_left_words(left),
        }
    return {"deadline": now + left, "left": time_left_words(left)}


def turn_order(game: Clocked, now: datetime) -> tuple[int, float]:
    """Where a game waiting for the viewer goes in My games: the least time left first
    (games with a time limit), then the longest waiting (those without), then the
    games whose clock is stopped (paused, or the viewer away)."""
    left = time_left(game, now)
    if game.clock_stopped_at is not None or game.paused_at is not None:
        return (2, left.total_seconds() if left is not None else 0.0)
    if left is not None:
        return (0, left.total_seconds())
    started = game.turn_started_at or game.updated_at
    return (1, started.timestamp())


def stop_clock(game: Game, at: datetime) -> None:
    """Stop the current turn's clock at `at` (a clock already stopped stays so)."""
    if game.clock_stopped_at is None:
        game.clock_stopped_at = at


def restart_clock(game: Game, at: datetime) -> bool:
    """Let the current turn's clock run again from `at`, unless the game is paused or
    its player still away at `at`; returns whether it runs now."""
    stopped = game.clock_stopped_at
    if stopped is None:
        return True
    if game.paused_at is not None or away_until(game.current_player_id, at) is not None:
        return False
    if game.turn_started_at is not None and at > stopped:
        game.turn_started_at += at - stopped
    game.clock_stopped_at = None
    return True


# --- pausing --------------------------------------------------------------------------------


def asked(seats: Sequence[Seat]) -> list[Seat]:
    """The seats whose people decide a pause: not a bot's, not resigned."""
    return [seat for seat in seats if not seat.is_bot and not seat.resigned]


def _locked_seat(game: Game, user: User) -> tuple[Game, list[Seat], Seat]:
    locked = services.lock(game)
    if locked.status != Game.Status.ACTIVE:
        raise Refused(_("This game isn't in progress."), code="not_active")
    seats = services.seats_of(locked)
    seat = seat_for_user(seats, user)
    if seat is None or seat.is_bot or seat.resigned:
        raise Refused(_("You aren't playing in this game."), code="not_seated")
    return locked, seats, seat


@transaction.atomic
def agree(game: Game, user: User, *, now: datetime | None = None) -> bool:
    """The user asks for a pause, or agrees to the one asked; the last agreement
    pauses the game. Agreeing twice changes nothing. Returns whether it is paused."""
    now = now or timezone.now()
    locked, seats, seat = _locked_seat(game, user)
    if locked.paused_at is not None:
        return True
    votes = sorted(set(locked.pause_votes) | {seat.position})
    if votes == locked.pause_votes:
        return False
    locked.pause_votes = votes
    fields = ["pause_votes"]
    if {s.position for s in asked(seats)} <= set(votes):
        locked.paused_at = now
        locked.pause_votes = []
        stop_clock(locked, now)
        fields += ["paused_at", *CLOCK_FIELDS]
    bump(locked, *fields)
    game.paused_at = locked.paused_at
    return locked.paused_at is not None


@transaction.atomic
def decline(game: Game, user: User) -> None:
    """The user says no to the pause asked for (or takes back their own request): the
    request is gone and everyone plays on."""
    locked, _seats, _seat = _locked_seat(game, user)
    if not locked.pause_votes:
        raise Refused(_("Nobody is asking for a pause."), code="no_pause_asked")
    locked.pause_votes = []
    bump(locked, "pause_votes")


@transaction.atomic
def resume(game: Game, user: User, *, now: datetime | None = None) -> None:
    """Anyone seated by a person resumes a paused game: the current turn's clock runs
    again with the time it had left (unless its player is away), and a bot whose turn
    it is plays."""
    now = now or timezone.now()
    locked, seats, _seat = _locked_seat(game, user)
    if locked.paused_at is None:
        raise Refused(_("The game isn't paused."), code="not_paused")
    locked.paused_at = None
    restart_clock(locked, now)
    bump(locked, "paused_at", *CLOCK_FIELDS)
    services.queue_bot_if_due(locked, seats, services.load_state(locked))


@dataclass(frozen=True)
class PausePanel:
    """What the board says about a pause: paused, or asked for (who agreed, who not)."""

    paused: bool
    agreed: list[str]
    waiting: list[str]
    my_vote: bool  # the viewer agreed already
    can_vote: bool  # the viewer is one of those asked
    urls: dict[str, str]


def pause_panel(game: Game, seats: Sequence[Seat], me: Seat) -> PausePanel | None:
    """The board's pause panel for `me`, while the game is in progress."""
    if game.status != Game.Status.ACTIVE:
        return None
    deciding = asked(seats)
    votes = set(game.pause_votes)
    return PausePanel(
        paused=game.paused_at is not None,
        agreed=[seat.player.name for seat in deciding if seat.position in votes],
        waiting=[seat.player.name for seat in deciding if seat.position not in votes],
        my_vote=me.position in votes,
        can_vote=me in deciding,
        urls=_urls(game.public_id),
    )


@lru_cache(maxsize=1024)
def _urls(public_id: str) -> dict[str, str]:
    names = ("pause", "pause_decline", "resume")
    return {name: reverse(f"games:online_{name}", args=[public_id]) for name in names}


def seat_away_words(seat: Seat, viewer: Seat | None = None, now: datetime | None = None) -> str:
    """ "away until Friday" beside a person's name while they are away, else "": the
    day in the time zone of the `viewer` (the seat of whoever looks). Seats come with
    their player, user and profile (select_related)."""
    profile = _profile(seat)
    until = profile.away_until if profile is not None else None
    now = now or timezone.now()
    if until is None or until <= now:
        return ""
    seen_by = _profile(viewer) if viewer is not None else None
    with timezone.override(zone(seen_by) if seen_by is not None else None):
        return away_words(until, now)


def load_profiles(seats: Sequence[Seat]) -> None:
    """Make sure each seat's player comes with its user and profile (what "away until"
    reads): one query if a caller loaded the seats with their players only."""
    if all(_has_profile(seat) for seat in seats):
        return
    players = Player.objects.filter(pk__in=[seat.player_id for seat in seats])
    loaded = {player.pk: player for player in players.select_related("user__profile")}
    for seat in seats:
        seat.player = loaded[seat.player_id]


def _has_profile(seat: Seat) -> bool:
    """Whether `seat.player.user.profile` is loaded already (reading it costs no query)."""
    if not Seat.player.field.is_cached(seat):
        return False
    player = seat.player
    if not Player.user.field.is_cached(player):
        return player.user_id is None
    user = player.user
    return user is None or Profile.user.field.remote_field.is_cached(user)


def _profile(seat: Seat) -> Profile | None:
    user = None if seat.is_bot else seat.player.user
    return getattr(user, "profile", None) if user is not None else None


# --- away mode (accounts/away.py calls these) -----------------------------------------------


def _games_at_turn_of(user: User) -> list[Game]:
    return list(
        Game.objects.select_for_update().filter(
            status=Game.Status.ACTIVE, mode=Game.Mode.ONLINE, current_player__user=user
        )
    )


def show_away_change(user: User) -> None:
    """Every board and lobby `user` is seated at draws again (to say "away until …",
    or no longer)."""
    bump_all(
        Game.objects.filter(
            mode=Game.Mode.ONLINE,
            status__in=[Game.Status.LOBBY, Game.Status.ACTIVE],
            seats__player__user=user,
        )
    )


def stop_clocks_of(user: User, now: datetime) -> None:
    """The user went away: the clocks of the turns waiting for them stop."""
    for game in _games_at_turn_of(user):
        if game.clock_stopped_at is None:
            stop_clock(game, now)
            game.save(update_fields=["clock_stopped_at"])
    show_away_change(user)


def restart_clocks_of(user: User, at: datetime) -> None:
    """The user's away ended at `at`: the clocks of the turns waiting for them run
    again from then (a paused game's stays stopped until it is resumed)."""
    for game in _games_at_turn_of(user):
        if game.clock_stopped_at is not None and restart_clock(game, at):
            game.save(update_fields=list(CLOCK_FIELDS))
    show_away_change(user)


def wake_returned(now: datetime | None = None) -> int:
    """The jobs' first step: away periods that ran out end, and their clocks restart
    from the moment they ended (not from when this ran). Returns how many ended."""
    now = now or timezone.now()
    ended = 0
    for profile in Profile.objects.filter(away_until__lte=now).select_related("user"):
        with transaction.atomic():
            claimed = Profile.objects.filter(pk=profile.pk, away_until=profile.away_until).update(
                away_until=None
            )
            if claimed and profile.away_until is not None:
                restart_clocks_of(profile.user, profile.away_until)
                ended += claimed
    return ended
