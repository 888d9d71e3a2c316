"""One small function per kind of game email, over templates/emails/<name>-subject.txt,
-body.txt and -body.html. Every one is written in the recipient's language and time
zone, links to the site with absolute URLs from SITE_URL, and carries one-click
unsubscribe headers (RFC 2369 / RFC 8058)."""

from __future__ import annotations

import email.message
import email.policy
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext as _

from ..engine import GameState
from ..engine.phases import TIEBREAK_PHASE
from ..models import Game, Move, Notification, Seat
from ..online.chat import since_last_turn
from ..words import card_name, more_moves, move_news, phase_goal_words, right_to_left_lines
from .policy import MAX_REMINDERS, games_waiting_for, local_now

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from accounts.models import Profile

UNSUBSCRIBE_SALT = "games.unsubscribe"
# A turn email lists at most this many things that happened since the player's last turn.
MAX_EVENTS = 12

Kind = Notification.Kind


# --- unsubscribe tokens ----------------------------------------------------------------


def unsubscribe_token(user: User, game: Game | None = None) -> str:
    """A signed token naming the user (and the game the email was about). No expiry:
    an unsubscribe link in an old email must still work."""
    return signing.dumps({"u": user.pk, "g": game.pk if game else None}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> dict[str, Any]:
    """The token's data; signing.BadSignature if it was tampered with."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise signing.BadSignature("Not an unsubscribe token.")
    return data


def unsubscribe_url(user: User, game: Game | None = None) -> str:
    return settings.SITE_URL + reverse("games:unsubscribe", args=[unsubscribe_token(user, game)])


# --- words -----------------------------------------------------------------------------


def your_phase(state: GameState | None, seat: int) -> str:
    if state is None:
        return ""
    if state.tiebreak and not state.game_over:
        return _("Tie-breaker round: %(goal)s") % {"goal": phase_goal_words(TIEBREAK_PHASE)}
    if state.laid_phase[seat] is not None:
        return _("You have laid down your phase this round.")
    phase = state.phase[seat]
    if phase is None:
        return _("Any phase you still need (pick-a-phase).")
    return _("Phase %(number)s: %(goal)s") % {"number": phase, "goal": phase_goal_words(phase)}


def game_url(game: Game) -> str:
    return settings.SITE_URL + game.get_absolute_url()


def _state(game: Game) -> GameState | None:
    try:
        return GameState.from_dict(game.state or {})
    except ValueError:
        return None


def events_since_last_turn(game: Game, seat: int, up_to: int) -> tuple[list[str], bool]:
    """What the other players did between `seat`'s last move and move `up_to`, as
    sentences, and whether `seat` was skipped. Read from the move log's public facts."""
    rows = list(Seat.objects.filter(game=game).select_related("player"))
    seats = {s.position: s.player.name for s in rows}
    bots = {s.position for s in rows if s.is_bot}
    last_own = (
        Move.objects.filter(game=game, seat=seat, number__lte=up_to)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )
    events: list[str] = []
    skipped = False
    moves = Move.objects.filter(game=game, number__gt=last_own, number__lte=up_to).order_by(
        "number"
    )
    for move in moves:
        timed_out = (
            move.automatic and move.seat not in bots and move.action.get("type") == "discard"
        )
        news, skipped_now = move_news(
            move.action, move.seat, reader=seat, names=seats, timed_out=timed_out
        )
        events.extend(news)
        skipped = skipped or skipped_now
    if len(events) > MAX_EVENTS:
        more = len(events) - MAX_EVENTS + 1
        events = events[: MAX_EVENTS - 1] + [more_moves(more)]
    return events, skipped


def _local(when: datetime, profile: Profile) -> str:
    return date_format(local_now(profile, when), "DATETIME_FORMAT")


# --- one function per kind --------------------------------------------------------------


def _seat(notification: Notification) -> Seat | None:
    return (
        Seat.objects.filter(game=notification.game, player__user=notification.recipient)
        .select_related("player")
        .first()
    )


def _seat_of(game: Game, user_id: int) -> Seat | None:
    return Seat.objects.filter(game=game, player__user_id=user_id).first()


class GameEmail(EmailMultiAlternatives):
    """An email whose long header lines stay literal.

    The standard policy folds a long word (our unsubscribe URL) into RFC 2047 encoded
    words, and mail clients don't decode those in List-Unsubscribe, so the one-click
    link would be lost. RFC 5322 allows lines up to 998 characters.
    """

    def message(
        self, *, policy: email.policy.Policy | None = email.policy.default
    ) -> email.message.EmailMessage:
        # None is the default policy, as for email.message.EmailMessage(policy=None).
        policy = policy or email.policy.default
        return super().message(policy=policy.clone(max_line_length=998))


def _deliver(name: str, notification: Notification, context: dict[str, Any]) -> None:
    """Render emails/<name>-subject.txt, -body.txt, -body.html and send (in the language
    already active: `send` switches to the recipient's)."""
    user = notification.recipient
    game = notification.game
    url = unsubscribe_url(user, game)
    context = {
        "SITE_URL": settings.SITE_URL,
        "user": user,
        "game": game,
        "game_name": str(game) if game else "",
        "unsubscribe_url": url,
        "preferences_url": settings.SITE_URL + reverse("accounts:profile"),
        **context,
    }
    if game is not None:
        context.setdefault("game_url", game_url(game))
    subject = " ".join(render_to_string(f"emails/{name}-subject.txt", context).split())
    message = GameEmail(
        subject,
        right_to_left_lines(render_to_string(f"emails/{name}-body.txt", context)),
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
        headers={
            "List-Unsubscribe": f"<{url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "X-Phase10-Notification": str(notification.pk),
        },
    )
    message.attach_alternative(render_to_string(f"emails/{name}-body.html", context), "text/html")
    message.send()


def send_your_turn(notification: Notification) -> None:
    game = notification.game
    assert game is not None
    seat = _seat(notification)
    state = _state(game)
    position = seat.position if seat else 0
    events, skipped = events_since_last_turn(game, position, notification.move_number)
    # The table talk since the player's last move: a few lines, the newest.
    chat, chat_more = since_last_turn(game, seat) if seat else ([], 0)
    context = notification.context or {}
    _deliver(
        "your-turn",
        notification,
        {
            "round": context.get("round") or (state.round_number if state else 1),
            "events": events,
            "skipped": skipped,
            "discard_top": card_name(context.get("discard_top")),
            "phase": your_phase(state, position),
            "chat": chat,
            "chat_more": chat_more,
        },
    )


def send_reminder(notification: Notification) -> None:
    game = notification.game
    assert game is not None
    seat = _seat(notification)
    state = _state(game)
    started = game.turn_started_at or timezone.now()
    hours = max(1, int((timezone.now() - started).total_seconds() // 3600))
    _deliver(
        "reminder",
        notification,
        {
            "round": state.round_number if state else 1,
            "hours": hours,
            "ordinal": notification.ordinal,
            "last": notification.ordinal >= MAX_REMINDERS,
            "phase": your_phase(state, seat.position if seat else 0),
        },
    )


def send_time_warning(notification: Notification) -> None:
    game = notification.game
    assert game is not None and game.time_limit is not None
    deadline = (game.turn_started_at or timezone.now()) + game.time_limit
    _deliver(
        "time-warning",
        notification,
        {
            "deadline": _local(deadline, notification.recipient.profile),
            "left": timeuntil(deadline, timezone.now()),
        },
    )


def send_auto_played(notification: Notification) -> None:
    _deliver(
        "auto-played",
        notification,
        {"discarded": card_name((notification.context or {}).get("discarded"))},
    )


def send_game_over(notification: Notification) -> None:
    game = notification.game
    assert game is not None
    seats = list(
        Seat.objects.filter(game=game).select_related("player").order_by("rank", "position")
    )
    winner = next((seat for seat in seats if seat.is_winner), None)
    _deliver(
        "game-over",
        notification,
        {
            "standings": seats,
            "winner": winner.player.name if winner else "",
            "you_won": bool(winner and winner.player.user_id == notification.recipient_id),
        },
    )


def send_digest(notification: Notification) -> None:
    now = timezone.now()
    games = []
    for game in games_waiting_for(notification.recipient):
        state = _state(game)
        # Each game's table talk since the reader's last move there (a query per game:
        # one email a day, for the few games waiting for its reader).
        seat = _seat_of(game, notification.recipient_id)
        chat, chat_more = since_last_turn(game, seat) if seat else ([], 0)
        games.append(
            {
                "name": str(game),
                "url": game_url(game),
                "since": timesince(game.turn_started_at, now) if game.turn_started_at else "",
                "round": state.round_number if state else None,
                "chat": chat,
                "chat_more": chat_more,
            }
        )
    _deliver("digest", notification, {"games": games, "count": len(games)})


SENDERS: dict[str, Callable[[Notification], None]] = {
    Kind.YOUR_TURN: send_your_turn,
    Kind.REMINDER: send_reminder,
    Kind.TIME_WARNING: send_time_warning,
    Kind.AUTO_PLAYED: send_auto_played,
    Kind.GAME_OVER: send_game_over,
    Kind.DIGEST: send_digest,
}


def send(notification: Notification) -> None:
    """Render and send one notification in its recipient's language (raises on a send
    error: the caller retries)."""
    profile = notification.recipient.profile
    with translation.override(profile.language or settings.LANGUAGE_CODE):
        SENDERS[notification.kind](notification)
