"""Checking a lay-down, and finding one in a hand.

`find_phase` is complete: it returns None only when no lay-down of the phase exists in
the hand. It never tries permutations: sets and runs only care how many cards of each
number the hand holds, and a colour group how many of each colour, so it walks every
choice of set numbers, run windows and colours, counting the Wilds each choice needs,
and keeps the cheapest. It lays down exactly each part's minimum, keeps every other
card in hand, uses as few Wilds as it can and, among equals, sheds the most points.

>>> from games.engine.cards import parse_cards
>>> find_phase(parse_cards("R7 B7 G7 Y3 R3 W B11 G2 S Y9 Y12"), 1)
[[Card('R7'), Card('B7'), Card('G7')], [Card('Y3'), Card('R3'), Card('W')]]
>>> validate_phase(2, [parse_cards("R3 B4 W G6"), parse_cards("R9 B9 Y9")])
>>> find_phase(parse_cards("R1 R2 R3 R4 R5 R6 S S S S W"), 5) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import permutations

from games.engine.cards import COLOURS, WILD, Card
from games.engine.melds import Group, make_group
from games.engine.phases import Part, describe_phase, phase_goal
from games.engine.rules import ActionError, RuleError, Rules

DEFAULT_RULES = Rules()

# A plan says which naturals each part takes; Wilds fill the rest.
#   ("set", number or None, naturals) / ("run", start or None, numbers taken naturally)
#   ("colour", colour, naturals)
PlanPart = tuple[str, int | str | None, int | frozenset[int]]
Plan = tuple[PlanPart, ...]
_UNREACHABLE = 99


def validate_phase(
    number: int, groups: Sequence[Iterable[Card]], rules: Rules = DEFAULT_RULES
) -> None:
    """None if `groups` make phase `number`; otherwise RuleError saying why.

    The groups may come in any order relative to the phase's parts; a run is given
    low to high with each Wild where it stands.

    >>> from games.engine.cards import parse_cards
    >>> validate_phase(1, [parse_cards("R7 B7 W"), parse_cards("W W W")])
    >>> validate_phase(1, [parse_cards("R7 B7 W"), parse_cards("W W W")], Rules(natural_card="group"))
    Traceback (most recent call last):
    ...
    games.engine.rules.RuleError: Every group needs at least one natural (non-Wild) card.
    """
    build_phase(number, groups, rules)


def build_phase(
    number: int, groups: Sequence[Iterable[Card]], rules: Rules = DEFAULT_RULES
) -> tuple[Group, ...]:
    """The laid groups for a valid lay-down of phase `number`, in the order given.

    When a group could be read as either part (`R7 W W W` is a set of 4 or a run of 4),
    the groups are matched to the phase's parts in the order given first.
    """
    parts = phase_goal(number)
    cards = [_as_cards(group) for group in groups]
    if len(cards) != len(parts):
        raise RuleError(
            f"Phase {number} is {describe_phase(number)}: lay down exactly "
            f"{_count_groups(len(parts))}.",
            code="phase_group_count",
        )
    best_errors: list[RuleError] | None = None
    for order in permutations(range(len(parts))):
        built: list[Group] = []
        errors: list[RuleError] = []
        for group, part_index in zip(cards, order, strict=True):
            try:
                built.append(_fit(parts[part_index], group))
            except RuleError as error:
                errors.append(error)
        if not errors:
            _check_naturals(built, rules)
            return tuple(built)
        if best_errors is None or len(errors) < len(best_errors):
            best_errors = errors
    assert best_errors is not None
    raise best_errors[0]


def _as_cards(group: Iterable[Card]) -> tuple[Card, ...]:
    if isinstance(group, (str, bytes)):
        raise ActionError("Each group must be a list of cards.")
    cards = tuple(Card.parse(card) if isinstance(card, str) else card for card in group)
    for card in cards:
        if not isinstance(card, Card):
            raise ActionError(f"{card!r} is not a card.")
    return cards


def _count_groups(count: int) -> str:
    return "1 group" if count == 1 else f"{count} groups"


def _fit(part: Part, cards: tuple[Card, ...]) -> Group:
    group = make_group(part.kind, cards)
    if len(group) < part.size:
        what = {"set": "A set", "run": "A run", "colour": "A colour group"}[part.kind]
        raise RuleError(
            f"{what} of {part.size} needs at least {part.size} cards.", code="group_too_small"
        )
    return group


def _check_naturals(groups: Sequence[Group], rules: Rules) -> None:
    # The natural card keeps a phase from being laid entirely with Wilds (docs/rules.md,
    # "Wilds and Skips"); the "group" option asks it of every group.
    if rules.natural_card == "group":
        if any(group.naturals == 0 for group in groups):
            raise RuleError(
                "Every group needs at least one natural (non-Wild) card.", code="natural_card"
            )
    elif all(group.naturals == 0 for group in groups):
        raise RuleError(
            "Your phase needs at least one natural (non-Wild) card.", code="natural_card"
        )


def find_phase(
    hand: Sequence[Card], number: int, rules: Rules = DEFAULT_RULES
) -> list[list[Card]] | None:
    """Groups drawn from `hand` that make phase `number` (in the phase's part order),
    or None when no lay-down exists.

    >>> from games.engine.cards import parse_cards
    >>> find_phase(parse_cards("G2 W G4 G5 G6 G7 R1 Y9"), 4)
    [[Card('R1'), Card('G2'), Card('W'), Card('G4'), Card('G5'), Card('G6'), Card('G7')]]
    """
    parts = phase_goal(number)
    found = _best_plan(hand, parts, rules)
    if found is None:
        return None
    cost, plan, wilds, pools = found
    if cost > wilds:
        return None
    return _materialise(plan, parts, pools)


def phase_shortfall(hand: Sequence[Card], number: int, rules: Rules = DEFAULT_RULES) -> int:
    """How many more cards (at best) the hand needs to make phase `number`; 0 = it can.

    A rough measure of how close a hand is, used by the bots.

    >>> from games.engine.cards import parse_cards
    >>> phase_shortfall(parse_cards("R7 B7 G7 R3"), 1)
    2
    """
    parts = phase_goal(number)
    counts = [0] * 13
    colours = dict.fromkeys(COLOURS, 0)
    wilds = 0
    for card in hand:
        if card.colour is not None:
            counts[card.number or 0] += 1
            colours[card.colour] += 1
        elif card.number is None:
            wilds += 1
    # Bots ask this about many similar hands: only what the phase looks at goes into
    # the cache key (numbers for sets and runs, colours for a colour group).
    if parts[0].kind == "colour":
        key: tuple[int, ...] = tuple(colours.values())
    else:
        key = tuple(counts)
    cost = _cheapest_cost(number, key, rules.natural_card == "group")
    if cost is None:
        return sum(part.size for part in parts)
    return max(0, cost - wilds)


@lru_cache(maxsize=8192)
def _cheapest_cost(number: int, key: tuple[int, ...], group_rule: bool) -> int | None:
    """How many Wilds the cheapest lay-down of phase `number` needs (`key`: see above);
    None when no number of Wilds would do."""
    parts = phase_goal(number)
    if parts[0].kind == "colour":
        best = _cheapest(parts, [], dict(zip(COLOURS, key, strict=True)), group_rule)
    else:
        best = _cheapest(parts, list(key), {}, group_rule)
    return None if best is None else best[0]


Pools = tuple[list[list[Card]], dict[str, list[Card]]]


def _best_plan(
    hand: Sequence[Card], parts: tuple[Part, ...], rules: Rules
) -> tuple[int, Plan, int, Pools] | None:
    by_number: list[list[Card]] = [[] for _ in range(13)]
    by_colour: dict[str, list[Card]] = {colour: [] for colour in COLOURS}
    wilds = 0
    for card in hand:
        if card.colour is not None:
            by_number[card.number or 0].append(card)
            by_colour[card.colour].append(card)
        elif card.number is None:
            wilds += 1
    counts = [len(cards) for cards in by_number]
    colours = {colour: len(cards) for colour, cards in by_colour.items()}
    best = _cheapest(parts, counts, colours, rules.natural_card == "group")
    if best is None:
        return None
    return best[0], best[2], wilds, (by_number, by_colour)


def _cheapest(
    parts: tuple[Part, ...], counts: list[int], colours: dict[str, int], group_rule: bool
) -> tuple[int, int, Plan] | None:
    """(Wilds needed, points shed, plan) of the best lay-down, from the naturals' counts
    by number and by colour; None if the phase can't be made even with enough Wilds."""
    kinds = tuple(part.kind for part in parts)
    if kinds == ("set", "set"):
        return _two_sets(counts, parts[0].size, parts[1].size, group_rule)
    if kinds == ("set", "run"):
        return _set_and_run(counts, parts[0].size, parts[1].size, group_rule)
    if kinds == ("run",):
        return _one_run(counts, parts[0].size)
    if kinds == ("colour",):
        return _one_colour(colours, parts[0].size)
    raise ActionError(f"No solver for a phase of {kinds}.")  # pragma: no cover


def _points(number: int) -> int:
    return 10 if number >= 10 else 5


def _two_sets(
    counts: list[int], size1: int, size2: int, group_rule: bool
) -> tuple[int, int, Plan] | None:
    # Numbers with the most cards first, so the lower bound below prunes early.
    present = sorted((n for n in range(1, 13) if counts[n]), key=lambda n: counts[n], reverse=True)
    options: list[int | None] = [*present, None]
    most = counts[options[0]] if options[0] is not None else 0
    symmetric = size1 == size2
    best_cost, best_points, best_plan = _UNREACHABLE, -1, None
    for i, a in enumerate(options):
        count_a = counts[a] if a is not None else 0
        # Neither set can do better than its own cards plus the best other number.
        if size1 - min(count_a, size1) + size2 - min(most, size2) > best_cost:
            continue
        for b in options[i:] if symmetric else options:
            if a is not None and a == b:
                if count_a >= 2:
                    x = min(size1, count_a - 1)
                    y = min(size2, count_a - x)
                else:
                    x, y = count_a, 0
            else:
                x = min(count_a, size1)
                y = min(counts[b], size2) if b is not None else 0
            if (x == 0 or y == 0) if group_rule else (x + y == 0):
                continue
            cost = size1 - x + size2 - y
            if cost > best_cost:
                continue
            points = (x * _points(a) if a else 0) + (y * _points(b) if b else 0)
            if cost < best_cost or points > best_points:
                best_cost, best_points = cost, points
                best_plan = (("set", a, x), ("set", b, y))
    if best_plan is None:
        return None
    return best_cost, best_points, best_plan


def _set_and_run(
    counts: list[int], set_size: int, run_size: int, group_rule: bool
) -> tuple[int, int, Plan] | None:
    # Each run window as (start, bitmask of the numbers it can take naturally, how many,
    # their points); the last one is a run made only of Wilds.
    windows: list[tuple[int | None, int, int, int]] = []
    for low in range(1, 14 - run_size):
        mask = naturals = points = 0
        for n in range(low, low + run_size):
            if counts[n]:
                mask |= 1 << n
                naturals += 1
                points += 10 if n >= 10 else 5
        windows.append((low, mask, naturals, points))
    windows.sort(key=lambda window: window[2], reverse=True)
    most_run = windows[0][2]
    windows.append((None, 0, 0, 0))
    present = sorted((n for n in range(1, 13) if counts[n]), key=lambda n: counts[n], reverse=True)
    options: list[int | None] = [*present, None]
    best_cost, best_points, best_plan = _UNREACHABLE, -1, None
    best_mask = 0
    for a in options:
        if a is None:
            count_a = bit = set_points = 0
        else:
            count_a, bit, set_points = counts[a], 1 << a, _points(a)
        full = min(count_a, set_size)
        if set_size - full + run_size - most_run > best_cost:
            continue
        for start, mask, naturals, points in windows:
            if mask & bit:
                # The run wants one card of the set's number: give it one, or let the set
                # keep them all and put a Wild in the run's place.
                choices: tuple[tuple[int, int, int, int], ...] = (
                    (
                        (min(count_a - 1, set_size), mask, naturals, points),
                        (count_a, mask & ~bit, naturals - 1, points - set_points),
                    )
                    if count_a - 1 < set_size
                    else ((set_size, mask, naturals, points),)
                )
            else:
                choices = ((full, mask, naturals, points),)
            for x, run_mask, run_naturals, run_points in choices:
                if (x == 0 or run_naturals == 0) if group_rule else (x + run_naturals == 0):
                    continue
                cost = set_size - x + run_size - run_naturals
                if cost > best_cost:
                    continue
                total = x * set_points + run_points
                if cost < best_cost or total > best_points:
                    best_cost, best_points, best_mask = cost, total, run_mask
                    best_plan = (("set", a, x), ("run", start, 0))
    if best_plan is None:
        return None
    taken = frozenset(n for n in range(1, 13) if best_mask >> n & 1)
    set_part, (_, start, _) = best_plan
    return best_cost, best_points, (set_part, ("run", start, taken))


def _one_run(counts: list[int], size: int) -> tuple[int, int, Plan] | None:
    best_cost, best_points, best_plan = _UNREACHABLE, 0, None
    for start in range(1, 14 - size):
        taken = frozenset(n for n in range(start, start + size) if counts[n])
        if not taken:
            continue
        cost = size - len(taken)
        if cost > best_cost:
            continue
        points = sum(_points(n) for n in taken)
        if cost < best_cost or points > best_points:
            best_cost, best_points = cost, points
            best_plan = (("run", start, taken),)
    if best_plan is None:
        return None
    return best_cost, best_points, best_plan


def _one_colour(counts: dict[str, int], size: int) -> tuple[int, int, Plan] | None:
    best: tuple[int, int, Plan] | None = None
    for colour in COLOURS:
        naturals = min(counts[colour], size)
        if naturals and (best is None or size - naturals < best[0]):
            best = (size - naturals, 0, (("colour", colour, naturals),))
    return best


def _materialise(plan: Plan, parts: tuple[Part, ...], pools: Pools) -> list[list[Card]]:
    by_number = [list(cards) for cards in pools[0]]
    by_colour = pools[1]
    groups: list[list[Card] | None] = [None] * len(parts)
    # Runs first: a run takes one card of a number, a set sharing it takes the rest.
    for index in sorted(range(len(plan)), key=lambda i: plan[i][0] != "run"):
        kind, key, naturals = plan[index]
        size = parts[index].size
        if kind == "run":
            assert isinstance(naturals, frozenset)
            if key is None:
                groups[index] = [WILD] * size
            else:
                assert isinstance(key, int)
                groups[index] = [
                    by_number[n].pop(0) if n in naturals else WILD for n in range(key, key + size)
                ]
        elif kind == "set":
            assert isinstance(naturals, int)
            taken = [by_number[key].pop(0) for _ in range(naturals)] if isinstance(key, int) else []
            groups[index] = taken + [WILD] * (size - naturals)
        else:
            assert isinstance(naturals, int) and isinstance(key, str)
            same_colour = sorted(by_colour[key], key=lambda card: -(card.number or 0))
            groups[index] = same_colour[:naturals] + [WILD] * (size - naturals)
    return [group for group in groups if group is not None]
