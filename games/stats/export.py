"""Your data out: games and rounds as CSV, a finished game as JSON.

CSV rows stream from a database cursor, so a long history never sits in memory.
The export says what the stats count: a game won by the bot that took a resigned
person's seat is not their win, and a round a bot played is marked as the bot's.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Count, F
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _

from games.models import ChatMessage, Game, Player, RatingChange, RoundScore, Seat

from .ratings import shown


def variant(rules: dict[str, Any]) -> str:
    """A short name for a game's variant.

    >>> variant({}), variant({"all_advance": True}), variant({"pick_a_phase": True})
    ('standard', 'all-advance', 'pick-a-phase')
    """
    if rules.get("pick_a_phase"):
        return "pick-a-phase"
    if rules.get("all_advance"):
        return "all-advance"
    return "standard"


def _iso(value: Any) -> str:
    return value.isoformat() if value else ""


class _Echo:
    """csv.writer writes to this; each row comes straight back to be streamed."""

    def write(self, value: str) -> str:
        return value


# A spreadsheet reads a cell that starts with one of these as a formula (CSV injection):
# game and player names are anyone's text (public ids never start so: games/models.py).
# OWASP's escape: a leading single quote, which spreadsheets show as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as it is, never runs as a formula (numbers stay).

    >>> [spreadsheet_safe(cell) for cell in ("=1+1", "-x", "@me", "ann", -5)]
    ["'=1+1", "'-x", "'@me", 'ann', -5]
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_response(filename: str, rows: Iterable[list[Any]]) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())
    response = StreamingHttpResponse(
        (writer.writerow([spreadsheet_safe(cell) for cell in row]) for row in rows),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def games_rows(player: Player) -> Iterator[list[Any]]:
    yield [
        _("game"),
        _("name"),
        _("mode"),
        _("variant"),
        _("status"),
        _("started"),
        _("finished"),
        _("rounds"),
        _("players"),
        _("your seat"),
        _("your score"),
        _("phases completed"),
        _("your rank"),
        _("you won"),
        _("winner"),
        _("you resigned"),
    ]
    seats = (
        Seat.objects.filter(player=player)
        .annotate(players=Count("game__seats"), winner_name=F("game__winner__name"))
        .select_related("game")
        .order_by("game__created_at", "game_id")
    )
    for seat in seats.iterator(chunk_size=500):
        game = seat.game
        yield [
            game.public_id,
            str(game),
            game.mode,
            variant(game.rules or {}),
            game.status,
            _iso(game.created_at),
            _iso(game.finished_at),
            game.rounds_played,
            seat.players,
            seat.position + 1,
            seat.score,
            seat.phases_completed,
            seat.rank or "",
            # A bot played a resigned seat to the end: its win is not the person's.
            _("yes") if seat.is_winner and not seat.resigned else _("no"),
            seat.winner_name or "",
            _("yes") if seat.resigned else _("no"),
        ]


def rounds_rows(player: Player) -> Iterator[list[Any]]:
    yield [
        _("game"),
        _("round"),
        _("seat"),
        _("player"),
        _("phase attempted"),
        _("phase completed"),
        _("points"),
        _("went out"),
        _("total"),
        _("played by a bot"),
    ]
    rows = (
        RoundScore.objects.filter(game__seats__player=player)
        .order_by("game__created_at", "game_id", "round_number", "seat__position")
        .values_list(
            "game__public_id",
            "round_number",
            "seat__position",
            "player__name",
            "phase_attempted",
            "phase_completed",
            "points",
            "went_out",
            "total",
            "by_bot",
        )
    )
    for (
        game,
        number,
        position,
        name,
        attempted,
        completed,
        points,
        out,
        total,
        by_bot,
    ) in rows.iterator(chunk_size=2000):
        yield [
            game,
            number,
            position + 1,
            name,
            attempted or "",
            completed or "",
            points,
            _("yes") if out else _("no"),
            total,
            _("yes") if by_bot else _("no"),
        ]


def game_dict(game: Game) -> dict[str, Any]:
    """A finished game as plain data: players, then every round's results (an online
    round's with each hand left when it ended)."""
    seats = list(game.seats.select_related("player").order_by("position"))
    rounds: dict[int, list[dict[str, Any]]] = {}
    for row in game.round_scores.order_by("round_number", "seat__position").values(
        "round_number",
        "seat__position",
        "phase_attempted",
        "phase_completed",
        "points",
        "went_out",
        "total",
        "by_bot",
        "cards_left",
    ):
        rounds.setdefault(row["round_number"], []).append(
            {
                "seat": row["seat__position"],
                "phase_attempted": row["phase_attempted"],
                "phase_completed": row["phase_completed"],
                "points": row["points"],
                "went_out": row["went_out"],
                "total": row["total"],
                "by_bot": row["by_bot"],
                # An online round's hand left as it ended, as card codes (a night's: []).
                "cards_left": row["cards_left"],
            }
        )
    winner = next((seat for seat in seats if seat.is_winner), None)
    return {
        "id": game.public_id,
        "name": str(game),
        "mode": game.mode,
        "variant": variant(game.rules or {}),
        "rules": game.rules,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "rounds_played": game.rounds_played,
        "winner": winner.position if winner else None,
        "players": [_player(seat) for seat in seats],
        "rounds": [{"round": number, "results": rows} for number, rows in rounds.items()],
    }


def game_chat(game: Game, reader: Player) -> list[dict[str, Any]]:
    """The game's table talk, every message in order: part of its record. A message the
    creator hid keeps its words only for the one who wrote it (their own data); nobody
    else got to read them. Muting is a way of reading, not of the record: it is ignored."""
    messages = ChatMessage.objects.filter(game=game).select_related("seat__player")
    return [
        {
            "seat": message.seat.position,
            "name": message.seat.player.name,
            "after_move": message.move_number,
            "posted_at": _iso(message.created_at),
            "hidden": message.hidden_at is not None,
            "text": message.text
            if message.hidden_at is None or message.seat.player_id == reader.pk
            else None,
        }
        for message in messages.order_by("pk")
    ]


def _player(seat: Seat) -> dict[str, Any]:
    bot = seat.is_bot and not seat.resigned  # a person who resigned keeps their seat
    return {
        "seat": seat.position,
        "name": seat.player.name,
        "guest": seat.player.is_guest and not bot,
        "bot": bot,
        "resigned": seat.resigned,
        "score": seat.score,
        "phases_completed": seat.phases_completed,
        "rank": seat.rank,
        "winner": seat.is_winner,
    }


# --- ratings ------------------------------------------------------------------------------

RATING_FIELDS = (
    "rank",
    "finished_at",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "ordinal_before",
    "ordinal_after",
)


def ratings_rows(player: Player) -> Iterator[list[Any]]:
    """The player's rating history: one row per rated game, in the order rated (the
    shown rating before and after, and the model's mu and sigma behind it)."""
    yield [
        _("game"),
        _("name"),
        _("mode"),
        _("finished"),
        _("your place among the people"),
        _("people rated"),
        _("rating before"),
        _("rating after"),
        _("change"),
        _("mu before"),
        _("sigma before"),
        _("mu after"),
        _("sigma after"),
    ]
    changes = (
        RatingChange.objects.filter(player=player)
        .annotate(rated=Count("game__rating_changes"))
        .select_related("game")
        .only("game__public_id", "game__name", "game__mode", *RATING_FIELDS)
        .order_by("finished_at", "game_id")
    )
    for change in changes.iterator(chunk_size=500):
        before, after = shown(change.ordinal_before), shown(change.ordinal_after)
        yield [
            change.game.public_id,
            str(change.game),
            change.game.mode,
            _iso(change.finished_at),
            change.rank,
            change.rated,
            before,
            after,
            after - before,
            change.mu_before,
            change.sigma_before,
            change.mu_after,
            change.sigma_after,
        ]


def game_ratings(game: Game) -> list[dict[str, Any]]:
    """What a game did to its people's ratings, for its JSON (empty until it is rated,
    or when it moved nobody: not a rated game, or one person and bots)."""
    seats = dict(game.seats.values_list("player_id", "position"))
    return [
        {
            "seat": seats.get(change.player_id),
            "name": change.player.name,
            "place": change.rank,
            "before": shown(change.ordinal_before),
            "after": shown(change.ordinal_after),
            "mu_before": change.mu_before,
            "sigma_before": change.sigma_before,
            "mu_after": change.mu_after,
            "sigma_after": change.sigma_after,
        }
        for change in game.rating_changes.select_related("player").order_by("rank", "player_id")
    ]
