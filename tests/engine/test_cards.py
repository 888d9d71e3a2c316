import pytest

from games.engine import ActionError, Card, cards_text, full_deck, hand_points, parse_cards
from games.engine.cards import is_full_deck, remove_cards, sorted_cards


def test_it_reads_the_short_notation():
    assert [str(card) for card in parse_cards("R7 B12 G1 Y10 W S")] == [
        "R7",
        "B12",
        "G1",
        "Y10",
        "W",
        "S",
    ]


def test_the_notation_is_case_insensitive_and_takes_commas():
    assert parse_cards("r7, b12,w s") == parse_cards("R7 B12 W S")


def test_it_reads_a_list_of_codes():
    assert parse_cards(["g3", "W"]) == [Card.of("G", 3), Card.wild()]


@pytest.mark.parametrize("text", ["R13", "R0", "X1", "R", "W1", "S2", "7", "R07", "RR7"])
def test_text_that_is_not_a_card_raises_a_value_error(text):
    with pytest.raises(ValueError, match="not a card"):
        parse_cards(text)


def test_malformed_card_text_is_an_action_error():
    with pytest.raises(ActionError):
        parse_cards("Q5")


def test_two_cards_of_the_same_colour_and_number_are_equal_values():
    first, second = parse_cards("R7 R7")
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1
    assert Card.of("R", 7) != Card.of("B", 7)


def test_a_card_prints_as_its_code():
    assert str(Card.of("Y", 10)) == "Y10"
    assert repr(Card.skip()) == "Card('S')"
    assert cards_text(parse_cards("w r1")) == "W R1"


def test_wild_and_skip_have_no_colour_and_no_number():
    wild, skip = parse_cards("W S")
    assert wild.is_wild and not wild.is_natural and wild.colour is None
    assert skip.is_skip and not skip.is_natural and skip.colour is None
    assert wild.kind == "wild" and skip.kind == "skip" and Card.of("R", 1).kind == "number"


@pytest.mark.parametrize(
    ("text", "points"),
    [("R1", 5), ("B9", 5), ("G10", 10), ("Y12", 10), ("S", 15), ("W", 25)],
)
def test_each_card_left_in_hand_scores_its_points(text, points):
    assert hand_points(parse_cards(text)) == points


def test_a_hand_scores_the_sum_of_its_cards():
    assert hand_points(parse_cards("R1 R9 G10 G12 S W")) == 5 + 5 + 10 + 10 + 15 + 25
    assert hand_points([]) == 0


def test_the_deck_has_108_cards_two_of_each_number_per_colour_8_wilds_and_4_skips():
    deck = full_deck()
    assert len(deck) == 108
    for colour in "RBGY":
        for number in range(1, 13):
            assert deck.count(Card.of(colour, number)) == 2
    assert deck.count(Card.wild()) == 8
    assert deck.count(Card.skip()) == 4
    assert is_full_deck(deck)
    assert not is_full_deck(deck[:-1] + [Card.wild()])


def test_removing_cards_takes_one_copy_each_and_keeps_the_order():
    hand = parse_cards("R7 W R7 B2")
    assert remove_cards(hand, parse_cards("R7")) == tuple(parse_cards("W R7 B2"))
    assert remove_cards(hand, parse_cards("W W")) is None


def test_cards_sort_by_number_then_colour_with_wilds_and_skips_last():
    assert cards_text(sorted_cards(parse_cards("S W Y2 R2 B1"))) == "B1 R2 Y2 W S"


def test_a_card_cannot_be_made_of_nonsense():
    with pytest.raises(ActionError):
        Card("P", 3)
    with pytest.raises(ActionError):
        Card(None, 5)
