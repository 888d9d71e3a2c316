from dataclasses import replace

import pytest

from games.engine import (
    Discard,
    Draw,
    LayDown,
    RuleError,
    Rules,
    apply,
    legal_actions,
    new_game,
    player_view,
    skip_targets,
)

from .helpers import TEN_CARD_PHASE_ONE, game, go_out, tied_game

JUNK = "Y3 Y4 Y6 B8 R10 G12 R3 B5 G7 Y9"


# --- which phases -------------------------------------------------------------------


def test_a_shorter_list_of_phases_starts_at_its_first_phase():
    state = new_game(2, Rules(phases=(2, 4, 6, 8, 10)), seed=1)
    assert state.phase == (2, 2)


def test_a_phase_not_next_in_the_list_is_refused():
    rules = Rules(phases=(2, 4, 6, 8, 10))
    state = apply(game([JUNK, "R1 B1 G1 R2 B2 G2 Y8 Y9 Y10 Y11"], rules=rules), Draw())
    with pytest.raises(RuleError, match="run"):
        apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))


def test_the_game_ends_when_someone_completes_the_last_phase_of_the_list():
    rules = Rules(phases=(1,))
    state = go_out(
        game([JUNK, TEN_CARD_PHASE_ONE], draw="W", rules=rules),
        ["R1 R1 B1 B1 G1", "R2 R2 B2 B2 G2"],
        "W",
    )
    assert state.game_over and state.winner == 1


@pytest.mark.parametrize(
    "phases", [(1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 6, 7, 8), (2, 4, 6, 8, 10), (1, 3, 5, 7, 9), (9, 3)]
)
def test_any_list_of_phases_is_a_valid_option(phases):
    assert Rules(phases=phases).last_phase == phases[-1]


@pytest.mark.parametrize("phases", [(), (0,), (11,), (1, 1)])
def test_a_list_of_phases_must_be_phases_each_once(phases):
    with pytest.raises(ValueError):
        Rules(phases=phases)


def test_everyone_advances_and_pick_a_phase_do_not_mix():
    with pytest.raises(ValueError):
        Rules(all_advance=True, pick_a_phase=True)


# --- everyone advances -------------------------------------------------------------


def test_in_all_advance_everyone_moves_on_even_without_completing_the_phase():
    rules = Rules(all_advance=True)
    state = go_out(
        game([JUNK, TEN_CARD_PHASE_ONE], draw="W", rules=rules),
        ["R1 R1 B1 B1 G1", "R2 R2 B2 B2 G2"],
        "W",
    )
    assert state.phase == (2, 2)
    assert state.completed == (frozenset(), frozenset({1}))


# --- pick a phase ------------------------------------------------------------------

SETS_OF_FOUR = "R7 B7 G7 Y7 R8 B8 G8 Y8 R1 B2"
PICK = Rules(pick_a_phase=True)


def test_in_pick_a_phase_a_player_lays_down_any_phase_not_yet_completed():
    state = apply(game([JUNK, SETS_OF_FOUR], rules=PICK), Draw())
    assert state.phase == (None, None)
    after = apply(state, LayDown(["R7 B7 G7 Y7", "R8 B8 G8 Y8"], phase=7))
    assert after.laid_phase[1] == 7


def test_in_pick_a_phase_groups_that_make_two_phases_need_the_phase_named():
    state = apply(game([JUNK, SETS_OF_FOUR], rules=PICK), Draw())
    # Two sets of 4 make phase 7 and phase 1 too: the engine doesn't guess which.
    with pytest.raises(RuleError, match="Say which phase"):
        apply(state, LayDown(["R7 B7 G7 Y7", "R8 B8 G8 Y8"]))
    assert apply(state, LayDown(["R7 B7 G7 Y7", "R8 B8 G8 Y8"], phase=1)).laid_phase[1] == 1


def test_in_pick_a_phase_a_completed_phase_cannot_be_laid_again():
    state = apply(game([JUNK, SETS_OF_FOUR], rules=PICK), Draw())
    done = replace(state.standing, completed=(frozenset(), frozenset({7})))
    state = replace(state, standing=done)
    with pytest.raises(RuleError, match="already completed phase 7"):
        apply(state, LayDown(["R7 B7 G7 Y7", "R8 B8 G8 Y8"], phase=7))


def test_in_pick_a_phase_only_phases_of_the_list_count():
    rules = Rules(pick_a_phase=True, phases=(1, 2, 3))
    state = apply(game([JUNK, SETS_OF_FOUR], rules=rules), Draw())
    with pytest.raises(RuleError, match="Phase 7 isn't played"):
        apply(state, LayDown(["R7 B7 G7 Y7", "R8 B8 G8 Y8"], phase=7))


def test_in_pick_a_phase_the_legal_lay_downs_name_their_phase():
    state = apply(game([JUNK, SETS_OF_FOUR], rules=PICK), Draw())
    phases = {action.phase for action in legal_actions(state) if isinstance(action, LayDown)}
    assert {1, 7} <= phases


# --- natural card ------------------------------------------------------------------


def test_with_natural_card_group_a_group_of_only_wilds_is_refused_in_play():
    rules = Rules(natural_card="group")
    state = apply(game([JUNK, "R7 B7 G7 W W W Y1 Y2 Y3 Y5"], rules=rules), Draw())
    with pytest.raises(RuleError, match="Every group"):
        apply(state, LayDown(["R7 B7 G7", "W W W"]))
    default = apply(game([JUNK, "R7 B7 G7 W W W Y1 Y2 Y3 Y5"]), Draw())
    assert apply(default, LayDown(["R7 B7 G7", "W W W"])).laid_phase[1] == 1


# --- the tie-breaker round ---------------------------------------------------------


def test_a_tie_for_the_win_is_settled_by_a_tiebreaker_among_only_the_tied_players():
    state = tied_game()
    assert state.scores == (200, 50, 50)
    assert not state.game_over and state.tiebreak
    assert state.playing == (1, 2)
    assert state.hands[0] == ()
    assert [len(hand) for hand in state.hands[1:]] == [10, 10]
    assert state.phase == (None, 10, 10)
    assert state.current_seat == 1  # left of dealer 2, skipping seat 0 who sits out


def test_players_sitting_out_a_tiebreaker_never_get_a_turn():
    state = tied_game()
    state = apply(apply(state, Draw()), Discard("Y4"))
    assert state.current_seat == 2
    assert skip_targets(apply(state, Draw())) == (1,)
    state = apply(apply(state, Draw()), Discard("R1"))
    assert state.current_seat == 1


def test_the_first_tied_player_to_lay_down_the_tiebreaker_goal_wins_at_once():
    state = tied_game()
    state = apply(apply(state, Draw()), Discard("Y4"))
    state = apply(apply(state, Draw()), Discard("R1"))
    state = apply(state, Draw())
    won = apply(state, LayDown(["R9 R9 B9 B9 G9", "R11 R11 B11"]))
    assert won.game_over and won.winner == 1
    assert won.scores == (200, 50, 50)
    view = player_view(won, 0)
    assert view.winner == 1 and view.tiebreak and view.game_over
    with pytest.raises(RuleError, match="The game is over."):
        apply(won, Discard("Y5"))


def test_the_tiebreaker_goal_is_a_set_of_5_and_a_set_of_3():
    state = tied_game()
    state = apply(state, Draw())
    with pytest.raises(RuleError, match="set of 5 needs at least 5"):
        apply(state, LayDown(["R9 R9 B9 B9", "R11 R11 B11"]))
