"""What a table shows of an online game to anyone looking at it: the seats around it (name,
tags, facts, laid groups), the log of turns, the last round's results and the final
standings. The seated player's board (board.py), the spectator's page (spectators.py)
and the replay (replay.py) draw them alike, from the engine's `PlayerView`. Their words
come from `games.words`, or are looked up here once per language: a board draws them on
every move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from ..engine import PlayerView, RoundSummary
from ..models import Game, Seat
from ..words import group_words, move_line, phase_goal_words
from .pause import seat_away_words


def log_lines(
    moves: Iterable[Sequence[Any]], names: Sequence[str], game_key: str = ""
) -> list[dict[str, Any]]:
    """Logged moves — (number, seat, action, automatic), as `Game.recent_moves` holds
    them — as the log of turns shows them, oldest first: in words, with the round a
    move ended (the board's, the spectator's and the replay's log alike). With
    `game_key` (the game's public id), each move's words are looked up once per process
    and language: a move never changes, and a board shows the last ten on every move."""
    scope = (game_key, get_language() or "", tuple(names))
    return [
        {
            "number": number,
            "seat": seat,
            "text": _move_words(scope, number, seat, data)
            if game_key
            else move_line(data, seat, names),
            "automatic": automatic,
            "round_over": data.get("log", {}).get("round_over"),
        }
        for number, seat, data, automatic in moves
    ]


# (game's public id, language, names, move number) -> the move in words (log_lines);
# emptied when full (they are all drawn again) and when the settings change.
_MOVE_WORDS: dict[tuple[Any, ...], str] = {}
MOVE_WORDS_MOST = 20_000


def _forget_move_words(**_kwargs: object) -> None:
    _MOVE_WORDS.clear()
    for words in (_seat_words, _counted, _phases_done_words):
        words.cache_clear()


setting_changed.connect(_forget_move_words, dispatch_uid="games.online.table_parts.move_words")


def _move_words(scope: tuple[str, str, tuple[str, ...]], number: int, seat: int, data: Any) -> str:
    key = (*scope, number)
    words = _MOVE_WORDS.get(key)
    if words is None:
        if len(_MOVE_WORDS) >= MOVE_WORDS_MOST:
            _MOVE_WORDS.clear()
        words = _MOVE_WORDS[key] = move_line(data, seat, scope[2])
    return words


def seat_context(view: PlayerView, seat: Seat, me: Seat | None) -> dict[str, Any]:
    """One seat around the table: name, tags, facts and laid groups (`me`: the viewer's
    seat; None for a spectator or a replay)."""
    position = seat.position
    is_turn = not view.game_over and position == view.current_seat
    words = _seat_words(get_language() or "")
    classes = ["ot-player"]
    tags = []
    if is_turn:
        classes.append("turn")
    if me is not None and position == me.position:
        classes.append("me")
        tags.append(("", words["you"]))
    if position not in view.playing:
        classes.append("out")
    if seat.is_bot:
        tags.append(("bot", words["resigned"] if seat.resigned else words["bot"]))
    if position == view.dealer and not view.game_over:
        tags.append(("deal", words["dealer"]))
    if is_turn:
        tags.append(("turn", words["turn"]))
    if position in view.skipped:
        tags.append(("skip", words["skipped"]))
    if away := seat_away_words(seat, me):
        tags.append(("away", away))
    if view.laid_phase[position] is not None:
        tags.append(("down", words["laid"]))
    facts = []
    phase = view.phase[position]
    if phase is not None:
        facts.append((_count_words("phase", phase), phase_goal_words(phase)))
    elif view.rules.pick_a_phase:
        done, total = len(view.completed[position]), len(view.rules.phases)
        facts.append((_phases_done_words(done, total, get_language() or ""), ""))
    facts.append((_count_words("cards", view.hand_counts[position]), ""))
    facts.append((_count_words("points", view.scores[position]), ""))
    groups = [
        {
            "words": group_words(
                group.kind,
                number=group.number,
                colour=group.colour,
                low=group.low,
                size=len(group),
            ),
            "cards": [str(card) for card in group],
        }
        for group in view.laid[position]
    ]
    return {
        "seat": seat,
        "name": view.players[position],
        "is_turn": is_turn,
        "classes": " ".join(classes),
        "tags": tags,
        "facts": facts,
        "groups": groups,
    }


# A board says each seat's tags and facts on every draw (a move, a poll that finds one):
# their words are looked up once per language (and count), not once per seat and draw.
@lru_cache(maxsize=16)
def _seat_words(_language: str) -> dict[str, str]:
    return {
        "you": _("you"),
        "bot": _("bot"),
        "resigned": _("resigned · bot plays"),
        "dealer": _("dealer"),
        "turn": _("to play"),
        "skipped": _("skipped next"),
        "laid": _("phase laid"),
    }


def _count_words(kind: str, number: int) -> str:
    """A seat's fact: "Phase 3", "11 cards", "45 points"."""
    return _counted(kind, number, get_language() or "")


@lru_cache(maxsize=4096)
def _counted(kind: str, number: int, _language: str) -> str:
    if kind == "phase":
        return _("Phase %(number)s") % {"number": number}
    if kind == "cards":
        return ngettext("%(count)s card", "%(count)s cards", number) % {"count": number}
    return ngettext("%(score)s point", "%(score)s points", number) % {"score": number}


@lru_cache(maxsize=1024)
def _phases_done_words(done: int, total: int, _language: str) -> str:
    return ngettext("%(done)s of %(total)s phase", "%(done)s of %(total)s phases", total) % {
        "done": done,
        "total": total,
    }


def cards_left(game: Game, round_number: int) -> list[list[str]]:
    """Per seat position, the cards left in its hand when round `round_number` ended
    (shown to everyone once the round is over), from the game row: no query."""
    reveal = game.round_reveal or {}
    return list(reveal.get("hands", [])) if reveal.get("round") == round_number else []


@dataclass
class LastRound:
    """The last round's results (board.html, spectate.html): its number, whether it
    ended among the moves the log shows (then it is open), and a row per seat, made
    only when read: the board keeps the part that shows them for as long as they are
    the same (`keep`), so most draws never read them."""

    summary: RoundSummary
    recent: bool
    _game: Game
    _view: PlayerView

    @property
    def number(self) -> int:
        return self.summary.round_number

    @cached_property
    def rows(self) -> list[dict[str, Any]]:
        game, view, summary = self._game, self._view, self.summary
        cards = cards_left(game, summary.round_number)
        return [
            {
                "name": view.players[position],
                "points": line.points,
                "went_out": line.went_out,
                "laid_text": "✓ " + _("phase %(number)s") % {"number": summary.laid[position]}
                if summary.laid[position]
                else "✗ " + _("not laid"),
                "next_text": _("→ phase %(number)s") % {"number": view.phase[position]}
                if view.phase[position] and not view.game_over
                else "",
                "total": view.scores[position],
                "points_words": points_words(line.points),
                "cards": cards[position] if position < len(cards) else [],
            }
            for position, line in enumerate(summary.seats)
        ]


def last_round_context(game: Game, view: PlayerView, log: list[dict[str, Any]]) -> LastRound | None:
    """The last round's results: each seat's points, phase, total, and its cards left."""
    summary = view.last_round
    if summary is None:
        return None
    recent = any(line["round_over"] == summary.round_number for line in log)
    return LastRound(summary, recent, game, view)


def points_words(points: int) -> str:
    """A hand's points in a round's reveal (reveal.html): "40 points"."""
    return ngettext("%(points)s point", "%(points)s points", points) % {"points": points}


def standing_rows(seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """A finished game's seats by rank, as standings.html shows them."""
    return [
        {
            "rank": seat.rank,
            "is_winner": seat.is_winner,
            "name": seat.player.name,
            "resigned": seat.resigned,
            "is_bot": seat.is_bot,
            "phases_words": ngettext(
                "%(done)s phase completed", "%(done)s phases completed", seat.phases_completed
            )
            % {"done": seat.phases_completed},
            "score": seat.score,
        }
        for seat in sorted(seats, key=lambda s: (s.rank or 99, s.position))
    ]
