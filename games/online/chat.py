"""Table talk: short messages the people seated at an online game post to each other.

A message is a `ChatMessage` row (the game's record) and, while it is among the last
few, an entry of `Game.recent_chat`, from which the board shows it in the recent turns
after the move it followed (`interleave`). Posting or hiding one bumps the game's
version, so every other page picks it up by its poll; moves check the move number, not
the version, so a message never makes a pending move form stale. The engine, `Move` rows
and replays never see the chat.

- Only seated people post (a bot never does; nor a person whose seat a bot took), and
  only while the game is on: a finished board stops polling, so a message posted then
  would reach nobody (the chat stays readable).
- At most `RATE_LIMIT` messages a minute per seat, counted under the game's lock; the
  same text again within `REPEAT_SECONDS` is a double click and posts nothing.
- Each person can mute others' messages in a game (`Seat.chat_muted`), for themselves
  only: page and emails leave them out. The creator can hide a message for everyone;
  it is shown as hidden and kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..errors import Refused
from ..models import ChatMessage, Game, Move, Seat
from ..scoring import bump, save_seat_setting

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_LENGTH = 500
RATE_LIMIT = 10  # messages per seat per game in RATE_WINDOW
RATE_WINDOW = timedelta(minutes=1)
REPEAT_SECONDS = 5
RECENT_CHAT = 12  # messages kept on the game row for the board
EMAIL_MESSAGES = 3  # messages an email quotes, at most


def can_post(game: Game, seat: Seat) -> bool:
    """Whether the person at `seat` may post in `game` now."""
    return game.status == Game.Status.ACTIVE and not seat.is_bot and not seat.resigned


def clean_text(text: str) -> str:
    """The message as it will be kept, or Refused (empty, too long, a NUL character)."""
    text = text.strip()
    if not text:
        raise Refused(_("Write a message first."), code="empty", field="text")
    if "\x00" in text:
        # PostgreSQL keeps no NUL in text (a DataError, a 500): refused as any bad input.
        raise Refused(_("A message can't contain a NUL character."), code="nul", field="text")
    if len(text) > MAX_LENGTH:
        raise Refused(
            ngettext(
                "A message can be at most %(count)s character long.",
                "A message can be at most %(count)s characters long.",
                MAX_LENGTH,
            )
            % {"count": MAX_LENGTH},
            code="too_long",
            field="text",
        )
    return text


@transaction.atomic
def post(game: Game, user: User, text: str) -> ChatMessage | None:
    """Post `text` for `user`'s seat in `game`; returns the new message, or None when it
    was the same message again a moment later (a double click: nothing changes)."""
    text = clean_text(text)
    locked = _lock(game)
    seat = Seat.objects.filter(game=locked, player__user=user).first()
    if seat is None or seat.is_bot or seat.resigned:
        raise Refused(_("Only the players at this table can chat."), code="not_seated")
    if locked.status != Game.Status.ACTIVE:
        raise Refused(_("The chat closed when the game ended."), code="closed")
    now = timezone.now()
    # Under the game's lock: two tabs posting at once are counted one after the other.
    latest = list(
        ChatMessage.objects.filter(seat=seat, created_at__gt=now - RATE_WINDOW)
        .order_by("-created_at")
        .values_list("text", "created_at")[:RATE_LIMIT]
    )
    if any(same == text and now - at < timedelta(seconds=REPEAT_SECONDS) for same, at in latest):
        return None
    if len(latest) >= RATE_LIMIT:
        raise Refused(
            ngettext(
                "That's %(count)s message in a minute: wait a moment before the next one.",
                "That's %(count)s messages in a minute: wait a moment before the next one.",
                RATE_LIMIT,
            )
            % {"count": RATE_LIMIT},
            code="rate_limited",
            field="text",
        )
    message = ChatMessage.objects.create(
        game=locked, seat=seat, move_number=locked.move_number, text=text, created_at=now
    )
    entry = [message.pk, seat.position, message.move_number, text, False]
    locked.recent_chat = (list(locked.recent_chat) + [entry])[-RECENT_CHAT:]
    bump(locked, "recent_chat")
    return message


@transaction.atomic
def hide(game: Game, user: User, message_id: int) -> None:
    """The game's creator hides a message for everyone (kept, shown as hidden)."""
    locked = _lock(game)
    if locked.creator_id != user.pk:
        raise Refused(_("Only the game's creator can hide a message."), code="not_creator")
    message = ChatMessage.objects.filter(game=locked, pk=message_id).first()
    if message is None:
        raise Refused(_("That message isn't in this game's chat."), code="no_message")
    _hide(locked, message)


@transaction.atomic
def hide_for_staff(message: ChatMessage) -> bool:
    """Staff hide a message for everyone (the admin's action), as its game's creator
    would: kept, shown as hidden, the board's copy on the game row with it. False if it
    was hidden already (read again under the game's lock: the creator may have been
    first)."""
    locked = _lock(message.game)
    return _hide(locked, ChatMessage.objects.get(pk=message.pk, game=locked))


def _hide(locked: Game, message: ChatMessage) -> bool:
    if message.hidden_at is not None:
        return False
    message.hidden_at = timezone.now()
    message.save(update_fields=["hidden_at"])
    recent = [list(entry) for entry in locked.recent_chat]
    shown = [entry for entry in recent if entry[0] == message.pk]
    for entry in shown:
        entry[4] = True
    if shown:  # the board shows it: every page must redraw
        locked.recent_chat = recent
        bump(locked, "recent_chat")
    return True


def set_muted(seat: Seat, seats: Sequence[Seat], position: int, muted: bool) -> None:
    """Mute (or unmute) the messages of the person at `position` for `seat` only."""
    other = next((each for each in seats if each.position == position), None)
    if other is None or other.pk == seat.pk or (other.is_bot and not other.resigned):
        raise Refused(_("There is no such player at this table."), code="no_player")
    positions = set(seat.chat_muted) - {position}
    if muted:
        positions.add(position)
    seat.chat_muted = sorted(positions)
    save_seat_setting(seat, "chat_muted")


def _lock(game: Game) -> Game:
    # Not services.lock: the emails read this module, and the services write the emails.
    return Game.objects.select_for_update().get(pk=game.pk, mode=Game.Mode.ONLINE)


# --- the board ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One chat message as a seat's board shows it."""

    id: int
    position: int
    name: str
    move_number: int
    text: str  # empty when hidden
    hidden: bool
    mine: bool


def board_lines(game: Game, seats: Sequence[Seat], me: Seat) -> list[Line]:
    """The recent messages `me` sees, oldest first (read from the game row: no query)."""
    names = {seat.position: seat.player.name for seat in seats}
    muted = set(me.chat_muted)
    return [
        Line(
            id=pk,
            position=position,
            name=names.get(position, "?"),
            move_number=number,
            text="" if hidden else text,
            hidden=hidden,
            mine=position == me.position,
        )
        for pk, position, number, text, hidden in game.recent_chat
        if position not in muted
    ]


def record_lines(
    game: Game, seats: Sequence[Seat], reader: Seat, low: int, high: int
) -> list[Line]:
    """The messages posted after moves `low` to `high` as `reader`, a player of the game,
    sees them in its replay: from the record (one query), oldest first, without the
    players they muted."""
    by_pk = {seat.pk: seat for seat in seats}
    muted = set(reader.chat_muted)
    messages = ChatMessage.objects.filter(
        game=game, move_number__gte=low, move_number__lte=high
    ).order_by("move_number", "pk")
    return [
        Line(
            id=message.pk,
            position=seat.position,
            name=seat.player.name,
            move_number=message.move_number,
            text="" if message.hidden_at else message.text,
            hidden=message.hidden_at is not None,
            mine=seat.pk == reader.pk,
        )
        for message in messages
        if (seat := by_pk[message.seat_id]).position not in muted
    ]


def interleave(log: Sequence[dict[str, Any]], lines: Sequence[Line]) -> list[dict[str, Any]]:
    """The recent turns (`log`, oldest first) with the chat's lines put after the move
    they followed, newest first as the board lists them. A message older than the
    oldest move shown comes last: it was said before it."""
    entries = [((line["number"], 0, 0), line) for line in log]
    entries += [((line.move_number, 1, line.id), {"chat": line}) for line in lines]
    entries.sort(key=lambda entry: entry[0], reverse=True)
    return [entry for _key, entry in entries]


def jump_words(lines: Sequence[Line], recent_moves: Sequence[Sequence[Any]], me: Seat) -> str:
    """The link to the chat by the board's status: "Chat · 2 new", counting the others'
    messages since `me` last said something or moved (as the your-turn email's "since
    your last turn" does), or "Chat"."""
    own_moves = [number for number, seat, *_rest in recent_moves if seat == me.position]
    since_move = max(own_moves, default=-1)
    since_message = max((line.id for line in lines if line.mine), default=0)
    count = sum(
        1
        for line in lines
        if not line.mine
        and not line.hidden
        and line.move_number >= since_move
        and line.id > since_message
    )
    if not count:
        return _("Chat")
    return ngettext("Chat · %(count)s new", "Chat · %(count)s new", count) % {"count": count}


def board_chat(
    game: Game, seats: Sequence[Seat], me: Seat, *, draft: str = "", error: str = ""
) -> dict[str, Any]:
    """What the chat's part of the board needs beside the lines: who may post, whom
    `me` can mute, whether `me` may hide messages; a message refused (`error`) and its
    words as typed (`draft`)."""
    muted = set(me.chat_muted)
    others = [
        {"position": seat.position, "name": seat.player.name, "muted": seat.position in muted}
        for seat in seats
        if seat.pk != me.pk and not (seat.is_bot and not seat.resigned)
    ]
    return {
        "can_post": can_post(game, me),
        "closed": game.status == Game.Status.FINISHED,
        "others": others,
        "is_creator": game.creator_id is not None and game.creator_id == me.player.user_id,
        "draft": draft,
        "error": error,
        "max_length": MAX_LENGTH,
    }


# --- emails -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Said:
    """A message quoted in an email: "Ana: nice skip!"."""

    name: str
    text: str


def since_last_turn(
    game: Game, seat: Seat, *, limit: int = EMAIL_MESSAGES
) -> tuple[list[Said], int]:
    """The others' messages since `seat`'s last move (the last `limit` of them, oldest
    first) and how many more there were; muted and hidden ones left out."""
    last_own = (
        Move.objects.filter(game=game, seat=seat.position)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )
    messages = (
        ChatMessage.objects.filter(game=game, move_number__gte=last_own, hidden_at=None)
        .exclude(seat=seat)
        .exclude(seat__position__in=list(seat.chat_muted))
        .select_related("seat__player")
        .order_by("-pk")
    )
    latest = list(messages[: limit + 1])
    more = messages.count() - limit if len(latest) > limit else 0
    said = [Said(message.seat.player.name, message.text) for message in latest[:limit]]
    return list(reversed(said)), more
