"""A slow, obviously-correct lay-down finder to cross-check the solver against."""

from itertools import combinations

from games.engine.phases import phase_goal


def can_form(kind, size, cards):
    """Can `cards` (any order) be arranged into one group of `kind` with >= size cards?"""
    if len(cards) < size or any(card.is_skip for card in cards):
        return False
    naturals = [card for card in cards if card.is_natural]
    if kind == "set":
        return len({card.number for card in naturals}) <= 1
    if kind == "colour":
        return len({card.colour for card in naturals}) <= 1
    numbers = [card.number for card in naturals]
    if len(set(numbers)) != len(numbers) or len(cards) > 12:
        return False
    for low in range(1, 14 - len(cards)):
        if all(low <= n < low + len(cards) for n in numbers):
            return True
    return False


def brute_force_exists(hand, number, natural_card="phase"):
    """Is there any lay-down of phase `number` in `hand`? Tries every split of the hand."""
    parts = phase_goal(number)
    indices = range(len(hand))

    def natural_ok(groups):
        counts = [sum(card.is_natural for card in group) for group in groups]
        return all(counts) if natural_card == "group" else any(counts)

    for size1 in range(parts[0].size, len(hand) + 1):
        for first in combinations(indices, size1):
            group1 = [hand[i] for i in first]
            if not can_form(parts[0].kind, parts[0].size, group1):
                continue
            if len(parts) == 1:
                if natural_ok([group1]):
                    return True
                continue
            rest = [i for i in indices if i not in first]
            for size2 in range(parts[1].size, len(rest) + 1):
                for second in combinations(rest, size2):
                    group2 = [hand[i] for i in second]
                    if can_form(parts[1].kind, parts[1].size, group2) and natural_ok(
                        [group1, group2]
                    ):
                        return True
    return False
