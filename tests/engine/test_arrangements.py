"""`lay_down_choices`: the ways the cards a player selected can be laid as a phase."""

import pytest

from games.engine import LayDown, Rules, cards_text, lay_down_choices, parse_cards, validate_phase


def choices(text, phases, rules=None):
    return lay_down_choices(parse_cards(text), phases, rules or Rules())


def shown(options):
    return [(option.phase, [cards_text(group) for group in option.groups]) for option in options]


def test_one_way_to_lay_a_set_and_a_run():
    assert choices("R3 R4 R5 R6 G9 B9 Y9", [2]) == [LayDown(["G9 B9 Y9", "R3 R4 R5 R6"], phase=2)]


def test_a_wild_that_can_go_either_end_of_a_run_is_two_choices():
    assert shown(choices("R3 R4 R5 W G9 B9 Y9", [2])) == [
        (2, ["G9 B9 Y9", "R3 R4 R5 W"]),
        (2, ["G9 B9 Y9", "W R3 R4 R5"]),
    ]


def test_choices_that_leave_the_same_groups_on_the_table_count_once():
    # The run 5-8 with a set of 8s whether the Wild stands for the run's 8 or the set's;
    # the other choice is the Wild at 4.
    assert shown(choices("R5 R6 R7 W G8 B8 Y8", [2])) == [
        (2, ["G8 B8 W", "R5 R6 R7 Y8"]),
        (2, ["G8 B8 Y8", "W R5 R6 R7"]),
    ]


def test_which_set_holds_a_wild_is_one_choice():
    assert shown(choices("R7 B7 W G3 Y3 R3", [1])) == [(1, ["R7 B7 W", "G3 Y3 R3"])]


def test_runs_stay_within_1_to_12():
    assert shown(choices("R1 R2 R3 R4 R5 W W", [4])) == [(4, ["R1 R2 R3 R4 R5 W W"])]
    assert shown(choices("R8 R9 R10 R11 R12 W W", [4])) == [(4, ["W W R8 R9 R10 R11 R12"])]
    assert len(choices("R6 R7 R8 R9 R10 R11 W", [4])) == 2


def test_a_wild_fills_a_gap_in_a_run():
    assert shown(choices("R1 R2 W R4 R5 R6 R7", [4])) == [(4, ["R1 R2 W R4 R5 R6 R7"])]


def test_cards_that_make_two_phases_offer_both():
    options = choices("R8 B8 Y8 G8 R4 B4 G4 Y4", [1, 7], Rules(pick_a_phase=True))
    assert sorted(option.phase for option in options) == [1, 7]


def test_exactly_the_cards_of_a_phase_make_one_choice():
    assert shown(choices("R1 B1 Y1 G8 B8 Y8", [1])) == [(1, ["R1 B1 Y1", "G8 B8 Y8"])]


@pytest.mark.parametrize(
    ("text", "phases"),
    [
        ("G8 B8 Y8 R1 R2", [1]),  # too few cards for two sets of 3
        ("G8 B8 Y8 R1 R2 R3", [1]),  # the second group isn't a set
        ("G8 B8 Y8 R1 B1 S", [1]),  # a Skip is never part of a group
        ("G8 B8 Y8 R1 B1 G1 Y1 R2 B2 G2 Y2 R3", [1]),  # more than a hand holds
        ("W W W W W W", [1]),  # no natural card
    ],
)
def test_cards_that_make_no_phase_give_no_choice(text, phases):
    assert choices(text, phases) == []


def test_the_natural_card_rule_is_the_games():
    assert shown(choices("R7 W W W W W", [1])) == [(1, ["R7 W W", "W W W"])]
    assert choices("R7 W W W W W", [1], Rules(natural_card="group")) == []


def test_every_choice_is_a_valid_lay_down_of_all_the_selected_cards():
    text = "R3 R4 W W G9 B9 Y9 R9"
    options = choices(text, [1, 2, 3])
    assert options
    for option in options:
        validate_phase(option.phase, option.groups)
        laid = sorted(str(card) for group in option.groups for card in group)
        assert laid == sorted(text.split())
