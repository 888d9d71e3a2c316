"""The ten phases' goals, as structured parts the web layer can translate.

>>> phase_goal(2)
(Part(kind='set', size=3), Part(kind='run', size=4))
>>> phase_goal_text(2)
[('set', 3), ('run', 4)]
>>> describe_phase(8)
'7 cards of one colour'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.engine.rules import ActionError

GroupKind = Literal["set", "run", "colour"]

TIEBREAK_PHASE = 10
"""The tie-breaker round's goal is phase 10's goal (set of 5 + set of 3)."""


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a phase: a set, run or colour group of at least `size` cards."""

    kind: GroupKind
    size: int


def _parts(*spec: tuple[GroupKind, int]) -> tuple[Part, ...]:
    return tuple(Part(kind, size) for kind, size in spec)


GOALS: dict[int, tuple[Part, ...]] = {
    1: _parts(("set", 3), ("set", 3)),
    2: _parts(("set", 3), ("run", 4)),
    3: _parts(("set", 4), ("run", 4)),
    4: _parts(("run", 7)),
    5: _parts(("run", 8)),
    6: _parts(("run", 9)),
    7: _parts(("set", 4), ("set", 4)),
    8: _parts(("colour", 7)),
    9: _parts(("set", 5), ("set", 2)),
    10: _parts(("set", 5), ("set", 3)),
}


def phase_goal(number: int) -> tuple[Part, ...]:
    """The parts of phase `number` (1-10)."""
    try:
        return GOALS[number]
    except (KeyError, TypeError):
        raise ActionError(f"There is no phase {number!r}; phases are 1 to 10.") from None


def phase_goal_text(number: int) -> list[tuple[str, int]]:
    """Structured goal for templates: `[("set", 3), ("run", 4)]` for phase 2."""
    return [(part.kind, part.size) for part in phase_goal(number)]


def describe_phase(number: int) -> str:
    """An English description (the web layer translates from `phase_goal_text` instead).

    >>> describe_phase(1), describe_phase(4)
    ('2 sets of 3', '1 run of 7')
    """
    parts = phase_goal(number)
    if parts[0].kind == "colour":
        return f"{parts[0].size} cards of one colour"
    if len(parts) == 2 and parts[0] == parts[1]:
        return f"2 {parts[0].kind}s of {parts[0].size}"
    return " + ".join(f"1 {part.kind} of {part.size}" for part in parts)
