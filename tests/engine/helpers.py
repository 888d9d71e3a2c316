"""Stacking the deck for exact scenarios."""

from games.engine import Rules, arrange_deck, new_game, parse_cards


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
