"""Replaying an online game from its seed and its move log: `check_replays` checks every
game with it, and a finished game's replay page steps through it.

The move log is read in one query (`logged_moves`); the engine then replays it in
Python (`outcomes`). A replay step shows every hand, so the page (`step_context`) is
for a finished game only (the view checks who may see it).

- `first_state(game)`: the deal before move 1, from the seed;
- `outcomes(state, moves)`: each move's engine `Outcome` (state and events), in order;
- `step_context(game, seats, moves, n, reader=…)`: what the replay page shows after
  move n, with the round's end (the engine's `RoundOver`: every hand left) when move n
  ended one, and the chat in its place for a player (`reader`; a spectator, None, never
  reads it);
- `rounds_record(game, seats)`: every round's hands left, from the `RoundScore` rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .. import engine
from ..engine import GameState, Outcome, RoundOver, spectator_view
from ..models import Game, Move, RoundScore, Seat
from . import chat, services
from .board import sorted_hand
from .table_parts import log_lines, points_words, seat_context, standing_rows

# (number, seat, action, automatic): one logged move, as `Game.recent_moves` holds it.
LoggedMove = tuple[int, int, dict[str, Any], bool]
LOG_LINES = 10  # the moves shown before the current one


class ReplayError(ValueError):
    """The move log doesn't replay (a move for the wrong seat)."""


def logged_moves(game: Game) -> list[LoggedMove]:
    """The whole move log, in order, in one query."""
    return list(
        Move.objects.filter(game=game)
        .order_by("number")
        .values_list("number", "seat", "action", "automatic")
    )


def first_state(game: Game) -> GameState:
    """The deal before the first move, from the game's seed (its players and rules are
    the snapshot's)."""
    if game.seed is None or not game.state:
        raise ReplayError("The game has no seed or no snapshot.")
    snapshot = services.load_state(game)
    return engine.new_game(
        list(snapshot.players), snapshot.rules, seed=game.seed, dealer=game.first_dealer
    )


def outcomes(state: GameState, moves: Sequence[LoggedMove]) -> Iterator[Outcome]:
    """Each move's engine outcome from `state` on, in order. Raises ReplayError (a move
    logged for a seat that wasn't to play) or the engine's RuleError / ActionError."""
    for number, seat, action, _automatic in moves:
        if seat != state.current_seat:
            raise ReplayError(
                f"move {number} is logged for seat {seat}, but seat {state.current_seat} was to play"
            )
        outcome = engine.play(state, services.action_of(action))
        yield outcome
        state = outcome.state


def state_at(game: Game, moves: Sequence[LoggedMove], number: int) -> Outcome:
    """The outcome of move `number` (for 0, the deal with no events), replayed from the
    start: the engine replays even a long game's last step quickly enough (bench/replay.py
    measures it) that caching isn't worth it."""
    state = first_state(game)
    last = Outcome(state, ())
    for outcome in outcomes(state, moves[:number]):
        last = outcome
    return last


def reveal_rows(names: Sequence[str], over: RoundOver) -> list[dict[str, Any]]:
    """A round's end as the reveal partial shows it: each seat's cards left and points."""
    return [
        {
            "name": names[position],
            "cards": [str(card) for card in sorted_hand(hand, "number")],
            "points": over.summary.points[position],
            "points_words": points_words(over.summary.points[position]),
            "went_out": over.summary.went_out == position,
            "total": over.scores[position],
        }
        for position, hand in enumerate(over.hands)
    ]


def rounds_record(game: Game, seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """Every round of the game, each seat's cards left and points (one query)."""
    names = {seat.pk: seat.player.name for seat in seats}
    rounds: dict[int, list[dict[str, Any]]] = {}
    for row in RoundScore.objects.filter(game=game).order_by("round_number", "seat__position"):
        rounds.setdefault(row.round_number, []).append(
            {
                "name": names.get(row.seat_id, "?"),
                "cards": row.cards_left,
                "points": row.points,
                "points_words": points_words(row.points),
                "went_out": row.went_out,
                "total": row.total,
            }
        )
    return [{"number": number, "rows": rows} for number, rows in rounds.items()]


def step_context(
    game: Game,
    seats: list[Seat],
    moves: Sequence[LoggedMove],
    number: int,
    *,
    reader: Seat | None,
) -> dict[str, Any]:
    """What the replay page shows after move `number` (0: the deal): every seat with its
    hand, the piles, the moves up to it, the round's end if this move ended one, and the
    final standings at the last move. The table talk is in its place for `reader`, a
    player of the game; without one (a spectator) there is no chat."""
    number = max(0, min(number, len(moves)))
    outcome = state_at(game, moves, number)
    state = outcome.state
    view = spectator_view(state)
    names = view.players
    players = []
    for seat in seats:
        player = seat_context(view, seat, None)
        hand = state.hands[seat.position]
        player["hand"] = [str(card) for card in sorted_hand(hand, "number")]
        players.append(player)
    shown = moves[max(0, number - LOG_LINES - 1) : number]
    lines: list[chat.Line] = []
    if reader is not None:
        # The chat in its place: what was said after each move shown (from the start on,
        # the messages posted before the first move too).
        low = shown[0][0] if shown and shown[0][0] > 1 else 0
        lines = chat.record_lines(game, seats, reader, low, number)
    log = chat.interleave(log_lines(shown, names), lines)  # newest first
    over = next((event for event in outcome.events if isinstance(event, RoundOver)), None)
    last = len(moves)
    return {
        "game": game,
        "view": view,
        "players": players,
        "discard_top": str(view.discard_top) if view.discard_top else None,
        "log": log,
        "move": next((line for line in log if "chat" not in line), None),
        "reveal": reveal_rows(names, over) if over is not None else None,
        "reveal_round": over.summary.round_number if over is not None else None,
        "standings": standing_rows(seats) if state.game_over else [],
        "number": number,
        "last": last,
        "steps": {
            "first": 0,
            "back": max(0, number - 1),
            "forward": min(last, number + 1),
            "last": last,
        },
    }
