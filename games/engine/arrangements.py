"""The ways a player's selected cards can be laid down as a phase.

A player picks cards, not groups: this finds every essentially different way those
cards, all of them, make one of the phases they may lay, so the table can lay at once
when there is one way and ask when there are several (which phase; where a run's Wild
goes, which decides later hits). `phases_made` answers the same question for groups
already arranged: a run of 8 is phase 4 and phase 5.

>>> from games.engine.cards import parse_cards
>>> [option.phase for option in lay_down_choices(parse_cards("R8 B8 Y8 G8 R4 B4 G4 Y4"),
...                                                [1, 7], Rules())]
[1, 7]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from games.engine.actions import LayDown
from games.engine.cards import WILD, Card
from games.engine.phases import GroupKind, phase_goal
from games.engine.rules import RuleError, Rules
from games.engine.solver import validate_phase

# More cards than this can't be one lay-down from a hand (10 dealt + 1 drawn); it also
# bounds the search, which tries every assignment of cards to the phase's parts.
MAX_SELECTED = 11

# What matters about a laid group for the rest of the round (see `_meaning`).
Meaning = tuple[str | int, ...]


def lay_down_choices(cards: Sequence[Card], phases: Sequence[int], rules: Rules) -> list[LayDown]:
    """Every essentially different way the selected `cards`, all of them, make one of
    `phases` (each `LayDown` names its phase). Arrangements that differ only in which
    set holds a Wild count once; a Wild at the low or the high end of a run does not
    (it decides later hits). Runs stay within 1-12.

    >>> from games.engine.cards import parse_cards
    >>> lay_down_choices(parse_cards("R3 R4 R5 R6 G9 B9 Y9"), [2], Rules())
    [LayDown(groups=((Card('G9'), Card('B9'), Card('Y9')), (Card('R3'), Card('R4'), Card('R5'), Card('R6'))), phase=2)]
    >>> len(lay_down_choices(parse_cards("R3 R4 R5 W G9 B9 Y9"), [2], Rules()))
    2
    """
    found: dict[tuple[int, tuple[Meaning, ...]], LayDown] = {}
    for phase in phases:
        parts = phase_goal(phase)
        if len(cards) < sum(part.size for part in parts) or len(cards) > MAX_SELECTED:
            continue
        for assignment in itertools.product(range(len(parts)), repeat=len(cards)):
            chosen: list[list[Card]] = [[] for _ in parts]
            for card, part in zip(cards, assignment, strict=True):
                chosen[part].append(card)
            options = [
                _arrangements(part.kind, part.size, group)
                for part, group in zip(parts, chosen, strict=True)
            ]
            for groups in itertools.product(*options):
                key = (
                    phase,
                    tuple(sorted(_meaning(parts[i].kind, g) for i, g in enumerate(groups))),
                )
                if key in found:
                    continue
                try:
                    validate_phase(phase, groups, rules)
                except RuleError:
                    continue
                found[key] = LayDown([list(group) for group in groups], phase=phase)
    return list(found.values())


def phases_made(
    groups: Sequence[Sequence[Card]], phases: Iterable[int], rules: Rules
) -> tuple[int, ...]:
    """The phases of `phases` that `groups`, laid as they are, make (in the order given).

    >>> from games.engine.cards import parse_cards
    >>> phases_made([parse_cards("R3 B4 G5 Y6 R7 B8 G9 Y10")], range(1, 11), Rules())
    (4, 5)
    >>> phases_made([parse_cards("R7 B7 G7 Y7"), parse_cards("R8 B8 G8 Y8")], [7, 9], Rules())
    (7,)
    """
    made = []
    for phase in phases:
        try:
            validate_phase(phase, groups, rules)
        except RuleError:
            continue
        made.append(phase)
    return tuple(made)


def _arrangements(kind: GroupKind, size: int, cards: list[Card]) -> list[tuple[Card, ...]]:
    """The ways `cards` can stand as one group of `kind` of at least `size` cards: one
    for a set or a colour group; for a run, one per place its spare Wilds can take."""
    if len(cards) < size or any(card.is_skip for card in cards):
        return []
    naturals = [card for card in cards if card.is_natural]
    wilds = [card for card in cards if card.is_wild]
    if kind == "set":
        return [tuple(naturals + wilds)] if len({c.number for c in naturals}) <= 1 else []
    if kind == "colour":
        return [tuple(naturals + wilds)] if len({c.colour for c in naturals}) <= 1 else []
    if not naturals:
        return [tuple(wilds)]
    by_number = {card.number: card for card in naturals if card.number is not None}
    if len(by_number) != len(naturals):
        return []
    low, high = min(by_number), max(by_number)
    gaps = high - low + 1 - len(naturals)
    spare = len(wilds) - gaps
    if spare < 0:
        return []
    runs = []
    for below in range(spare + 1):
        above = spare - below
        if low - below < 1 or high + above > 12:
            continue
        run: list[Card] = [WILD] * below
        run += [by_number.get(n, WILD) for n in range(low, high + 1)]
        run += [WILD] * above
        runs.append(tuple(run))
    return runs


def _meaning(kind: GroupKind, group: Sequence[Card]) -> Meaning:
    """What matters about a laid group for the rest of the round."""
    naturals = [card for card in group if card.is_natural]
    if kind == "set":
        return ("set", (naturals[0].number or 0) if naturals else 0)
    if kind == "colour":
        return ("colour", (naturals[0].colour or "") if naturals else "")
    if not naturals:
        return ("run", 0, len(group))
    first = next(i for i, card in enumerate(group) if card.is_natural)
    low = (group[first].number or 0) - first
    return ("run", low, low + len(group) - 1)
