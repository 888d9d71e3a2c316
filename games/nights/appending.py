"""A new round at the end of a game night in progress, the round form's usual case,
written without reading the night's rounds again.

The scoreboard the round form was checked against (the night at the version the form
was built from) already holds the standing after the last round, folded by the engine
from the stored rounds: the new round is one more `advance` from it (services.py), and
the scoreboard after it is that scoreboard with one more round. What changes is then
written by three statements: the game's version moved on only if it is still the one
the scoreboard is of (a compare-and-swap in place of the row lock: another scorer's
change in between makes it stale, as under the lock), the round's rows, the seats'
totals; on PostgreSQL they are one statement, one round trip, the rows and seats
written through the game's row the swap returns. The ORM spent longer compiling the bulk update and the game's save than the
database ran them (bench/README.md), hence hand-written SQL; table names from the
models, parameters never formatted in.

The round that ends a night is written the same way, with the game's end (its status,
winner and finishing time, the winner's seat) in the same statements; the service then
queues the ratings. A round after a recorded tie-breaker result (set aside by a
correction or not) goes the long way (services.py), which forgets it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games.engine import RoundResult, Standing, standing_ranks

from ..models import Game, RoundScore, Seat
from .scoreboard import Scoreboard, scoreboard_after

_GAME = Game._meta.db_table
_SEAT = Seat._meta.db_table
_ROUND = RoundScore._meta.db_table

# The version moves on only from the one the scoreboard is of: 0 rows means stale.
_BUMP_SQL = (
    f"UPDATE {_GAME} SET version = %s, updated_at = %s, rounds_played = %s, status = %s,"
    " winner_id = %s, finished_at = %s WHERE id = %s AND version = %s"
)


def appendable(game: Game, board: Scoreboard, version: int) -> bool:
    """Whether a new round on `board` can be written by `append_round`: the night is in
    play at the form's version, with no tie-breaker result recorded (set aside or not:
    the long way forgets it)."""
    return (
        board.version == version == game.version
        and game.status == Game.Status.ACTIVE
        and not board.rounds_unknown
        and not board.rounds_over
        and game.tiebreak_winner is None
        and not game.tiebreak_seats
    )


def append_round(
    game: Game,
    board: Scoreboard,
    result: RoundResult,
    standing: Standing,
) -> tuple[Game, Scoreboard] | None:
    """Store `result` as the round after `board`'s, `standing` the engine's standing
    after it (the night's end included: the game is then finished, its winner set).
    None, with nothing written, when the game is no longer at `board`'s version (stale)."""
    ranks = standing_ranks(board.rules, standing)
    number = len(board.rounds) + 1
    seats = range(len(board.seats))
    now = timezone.now()
    over = standing.game_over
    winner_id = _player_id(game, standing.winner) if over and standing.winner is not None else None
    adapt = connection.ops.adapt_datetimefield_value
    status = Game.Status.FINISHED if over else Game.Status.ACTIVE
    bump: list[Any] = [game.version + 1, adapt(now), number, status.value, winner_id]
    bump += [adapt(now) if over else None, game.pk, game.version]
    # Per seat position: the round's rows (its player as the seat has it now), then the
    # seats' copy of the standing (scoring.refresh_seats' fields).
    row_values: list[list[int | None]] = [
        list(standing.attempted[-1]),
        [result.completed.get(seat) for seat in seats],
        list(result.points),
        list(standing.scores),
    ]
    seat_values: list[list[int | None]] = [
        list(standing.scores),
        list(standing.phase),
        [len(done) for done in standing.completed],
        list(ranks),
        [over and seat == standing.winner for seat in seats],
    ]
    went_out = -1 if result.went_out is None else result.went_out
    if connection.vendor == "postgresql":
        # One statement, one round trip, all or nothing: the round and the seats are
        # written through the game's row the compare-and-swap returns (none: stale).
        # A value per seat is an array indexed by the seat's position: a few parameters
        # whatever the seats, so psycopg reuses its parsing of the statement (it parses
        # one with over 50 parameters anew each time; bench/README.md has the cost).
        by_seat = "(%s::integer[])[position + 1]"
        flag_by_seat = "(%s::boolean[])[position + 1]"
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH bumped AS ({_BUMP_SQL} RETURNING id),"
                f" added AS ({_insert(by_seat)} JOIN bumped ON bumped.id = s.game_id)"
                f" {_update(by_seat, flag_by_seat)} FROM bumped WHERE {_SEAT}.game_id = bumped.id",
                [*bump, number, *row_values[:3], went_out, row_values[3], False, *seat_values],
            )
            if cursor.rowcount < 1:
                return None
    else:
        # A value per seat is a CASE on the seat's position.
        by_seat = _by_seat(len(board.seats))
        attempted, completed, points, totals, *seat_cases = (
            _cases(seats, values) for values in (*row_values, *seat_values)
        )
        rows = [number, *attempted, *completed, *points, went_out, *totals, False, game.pk]
        seat_params = [item for values in seat_cases for item in values] + [game.pk]
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_BUMP_SQL, bump)
            if cursor.rowcount != 1:
                return None
            cursor.execute(f"{_insert(by_seat)} WHERE s.game_id = %s", rows)
            cursor.execute(f"{_update(by_seat, by_seat)} WHERE game_id = %s", seat_params)
    game.version += 1
    game.updated_at = now
    game.rounds_played = number
    game.status = status
    game.winner_id = winner_id
    game.finished_at = now if over else None
    return game, scoreboard_after(board, result, standing, ranks, version=game.version)


def _player_id(game: Game, position: int) -> int:
    """The player in seat `position` of `game` (the night's winner: one small query at
    its end, not one per round)."""
    return Seat.objects.filter(game=game, position=position).values_list("player_id", flat=True)[0]


def _insert(by_seat: str) -> str:
    """The round's rows, one per seat of the game: `by_seat` the SQL of a value per seat
    (its parameters: the round's number, then the phases attempted and completed and the
    points by seat, who went out, the totals by seat, by a bot)."""
    return (
        f"INSERT INTO {_ROUND} (game_id, seat_id, player_id, round_number, phase_attempted,"
        " phase_completed, points, went_out, total, by_bot, cards_left)"
        f" SELECT s.game_id, s.id, s.player_id, %s, CAST({by_seat} AS INTEGER),"
        f" CAST({by_seat} AS INTEGER), {by_seat}, position = %s, {by_seat}, %s, '[]'"
        f" FROM {_SEAT} s"
    )


def _update(by_seat: str, flag_by_seat: str) -> str:
    """The seats' copy of the standing (parameters: score, phase, phases completed, rank
    and is_winner by seat; `flag_by_seat` the SQL of a true or false per seat)."""
    return (
        f"UPDATE {_SEAT} SET score = {by_seat}, phase = CAST({by_seat} AS INTEGER),"
        f" phases_completed = {by_seat}, rank = {by_seat}, is_winner = {flag_by_seat}"
    )


def _by_seat(seats: int) -> str:
    """A value per seat position: CASE position WHEN %s THEN %s … END."""
    return "CASE position" + " WHEN %s THEN %s" * seats + " END"


def _cases(seats: Iterable[int], values: Iterable[int | None]) -> list[int | None]:
    return [item for pair in zip(seats, values, strict=True) for item in pair]
