"""Cards, their short notation, points, and the 108-card deck.

>>> parse_cards("R7 b12 W S")
[Card('R7'), Card('B12'), Card('W'), Card('S')]
>>> str(Card.of("G", 1)), Card.of("G", 1) == parse_cards("g1")[0]
('G1', True)
>>> hand_points(parse_cards("R7 B12 S W"))
55
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from games.engine.rules import ActionError

COLOURS: tuple[str, ...] = ("R", "B", "G", "Y")
COLOUR_NAMES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
NUMBERS: tuple[int, ...] = tuple(range(1, 13))
WILD_CODE = "W"
SKIP_CODE = "S"

Kind = Literal["number", "wild", "skip"]


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Cards are values: the two red sevens of a deck compare equal.

    Build them with `Card.of`, `Card.wild()`, `Card.skip()` or `Card.parse`.
    """

    colour: str | None
    number: int | None

    def __post_init__(self) -> None:
        if self.colour is None:
            if self.number not in (None, 0):
                raise ActionError(f"A card without a colour must be a Wild or a Skip: {self!r}.")
        elif self.colour not in COLOURS or self.number not in NUMBERS:
            raise ActionError(f"No such card: {self.colour}{self.number}.")

    # Wild is encoded as (None, None) and Skip as (None, 0): two plain fields keep
    # the dataclass tiny and hashing fast in the solver's inner loops.
    @staticmethod
    def of(colour: str, number: int) -> Card:
        return Card(colour.upper(), number)

    @staticmethod
    def wild() -> Card:
        return WILD

    @staticmethod
    def skip() -> Card:
        return SKIP

    @staticmethod
    def parse(text: str) -> Card:
        """`"R7"`, `"b12"`, `"W"`, `"S"` -> a Card; anything else raises ActionError."""
        # A table of the 54 codes: views and move logs parse thousands of cards a game.
        card = _BY_CODE.get(text.strip().upper())
        if card is None:
            raise ActionError(f"{text!r} is not a card (use R7, B12, G1, Y10, W or S).")
        return card

    @property
    def kind(self) -> Kind:
        if self.colour is not None:
            return "number"
        return "wild" if self.number is None else "skip"

    @property
    def is_wild(self) -> bool:
        return self.colour is None and self.number is None

    @property
    def is_skip(self) -> bool:
        return self.colour is None and self.number == 0

    @property
    def is_natural(self) -> bool:
        """A numbered card: neither Wild nor Skip."""
        return self.colour is not None

    @property
    def points(self) -> int:
        """What the card costs left in hand at the end of a round."""
        if self.colour is None:
            return 25 if self.number is None else 15
        return 5 if self.number is not None and self.number <= 9 else 10

    def sort_key(self) -> tuple[int, int, int]:
        """Number, then colour; Wilds and then Skips last."""
        if self.colour is None:
            return (13 if self.number is None else 14, 0, 0)
        return (self.number or 0, COLOURS.index(self.colour), 0)

    def __str__(self) -> str:
        if self.colour is None:
            return WILD_CODE if self.number is None else SKIP_CODE
        return f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


WILD = Card(None, None)
SKIP = Card(None, 0)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from short notation, separated by spaces or commas; case-insensitive.

    >>> parse_cards("y10, g1")
    [Card('Y10'), Card('G1')]
    >>> parse_cards(["W", "s"])
    [Card('W'), Card('S')]
    >>> parse_cards("R13")
    Traceback (most recent call last):
    ...
    games.engine.rules.ActionError: 'R13' is not a card (use R7, B12, G1, Y10, W or S).
    """
    if isinstance(text, str):
        words = text.replace(",", " ").split()
    else:
        words = list(text)
        for word in words:
            if not isinstance(word, str):
                raise ActionError(f"{word!r} is not a card.")
    return [Card.parse(word) for word in words]


def cards_text(cards: Iterable[Card]) -> str:
    """The inverse of `parse_cards`: `"R7 B12 W"`."""
    return " ".join(str(card) for card in cards)


def hand_points(cards: Iterable[Card]) -> int:
    """Points for cards left in hand: 1-9 -> 5, 10-12 -> 10, Skip -> 15, Wild -> 25.

    >>> hand_points(parse_cards("R1 R9 G10 G12"))
    30
    >>> hand_points([])
    0
    """
    return sum(card.points for card in cards)


def full_deck() -> list[Card]:
    """The 108 cards in a fixed order: two of each number per colour, 8 Wild, 4 Skip.

    >>> deck = full_deck()
    >>> len(deck), deck.count(Card.of("R", 7)), deck.count(WILD), deck.count(SKIP)
    (108, 2, 8, 4)
    """
    numbered = [Card(colour, number) for colour in COLOURS for number in NUMBERS for _ in range(2)]
    return numbered + [WILD] * 8 + [SKIP] * 4


FULL_DECK_COUNTS: Counter[Card] = Counter(full_deck())
_BY_CODE: dict[str, Card] = {str(card): card for card in FULL_DECK_COUNTS}


def is_full_deck(cards: Sequence[Card]) -> bool:
    """True when `cards` are exactly the 108 cards of one deck, in any order."""
    return len(cards) == 108 and Counter(cards) == FULL_DECK_COUNTS


def remove_cards(hand: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """`hand` without one copy of each of `cards`, keeping its order; None if some are missing.

    >>> remove_cards(parse_cards("R7 R7 W"), parse_cards("R7"))
    (Card('R7'), Card('W'))
    >>> remove_cards(parse_cards("R7"), parse_cards("R7 R7")) is None
    True
    """
    wanted = Counter(cards)
    kept: list[Card] = []
    for card in hand:
        if wanted[card] > 0:
            wanted[card] -= 1
        else:
            kept.append(card)
    if any(count > 0 for count in wanted.values()):
        return None
    return tuple(kept)


def remove_card(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...] | None:
    """`remove_cards(hand, [card])` for the one-card moves (a discard, a hit), without
    counting the whole hand.

    >>> remove_card(tuple(parse_cards("R7 W R7")), Card.of("R", 7))
    (Card('W'), Card('R7'))
    >>> remove_card((), Card.wild()) is None
    True
    """
    if card not in hand:
        return None
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order: by number, then colour; Wilds and Skips last."""
    return sorted(cards, key=Card.sort_key)
