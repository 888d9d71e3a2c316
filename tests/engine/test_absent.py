"""The turn a time limit plays for an absent player: `auto_draw`, `auto_discard`,
`absent_turn`."""

from dataclasses import replace

import pytest

from games.engine import (
    Card,
    Discard,
    Draw,
    LayDown,
    RuleError,
    Rules,
    absent_turn,
    apply,
    auto_discard,
    auto_draw,
    new_game,
)

from .helpers import game

SEAT0 = "R7 B7 G7 R8 B8 G8 Y3 Y4 Y5 Y6"


def test_the_automatic_discard_keeps_the_phase_and_prefers_high_cards():
    # Ported from tests/notify/test_jobs.py (auto_discard lived in games/notifications.py).
    state = apply(game(["", "R7 B7 G7 Y3 R3 B12 W S G1 Y10"], up="G5", draw="Y11"), Draw())
    choice = auto_discard(state)
    # The two sets (7s, 3s) and the Wild stay; of the rest the highest-scoring goes:
    # B12 or Y11 (10 points each), by colour and number order the last one.
    assert str(choice.card) in {"B12", "Y11"}
    assert not choice.card.is_wild and not choice.card.is_skip


def test_the_automatic_discard_is_never_a_wild_after_a_plain_draw():
    # Ported from the docstring of games/notifications.py's auto_discard.
    assert not auto_discard(apply(new_game(2, seed=3), Draw())).card.is_wild


def test_once_the_phase_is_down_the_highest_numbered_card_goes():
    state = apply(game([SEAT0, "R1 B1 G1 R2 B2 G2 Y7 B11 W S"], draw="R4"), Draw())
    state = apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))
    assert auto_discard(state) == Discard("B11")


def test_a_skip_or_a_wild_goes_only_when_nothing_else_is_left():
    state = apply(game([SEAT0, "R1 B1 G1 R2 B2 G2 Y7 B11 W S"], draw="R4"), Draw())
    hands = (state.hands[0], (Card.parse("W"), Card.parse("S")))
    choice = auto_discard(replace(state, hands=hands))
    assert choice.card in (Card.parse("W"), Card.parse("S"))
    assert choice.skip is None


def test_the_automatic_discard_needs_a_drawn_card():
    with pytest.raises(RuleError):
        auto_discard(new_game(2, seed=3))


def test_the_absent_player_draws_from_the_pile_when_allowed():
    assert auto_draw(new_game(2, seed=3)) == Draw()


def test_the_absent_player_takes_the_discard_when_the_pile_cannot_be_drawn():
    state = game([SEAT0, "R1 B1 G1 R2 B2 G2 Y7 B11 W S"], up="G9")
    state = replace(state, draw_pile=())  # one discard: nothing to reshuffle
    assert auto_draw(state) == Draw(from_discard=True)


def test_an_absent_turn_draws_then_discards_and_passes_the_turn():
    state = new_game(3, Rules(), seed=8)
    actions = absent_turn(state)
    assert [type(action) for action in actions] == [Draw, Discard]
    after = state
    for action in actions:
        after = apply(after, action)
    assert after.current_seat != state.current_seat
    assert actions[1] == auto_discard(apply(state, actions[0]))


def test_an_absent_player_who_drew_only_has_a_card_discarded():
    state = apply(new_game(2, seed=3), Draw())
    assert absent_turn(state) == [auto_discard(state)]


def test_nothing_is_played_once_the_game_is_over():
    state = new_game(2, seed=3)
    over = replace(state, standing=replace(state.standing, game_over=True, winner=0))
    assert absent_turn(over) == []
