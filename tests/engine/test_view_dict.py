"""`PlayerView.to_dict()` is exactly the dict `player_view` returned before the view was
typed: the web layer, the bots' old callers and stored JSON keep working unchanged.

`reference_view` is a verbatim copy of that implementation (games/engine/view.py before
`PlayerView`); it is the golden reference, so don't "fix" it along with the engine.
"""

import json
import random
from typing import Any

import pytest

from games.engine import (
    GameState,
    Rules,
    action_to_dict,
    apply,
    can_draw,
    can_take_discard,
    discard_options,
    hit_options,
    lay_down_options,
    new_game,
    phase_goal_text,
    player_view,
    skip_targets,
)
from games.engine.bots import choose_action

from .helpers import tied_game


def reference_view(state: GameState, seat: int) -> dict[str, Any]:
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
        "legal": _reference_legal(state, seat),
    }


def _reference_legal(state: GameState, seat: int) -> dict[str, Any]:
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


VARIANTS = [
    (2, Rules()),
    (4, Rules()),
    (3, Rules(pick_a_phase=True, phases=(2, 4, 6, 8, 10))),
    (3, Rules(all_advance=True, phases=(1, 2, 3))),
    (4, Rules(natural_card="group", skip_target="choose")),
    (3, Rules(go_out_by_hitting=True, hit_others_same_turn=True, phases=(1, 3, 5))),
]


def sampled_states(players, rules, seed, every=7):
    """Every `every`-th state of a seeded bot game, and its last one."""
    state = new_game(players, rules, seed=seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
    moves = 0
    while not state.game_over:
        if moves % every == 0:
            yield state
        seat = state.current_seat
        state = apply(state, choose_action(player_view(state, seat), rngs[seat]))
        moves += 1
    yield state


@pytest.mark.parametrize(("players", "rules"), VARIANTS)
def test_the_typed_view_gives_exactly_the_old_dict(players, rules):
    compared = 0
    for state in sampled_states(players, rules, seed=21):
        for seat in range(players):
            assert player_view(state, seat).to_dict() == reference_view(state, seat)
            compared += 1
    assert compared > 50


def test_the_typed_view_gives_exactly_the_old_dict_in_a_tiebreaker():
    state = tied_game()
    rngs = {seat: random.Random(seat) for seat in range(3)}
    seen_tiebreak = False
    while not state.game_over:
        seen_tiebreak |= state.in_tiebreak_round
        for seat in range(3):
            assert player_view(state, seat).to_dict() == reference_view(state, seat)
        seat = state.current_seat
        state = apply(state, choose_action(player_view(state, seat), rngs[seat]))
    for seat in range(3):
        assert player_view(state, seat).to_dict() == reference_view(state, seat)
    assert seen_tiebreak and state.tiebreak


def test_the_dict_round_trips_through_json_unchanged():
    state = next(s for s in sampled_states(4, Rules(), seed=3) if s.last_round is not None)
    data = player_view(state, 2).to_dict()
    assert json.loads(json.dumps(data)) == data
