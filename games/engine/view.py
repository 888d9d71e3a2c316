"""What one seat may see: the only thing templates (and bots) ever get.

Other hands appear as counts; the draw pile as a size; the seed and the deck order
never appear at all, so a view can be sent to a browser as it is.

>>> from games.engine.game import new_game
>>> view = player_view(new_game(["Ann", "Bob"], seed=3), 0)
>>> len(view["hand"]), view["hand_counts"], view["draw_pile_size"]
(10, [10, 10], 87)
>>> "seed" in view or "draw_pile" in view
False
"""

from __future__ import annotations

from typing import Any

from games.engine.actions import action_to_dict
from games.engine.legal import (
    can_draw,
    can_take_discard,
    discard_options,
    hit_options,
    lay_down_options,
    skip_targets,
)
from games.engine.phases import phase_goal_text
from games.engine.rules import ActionError
from games.engine.state import GameState


def player_view(state: GameState, seat: int) -> dict[str, Any]:
    """A JSON-ready dict of everything `seat` may know, and nothing more.

    Keys: seat, players, rules, round_number, dealer, current_seat, your_turn, drawn,
    laid_this_turn, hand, hand_counts, discard_top, discard_size, draw_pile_size,
    laid, laid_phase, phase, goal, completed, scores, skipped, playing, game_over,
    winner, tiebreak, tiebreak_seats, last_round, legal.

    `legal` lists what `seat` may do now (all empty when it isn't their turn):
    draw, take_discard (bools); lay_down, hits, discards (action dicts, see
    `action_to_dict`; lay_down holds the solver's grouping, one per phase it can
    make); skip_targets (seats).
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise ActionError(f"There is no seat {seat!r}.")
    top = state.discard_top
    phase = state.phase
    return {
        "seat": seat,
        "players": list(state.players),
        "rules": state.rules.to_dict(),
        "round_number": state.round_number,
        "dealer": state.dealer,
        "current_seat": state.current_seat,
        "your_turn": not state.game_over and state.current_seat == seat,
        "drawn": state.drawn,
        "laid_this_turn": state.laid_this_turn,
        "hand": [str(card) for card in state.hands[seat]],
        "hand_counts": [len(hand) for hand in state.hands],
        "discard_top": None if top is None else str(top),
        "discard_size": len(state.discard_pile),
        "draw_pile_size": state.draw_pile_size,
        "laid": [[group.to_dict() for group in groups] for groups in state.laid],
        "laid_phase": list(state.laid_phase),
        "phase": list(phase),
        "goal": [None if p is None else [list(part) for part in phase_goal_text(p)] for p in phase],
        "completed": [sorted(done) for done in state.completed],
        "scores": list(state.scores),
        "skipped": list(state.skipped),
        "playing": list(state.playing),
        "game_over": state.game_over,
        "winner": state.winner,
        "tiebreak": state.tiebreak,
        "tiebreak_seats": list(state.standing.tiebreak_seats),
        "last_round": None if state.last_round is None else state.last_round.to_dict(),
        "legal": _legal(state, seat),
    }


def _legal(state: GameState, seat: int) -> dict[str, Any]:
    if state.game_over or state.current_seat != seat:
        return {
            "draw": False,
            "take_discard": False,
            "lay_down": [],
            "hits": [],
            "discards": [],
            "skip_targets": [],
        }
    return {
        "draw": can_draw(state),
        "take_discard": can_take_discard(state),
        "lay_down": [action_to_dict(action) for action in lay_down_options(state)],
        "hits": [action_to_dict(action) for action in hit_options(state)],
        "discards": [action_to_dict(action) for action in discard_options(state)],
        "skip_targets": list(skip_targets(state)) if state.drawn else [],
    }
