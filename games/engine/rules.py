"""The options a game is played with, and the engine's two kinds of error.

`Rules()` is the default game of docs/rules.md; every variant is one field.

>>> Rules().last_phase
10
>>> Rules(phases=(2, 4, 6, 8, 10)).last_phase
10
>>> Rules.from_dict(Rules(all_advance=True).to_dict()) == Rules(all_advance=True)
True
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

ALL_PHASES: tuple[int, ...] = tuple(range(1, 11))

NaturalCard = Literal["phase", "group"]
SkipTarget = Literal["next", "choose"]


class ActionError(ValueError):
    """Malformed input: text that isn't a card, an unknown action, a seat that doesn't exist.

    The web layer should never produce these; a player never sees them.
    """


class RuleError(ValueError):
    """A move that is well formed but not allowed now. `str()` is a sentence for a player.

    `code` is a stable slug the web layer may use to pick a translated message, and
    `params` the values in the sentence (seats are 0-based there, so names can be used).

    >>> error = RuleError("Player 2 was on phase 3, not phase 4.", code="wrong_phase",
    ...                   params={"seat": 1, "phase": 4, "current": 3})
    >>> str(error), error.code, error.params["seat"]
    ('Player 2 was on phase 3, not phase 4.', 'wrong_phase', 1)
    """

    def __init__(
        self, message: str, *, code: str = "rule", params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, object] = dict(params or {})


@dataclass(frozen=True)
class Rules:
    """The options of one game (docs/rules.md, "Options").

    >>> Rules(phases=(1, 2, 3, 4, 5)).phases[-1]
    5
    >>> Rules(phases=(11,))
    Traceback (most recent call last):
    ...
    games.engine.rules.ActionError: Phases are numbered 1 to 10; got 11.
    """

    phases: tuple[int, ...] = ALL_PHASES
    all_advance: bool = False
    pick_a_phase: bool = False
    natural_card: NaturalCard = "phase"
    hit_others_same_turn: bool = False
    go_out_by_hitting: bool = False
    skip_target: SkipTarget = "next"

    def __post_init__(self) -> None:
        # Accept any sequence for convenience, but keep a tuple so Rules stays hashable.
        object.__setattr__(self, "phases", tuple(self.phases))
        if not self.phases:
            raise ActionError("A game needs at least one phase.")
        for number in self.phases:
            if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 10:
                raise ActionError(f"Phases are numbered 1 to 10; got {number!r}.")
        if len(set(self.phases)) != len(self.phases):
            # Completed phases are kept as a set of numbers, so a repeat could never count twice.
            raise ActionError("A phase can't be listed twice.")
        if self.all_advance and self.pick_a_phase:
            raise ActionError("Choose either everyone advances or pick-a-phase, not both.")
        if self.natural_card not in ("phase", "group"):
            raise ActionError('natural_card must be "phase" or "group".')
        if self.skip_target not in ("next", "choose"):
            raise ActionError('skip_target must be "next" or "choose".')
        for name in ("all_advance", "pick_a_phase", "hit_others_same_turn", "go_out_by_hitting"):
            if not isinstance(getattr(self, name), bool):
                raise ActionError(f"{name} must be true or false.")

    @property
    def last_phase(self) -> int:
        """The last phase of the list: completing it ends a normal game."""
        return self.phases[-1]

    def phases_left(self, done: Container[int]) -> tuple[int, ...]:
        """The phases of the list not in `done`, in order: what a seat may still lay in
        pick-a-phase.

        >>> Rules(pick_a_phase=True).phases_left({1, 3})
        (2, 4, 5, 6, 7, 8, 9, 10)
        """
        return tuple(phase for phase in self.phases if phase not in done)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; `Rules.from_dict` reads it back."""
        return {
            "phases": list(self.phases),
            "all_advance": self.all_advance,
            "pick_a_phase": self.pick_a_phase,
            "natural_card": self.natural_card,
            "hit_others_same_turn": self.hit_others_same_turn,
            "go_out_by_hitting": self.go_out_by_hitting,
            "skip_target": self.skip_target,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Read `to_dict` output; missing keys take their defaults, unknown keys are an error."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ActionError(f"Unknown rule option(s): {', '.join(sorted(unknown))}.")
        values = dict(data)
        if "phases" in values:
            values["phases"] = tuple(values["phases"])
        return cls(**values)
