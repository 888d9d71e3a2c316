"""Stacking the deck for exact scenarios."""

from games.engine import Discard, Draw, LayDown, Rules, apply, arrange_deck, new_game, parse_cards


def cards(text):
    return parse_cards(text)


def deck(hands, up="G9", draw="", *, dealer=0, seats=None):
    """A full deck dealing `hands` (texts, one per seat), then `up`, then `draw` on top."""
    return arrange_deck(
        [cards(hand) for hand in hands], up, cards(draw), dealer=dealer, seats=seats
    )


def game(hands, up="G9", draw="", *, rules=None, dealer=0, more_decks=(), seed=0):
    """A game whose first round deals exactly `hands`; seat dealer+1 plays first."""
    first = deck(hands, up, draw, dealer=dealer)
    return new_game(
        len(hands), rules or Rules(), seed=seed, decks=[first, *more_decks], dealer=dealer
    )


def hand_text(state, seat):
    return " ".join(sorted(str(card) for card in state.hands[seat]))


TEN_CARD_PHASE_ONE = "R1 R1 B1 B1 G1 R2 R2 B2 B2 G2"


def go_out(state, groups, last):
    """The current player draws, lays `groups` and discards `last`, going out."""
    return apply(apply(apply(state, Draw()), LayDown(groups)), Discard(last))


def almost_tied_game():
    """`tied_game` before its last move: seat 2 has laid down and discards W to go out."""
    rules = Rules(all_advance=True, phases=(1, 2))
    tens = "Y10 Y11 Y12 G10 G11 G12 B10 B11 B12 R10"
    fifty = "R3 R4 R5 R6 R7 R8 R9 B3 B4 B5"
    round1 = deck([tens, TEN_CARD_PHASE_ONE, fifty], draw="W")
    round2 = deck(
        [tens, "R3 R4 R6 R7 R8 R9 B3 B4 B6 B7", "R5 R5 B5 B5 G5 G5 Y1 Y2 Y3 Y4"],
        draw="W",
        dealer=1,
    )
    tiebreak = deck(
        [[], "R9 R9 B9 B9 G9 R11 R11 B11 Y4 Y5", "R1 B2 G3 Y4 R5 B6 G7 Y8 R12 B12"],
        draw="G1 G2 W",
        dealer=2,
        seats=[1, 2],
    )
    state = new_game(3, rules, seed=3, decks=[round1, round2, tiebreak])
    state = go_out(state, ["R1 R1 B1 B1 G1", "R2 R2 B2 B2 G2"], "W")
    assert state.scores == (100, 0, 50)
    return apply(apply(state, Draw()), LayDown(["R5 R5 B5 B5 G5 G5", "Y1 Y2 Y3 Y4"]))


def tied_game():
    """All-advance over phases 1-2: seats 1 and 2 each go out once and tie on 50."""
    return apply(almost_tied_game(), Discard("W"))
