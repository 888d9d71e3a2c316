"""Laying down a phase: the cards must be in the hand (checked before anything else),
and in pick-a-phase the player says which phase when the groups make more than one."""

import random
from dataclasses import replace

import pytest

from games.engine import (
    Draw,
    LayDown,
    RuleError,
    Rules,
    apply,
    legal_actions,
    new_game,
    parse_cards,
    phases_made,
    player_view,
)
from games.engine.bots import choose_action

from .helpers import game

PICK = Rules(pick_a_phase=True)
JUNK = "Y3 Y4 Y6 B8 R10 G12 R3 B5 G7 Y9"
# A run of 8 in mixed colours: phase 4 (a run of 7) and phase 5 (a run of 8), nothing else.
RUN_OF_8 = "R3 B4 G5 Y6 R7 B8 G9 Y10"


def drawn(hand, rules=PICK):
    """Seat 1 holding `hand` (plus S), having drawn Y1."""
    return apply(game([JUNK, f"{hand} S"], draw="Y1", rules=rules), Draw())


def test_the_phases_some_groups_make():
    run = [parse_cards(RUN_OF_8)]
    assert phases_made(run, range(1, 11), PICK) == (4, 5)
    assert phases_made(run, [5, 6], PICK) == (5,)
    two_sets = [parse_cards("R7 B7 G7 Y7"), parse_cards("R8 B8 G8 Y8")]
    assert phases_made(two_sets, range(1, 11), PICK) == (1, 7)
    assert phases_made([parse_cards("R1 B2 G3")], range(1, 11), PICK) == ()


def test_groups_that_make_several_open_phases_need_the_phase_named():
    state = drawn(RUN_OF_8)
    with pytest.raises(RuleError, match="Say which phase you are laying down") as refused:
        apply(state, LayDown([RUN_OF_8]))
    assert refused.value.code == "phase_needed"
    assert refused.value.params == {"phases": (4, 5)}
    assert apply(state, LayDown([RUN_OF_8], phase=5)).laid_phase[1] == 5
    assert apply(state, LayDown([RUN_OF_8], phase=4)).laid_phase[1] == 4


def test_groups_that_make_one_open_phase_need_no_phase_named():
    state = drawn(RUN_OF_8)
    done = replace(state.standing, completed=(frozenset(), frozenset({4})))
    assert apply(replace(state, standing=done), LayDown([RUN_OF_8])).laid_phase[1] == 5


def test_outside_pick_a_phase_the_phase_is_the_one_the_player_is_on():
    state = drawn(RUN_OF_8, Rules(phases=(5, 4)))
    assert apply(state, LayDown([RUN_OF_8])).laid_phase[1] == 5


def test_cards_not_in_the_hand_are_refused_before_the_phase_is_looked_at():
    state = drawn(RUN_OF_8)
    # Eleven made-up cards that would make phases 4, 5 and 6 (and two of the others).
    made_up = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11"
    for action in (LayDown([made_up]), LayDown([made_up], phase=6), LayDown(["R1", "R2"])):
        with pytest.raises(RuleError, match="You don't have all those cards") as refused:
            apply(state, action)
        assert refused.value.code == "cards_not_in_hand"


@pytest.mark.parametrize("seed", range(6))
def test_bots_in_pick_a_phase_always_name_the_phase_they_lay(seed):
    rng = random.Random(seed)
    state = new_game(3, Rules(pick_a_phase=True, phases=(1, 4, 5, 7)), seed=seed)
    laid = 0
    for _ in range(3000):
        if state.game_over:
            break
        action = choose_action(player_view(state, state.current_seat), rng)
        if isinstance(action, LayDown):
            assert action.phase is not None
            laid += 1
        state = apply(state, action)
    assert laid


def test_the_legal_lay_downs_always_name_their_phase_in_pick_a_phase():
    lay_downs = [a for a in legal_actions(drawn(RUN_OF_8)) if isinstance(a, LayDown)]
    assert lay_downs and all(action.phase is not None for action in lay_downs)
