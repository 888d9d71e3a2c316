"""The four things a player does on a turn, and their JSON form for the move log.

Cards may be given as `Card`s or as short notation:

>>> Discard("s", skip=2)
Discard(card=Card('S'), skip=2)
>>> action_to_dict(LayDown(["R7 B7 W", "G3 G3 G3"]))
{'type': 'lay_down', 'groups': [['R7', 'B7', 'W'], ['G3', 'G3', 'G3']], 'phase': None}
>>> action_from_dict({"type": "hit", "seat": 1, "group": 0, "card": "W", "end": "low"})
Hit(seat=1, group=0, card=Card('W'), end='low')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.cards import Card, parse_cards
from games.engine.melds import ENDS, End
from games.engine.rules import ActionError


def _card(value: Card | str) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise ActionError(f"{value!r} is not a card.")


def _seat(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ActionError(f"{what} must be a seat number.")
    return value


@dataclass(frozen=True)
class Draw:
    """Draw the top of the draw pile, or (`from_discard=True`) the top discard."""

    from_discard: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.from_discard, bool):
            raise ActionError("from_discard must be true or false.")


@dataclass(frozen=True)
class LayDown:
    """Lay down the whole phase at once: `groups` of cards, runs low to high with each
    Wild where it stands. `phase` only in pick-a-phase, where it may be left out when the
    groups make just one phase the player still needs (more than one: refused)."""

    groups: tuple[tuple[Card, ...], ...]
    phase: int | None = None

    def __init__(
        self, groups: Iterable[Iterable[Card | str] | str], phase: int | None = None
    ) -> None:
        parsed: list[tuple[Card, ...]] = []
        if isinstance(groups, str):
            raise ActionError("Lay down a list of groups.")
        for group in groups:
            if isinstance(group, str):
                parsed.append(tuple(parse_cards(group)))
            else:
                parsed.append(tuple(_card(card) for card in group))
        if phase is not None and (isinstance(phase, bool) or not isinstance(phase, int)):
            raise ActionError("phase must be a phase number.")
        object.__setattr__(self, "groups", tuple(parsed))
        object.__setattr__(self, "phase", phase)


@dataclass(frozen=True)
class Hit:
    """Hit `card` from your hand on group number `group` of `seat`'s laid groups.
    `end` ("low" or "high") says which end of a run; needed only when both fit."""

    seat: int
    group: int
    card: Card
    end: End | None = None

    def __init__(self, seat: int, group: int, card: Card | str, end: End | None = None) -> None:
        if end is not None and end not in ENDS:
            raise ActionError('The end of a run is "low" or "high".')
        object.__setattr__(self, "seat", _seat(seat, "seat"))
        object.__setattr__(self, "group", _seat(group, "group"))
        object.__setattr__(self, "card", _card(card))
        object.__setattr__(self, "end", end)


@dataclass(frozen=True)
class Discard:
    """Discard `card`, ending the turn. `skip` names the seat to skip when the card is
    a Skip and the game lets the discarder choose."""

    card: Card
    skip: int | None = None

    def __init__(self, card: Card | str, skip: int | None = None) -> None:
        object.__setattr__(self, "card", _card(card))
        object.__setattr__(self, "skip", None if skip is None else _seat(skip, "skip"))


Action = Draw | LayDown | Hit | Discard


def action_to_dict(action: Action) -> dict[str, Any]:
    """JSON-ready form of an action, keyed by `"type"`."""
    if isinstance(action, Draw):
        return {"type": "draw", "from_discard": action.from_discard}
    if isinstance(action, LayDown):
        return {
            "type": "lay_down",
            "groups": [[str(card) for card in group] for group in action.groups],
            "phase": action.phase,
        }
    if isinstance(action, Hit):
        return {
            "type": "hit",
            "seat": action.seat,
            "group": action.group,
            "card": str(action.card),
            "end": action.end,
        }
    if isinstance(action, Discard):
        return {"type": "discard", "card": str(action.card), "skip": action.skip}
    raise ActionError(f"Not an action: {action!r}.")


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Read `action_to_dict` output; ActionError if malformed. Optional keys may be left out."""
    if not isinstance(data, Mapping):
        raise ActionError(f"Not an action: {data!r}.")
    kind = data.get("type")
    try:
        if kind == "draw":
            return Draw(from_discard=data.get("from_discard", False))
        if kind == "lay_down":
            return LayDown(data["groups"], phase=data.get("phase"))
        if kind == "hit":
            return Hit(data["seat"], data["group"], data["card"], end=data.get("end"))
        if kind == "discard":
            return Discard(data["card"], skip=data.get("skip"))
    except (KeyError, TypeError) as exc:
        raise ActionError(f"Not a {kind} action: {data!r}.") from exc
    raise ActionError(f"Unknown action type {kind!r}.")
