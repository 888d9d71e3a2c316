"""`hint(state, seat)`: can the hand lay down its phase now, and if not, how far off is it."""

from dataclasses import replace

import pytest

from games.engine import (
    ActionError,
    Draw,
    Hint,
    LayDown,
    Rules,
    apply,
    find_phase,
    hint,
    new_game,
    parse_cards,
    phase_shortfall,
    phases_needed,
    validate_phase,
)

from .helpers import game, tied_game

SEAT0 = "R7 B7 G7 R8 B8 G8 Y3 Y4 Y5 Y6"
LAYS_PHASE_ONE = "R1 B1 Y1 G8 B8 Y8 B12 Y12 S R4"
FAR_OFF = "R1 B2 Y3 G4 G8 R10 B12 Y12 S R5"


def test_a_hand_that_makes_its_phase_gets_the_solvers_arrangement():
    state = game([SEAT0, LAYS_PHASE_ONE])
    found = hint(state, 1)
    assert not found.laid and found.shortfall == 0
    (option,) = found.options
    assert option == LayDown(find_phase(parse_cards(LAYS_PHASE_ONE), 1), phase=1)
    validate_phase(option.phase, option.groups)


def test_a_hand_that_cannot_yet_is_told_how_many_cards_it_lacks():
    state = game([SEAT0, FAR_OFF])
    found = hint(state, 1)
    assert found == Hint(laid=False, shortfall=phase_shortfall(parse_cards(FAR_OFF), 1))
    assert found.shortfall > 0


def test_the_hint_is_for_any_seat_whoever_is_playing():
    state = game([LAYS_PHASE_ONE, FAR_OFF])
    assert state.current_seat == 1
    assert hint(state, 0).options and not hint(state, 1).options


def test_a_seat_whose_phase_is_down_is_only_told_so():
    state = apply(game([SEAT0, LAYS_PHASE_ONE]), Draw())
    state = apply(state, LayDown(["R1 B1 Y1", "G8 B8 Y8"]))
    assert hint(state, 1) == Hint(laid=True)


def test_at_most_three_phases_are_offered_in_pick_a_phase():
    rules = Rules(pick_a_phase=True)
    state = game([SEAT0, "W W W W W W W W R1 R2"], rules=rules)
    found = hint(state, 1)
    assert [option.phase for option in found.options] == [1, 2, 3]


def test_a_seat_sitting_out_a_tiebreaker_is_measured_against_phase_10():
    state = tied_game()
    assert phases_needed(state, 0) == ()
    assert hint(state, 0) == Hint(laid=False, shortfall=phase_shortfall([], 10))


def test_a_hint_for_a_seat_that_does_not_exist_is_an_error():
    with pytest.raises(ActionError):
        hint(new_game(2, seed=1), 2)


# --- phases_needed: what hint, auto_discard and phases_to_lay look at -------------


def test_a_seat_needs_its_current_phase():
    state = game([SEAT0, FAR_OFF], rules=Rules(phases=(3, 5)))
    assert phases_needed(state, 0) == phases_needed(state, 1) == (3,)


def test_in_pick_a_phase_a_seat_needs_every_phase_not_completed():
    rules = Rules(pick_a_phase=True, phases=(2, 4, 6))
    state = game([SEAT0, FAR_OFF], rules=rules)
    standing = replace(state.standing, completed=(frozenset({4}), frozenset()))
    assert phases_needed(replace(state, standing=standing), 0) == (2, 6)


def test_in_a_tiebreaker_the_tied_seats_need_its_goal():
    state = tied_game()
    assert [phases_needed(state, seat) for seat in range(3)] == [(), (10,), (10,)]
