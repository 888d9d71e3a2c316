import random

import pytest

from games.engine import (
    ActionError,
    RuleError,
    Rules,
    find_phase,
    full_deck,
    parse_cards,
    phase_goal_text,
    phase_shortfall,
    validate_phase,
)
from games.engine.cards import remove_cards
from games.engine.phases import describe_phase

from .brute import brute_force_exists


def groups(*texts):
    return [parse_cards(text) for text in texts]


VALID = {
    1: ("R7 B7 G7", "R3 B3 Y3"),
    2: ("R7 B7 G7", "R3 B4 G5 Y6"),
    3: ("R7 B7 G7 Y7", "R3 B4 G5 Y6"),
    4: ("R1 R2 R3 R4 R5 R6 R7",),
    5: ("R1 R2 R3 R4 R5 R6 R7 R8",),
    6: ("R4 R5 R6 R7 R8 R9 R10 R11 R12",),
    7: ("R7 B7 G7 Y7", "R3 B3 Y3 G3"),
    8: ("G1 G1 G5 G7 G9 G10 G12",),
    9: ("R7 B7 G7 Y7 R7", "R3 B3"),
    10: ("R7 B7 G7 Y7 R7", "R3 B3 Y3"),
}


@pytest.mark.parametrize("phase", range(1, 11))
def test_each_phase_accepts_its_goal(phase):
    assert validate_phase(phase, groups(*VALID[phase])) is None


def test_the_ten_phases_have_the_goals_of_the_rules():
    assert [describe_phase(n) for n in range(1, 11)] == [
        "2 sets of 3",
        "1 set of 3 + 1 run of 4",
        "1 set of 4 + 1 run of 4",
        "1 run of 7",
        "1 run of 8",
        "1 run of 9",
        "2 sets of 4",
        "7 cards of one colour",
        "1 set of 5 + 1 set of 2",
        "1 set of 5 + 1 set of 3",
    ]
    assert phase_goal_text(3) == [("set", 4), ("run", 4)]


def test_groups_may_come_in_any_order_relative_to_the_phase():
    assert validate_phase(2, groups("R3 B4 G5 Y6", "R7 B7 G7")) is None
    assert validate_phase(9, groups("R3 B3", "R7 B7 G7 Y7 R7")) is None


def test_two_sets_in_one_phase_may_share_a_number():
    assert validate_phase(1, groups("R7 B7 G7", "Y7 R7 B7")) is None


def test_a_group_may_exceed_its_minimum():
    assert validate_phase(2, groups("R7 B7 G7 Y7 W", "R3 B4 G5 Y6 W")) is None


def test_no_partial_phases():
    with pytest.raises(RuleError, match="exactly 2 groups"):
        validate_phase(1, groups("R7 B7 G7"))


def test_a_group_smaller_than_its_part_is_refused():
    with pytest.raises(RuleError, match="set of 3 needs at least 3"):
        validate_phase(1, groups("R7 B7", "R3 B3 Y3"))
    with pytest.raises(RuleError, match="run of 7 needs at least 7"):
        validate_phase(4, groups("R1 R2 R3 R4 R5 R6"))


def test_the_error_names_what_is_wrong_with_the_group_that_is_wrong():
    with pytest.raises(RuleError, match="consecutive"):
        validate_phase(2, groups("R7 B7 G7", "R3 B4 G6 Y7"))


def test_by_default_one_natural_card_anywhere_in_the_phase_is_enough():
    assert validate_phase(1, groups("R7 W W", "W W W")) is None


def test_a_phase_of_only_wilds_is_refused():
    with pytest.raises(RuleError, match="at least one natural"):
        validate_phase(1, groups("W W W", "W W W"))


def test_with_natural_card_group_every_group_needs_a_natural_card():
    rules = Rules(natural_card="group")
    with pytest.raises(RuleError, match="Every group"):
        validate_phase(1, groups("R7 W W", "W W W"), rules)
    assert validate_phase(1, groups("R7 W W", "B2 W W"), rules) is None


def test_skips_cannot_be_laid():
    with pytest.raises(RuleError, match="Skip"):
        validate_phase(1, groups("R7 B7 S", "R3 B3 Y3"))


def test_a_colour_phase_refuses_mixed_colours():
    with pytest.raises(RuleError, match="same colour"):
        validate_phase(8, groups("G1 G1 G5 G7 G9 G10 R12"))


def test_there_is_no_phase_11():
    with pytest.raises(ActionError):
        validate_phase(11, groups("R1 R1 R1"))


# --- find_phase --------------------------------------------------------------------

HANDS = {
    1: "R7 B7 G7 Y3 R3 W B11 G2 S Y9 Y12",
    2: "R7 B7 G7 R3 B4 G5 Y6 S S S S",
    3: "R7 B7 G7 W R3 B4 W Y6 S S S",
    4: "R1 R2 R3 W R5 R6 R7 S S S S",
    5: "R5 R6 R7 R8 R9 R10 R11 W S S S",
    6: "W W R3 R4 R5 R6 R7 R8 R9 S S",
    7: "R7 B7 G7 W R3 B3 Y3 W S S S",
    8: "G1 G1 G5 G7 G9 G10 W R1 S S S",
    9: "R7 B7 G7 Y7 R7 R3 W S S S S",
    10: "R7 B7 G7 W W R3 B3 Y3 S S S",
}


@pytest.mark.parametrize("phase", range(1, 11))
def test_find_phase_finds_a_valid_lay_down_from_the_hand(phase):
    hand = parse_cards(HANDS[phase])
    found = find_phase(hand, phase)
    assert found is not None
    validate_phase(phase, found)
    assert remove_cards(hand, [card for group in found for card in group]) is not None


def test_find_phase_lays_exactly_the_minimum_and_keeps_the_rest_in_hand():
    hand = parse_cards("R7 B7 G7 Y7 R7 R3 B3 Y3 G3 W S")
    found = find_phase(hand, 1)
    assert [len(group) for group in found] == [3, 3]


def test_find_phase_uses_as_few_wilds_as_it_can():
    hand = parse_cards("R7 B7 W W R3 B3 Y3 G3 G7 S S")
    found = find_phase(hand, 1)
    assert sum(card.is_wild for group in found for card in group) == 0


def test_find_phase_puts_wilds_in_the_gaps_of_a_run():
    found = find_phase(parse_cards("R1 R2 R4 R5 R7 W W S S S S"), 4)
    assert [str(card) for card in found[0]] == ["R1", "R2", "W", "R4", "R5", "W", "R7"]


def test_find_phase_returns_none_when_no_lay_down_exists():
    assert find_phase(parse_cards("R1 R2 R3 R4 R5 R6 S S S S W"), 5) is None
    assert find_phase(parse_cards("R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11"), 1) is None


def test_find_phase_shares_a_number_between_a_set_and_a_run_when_it_must():
    # Three 5s: the set of 3 needs two of them plus the Wild, the run 3-6 needs one.
    hand = parse_cards("R5 B5 G5 R3 R4 R6 W S S S S")
    found = find_phase(hand, 2)
    assert found is not None
    validate_phase(2, found)


def test_find_phase_respects_natural_card_group():
    hand = parse_cards("R7 W W W W W S S S S S")
    assert find_phase(hand, 1) is not None
    assert find_phase(hand, 1, Rules(natural_card="group")) is None


def test_find_phase_never_lays_only_wilds():
    assert find_phase(parse_cards("W W W W W W W W S S S"), 1) is None


@pytest.mark.parametrize(
    ("hand", "phase"),
    [
        ("R5 B5 G5 R3 R4 R6 W", 2),
        ("R1 R1 B1 W W Y2 Y2", 9),
        ("G2 W G4 G5 G6 G7 R1 Y9", 4),
        ("R12 W W W B11 B11 B11", 2),
        ("R1 W W W W W S", 3),
    ],
)
def test_find_phase_agrees_with_a_brute_force_search(hand, phase):
    cards = parse_cards(hand)
    assert (find_phase(cards, phase) is not None) == brute_force_exists(cards, phase)


def test_phase_shortfall_counts_the_cards_still_missing():
    assert phase_shortfall(parse_cards("R7 B7 G7 R3 B3 Y3"), 1) == 0
    assert phase_shortfall(parse_cards("R7 B7 G7 R3"), 1) == 2
    assert phase_shortfall(parse_cards("S S"), 4) == 7


@pytest.mark.parametrize("natural_card", ["phase", "group"])
def test_phase_shortfall_is_zero_exactly_when_find_phase_finds_the_phase(natural_card):
    # phase_shortfall is cached by card counts and find_phase isn't: they must agree.
    rules = Rules(natural_card=natural_card)
    rng = random.Random(10)
    deck = full_deck()
    for _ in range(300):
        hand = rng.sample(deck, rng.randint(1, 12))
        for phase in range(1, 11):
            found = find_phase(hand, phase, rules) is not None
            assert (phase_shortfall(hand, phase, rules) == 0) == found, (hand, phase)
