"""Your data out: games and rounds as CSV, a finished game as JSON.

CSV rows stream from a database cursor, so a long history never sits in memory.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Count, F
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _

from games.models import Game, Player, RoundScore, Seat


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


def csv_response(filename: str, rows: Iterable[list[Any]]) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())
    response = StreamingHttpResponse(
        (writer.writerow(row) for row in rows), content_type="text/csv; charset=utf-8"
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
            _("yes") if seat.is_winner else _("no"),
            seat.winner_name or "",
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
        )
    )
    for game, number, position, name, attempted, completed, points, out, total in rows.iterator(
        chunk_size=2000
    ):
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
        ]


def game_dict(game: Game) -> dict[str, Any]:
    """A finished game as plain data: players, then every round's results."""
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
    ):
        rounds.setdefault(row["round_number"], []).append(
            {
                "seat": row["seat__position"],
                "phase_attempted": row["phase_attempted"],
                "phase_completed": row["phase_completed"],
                "points": row["points"],
                "went_out": row["went_out"],
                "total": row["total"],
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
        "players": [
            {
                "seat": seat.position,
                "name": seat.player.name,
                "guest": seat.player.is_guest,
                "score": seat.score,
                "phases_completed": seat.phases_completed,
                "rank": seat.rank,
                "winner": seat.is_winner,
            }
            for seat in seats
        ],
        "rounds": [{"round": number, "results": rows} for number, rows in rounds.items()],
    }
