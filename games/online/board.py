"""The board: what one seated player's page shows of an online game, built from the
engine's `player_view` of their seat (never from the state itself, so other hands and
the deck order can't reach a template). Words come from `games.words`; the markup is
in `games/online/game.html` and the card templates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from phase10site.jinja import render

from .. import cache_keys
from ..engine import Action, Card, Discard, PlayerView, hint, player_view
from ..models import Game, Seat
from ..words import own_move_sentence, phase_goal_words
from . import chat, services
from .pause import load_profiles, pause_panel, turn_clock
from .table_parts import (
    last_round_context,
    log_lines,
    seat_context,
    standing_rows,
)

SORT_KEY = "online_hand_sort"
COLOURS = "RBGY"
BOARD = "games/online/board.html"  # Jinja2 (phase10site/jinja.py): drawn on every move
# The places on the board the player's next action starts from (data-landing="…"): the
# one named in the board's data-focus (static/js/board.js) gets focus after the player's
# own move; empty on every other answer, so a poll never moves focus.
FOCUS_PLACES = frozenset({"hand", "choice", "status", "notice", "chat"})


@dataclass
class Seating:
    """An online game as one seated user sees it: the game, its seats, theirs."""

    game: Game
    seats: list[Seat]
    me: Seat


def board_html(
    request: HttpRequest, seating: Seating, *, focus: str = "", **extra: Any
) -> SafeString:
    """The board of `seating`'s player, as HTML; `focus` names the place on it that
    should have focus next (one of `FOCUS_PLACES`; empty: the control the player used
    keeps it).

    A board without an error, notice, choice, hint or focus is kept in the cache under
    all it shows (games/cache_keys.py `board`): the game's version, the seat, the
    language, the hand's order, the time left in words and the viewer's CSRF cookie,
    whose token its forms hold. A poll that finds a change, the other tab or the page
    then take it from there. A board with focus answers the player's own move or
    message, at a version nobody asks for that board again: it is drawn, not kept. The
    key holds the seat, so a board (and the hand in it) is only ever served to the seat
    it was drawn for."""
    game, me = seating.game, seating.me
    focus = focus if focus in FOCUS_PLACES else ""
    now = timezone.now()
    csrf = cache_keys.csrf_cookie(request)
    if any(extra.values()) or focus or csrf is None:
        return render(
            BOARD, board_context(request, seating, focus=focus, now=now, **extra), request
        )
    clock = turn_clock(game, now)  # the time left in the words clock_context shows
    key = cache_keys.board(
        game,
        me,
        sort=request.session.get(SORT_KEY, "number"),
        csrf=csrf,
        time_left="" if clock is None else str(clock["left"]),
    )
    html: str | None = cache.get(key)
    if html is None:
        html = render(BOARD, board_context(request, seating, now=now), request)
        cache.set(key, html, cache_keys.VERSION_SECONDS)
    return SafeString(html)


def draw_pile_words(count: int) -> str:
    return ngettext("Draw pile: %(count)s card", "Draw pile: %(count)s cards", count) % {
        "count": count
    }


def focus_after(action: Action) -> str:
    """Where the player's next action starts once `action` is played: the hand after a
    draw, a lay-down or a hit (the next card to hit with, or to discard), the status
    line once a discard ended the turn."""
    return "status" if isinstance(action, Discard) else "hand"


def board_context(
    request: HttpRequest,
    seating: Seating,
    *,
    focus: str = "",
    now: datetime | None = None,
    error: str = "",
    notice: str = "",
    choice: Any = None,
    hint: dict[str, Any] | None = None,
    chat_draft: str = "",
    chat_error: str = "",
) -> dict[str, Any]:
    game, seats, me = seating.game, seating.seats, seating.me
    load_profiles(seats)  # "away until …" beside a name
    # Everything below reads `view`, never the state: the view is what this seat may know.
    view = player_view(services.load_state(game), me.position)
    names = view.players
    order = request.session.get(SORT_KEY, "number")
    can_act = view.your_turn and not me.is_bot and game.paused_at is None
    legal = view.legal
    players = [seat_context(view, seat, me) for seat in seats]
    log = log_lines(game.recent_moves, names, game.public_id)
    announce_own_moves(log, game, view)
    chat_box = chat.board_chat(game, seats, me, draft=chat_draft, error=chat_error)
    chat_lines = chat.board_lines(game, seats, me)
    spectate_url = (
        request.build_absolute_uri(reverse("games:online_spectate", args=[game.spectator_token]))
        if game.spectator_token
        else ""
    )
    return {
        "game": game,
        "me": me,
        "view": view,
        "players": players,
        "current": None if view.game_over or game.paused_at else players[view.current_seat],
        "my_phase_goal": phase_goal_words(view.phase[me.position]),
        "hand": [str(card) for card in sorted_hand(view.hand, order)],
        "drawn_index": just_drawn_index(game, view, order),
        "sort": order,
        "discard_top": str(view.discard_top) if view.discard_top else None,
        "draw_pile_words": draw_pile_words(view.draw_pile_size),
        "just_drawn_words": pgettext("a card in the hand", "just drawn"),
        "can_act": can_act,
        "can_draw": can_act and legal.draw,
        "can_take": can_act and legal.take_discard,
        "can_lay": can_act and bool(legal.lay_down),
        "can_hit": can_act and bool(legal.hits),
        "can_discard": can_act and bool(legal.discards),
        "pick_phases": list(_phases_to_pick(view)) if view.rules.pick_a_phase else [],
        # The chat's recent messages sit between the moves they came between.
        "log": chat.interleave(log, chat_lines),
        "chat": chat_box,
        "chat_jump": chat.jump_words(chat_lines, game.recent_moves, me),
        "last_round": last_round_context(game, view, log),
        "standings": standing_rows(seats) if view.game_over else [],
        "error": error,
        "notice": notice,
        "choice": choice,
        "hint": hint,
        "poll": not view.game_over,
        "urls": board_urls(game.public_id, get_script_prefix()),
        "spectate_url": spectate_url,
        "foot_key": foot_key(game, me, view, chat_box, spectate_url, request),
        "clock": clock_context(game, view, seats, now=now or timezone.now()),
        "pause": pause_panel(game, seats, me),
        "focus": focus,
    }


def foot_key(
    game: Game,
    me: Seat,
    view: PlayerView,
    chat_box: dict[str, Any],
    spectate_url: str,
    request: HttpRequest,
) -> tuple[object, ...] | None:
    """Everything the board's foot (the chat's box, the spectator link, mute and resign)
    shows: the key it is kept under (board.html), its forms' token with it (the CSRF
    cookie's, as `board_html` keeps the board). None with a refused message's draft
    and error (a player's words are not kept) or without a CSRF cookie: drawn once."""
    csrf = cache_keys.csrf_cookie(request)
    if chat_box["draft"] or chat_box["error"] or csrf is None:
        return None
    others = tuple((o["position"], o["name"], o["muted"]) for o in chat_box["others"])
    chat_part = (chat_box["can_post"], chat_box["closed"], others, chat_box["max_length"])
    return (
        game.public_id,
        me.muted,
        me.resigned,
        view.game_over,
        spectate_url,
        chat_part,
        csrf,
    )


def clock_context(
    game: Game, view: PlayerView, seats: list[Seat], *, now: datetime
) -> dict[str, Any] | None:
    """The current turn's clock (games/online/clock.html) at `now`, as My games shows
    it (`pause.turn_clock`), while a person (not a bot) is to play. A board kept in the
    cache is kept under the time left in words (`board_html`), so it shows it right."""
    current = next((seat for seat in seats if seat.position == view.current_seat), None)
    if view.game_over or current is None or current.is_bot:
        return None
    clock = turn_clock(game, now)
    if clock is not None and not clock.get("stopped"):
        deadline = timezone.localtime(clock["deadline"])  # type: ignore[arg-type]  # a datetime when running
        clock.update(
            deadline_iso=deadline.isoformat(),
            deadline_text=date_format(deadline, "DATETIME_FORMAT"),
        )
    return clock


def _phases_to_pick(view: PlayerView) -> tuple[int, ...]:
    phase = view.phase[view.seat]
    if phase is not None:
        return (phase,)
    return view.rules.phases_left(view.completed[view.seat])


def hint_context(seating: Seating) -> dict[str, Any]:
    """The engine's hint for the player's hand, in words."""
    game, me = seating.game, seating.me
    state = services.load_state(game)
    found = hint(state, me.position)
    if found.laid:
        return {"text": _("Your phase is down: hit your cards on groups that take them.")}
    if found.options:
        # On the player's turn, once drawn, each arrangement is a lay-down form of its
        # own: one tap plays it (the same fields as a choice's "Lay down phase n").
        can_lay = state.current_seat == me.position and state.drawn and not me.is_bot
        return {
            "text": _("You can lay down now:"),
            "options": [
                {
                    "phase": option.phase,
                    "groups": [[str(c) for c in g] for g in option.groups],
                    "value": "|".join(" ".join(str(c) for c in g) for g in option.groups),
                }
                for option in found.options
            ],
            "lay": {
                "move": game.move_number,
                "act": board_urls(game.public_id, get_script_prefix())["act"],
            }
            if can_lay and not state.game_over
            else None,
        }
    count = found.shortfall
    return {
        "text": ngettext(
            "Not yet: you need at least %(count)s more card.",
            "Not yet: you need at least %(count)s more cards.",
            count,
        )
        % {"count": count}
    }


def announce_own_moves(log: list[dict[str, Any]], game: Game, view: PlayerView) -> None:
    """Give each of the seat's own lines in `log` the words the page's live region says
    once the player made that move ("You discarded blue 6.", board.html's data-announce);
    the others' lines are said as the log reads them."""
    moves = {number: data for number, _seat, data, _automatic in game.recent_moves}
    newest = game.recent_moves[-1][0] if game.recent_moves else None
    for line in log:
        if line["seat"] != view.seat:
            continue
        # Only the drawer's own view knows the card drawn, and only while it is the last move.
        drawn = (
            str(view.hand[-1]) if line["number"] == newest and view.drawn and view.hand else None
        )
        line["announce"] = own_move_sentence(
            moves[line["number"]], view.seat, view.players, drawn=drawn
        )


def just_drawn_index(game: Game, view: PlayerView, order: str) -> int | None:
    """Where in the shown hand (sorted by `order`) the card this seat just drew or took
    is, while the game's last move is that draw; None otherwise. The engine puts a
    drawn card at the end of the hand, so it is `view.hand[-1]`: only this seat's own
    view says which card it is, and only this seat's board (cached per seat) shows it."""
    if not (view.your_turn and view.drawn and view.hand and game.recent_moves):
        return None
    _number, seat, data, _automatic = game.recent_moves[-1]
    if seat != view.seat or data.get("type") != "draw":
        return None
    drawn = view.hand[-1]
    shown = sorted_hand(view.hand, order)
    return len(shown) - 1 - shown[::-1].index(drawn)


def sorted_hand(hand: tuple[Card, ...], order: str) -> list[Card]:
    if order == "colour":
        return sorted(
            hand,
            key=lambda c: (
                COLOURS.index(c.colour) if c.colour else 4 + (c.number is not None),
                c.number or 0,
            ),
        )
    return sorted(hand, key=Card.sort_key)


@lru_cache(maxsize=1024)
def board_urls(public_id: str, prefix: str) -> dict[str, str]:
    """The links and form targets of a game's board. The board is drawn on every
    change, by every seat, so they are reversed once per game (and script prefix)."""
    names = ["detail", "poll", "act", "hint", "sort", "resign", "rematch", "mute"]
    names += ["replay", "spectators"]
    names += ["chat", "chat_hide", "chat_mute"]
    return {name: reverse(f"games:online_{name}", args=[public_id]) for name in names}
