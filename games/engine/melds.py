"""Groups on the table: sets, runs and colour groups, with Wilds, and hitting them.

A run is given low to high with each Wild where it stands; a Wild's place is fixed
from then on. A group made only of Wilds (possible when another group of the phase
holds the natural card) is *open*: the first natural card hit on it decides its
number, colour or place.

>>> run = make_group("run", parse_cards("R3 W R5 B6"))
>>> run.low, run.high
(3, 6)
>>> str(run.hit(Card.of("G", 7)))
'R3 W R5 B6 G7'
>>> str(make_group("set", parse_cards("R7 B7 W")).hit(Card.wild()))
'R7 B7 W W'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

from games.engine.cards import COLOUR_NAMES, Card, parse_cards
from games.engine.phases import GroupKind
from games.engine.rules import ActionError, RuleError

End = Literal["low", "high"]
ENDS: tuple[End, ...] = ("low", "high")
KINDS: tuple[GroupKind, ...] = ("set", "run", "colour")


@dataclass(frozen=True, slots=True)
class Group:
    """A laid group. It behaves like a tuple of its cards (iterate, index, len).

    number: a set's number; colour: a colour group's colour; low: the number a run's
    first card stands for. Each is None while the group is open (only Wilds).
    """

    kind: GroupKind
    cards: tuple[Card, ...]
    number: int | None = None
    colour: str | None = None
    low: int | None = None

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Card, ...]: ...
    def __getitem__(self, index: int | slice) -> Card | tuple[Card, ...]:
        return self.cards[index]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)

    @property
    def high(self) -> int | None:
        """The number a run's last card stands for (None for other groups or an open run)."""
        return None if self.low is None else self.low + len(self.cards) - 1

    @property
    def naturals(self) -> int:
        return sum(1 for card in self.cards if card.is_natural)

    def hit_ends(self, card: Card) -> tuple[End | None, ...]:
        """The ways `card` can be hit here: `(None,)` for a set or colour group that
        takes it, the ends `("low", "high")` of a run that take it, `()` if none.

        >>> make_group("run", parse_cards("R1 R2 R3 R4")).hit_ends(Card.wild())
        ('high',)
        >>> make_group("set", parse_cards("R7 B7 G7")).hit_ends(Card.of("Y", 8))
        ()
        """
        if card.is_skip:
            return ()
        if self.kind == "set":
            fits = card.is_wild or self.number is None or card.number == self.number
            return (None,) if fits else ()
        if self.kind == "colour":
            fits = card.is_wild or self.colour is None or card.colour == self.colour
            return (None,) if fits else ()
        return tuple(end for end in ENDS if self._run_takes(card, end))

    def _run_takes(self, card: Card, end: End) -> bool:
        size = len(self.cards)
        if self.low is None:  # an open run: only its length is known
            if card.is_wild:
                return size < 12
            assert card.number is not None
            return card.number - size >= 1 if end == "high" else card.number + size <= 12
        high = self.low + size - 1
        if end == "low":
            return self.low > 1 and (card.is_wild or card.number == self.low - 1)
        return high < 12 and (card.is_wild or card.number == high + 1)

    def hit(self, card: Card, end: End | None = None) -> Group:
        """This group with `card` added; RuleError (a sentence) if it doesn't fit.

        `end` says which end of a run; it may be left out when only one end fits.
        It is ignored for sets and colour groups.
        """
        if end is not None and end not in ENDS:
            raise ActionError('The end of a run is "low" or "high".')
        ends = self.hit_ends(card)
        if not ends:
            raise RuleError(
                f"{card} doesn't fit on {self.describe()}.",
                code="hit_does_not_fit",
                params={"card": str(card)},
            )
        if self.kind != "run":
            return self._extended(card, None)
        if end is None:
            if len(ends) > 1:
                raise RuleError("Say which end of the run the card goes on.", code="hit_needs_end")
            end = ends[0]
        elif end not in ends:
            raise RuleError(
                f"{card} doesn't fit on the {end} end of {self.describe()}.",
                code="hit_does_not_fit",
            )
        return self._extended(card, end)

    def _extended(self, card: Card, end: End | None) -> Group:
        if self.kind == "set":
            number = self.number if self.number is not None else card.number
            return Group("set", (*self.cards, card), number=number)
        if self.kind == "colour":
            colour = self.colour if self.colour is not None else card.colour
            return Group("colour", (*self.cards, card), colour=colour)
        if end == "low":
            cards = (card, *self.cards)
            low = self.low - 1 if self.low is not None else card.number
        else:
            cards = (*self.cards, card)
            if self.low is not None:
                low = self.low
            else:
                low = None if card.number is None else card.number - len(self.cards)
        return Group("run", cards, low=low)

    def describe(self) -> str:
        """English, for error messages: "the set of 7s", "the run 3-6"."""
        if self.kind == "set":
            return "the set of Wilds" if self.number is None else f"the set of {self.number}s"
        if self.kind == "colour":
            if self.colour is None:
                return "the colour group of Wilds"
            return f"the {_colour_name(self.colour)} group"
        if self.low is None:
            return "the run of Wilds"
        return f"the run {self.low}-{self.high}"

    def to_dict(self) -> dict[str, Any]:
        """`{"kind": "run", "cards": ["R3", "W", "R5"], "number": None, "colour": None, "low": 3}`."""
        return {
            "kind": self.kind,
            "cards": [str(card) for card in self.cards],
            "number": self.number,
            "colour": self.colour,
            "low": self.low,
        }


def group_from_dict(data: Mapping[str, Any]) -> Group:
    """Read `Group.to_dict` output back, re-checking that the group is valid."""
    try:
        kind = data["kind"]
        cards = parse_cards(data["cards"])
    except (KeyError, TypeError) as exc:
        raise ActionError(f"Not a group: {data!r}.") from exc
    if kind not in KINDS:
        raise ActionError(f"Not a kind of group: {kind!r}.")
    group = make_group(kind, cards)
    if kind == "run" and group.low is None and data.get("low") is not None:
        raise ActionError("An open run can't have a position.")
    return group


def make_group(kind: GroupKind, cards: Sequence[Card] | Iterable[Card]) -> Group:
    """Check `cards` as a group of `kind` (any size >= 1) and build it; RuleError if not.

    >>> make_group("run", parse_cards("W R2 R3")).low
    1
    >>> make_group("run", parse_cards("W W R2"))
    Traceback (most recent call last):
    ...
    games.engine.rules.RuleError: A run can't go below 1.
    """
    cards = tuple(cards)
    if not cards:
        raise RuleError("A group needs at least one card.", code="group_empty")
    if any(card.is_skip for card in cards):
        raise RuleError("Skip cards can't be part of any group.", code="group_has_skip")
    naturals = [card for card in cards if card.is_natural]
    if kind == "set":
        numbers = {card.number for card in naturals}
        if len(numbers) > 1:
            raise RuleError("All the cards of a set must have the same number.", code="set_mixed")
        return Group("set", cards, number=next(iter(numbers), None))
    if kind == "colour":
        colours = {card.colour for card in naturals}
        if len(colours) > 1:
            raise RuleError(
                "All the cards of a colour group must have the same colour.", code="colour_mixed"
            )
        return Group("colour", cards, colour=next(iter(colours), None))
    if kind == "run":
        return Group("run", cards, low=_run_low(cards))
    raise ActionError(f"Not a kind of group: {kind!r}.")


def _run_low(cards: tuple[Card, ...]) -> int | None:
    if len(cards) > 12:
        raise RuleError("A run can't be longer than 12 cards.", code="run_too_long")
    low: int | None = None
    for position, card in enumerate(cards):
        if card.number is None:
            continue
        implied = card.number - position
        if low is None:
            low = implied
        elif implied != low:
            raise RuleError(
                "A run's cards must be consecutive numbers, low to high, with each Wild "
                "where it stands.",
                code="run_not_consecutive",
            )
    if low is not None:
        if low < 1:
            raise RuleError("A run can't go below 1.", code="run_below_1")
        if low + len(cards) - 1 > 12:
            raise RuleError("A run can't go above 12.", code="run_above_12")
    return low


def _colour_name(colour: str) -> str:
    return COLOUR_NAMES.get(colour, colour)
