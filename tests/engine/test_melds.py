import pytest

from games.engine import Card, RuleError, make_group, parse_cards
from games.engine.melds import group_from_dict


def group(kind, text):
    return make_group(kind, parse_cards(text))


def test_a_set_is_cards_of_one_number_in_any_colours():
    assert group("set", "R7 B7 G7 Y7").number == 7


def test_a_set_with_mixed_numbers_is_refused():
    with pytest.raises(RuleError, match="same number"):
        group("set", "R7 B7 G8")


def test_a_wild_stands_for_any_card_a_set_needs():
    assert group("set", "W R7 W").number == 7


def test_a_colour_group_is_cards_of_one_colour_whose_numbers_may_repeat():
    colour = group("colour", "R1 R1 R5 R12 W R3 R3")
    assert colour.colour == "R"
    with pytest.raises(RuleError, match="same colour"):
        group("colour", "R1 B1")


def test_a_run_is_consecutive_numbers_given_low_to_high():
    run = group("run", "R3 B4 G5 Y6")
    assert (run.low, run.high) == (3, 6)


def test_a_run_given_out_of_order_is_refused():
    with pytest.raises(RuleError, match="consecutive"):
        group("run", "R4 B3 G5 Y6")


def test_a_wild_in_a_run_stands_where_it_is_placed():
    run = group("run", "R3 W G5")
    assert (run.low, run.high) == (3, 5)
    assert group("run", "W W R3").low == 1


def test_a_run_does_not_wrap_around_from_12_to_1():
    with pytest.raises(RuleError, match="consecutive"):
        group("run", "R11 R12 R1 R2")


def test_a_run_cannot_go_below_1_or_above_12():
    with pytest.raises(RuleError, match="below 1"):
        group("run", "W W R2")
    with pytest.raises(RuleError, match="above 12"):
        group("run", "R11 R12 W")


def test_skip_cards_are_never_part_of_any_group():
    for kind in ("set", "run", "colour"):
        with pytest.raises(RuleError, match="Skip"):
            make_group(kind, parse_cards("R1 S"))


def test_a_set_takes_a_card_of_its_number():
    base = group("set", "R7 B7 G7")
    assert str(base.hit(Card.of("Y", 7))) == "R7 B7 G7 Y7"
    with pytest.raises(RuleError, match="doesn't fit on the set of 7s"):
        base.hit(Card.of("Y", 8))


def test_a_colour_group_takes_a_card_of_its_colour():
    base = group("colour", "G1 G2 G3 G4 G5 G6 G7")
    assert len(base.hit(Card.of("G", 1))) == 8
    with pytest.raises(RuleError, match="green group"):
        base.hit(Card.of("R", 1))


def test_a_run_takes_one_below_its_lowest_or_one_above_its_highest():
    base = group("run", "R3 B4 G5 Y6")
    assert base.hit(Card.of("R", 2)).low == 2
    assert base.hit(Card.of("R", 7)).high == 7
    assert base.hit_ends(Card.of("R", 2)) == ("low",)
    assert base.hit_ends(Card.of("R", 7)) == ("high",)
    with pytest.raises(RuleError, match="run 3-6"):
        base.hit(Card.of("R", 8))


def test_a_wild_may_be_hit_on_any_group():
    assert len(group("set", "R7 B7 G7").hit(Card.wild())) == 4
    assert len(group("colour", "R1 R2 R3 R4 R5 R6 R7").hit(Card.wild())) == 8


def test_on_a_run_the_player_says_which_end_a_wild_goes():
    base = group("run", "R3 B4 G5 Y6")
    assert base.hit_ends(Card.wild()) == ("low", "high")
    assert base.hit(Card.wild(), "low").low == 2
    assert base.hit(Card.wild(), "high").high == 7
    with pytest.raises(RuleError, match="which end"):
        base.hit(Card.wild())


def test_a_run_reaching_12_takes_a_wild_only_at_its_low_end():
    top = group("run", "R9 R10 R11 R12")
    assert top.hit_ends(Card.wild()) == ("low",)
    assert top.hit(Card.wild()).low == 8
    with pytest.raises(RuleError, match="high end"):
        top.hit(Card.wild(), "high")
    bottom = group("run", "R1 R2 R3 R4")
    assert bottom.hit_ends(Card.wild()) == ("high",)
    assert bottom.hit_ends(Card.of("B", 12)) == ()


def test_a_run_of_all_twelve_numbers_takes_nothing_more():
    full = group("run", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12")
    assert full.hit_ends(Card.wild()) == ()


def test_skips_cannot_be_hit():
    assert group("set", "R7 B7 G7").hit_ends(Card.skip()) == ()


def test_an_all_wild_set_takes_its_number_from_the_first_natural_card_hit_on_it():
    wilds = group("set", "W W W")
    assert wilds.number is None
    seven = wilds.hit(Card.of("B", 7))
    assert seven.number == 7
    assert seven.hit_ends(Card.of("B", 8)) == ()


def test_an_all_wild_run_is_placed_by_the_first_natural_card_hit_on_it():
    wilds = group("run", "W W W W")
    assert wilds.low is None
    assert wilds.hit(Card.of("R", 9), "high").low == 5
    assert wilds.hit(Card.of("R", 3), "low").low == 3
    assert wilds.hit_ends(Card.of("R", 2)) == ("low",)  # 2 can't sit above four cards
    assert wilds.hit_ends(Card.of("R", 11)) == ("high",)


def test_a_group_may_hold_more_cards_than_its_minimum():
    assert len(group("set", "R7 B7 G7 Y7 W R7")) == 6


def test_groups_round_trip_through_dicts():
    for kind, text in [("run", "W R2 W"), ("set", "W W"), ("colour", "Y1 W")]:
        original = group(kind, text)
        assert group_from_dict(original.to_dict()) == original


def test_a_group_behaves_like_a_tuple_of_its_cards():
    base = group("run", "R3 W G5")
    assert list(base) == parse_cards("R3 W G5")
    assert base[1] == Card.wild()
    assert len(base) == 3
