import pytest

from games.engine import (
    Discard,
    Draw,
    Hit,
    LayDown,
    RuleError,
    Rules,
    apply,
    hit_options,
)

from .helpers import game

SEAT0 = "R7 B7 G7 R8 B8 G8 Y3 Y4 Y5 Y6"
SEAT1 = "R1 B1 G1 R2 B2 G2 Y7 Y8 Y1 R12"


def both_laid(rules=None):
    """Seat 0 has laid 7s and 8s; seat 1 has just laid 1s and 2s and holds Y7 Y8 Y1 R12 B11."""
    state = game([SEAT0, SEAT1], draw="R11 G11 B11 G10 Y12", rules=rules)
    state = apply(apply(state, Draw()), Discard("R11"))
    state = apply(apply(state, Draw()), LayDown(["R7 B7 G7", "R8 B8 G8"]))
    state = apply(state, Discard("G11"))
    state = apply(apply(state, Draw()), LayDown(["R1 B1 G1", "R2 B2 G2"]))
    return state


def test_you_must_draw_before_you_hit():
    state = game([SEAT0, SEAT1])
    with pytest.raises(RuleError, match="draw before you hit"):
        apply(state, Hit(1, 0, "Y1"))


def test_you_can_hit_only_after_laying_down_your_phase():
    state = apply(game([SEAT0, SEAT1], draw="R11"), Draw())
    with pytest.raises(RuleError, match="only after laying down your phase"):
        apply(state, Hit(1, 0, "Y1"))
    assert hit_options(state) == []


def test_in_the_turn_you_lay_down_you_may_hit_your_own_groups():
    state = both_laid()
    after = apply(state, Hit(1, 0, "Y1"))
    assert str(after.laid[1][0]) == "R1 B1 G1 Y1"
    assert "Y1" not in [str(card) for card in after.hands[1]]


def test_in_the_turn_you_lay_down_you_may_not_hit_another_players_groups():
    state = both_laid()
    with pytest.raises(RuleError, match="only your own groups"):
        apply(state, Hit(0, 0, "Y7"))
    assert all(hit.seat == 1 for hit in hit_options(state))


def test_hit_others_same_turn_lets_you_hit_anyones_groups_at_once():
    state = both_laid(Rules(hit_others_same_turn=True))
    after = apply(state, Hit(0, 0, "Y7"))
    assert str(after.laid[0][0]) == "R7 B7 G7 Y7"
    assert Hit(0, 1, "Y8") in hit_options(state)


def test_from_your_next_turn_on_you_may_hit_any_laid_group():
    state = apply(both_laid(), Discard("B11"))
    state = apply(apply(state, Draw()), Discard("G10"))
    state = apply(state, Draw())
    state = apply(state, Hit(0, 0, "Y7"))
    state = apply(state, Hit(0, 1, "Y8"))
    assert [str(group) for group in state.laid[0]] == ["R7 B7 G7 Y7", "R8 B8 G8 Y8"]


def test_a_card_that_does_not_fit_is_refused():
    with pytest.raises(RuleError, match="doesn't fit on the set of 1s"):
        apply(both_laid(), Hit(1, 0, "R12"))


def test_you_can_hit_only_cards_you_hold():
    with pytest.raises(RuleError, match="don't have G1"):
        apply(both_laid(), Hit(1, 0, "G1"))


def test_a_group_must_be_on_the_table():
    with pytest.raises(RuleError, match="isn't on the table"):
        apply(both_laid(), Hit(1, 5, "Y1"))


LAST_CARD = "R1 B1 G1 Y1 R2 B2 G2 Y2 B1 R1"


def down_to_one_card(rules=None):
    """Seat 1 lays 1s and 2s, hits everything but Y2 and holds just Y2."""
    state = game([SEAT0, LAST_CARD], draw="W", rules=rules)
    state = apply(apply(state, Draw()), LayDown(["R1 B1 G1", "R2 B2 G2"]))
    for card in ("Y1", "B1", "R1", "W"):
        state = apply(state, Hit(1, 0, card))
    assert [str(card) for card in state.hands[1]] == ["Y2"]
    return state


def test_you_may_never_hit_away_your_last_card():
    state = down_to_one_card()
    with pytest.raises(RuleError, match="can't hit your last card"):
        apply(state, Hit(1, 1, "Y2"))
    assert hit_options(state) == []
    after = apply(state, Discard("Y2"))
    assert after.last_round.went_out == 1


def test_go_out_by_hitting_lets_the_last_card_be_hit_and_ends_the_round():
    state = down_to_one_card(Rules(go_out_by_hitting=True))
    assert hit_options(state) == [Hit(1, 1, "Y2")]
    after = apply(state, Hit(1, 1, "Y2"))
    assert after.round_number == 2
    assert after.last_round.went_out == 1
    assert after.last_round.points[1] == 0
    assert after.completed[1] == frozenset({1})


RUNS = Rules(phases=(2, 3))


def run_laid():
    state = game([SEAT0, "R7 B7 G7 R3 B4 G5 Y6 W Y2 B12"], draw="W", rules=RUNS)
    return apply(apply(state, Draw()), LayDown(["R7 B7 G7", "R3 B4 G5 Y6"]))


def test_a_wild_hit_on_a_run_needs_to_know_which_end():
    state = run_laid()
    with pytest.raises(RuleError, match="which end"):
        apply(state, Hit(1, 1, "W"))
    low = apply(state, Hit(1, 1, "W", end="low"))
    assert (low.laid[1][1].low, low.laid[1][1].high) == (2, 6)
    high = apply(state, Hit(1, 1, "W", end="high"))
    assert (high.laid[1][1].low, high.laid[1][1].high) == (3, 7)
    assert {hit.end for hit in hit_options(state) if hit.group == 1} == {"low", "high"}


def test_a_natural_card_on_a_run_finds_its_own_end():
    state = run_laid()
    assert apply(state, Hit(1, 1, "Y2")).laid[1][1].low == 2
    with pytest.raises(RuleError, match="doesn't fit on the high end"):
        apply(state, Hit(1, 1, "Y2", end="high"))
