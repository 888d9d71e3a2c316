"""The rules page's pictures, made of our own card faces: card codes ("R7", "W", "S")
that the page draws with `{% card %}`, the same in every language.

Each phase is pictured laid down once, and each kind of group once, with a card that
would hit it. The engine checks every picture (tests/site/test_rules_page.py), so the
page never shows a lay-down the game would refuse.
"""

from __future__ import annotations

from typing import Any

from .words import phase_goal_words

# The four colours, a Wild and a Skip.
DECK = ("R7", "B7", "G7", "Y7", "W", "S")

# One way to lay each phase; groups in the order of the goal, runs low to high.
PHASES: dict[int, tuple[tuple[str, ...], ...]] = {
    1: (("R7", "B7", "G7"), ("Y3", "R3", "W")),
    2: (("B9", "G9", "Y9"), ("R2", "G3", "W", "Y5")),
    3: (("R11", "B11", "G11", "Y11"), ("B5", "B6", "G7", "R8")),
    4: (("R1", "B2", "G3", "Y4", "W", "R6", "B7"),),
    5: (("G4", "B5", "R6", "Y7", "G8", "W", "B10", "R11"),),
    6: (("R2", "Y3", "B4", "G5", "R6", "W", "W", "B9", "Y10"),),
    7: (("R5", "B5", "G5", "W"), ("Y10", "B10", "R10", "G10")),
    8: (("B1", "B3", "B4", "B7", "B9", "W", "B12"),),
    9: (("R6", "B6", "G6", "Y6", "W"), ("G12", "R12")),
    10: (("Y8", "B8", "G8", "R8", "W"), ("B4", "G4", "R4")),
}

# Each kind of group, as (kind, its cards, a card that hits it).
GROUPS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "set": ("set", ("R7", "B7", "G7"), "Y7"),
    "run": ("run", ("G3", "B4", "R5", "Y6"), "R7"),
    "colour": ("colour", ("Y2", "Y5", "Y5", "Y9", "Y12"), "Y1"),
    # A Wild keeps the place it was laid in: here it stands for a 6.
    "wild_run": ("run", ("B4", "R5", "W", "G7"), "W"),
}

# What the cards left in a hand count at the end of a round.
SCORES: tuple[tuple[tuple[str, ...], int], ...] = (
    (("R1", "B9"), 5),
    (("G10", "Y12"), 10),
    (("S",), 15),
    (("W",), 25),
)


def phase_pictures() -> list[dict[str, Any]]:
    """The ten phases for the rules page: number, goal in words, and groups of cards."""
    return [
        {"number": number, "goal": phase_goal_words(number), "groups": groups}
        for number, groups in PHASES.items()
    ]
